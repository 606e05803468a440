// A second factor is spent when it is accepted: a TOTP code (its time step) and a recovery code
// each work once, also when two sign-ins race for them; TOTP secrets are sealed at rest.
import { describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import { AUTH } from "../../common/messages";
import { totpCode } from "../auth/totp";
import { registerUser } from "./helpers";
import { enrolled, login } from "./session-helpers";

const STEP = 30_000;
const storedSecret = async (userId: number) =>
  (await env.DB.prepare("SELECT totp_secret AS s FROM users WHERE id = ?").bind(userId).first<{ s: string | null }>())!.s;

describe("TOTP codes are single use", () => {
  it("the code that enabled 2FA, and a code that signed in once, are refused the second time", async () => {
    const { user, password, secret } = await enrolled();
    const enabling = await login(user.username, password, totpCode(secret, Date.now()));
    expect(enabling.status).toBe(401);
    expect(enabling.body).toEqual({ code: "two_factor_invalid", message: AUTH.twoFactorInvalid, twoFactorRequired: true });

    const next = totpCode(secret, Date.now() + STEP);
    expect((await login(user.username, password, next)).status).toBe(200);
    expect((await login(user.username, password, next)).status).toBe(401);
  });

  it("an older step is refused once a newer one was accepted", async () => {
    const { user, password, secret } = await enrolled();
    await env.DB.prepare("UPDATE users SET totp_last_step = NULL WHERE id = ?").bind(user.id).run();
    expect((await login(user.username, password, totpCode(secret, Date.now() + STEP))).status).toBe(200);
    expect((await login(user.username, password, totpCode(secret, Date.now()))).status).toBe(401);
  });

  it("two sign-ins racing with one code: exactly one gets in", async () => {
    const { user, password, secret } = await enrolled();
    const code = totpCode(secret, Date.now() + STEP);
    const results = await Promise.all(Array.from({ length: 4 }, () => login(user.username, password, code)));
    expect(results.map((r) => r.status).sort()).toEqual([200, 401, 401, 401]);
  });

  it("two sign-ins racing with one recovery code: exactly one gets in, and the other codes still work", async () => {
    const { user, password, recoveryCodes } = await enrolled();
    const results = await Promise.all(Array.from({ length: 4 }, () => login(user.username, password, recoveryCodes[0]!)));
    expect(results.map((r) => r.status).sort()).toEqual([200, 401, 401, 401]);
    const left = await env.DB.prepare("SELECT recovery_codes AS r FROM users WHERE id = ?").bind(user.id).first<{ r: string }>();
    expect(JSON.parse(left!.r)).toHaveLength(9);
    expect((await login(user.username, password, recoveryCodes[1]!)).status).toBe(200);
  });
});

describe("TOTP secrets at rest", () => {
  it("are stored sealed from setup on, never as the secret itself", async () => {
    const { user, secret } = await enrolled();
    const stored = await storedSecret(user.id);
    expect(stored).toMatch(/^v1:test1:/);
    expect(stored).not.toContain(secret);
  });

  it("a secret stored in plaintext before sealing keeps working and is sealed on its next use", async () => {
    const { user, password } = await registerUser();
    const secret = "JBSWY3DPEHPK3PXP";
    await env.DB.prepare("UPDATE users SET totp_secret = ?, totp_enabled = 1 WHERE id = ?").bind(secret, user.id).run();
    expect((await login(user.username, password, totpCode(secret, Date.now()))).status).toBe(200);
    const stored = await storedSecret(user.id);
    expect(stored).toMatch(/^v1:/);
    expect(stored).not.toContain(secret);
    expect((await login(user.username, password, totpCode(secret, Date.now() + STEP))).status).toBe(200);
  });
});
