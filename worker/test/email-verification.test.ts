// Email verification: a link mailed at sign-up (and on request), single use, hashed at rest,
// proving the address it was sent to; withdrawals wait for it. Mail goes to the local outbox here.
import { describe, expect, it } from "vitest";
import { env, exports } from "cloudflare:workers";
import { EMAIL } from "../../common/messages";
import { sha256Hex } from "../auth/bytes";
import { call, registerUser } from "./helpers";
import { markSteppedUp } from "./session-helpers";
import { verifyIdentity } from "./identity-helpers";
import { balanceCents, countRows, dumpDatabase, fund, PAST_HOLD, withdraw } from "./money-helpers";
import { expectNoMail, linkToken, mailsTo, verifyEmail, waitForMail, waitForMails } from "./email-helpers";

const verify = (token: string) => call("/api/auth/verify-email", { body: { token } });
const me = async (cookie: string) => (await call("/api/user", { cookie })).body;
const resend = (cookie: string) => call("/api/user/email/verify/resend", { cookie, method: "POST" });

describe("verification at sign-up", () => {
  it("mails a link to the new address; the account starts unverified and the link verifies it once", async () => {
    const { cookie, user } = await registerUser();
    expect(user.emailVerified).toBe(false);
    const mail = await waitForMail(user.email, "verify_email");
    expect(mail.subject).toBe("Verify your email address for Trivia Arena");
    expect(mail.text_body).toContain(user.username);
    expect(mail.text_body).toMatch(/http:\/\/localhost\/verify-email\?token=[A-Za-z0-9_-]{43}\b/);

    const token = linkToken(mail.text_body, "/verify-email");
    const res = await verify(token);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ message: EMAIL.verified });
    expect((await me(cookie)).emailVerified).toBe(true);

    const again = await verify(token);
    expect(again.status).toBe(400);
    expect(again.body).toEqual({ code: "verify_token_invalid", message: EMAIL.verifyTokenInvalid });
  });

  it("keeps only the token's SHA-256: the raw token is nowhere in D1", async () => {
    const { user } = await registerUser();
    const token = linkToken((await waitForMail(user.email, "verify_email")).text_body, "/verify-email");
    const db = await dumpDatabase();
    // The outbox holds the mail itself (local only); every other table must not know the token.
    const withoutOutbox = db.split("\n").filter((t) => !t.includes("text_body"));
    expect(withoutOutbox.join("\n")).not.toContain(token);
    const row = await env.DB.prepare("SELECT purpose, email, expires_at - created_at AS ttl, used_at FROM email_tokens WHERE id = ?")
      .bind(sha256Hex(token))
      .first();
    expect(row).toEqual({ purpose: "verify_email", email: user.email, ttl: expect.any(Number), used_at: null });
    expect(Math.abs((row!.ttl as number) - 24 * 3_600_000)).toBeLessThan(5_000);
  });

  it("refuses an unknown, expired or reset token with the same answer", async () => {
    const { user } = await registerUser();
    const token = linkToken((await waitForMail(user.email, "verify_email")).text_body, "/verify-email");
    await env.DB.prepare("UPDATE email_tokens SET expires_at = ? WHERE id = ?")
      .bind(Date.now() - 1, sha256Hex(token))
      .run();
    for (const t of [token, "A".repeat(43), "not a token"]) {
      const res = await verify(t);
      expect(res.status, t).toBe(400);
      expect(res.body).toEqual({ code: "verify_token_invalid", message: EMAIL.verifyTokenInvalid });
    }
    expect(await countRows("SELECT 1 FROM users WHERE id = ? AND email_verified_at IS NOT NULL", user.id)).toBe(0);
  });

  it("does not verify an address the account no longer has", async () => {
    const { cookie, user } = await registerUser();
    const token = linkToken((await waitForMail(user.email, "verify_email")).text_body, "/verify-email");
    const newEmail = `new-${user.email}`;
    await markSteppedUp(user.id);
    const saved = await call("/api/user/profile", { method: "PATCH", cookie, body: { username: user.username, email: newEmail } });
    expect(saved.status, saved.text).toBe(200);
    const res = await verify(token);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe("verify_token_invalid");
    expect((await me(cookie)).emailVerified).toBe(false);
  });
});

describe("POST /api/user/email/verify/resend", () => {
  it("mails a new link that works", async () => {
    const { cookie, user } = await registerUser();
    await waitForMail(user.email, "verify_email");
    const res = await resend(cookie);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ message: EMAIL.verificationSent(user.email) });
    const [newest] = await waitForMails(user.email, "verify_email", 2);
    expect((await verify(linkToken(newest!.text_body, "/verify-email"))).status).toBe(200);
    expect((await me(cookie)).emailVerified).toBe(true);
  });

  it("needs a session, refuses an account already verified, and is rate limited", async () => {
    expect((await call("/api/user/email/verify/resend", { method: "POST" })).status).toBe(401);
    const { cookie, user } = await registerUser();
    await waitForMail(user.email, "verify_email");
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await resend(cookie)).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);

    const other = await registerUser();
    await verifyEmail(other.user.id);
    const res = await resend(other.cookie);
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ code: "email_already_verified", message: EMAIL.alreadyVerified });
  });
});

describe("an email change", () => {
  it("resets verification, mails the new address a link and the old one a notice", async () => {
    const { cookie, user } = await registerUser();
    await verifyEmail(user.id);
    const newEmail = `moved-${user.email}`;
    await markSteppedUp(user.id);
    const res = await call("/api/user/profile", { method: "PATCH", cookie, body: { username: user.username, email: newEmail } });
    expect(res.status, res.text).toBe(200);
    expect(res.body.emailVerified).toBe(false);

    const notice = await waitForMail(user.email, "email_changed");
    expect(notice.text_body).toContain(newEmail);
    const link = await waitForMail(newEmail, "verify_email");
    expect((await verify(linkToken(link.text_body, "/verify-email"))).status).toBe(200);
    expect((await me(cookie)).emailVerified).toBe(true);
  });

  it("keeps verification, and mails nothing, when the address stays (even in other case)", async () => {
    const { cookie, user } = await registerUser();
    await verifyEmail(user.id);
    const res = await call("/api/user/profile", {
      method: "PATCH",
      cookie,
      body: { username: user.username, email: user.email.toUpperCase(), bio: "hello" },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.emailVerified).toBe(true);
    await expectNoMail(user.email, "email_changed");
    expect(await mailsTo(user.email, "verify_email")).toHaveLength(1);
  });
});

describe("withdrawals wait for a verified address", () => {
  it("refuses the first withdrawal with email_unverified and moves no money; after verifying it goes through", async () => {
    const { cookie, user } = await registerUser();
    await fund(user.id, 5000, { hoursAgo: PAST_HOLD });
    await markSteppedUp(user.id);
    const refused = await withdraw(cookie, 10);
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ code: "email_unverified", message: EMAIL.unverified });
    expect(await balanceCents(user.id)).toBe(5000);
    expect(await countRows("SELECT 1 FROM payouts WHERE user_id = ?", user.id)).toBe(0);

    await verifyEmail(user.id);
    // The bank part needs a verified identity too (validBank()'s holder).
    await verifyIdentity(cookie);
    const ok = await withdraw(cookie, 10);
    expect(ok.status, ok.text).toBe(200);
    expect(await balanceCents(user.id)).toBe(4000);
  });

  it("treats accounts from before verification existed as unverified", async () => {
    const { cookie, user } = await registerUser();
    await fund(user.id, 5000, { hoursAgo: PAST_HOLD });
    await markSteppedUp(user.id);
    await env.DB.prepare("UPDATE users SET email_verified_at = NULL WHERE id = ?").bind(user.id).run();
    expect((await me(cookie)).emailVerified).toBe(false);
    expect((await withdraw(cookie, 10)).body.code).toBe("email_unverified");
  });
});

describe("GET /api/dev/outbox", () => {
  it("lists the local mail newest first on a loopback host", async () => {
    const { cookie, user } = await registerUser();
    await waitForMail(user.email, "verify_email");
    await resend(cookie);
    await waitForMails(user.email, "verify_email", 2);
    const res = await call("/api/dev/outbox");
    expect(res.status).toBe(200);
    const mine = (res.body as { to: string; kind: string; subject: string; text: string; id: number }[]).filter((m) => m.to === user.email);
    expect(mine.map((m) => m.kind)).toEqual(["verify_email", "verify_email"]);
    expect(mine[0]!.id).toBeGreaterThan(mine[1]!.id);
    expect(mine[0]!.text).toContain("/verify-email?token=");
  });

  it("does not exist for any other host", async () => {
    for (const url of ["https://trivia.example/api/dev/outbox", "http://10.0.0.5/api/dev/outbox"]) {
      const res = await exports.default.fetch(new Request(url));
      expect(res.status, url).toBe(404);
      expect(await res.json()).toEqual({ code: "not_found", message: "Not found" });
    }
  });
});
