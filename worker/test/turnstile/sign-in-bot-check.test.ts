// The account-wide budget of wrong passwords with the bot check on: past it, a sign-in to that
// account needs a Turnstile token solved for "login" (verified at the local siteverify double),
// from every address, instead of a wait that could lock the owner out.
import { beforeEach, describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import { AUTH, FAIR_PLAY } from "../../../common/messages";
import { call, freshIp, registerUser } from "../helpers";

const testEnv = env as unknown as Env;
const doubleUrl = (path: string) => new URL(path, testEnv.TURNSTILE_VERIFY_URL).toString();

beforeEach(async () => {
  await fetch(doubleUrl("/__double/requests"), { method: "DELETE" });
});

const loginFrom = (ip: string, body: Record<string, unknown>) => call("/api/login", { ip, body });

/** A player registered past the bot check (registration asks for it too). */
async function player() {
  return registerUser({ turnstileToken: "pass:register" });
}

describe("sign-in past the account's budget of wrong passwords, bot check on", () => {
  it("asks for the bot check from every address, and takes a token solved for login", async () => {
    const { username, password } = await player();
    for (let i = 0; i < 20; i++) {
      expect((await loginFrom(freshIp(), { username, password: "wrong-password" })).body.code).toBe("invalid_credentials");
    }
    // At the budget, no check yet.
    expect((await loginFrom(freshIp(), { username, password })).status).toBe(200);
    await loginFrom(freshIp(), { username, password: "wrong-password" });

    const asked = await loginFrom(freshIp(), { username, password });
    expect(asked.status).toBe(403);
    expect(asked.body).toEqual({ code: "bot_check_required", message: AUTH.loginBotCheckRequired, botCheckRequired: true });
    // A token for another form, or a failed one, is refused as the bot check refuses.
    expect((await loginFrom(freshIp(), { username, password, turnstileToken: "pass:register" })).body).toEqual({
      code: "bot_check_failed",
      message: FAIR_PLAY.botCheckFailed,
    });
    expect((await loginFrom(freshIp(), { username, password, turnstileToken: "nope" })).status).toBe(403);

    // With a pass the owner signs in at once: no wait however many failures came before.
    for (let i = 0; i < 5; i++) await loginFrom(freshIp(), { username, password: "wrong-password", turnstileToken: "pass:login" });
    const ok = await loginFrom(freshIp(), { username, password, turnstileToken: "pass:login" });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body.username).toBe(username);
  });

  it("asks the same for a name with no account", async () => {
    const name = `ghost${Date.now().toString(36)}`;
    for (let i = 0; i < 21; i++) await loginFrom(freshIp(), { username: name, password: "wrong-password" });
    expect((await loginFrom(freshIp(), { username: name, password: "wrong-password" })).body.code).toBe("bot_check_required");
  });
});
