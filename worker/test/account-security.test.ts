// Two-factor enrolment (setup, enable, login with a code or a recovery code, disable) and
// account deletion (refused while money is owed, then anonymised with the ledger kept).
import { afterEach, describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import { ACCOUNT, AUTH } from "../../common/messages";
import { totpCode } from "../auth/totp";
import { call, cookieFrom, registerUser } from "./helpers";
import { balanceCents, countRows, expectLedgerBalanced, fund, makeAdmin, PAST_HOLD, withdraw } from "./money-helpers";
import { verifyEmail } from "./email-helpers";
import { verifyIdentity } from "./identity-helpers";
import { keepForPractice, makeCategory, makePractice, next } from "./tournament-fixtures";
import { enrolled, login, stepUp } from "./session-helpers";

/** A code of the next time step: the current step's code was spent enabling 2FA. */
const nextCode = (secret: string) => totpCode(secret, Date.now() + 30_000);

afterEach(expectLedgerBalanced);

describe("two-factor enrolment", () => {
  it("setup stores a pending secret that does not change login until enabled", async () => {
    const { cookie, user, password } = await registerUser();
    await stepUp(cookie, password);
    const res = await call("/api/user/2fa/setup", { cookie, method: "POST" });
    expect(res.status).toBe(200);
    expect(res.body.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(res.body.otpauthUri).toBe(
      `otpauth://totp/Trivia%20Arena:${encodeURIComponent(user.username)}?secret=${res.body.secret}&issuer=Trivia%20Arena&algorithm=SHA1&digits=6&period=30`,
    );
    expect((await call("/api/user", { cookie })).body.twoFactorEnabled).toBe(false);
    expect((await login(user.username, password)).status).toBe(200);
  });

  it("enable checks the code against the pending secret and returns 10 recovery codes stored only as keyed digests", async () => {
    const { cookie: first, user, password } = await registerUser();
    await stepUp(first, password);
    const setup = await call("/api/user/2fa/setup", { cookie: first, method: "POST" });
    const wrong = await call("/api/user/2fa/enable", { cookie: first, body: { code: "000000" } });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toEqual({ code: "two_factor_invalid", message: AUTH.twoFactorInvalid });
    expect((await call("/api/user/2fa/enable", { cookie: first, body: {} })).body).toEqual({
      code: "invalid_request",
      message: ACCOUNT.codeRequired,
    });

    const res = await call("/api/user/2fa/enable", { cookie: first, body: { code: totpCode(setup.body.secret, Date.now()) } });
    expect(res.status).toBe(200);
    const cookie = cookieFrom(res.setCookie);
    const codes: string[] = res.body.recoveryCodes;
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    codes.forEach((c) => expect(c).toMatch(/^[A-Z2-7]{10}$/));
    expect((await call("/api/user", { cookie })).body.twoFactorEnabled).toBe(true);

    const row = await env.DB.prepare("SELECT recovery_codes, totp_enabled FROM users WHERE id = ?")
      .bind(user.id)
      .first<{ recovery_codes: string; totp_enabled: number }>();
    const stored: string[] = JSON.parse(row!.recovery_codes);
    expect(stored).toHaveLength(10);
    // HMAC under a key derived from DATA_ENCRYPTION_KEYS (worker/auth/two-factor.ts).
    stored.forEach((d) => expect(d).toMatch(/^rc1:test1:[0-9a-f]{64}$/));
    codes.forEach((c) => expect(row!.recovery_codes).not.toContain(c));
  });

  it("refuses enable before setup, and setup or enable once enabled", async () => {
    const fresh = await registerUser();
    const early = await call("/api/user/2fa/enable", { cookie: fresh.cookie, body: { code: "123456" } });
    expect(early.status).toBe(400);
    expect(early.body).toEqual({ code: "two_factor_setup_required", message: ACCOUNT.twoFactorSetupFirst });

    const { cookie, secret, password } = await enrolled();
    await stepUp(cookie, password, nextCode(secret));
    const again = await call("/api/user/2fa/setup", { cookie, method: "POST" });
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ code: "two_factor_already_enabled", message: ACCOUNT.twoFactorAlreadyEnabled });
    expect((await call("/api/user/2fa/enable", { cookie, body: { code: totpCode(secret, Date.now() - 30_000) } })).status).toBe(409);
  });

  it("login then asks for a code and accepts a current TOTP code", async () => {
    const { user, password, secret } = await enrolled();
    const first = await login(user.username, password);
    expect(first.status).toBe(401);
    expect(first.body).toEqual({ code: "two_factor_required", message: AUTH.twoFactorRequired, twoFactorRequired: true });
    expect((await login(user.username, password, "123 456")).status).toBe(401);
    const ok = await login(user.username, password, nextCode(secret));
    expect(ok.status).toBe(200);
    expect((await call("/api/user", { cookie: cookieFrom(ok.setCookie) })).body.id).toBe(user.id);
  });

  it("a recovery code signs in once, in any letter case", async () => {
    const { user, password, recoveryCodes } = await enrolled();
    const code = recoveryCodes[3]!;
    expect((await login(user.username, password, code.toLowerCase())).status).toBe(200);
    const reused = await login(user.username, password, code);
    expect(reused.status).toBe(401);
    expect(reused.body.message).toBe(AUTH.twoFactorInvalid);
    expect((await login(user.username, password, recoveryCodes[4]!)).status).toBe(200);
  });

  it("enabling ends the account's other sessions", async () => {
    const { cookie, user, password } = await registerUser();
    const other = cookieFrom((await login(user.username, password)).setCookie);
    await stepUp(cookie, password);
    const setup = await call("/api/user/2fa/setup", { cookie, method: "POST" });
    const enable = await call("/api/user/2fa/enable", { cookie, body: { code: totpCode(setup.body.secret, Date.now()) } });
    expect((await call("/api/user", { cookie: cookieFrom(enable.setCookie) })).status).toBe(200);
    expect((await call("/api/user", { cookie: other })).status).toBe(401);
  });

  it("disable needs the password and a code, then login works without one", async () => {
    const { cookie, user, password, secret, recoveryCodes } = await enrolled();
    const wrongPassword = await call("/api/user/2fa/disable", {
      cookie,
      body: { password: "not-it-123", code: nextCode(secret) },
    });
    expect(wrongPassword.status).toBe(400);
    expect(wrongPassword.body).toEqual({ code: "wrong_password", message: ACCOUNT.passwordWrong });
    const wrongCode = await call("/api/user/2fa/disable", { cookie, body: { password, code: "000000" } });
    expect(wrongCode.status).toBe(400);
    expect(wrongCode.body).toEqual({ code: "two_factor_invalid", message: AUTH.twoFactorInvalid });
    expect((await call("/api/user", { cookie })).body.twoFactorEnabled).toBe(true);

    const ok = await call("/api/user/2fa/disable", { cookie, body: { password, code: recoveryCodes[0] } });
    expect(ok.status).toBe(200);
    const rotated = cookieFrom(ok.setCookie);
    expect((await call("/api/user", { cookie: rotated })).body.twoFactorEnabled).toBe(false);
    expect((await login(user.username, password)).status).toBe(200);
    const row = await env.DB.prepare("SELECT totp_secret, recovery_codes FROM users WHERE id = ?").bind(user.id).first();
    expect(row).toEqual({ totp_secret: null, recovery_codes: null });
    const twice = await call("/api/user/2fa/disable", { cookie: rotated, body: { password, code: "123456" } });
    expect(twice.status).toBe(409);
    expect(twice.body).toEqual({ code: "two_factor_not_enabled", message: ACCOUNT.twoFactorNotEnabled });
  });

  it("every endpoint needs a session", async () => {
    expect((await call("/api/user/2fa/setup", { method: "POST" })).status).toBe(401);
    expect((await call("/api/user/2fa/enable", { body: { code: "123456" } })).status).toBe(401);
    expect((await call("/api/user/2fa/disable", { body: { password: "x", code: "123456" } })).status).toBe(401);
    expect((await call("/api/user", { method: "DELETE", body: { password: "x", confirm: "DELETE" } })).status).toBe(401);
  });
});

describe("DELETE /api/user", () => {
  const remove = (cookie: string, body: Record<string, unknown>) => call("/api/user", { method: "DELETE", cookie, body });

  it("validates the confirmation word and the password", async () => {
    const { cookie, password } = await registerUser();
    expect((await remove(cookie, { password, confirm: "delete" })).body).toEqual({
      code: "invalid_request",
      message: ACCOUNT.deleteConfirm,
    });
    expect((await remove(cookie, { password })).body).toEqual({ code: "invalid_request", message: ACCOUNT.deleteConfirm });
    const wrong = await remove(cookie, { password: "not-my-password", confirm: "DELETE" });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toEqual({ code: "wrong_password", message: ACCOUNT.passwordWrong });
    expect((await call("/api/user", { cookie })).status).toBe(200);
  });

  it("is refused while a balance remains", async () => {
    const { cookie, user, password } = await registerUser();
    await fund(user.id, 1234);
    const res = await remove(cookie, { password, confirm: "DELETE" });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({
      code: "account_delete_blocked",
      message: "Withdraw your remaining balance of $12.34 before deleting your account.",
    });
    expect((await call("/api/user", { cookie })).status).toBe(200);
  });

  it("is refused while a withdrawal is pending, allowed once it is paid", async () => {
    const { cookie, user, password } = await registerUser();
    await fund(user.id, 2000, { hoursAgo: PAST_HOLD });
    await verifyEmail(user.id);
    await verifyIdentity(cookie);
    await stepUp(cookie, password);
    const w = await withdraw(cookie, 20);
    expect(w.status).toBe(200);
    expect(await balanceCents(user.id)).toBe(0);
    const refused = await remove(cookie, { password, confirm: "DELETE" });
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({ code: "account_delete_blocked", message: ACCOUNT.deletePendingWithdrawal });

    const op = await registerUser();
    await makeAdmin(op.user.id);
    expect((await call(`/api/admin/payouts/${w.body.payout.id}/paid`, { cookie: op.cookie, method: "POST" })).status).toBe(200);
    expect((await remove(cookie, { password, confirm: "DELETE" })).status).toBe(200);
  });

  it("is refused while registered in a tournament that has not finished", async () => {
    const { cookie, user, password } = await registerUser();
    const slug = `cat-${crypto.randomUUID()}`;
    const cat = await env.DB.prepare("INSERT INTO categories (slug, name, description, icon) VALUES (?, 'Test', 'Test', 'x') RETURNING id")
      .bind(slug)
      .first<{ id: number }>();
    const t = await env.DB.prepare(
      "INSERT INTO tournaments (title, description, category_id, start_time, status) VALUES ('Practice Round', 'x', ?, ?, 'upcoming') RETURNING id",
    )
      .bind(cat!.id, Date.now() + 3_600_000)
      .first<{ id: number }>();
    await env.DB.prepare("INSERT INTO tournament_participants (tournament_id, user_id) VALUES (?, ?)").bind(t!.id, user.id).run();
    const res = await remove(cookie, { password, confirm: "DELETE" });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ code: "account_delete_blocked", message: ACCOUNT.deleteActiveTournament });
    await env.DB.prepare("UPDATE tournaments SET status = 'completed' WHERE id = ?").bind(t!.id).run();
    expect((await remove(cookie, { password, confirm: "DELETE" })).status).toBe(200);
  });

  it("is not held back by practice, finished or left half-way", async () => {
    const { cookie, user, password } = await registerUser();
    const category = await makeCategory();
    await keepForPractice(category);
    const practice = await makePractice(category);
    const player = { id: user.id, username: user.username, cookie };
    const run = await call(`/api/tournaments/${practice.id}/join`, { method: "POST", cookie });
    expect(run.status).toBe(200);
    // The run is live and the player is on its first question.
    expect((await next(player, run.body.tournament.id)).status).toBe(200);
    const res = await remove(cookie, { password, confirm: "DELETE" });
    expect(res.status, res.text).toBe(200);
  });

  it("ends every session, erases personal data, blocks login and keeps the ledger", async () => {
    const { cookie, user, password, username } = await registerUser({ bio: "About me", location: "Porto, Portugal" });
    const other = cookieFrom((await login(username, password)).setCookie);
    // Money came and went: deposit 10, withdraw 10 (paid).
    await fund(user.id, 1000, { hoursAgo: PAST_HOLD });
    await verifyEmail(user.id);
    await verifyIdentity(cookie);
    await stepUp(cookie, password);
    const w = await withdraw(cookie, 10);
    const op = await registerUser();
    await makeAdmin(op.user.id);
    await call(`/api/admin/payouts/${w.body.payout.id}/paid`, { cookie: op.cookie, method: "POST" });

    const res = await remove(cookie, { password, confirm: "DELETE" });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: ACCOUNT.deleted });
    expect(res.setCookie).toMatch(/sid=;/);
    expect((await call("/api/user", { cookie })).status).toBe(401);
    expect((await call("/api/user", { cookie: other })).status).toBe(401);
    expect(await countRows("SELECT 1 FROM sessions WHERE user_id = ?", user.id)).toBe(0);
    expect((await login(username, password)).status).toBe(401);

    const row = await env.DB.prepare("SELECT * FROM users WHERE id = ?").bind(user.id).first<Record<string, unknown>>();
    expect(row).toMatchObject({
      username: `Deleted player ${user.id}`,
      email: `deleted:${user.id}`,
      bio: null,
      location: null,
      avatar: null,
      balance_cents: 0,
    });
    expect(row!.deleted_at).toEqual(expect.any(Number));
    expect(JSON.stringify(row)).not.toContain(user.email);
    expect(await countRows("SELECT 1 FROM transactions WHERE user_id = ?", user.id)).toBe(2);
    expect(await countRows("SELECT 1 FROM payouts WHERE user_id = ?", user.id)).toBe(1);

    // The name and address are free again.
    const again = await call("/api/register", { body: { username, email: user.email, password: "secret123", acceptTerms: true } });
    expect(again.status).toBe(201);
    expect(again.body.id).not.toBe(user.id);
  });
});
