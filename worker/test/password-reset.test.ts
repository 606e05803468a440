// Password reset: the same answer for any address, a 30-minute single-use link stored hashed, a
// newer request voiding older links, every session ended, a notice, and 2FA still asked after.
import { describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import { EMAIL } from "../../common/messages";
import { sha256Hex } from "../auth/bytes";
import { totpCode } from "../auth/totp";
import { call, cookieFrom, freshIp, registerUser } from "./helpers";
import { dumpDatabase } from "./money-helpers";
import { expectNoMail, linkToken, waitForMail, waitForMails } from "./email-helpers";

const forgot = (email: string, ip?: string) => call("/api/auth/forgot-password", { body: { email }, ...(ip ? { ip } : {}) });
const reset = (token: string, newPassword: string) => call("/api/auth/reset-password", { body: { token, newPassword } });
const login = (username: string, password: string, totpCode?: string) =>
  call("/api/login", { body: { username, password, ...(totpCode ? { totpCode } : {}) } });

async function resetToken(email: string, count = 1) {
  const [mail] = await waitForMails(email, "reset_password", count);
  return linkToken(mail!.text_body, "/reset-password");
}

describe("POST /api/auth/forgot-password", () => {
  it("answers an unknown address exactly like a known one, and mails only the known one", async () => {
    const { user } = await registerUser();
    const unknown = `nobody-${crypto.randomUUID()}@example.com`;
    const known = await forgot(user.email.toUpperCase());
    const other = await forgot(unknown);
    expect(known.status).toBe(200);
    expect([other.status, other.text]).toEqual([known.status, known.text]);
    expect(known.body).toEqual({ message: EMAIL.resetRequested });

    const mail = await waitForMail(user.email, "reset_password");
    expect(mail.subject).toBe("Reset your Trivia Arena password");
    expect(mail.text_body).toMatch(/http:\/\/localhost\/reset-password\?token=[A-Za-z0-9_-]{43}\b/);
    await expectNoMail(unknown);
  });

  it("is rate limited per address and per email, whether or not the account exists", async () => {
    const email = `nobody-${crypto.randomUUID()}@example.com`;
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await forgot(email)).status);
    expect(statuses).toEqual([200, 200, 200, 429]);

    const ip = freshIp();
    const fromOneAddress: number[] = [];
    for (let i = 0; i < 11; i++) fromOneAddress.push((await forgot(`n${i}-${crypto.randomUUID()}@example.com`, ip)).status);
    expect(fromOneAddress.slice(0, 10).every((s) => s === 200)).toBe(true);
    expect(fromOneAddress[10]).toBe(429);
  });
});

describe("POST /api/auth/reset-password", () => {
  it("sets the new password, ends every session, works once, and mails a notice", async () => {
    const { cookie, user, username, password } = await registerUser();
    const second = cookieFrom((await login(username, password)).setCookie);
    await forgot(user.email);
    const token = await resetToken(user.email);

    const res = await reset(token, "brand-new-pass");
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ message: EMAIL.resetDone });
    for (const c of [cookie, second]) expect((await call("/api/user", { cookie: c })).status).toBe(401);
    expect((await env.DB.prepare("SELECT count(*) AS n FROM sessions WHERE user_id = ?").bind(user.id).first<{ n: number }>())!.n).toBe(0);

    expect((await login(username, password)).status).toBe(401);
    expect((await login(username, "brand-new-pass")).status).toBe(200);

    const again = await reset(token, "another-pass-1");
    expect(again.status).toBe(400);
    expect(again.body).toEqual({ code: "reset_token_invalid", message: EMAIL.resetTokenInvalid });
    expect((await login(username, "brand-new-pass")).status).toBe(200);

    const notice = await waitForMail(user.email, "password_changed");
    expect(notice.subject).toBe("Your Trivia Arena password was changed");
    expect(notice.text_body).toContain("If this wasn't you");
  });

  it("stores only the token's hash, for 30 minutes", async () => {
    const { user } = await registerUser();
    await forgot(user.email);
    const token = await resetToken(user.email);
    const tables = (await dumpDatabase()).split("\n").filter((t) => !t.includes("text_body"));
    expect(tables.join("\n")).not.toContain(token);
    const row = await env.DB.prepare("SELECT purpose, expires_at - created_at AS ttl FROM email_tokens WHERE id = ?")
      .bind(sha256Hex(token))
      .first<{ purpose: string; ttl: number }>();
    expect(row?.purpose).toBe("reset_password");
    expect(Math.abs(row!.ttl - 30 * 60_000)).toBeLessThan(5_000);
  });

  it("refuses an expired, unknown or verification token, and a newer request voids the older link", async () => {
    const { user, username } = await registerUser();
    await forgot(user.email);
    const first = await resetToken(user.email);
    await forgot(user.email);
    const second = await resetToken(user.email, 2);
    expect(second).not.toBe(first);
    const verifyToken = linkToken((await waitForMail(user.email, "verify_email")).text_body, "/verify-email");

    await env.DB.prepare("UPDATE email_tokens SET expires_at = ? WHERE id = ?")
      .bind(Date.now() - 1, sha256Hex(second))
      .run();
    for (const t of [first, second, verifyToken, "B".repeat(43)]) {
      const res = await reset(t, "brand-new-pass");
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ code: "reset_token_invalid", message: EMAIL.resetTokenInvalid });
    }
    expect((await login(username, "brand-new-pass")).status).toBe(401);
  });

  it("holds the new password to registration's rules, without spending the link", async () => {
    const { user, username } = await registerUser();
    await forgot(user.email);
    const token = await resetToken(user.email);
    const short = await reset(token, "12345");
    expect(short.status).toBe(400);
    expect(short.body.code).toBe("invalid_request");
    expect((await reset(token, "123456")).status).toBe(200);
    expect((await login(username, "123456")).status).toBe(200);
  });

  it("still asks for the second factor at the next sign-in", async () => {
    const { user, username } = await registerUser();
    const secret = "JBSWY3DPEHPK3PXP";
    await env.DB.prepare("UPDATE users SET totp_secret = ?, totp_enabled = 1 WHERE id = ?").bind(secret, user.id).run();
    await forgot(user.email);
    expect((await reset(await resetToken(user.email), "brand-new-pass")).status).toBe(200);
    const res = await login(username, "brand-new-pass");
    expect(res.status).toBe(401);
    expect(res.body.code).toBe("two_factor_required");
    expect((await login(username, "brand-new-pass", totpCode(secret, Date.now()))).status).toBe(200);
  });
});
