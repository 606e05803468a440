// Mail through the provider (RESEND_API_KEY set): the Worker posts to the local Resend double
// (worker/test/email/resend-double.ts). Nothing about a mail is kept in D1, the local outbox does
// not exist, and a provider failure is logged (without key, recipient or body) while the action stands.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { env } from "cloudflare:workers";
import { call, registerUser } from "../helpers";
import { dumpDatabase, fund, PAST_HOLD, withdraw } from "../money-helpers";
import { markSteppedUp } from "../session-helpers";
import { verifyIdentity } from "../identity-helpers";
import type { ReceivedMail } from "./resend-double";

const testEnv = env as unknown as Env;
const doubleUrl = (path: string) => new URL(path, testEnv.EMAIL_API_URL).toString();
const received = async (): Promise<ReceivedMail[]> => (await fetch(doubleUrl("/__double/requests"))).json();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Mail is sent after the response: waits until the double has `count` mails to `to`. */
async function sentTo(to: string, count = 1): Promise<ReceivedMail[]> {
  for (let i = 0; i < 100; i++) {
    const mine = (await received()).filter((m) => m.body.to?.[0] === to);
    if (mine.length >= count) return mine;
    await sleep(20);
  }
  throw new Error(`the provider got no mail (x${count}) for ${to}`);
}

const tokenIn = (text: string | undefined, path: string) => text?.match(new RegExp(`${path}\\?token=([A-Za-z0-9_-]+)`))?.[1] ?? "";

let errors: ReturnType<typeof vi.spyOn>;
beforeEach(async () => {
  await fetch(doubleUrl("/__double/requests"), { method: "DELETE" });
  errors = vi.spyOn(console, "error").mockImplementation(() => {});
});
afterEach(() => errors.mockRestore());

/** Everything logged, as one string. */
const logged = () => JSON.stringify(errors.mock.calls);

describe("mail through the provider", () => {
  it("sends the verification link with the key, from EMAIL_FROM, and keeps no mail in D1", async () => {
    const { cookie, user } = await registerUser();
    const [mail] = await sentTo(user.email);
    expect(mail).toEqual({
      authorization: `Bearer ${testEnv.RESEND_API_KEY}`,
      contentType: "application/json",
      body: {
        from: "Trivia Arena <no-reply@arena.test>",
        to: [user.email],
        subject: "Verify your email address for Trivia Arena",
        text: expect.stringMatching(/http:\/\/localhost\/verify-email\?token=[A-Za-z0-9_-]{43}\b/),
      },
    });
    const token = tokenIn(mail!.body.text, "/verify-email");
    const db = await dumpDatabase();
    expect(db).not.toContain(token);
    expect(db).not.toContain("Verify your email address");
    expect((await env.DB.prepare("SELECT count(*) AS n FROM email_outbox").first<{ n: number }>())!.n).toBe(0);

    expect((await call("/api/auth/verify-email", { body: { token } })).status).toBe(200);
    expect((await call("/api/user", { cookie })).body.emailVerified).toBe(true);
    expect(errors).not.toHaveBeenCalled();
  });

  it("has no local outbox, even on a loopback host", async () => {
    const res = await call("/api/dev/outbox");
    expect(res.status).toBe(404);
    expect(res.body.code).toBe("not_found");
  });

  it("a provider error does not fail the action; the log names the status, not the key, the address or the body", async () => {
    const email = `fail-500-${crypto.randomUUID().slice(0, 8)}@example.com`;
    const { cookie, password, user } = await registerUser({ email });
    await sentTo(email);
    const res = await call("/api/user/password", {
      method: "PATCH",
      cookie,
      body: { currentPassword: password, newPassword: "changed-pass-1" },
    });
    expect(res.status, res.text).toBe(200);
    const sent = await sentTo(email, 2);
    expect(sent.map((m) => m.body.subject)).toEqual([
      "Verify your email address for Trivia Arena",
      "Your Trivia Arena password was changed",
    ]);
    await vi.waitFor(() => expect(errors).toHaveBeenCalledTimes(2));
    expect(errors.mock.calls[1]).toEqual([
      "email not sent",
      { kind: "password_changed", reason: "MailProviderError: provider answered HTTP 500 (internal_server_error)" },
    ]);
    const log = logged();
    expect(log).not.toContain(testEnv.RESEND_API_KEY);
    expect(log).not.toContain(email);
    expect(log).not.toContain(tokenIn(sent[0]!.body.text, "/verify-email"));
    expect((await call("/api/login", { body: { username: user.username, password: "changed-pass-1" } })).status).toBe(200);
  });

  it("a provider that hangs up does not fail a withdrawal", async () => {
    const email = `hang-up-${crypto.randomUUID().slice(0, 8)}@example.com`;
    const { cookie, user } = await registerUser({ email });
    await fund(user.id, 3000, { hoursAgo: PAST_HOLD });
    // Mail goes to the provider double here, not the outbox: the address is marked verified directly.
    await env.DB.prepare("UPDATE users SET email_verified_at = ? WHERE id = ?").bind(Date.now(), user.id).run();
    await markSteppedUp(user.id);
    // A bank withdrawal needs a verified identity (the sandbox here, in validBank()'s holder name).
    await verifyIdentity(cookie);
    const res = await withdraw(cookie, 10);
    expect(res.status, res.text).toBe(200);
    expect(res.body.balance).toBe(20);
    await sentTo(email, 2);
    await vi.waitFor(() => expect(errors).toHaveBeenCalledTimes(2));
    expect(errors.mock.calls[1]).toEqual([
      "email not sent",
      { kind: "withdrawal_requested", reason: expect.stringContaining("provider unreachable") },
    ]);
    expect(logged()).not.toContain(email);
  });

  it("forgot-password sends the reset link and answers like for an unknown address", async () => {
    const { user } = await registerUser();
    await sentTo(user.email);
    const known = await call("/api/auth/forgot-password", { body: { email: user.email } });
    const unknown = await call("/api/auth/forgot-password", { body: { email: `nobody-${crypto.randomUUID()}@example.com` } });
    expect([known.status, known.text]).toEqual([unknown.status, unknown.text]);
    const [, reset] = await sentTo(user.email, 2);
    expect(reset!.body.subject).toBe("Reset your Trivia Arena password");
    expect(tokenIn(reset!.body.text, "/reset-password")).toHaveLength(43);
  });
});
