// Sign-in that rotating addresses do not get past: per-address throttles group an IPv6 client by
// its /64; wrong second factors have a budget per account that no address change resets; wrong
// passwords from everywhere together slow the account down (the bot check's own project,
// worker/test/turnstile/sign-in-bot-check.test.ts, covers the challenge instead). Then the secrets
// at rest (recovery codes under a keyed hash, payout account numbers bound to their row), a
// deployment that kept the example secrets, the hub's socket cap, and the account changes that
// need a step-up, close sockets or void links.
import { describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import { AUTH, EMAIL } from "../../common/messages";
import { PAYOUTS } from "../../common/console-messages";
import { SESSION_ENDED_CLOSE_CODE, SOCKET_REPLACED_CLOSE_CODE } from "../../common/spec";
import { sha256Hex } from "../auth/bytes";
import { totpCode } from "../auth/totp";
import { seal } from "../crypto/sealed";
import { pushNotification } from "../durable/hub-client";
import { addressKey } from "../http/client-address";
import { call, cookieFrom, freshIp, registerUser } from "./helpers";
import { enrolled, login, stepUp } from "./session-helpers";
import { expectNoMail, linkToken, mailsTo, waitForMail, waitForMails } from "./email-helpers";
import { fund, PAST_HOLD, readyToWithdraw, validBank, withdraw } from "./money-helpers";
import { makeOperator } from "./fair-play-fixtures";
import { makePlayer, openSocket, sleep, type SocketClient } from "./tournament-fixtures";

const sql = <T>(query: string, ...binds: unknown[]) =>
  env.DB.prepare(query)
    .bind(...binds)
    .first<T>();

/** A random /64 of the documentation range, as "2001:db8:x:y". */
const fresh64 = () => `2001:db8:${Math.floor(Math.random() * 0xffff).toString(16)}:${Math.floor(Math.random() * 0xffff).toString(16)}`;

const loginFrom = (ip: string, username: string, password: string, totpCode?: string) =>
  call("/api/login", { ip, body: totpCode === undefined ? { username, password } : { username, password, totpCode } });

async function waitForClose(client: SocketClient, timeoutMs = 3000) {
  const deadline = Date.now() + timeoutMs;
  while (!client.closed && Date.now() < deadline) await sleep(20);
  return client.closed;
}

describe("per-address throttles group IPv6 clients by /64", () => {
  it("normalises addresses: one key per IPv6 /64, IPv4 whole, IPv4-mapped IPv6 as IPv4", () => {
    expect(addressKey("2001:db8:1:2::1")).toBe("2001:db8:1:2::/64");
    expect(addressKey("2001:0DB8:0001:0002:ffff:ffff:ffff:ffff")).toBe("2001:db8:1:2::/64");
    expect(addressKey("2001:db8:1:2:3:4:5:6")).toBe(addressKey("2001:db8:1:2::"));
    expect(addressKey("2001:db8::1")).toBe("2001:db8:0:0::/64");
    expect(addressKey("::1")).toBe("0:0:0:0::/64");
    expect(addressKey("fe80::1%eth0")).toBe("fe80:0:0:0::/64");
    expect(addressKey("2001:db8:1:3::1")).not.toBe(addressKey("2001:db8:1:2::1"));
    expect(addressKey("198.51.100.7")).toBe("198.51.100.7");
    expect(addressKey("::ffff:198.51.100.7")).toBe("198.51.100.7");
    expect(addressKey("::FFFF:c633:6407")).toBe("198.51.100.7");
    expect(addressKey("0:0:0:0:0:ffff:198.51.100.7")).toBe("198.51.100.7");
    expect(addressKey(null)).toBe("local");
    expect(addressKey("not an address")).toBe("not an address");
  });

  it("a wrong password from each of many addresses of one /64 locks that /64 out, not another", async () => {
    const { username, password } = await registerUser();
    const net = fresh64();
    for (let i = 1; i <= 5; i++) {
      // Compressed, padded and upper-case spellings of addresses in the same /64.
      const ip = i % 2 ? `${net}::${i.toString(16)}` : `${net.toUpperCase()}:0:0:0:${i}`;
      expect((await loginFrom(ip, username, "wrong-password")).body.code).toBe("invalid_credentials");
    }
    const locked = await loginFrom(`${net}:dead:beef:0:1`, username, password);
    expect(locked.status).toBe(401);
    expect(locked.body.code).toBe("login_locked");
    expect((await loginFrom(`${fresh64()}::1`, username, password)).status).toBe(200);
  });

  it("an IPv4 client seen as IPv4-mapped IPv6 shares the IPv4 address's count", async () => {
    const { username, password } = await registerUser();
    const v4 = freshIp();
    for (let i = 0; i < 5; i++) await loginFrom(`::ffff:${v4}`, username, "wrong-password");
    expect((await loginFrom(v4, username, password)).body.code).toBe("login_locked");
  });

  it("the coarse per-address sign-in limit counts a whole /64", async () => {
    const net = fresh64();
    const statuses: number[] = [];
    for (let i = 1; i <= 31; i++) statuses.push((await loginFrom(`${net}::${i.toString(16)}`, `nobody${i}x`, "wrong-password")).status);
    expect(statuses.slice(0, 30).every((s) => s === 401)).toBe(true);
    expect(statuses[30]).toBe(429);
  });
});

describe("a budget of wrong second factors per account", () => {
  it("past 10 wrong codes from different addresses, codes are refused at sign-in and step-up, and the owner is told once", async () => {
    const { username, password, secret, recoveryCodes, cookie, user } = await enrolled();
    for (let i = 0; i < 10; i++) {
      const res = await loginFrom(i % 2 ? freshIp() : `${fresh64()}::1`, username, password, i % 3 ? "000000" : "WRONGCODE1");
      expect(res.body.code, res.text).toBe("two_factor_invalid");
    }
    // A right code now: refused all the same, from yet another address.
    const refused = await loginFrom(freshIp(), username, password, totpCode(secret, Date.now() + 30_000));
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ code: "two_factor_locked", message: AUTH.twoFactorLocked });
    expect((await loginFrom(freshIp(), username, password, recoveryCodes[0])).status).toBe(429);
    // The budget is the account's, not the sign-in form's: a step-up with a code is refused too.
    const step = await call("/api/auth/step-up", { cookie, body: { password, totpCode: recoveryCodes[1] } });
    expect(step.status).toBe(429);
    expect(step.body.code).toBe("two_factor_locked");
    // Nothing was spent while refused.
    const row = await sql<{ recovery_codes: string }>("SELECT recovery_codes FROM users WHERE id = ?", user.id);
    expect(JSON.parse(row!.recovery_codes)).toHaveLength(10);

    const mail = await waitForMail(user.email, "second_factor_locked");
    expect(mail.subject).toBe("Too many wrong sign-in codes");
    expect(mail.text_body).toContain(`Hi ${username},`);
    await sleep(300);
    expect(await mailsTo(user.email, "second_factor_locked")).toHaveLength(1);
  });

  it("wrong codes at step-up count too, and right codes spend nothing of the budget", async () => {
    const { password, secret, cookie, user } = await enrolled();
    expect((await loginFrom(freshIp(), user.username, password, totpCode(secret, Date.now() + 30_000))).status).toBe(200);
    for (let i = 0; i < 8; i++) {
      expect((await call("/api/auth/step-up", { cookie, body: { password, totpCode: "000000" } })).body.code).toBe("two_factor_invalid");
    }
    // The ninth and tenth wrong codes are still answered as wrong; only then is the account refused.
    expect((await loginFrom(freshIp(), user.username, password, "111111")).body.code).toBe("two_factor_invalid");
    expect((await loginFrom(freshIp(), user.username, password, "222222")).body.code).toBe("two_factor_invalid");
    expect((await loginFrom(freshIp(), user.username, password, "333333")).body.code).toBe("two_factor_locked");
  });
});

describe("a budget of wrong passwords per account, over every address", () => {
  it("without the bot check configured, failures past it make the whole account wait, and a password reset ends the wait", async () => {
    const { username, password, user } = await registerUser();
    for (let i = 0; i < 20; i++) {
      expect((await loginFrom(i % 2 ? freshIp() : `${fresh64()}::1`, username, "wrong-password")).body.code).toBe("invalid_credentials");
    }
    // At the budget: a fresh address still signs in (and the count of the account stays).
    expect((await loginFrom(freshIp(), username, password)).status).toBe(200);
    expect((await loginFrom(freshIp(), username, "wrong-password")).body.code).toBe("invalid_credentials");
    const waiting = await loginFrom(freshIp(), username, password);
    expect(waiting.status).toBe(401);
    expect(waiting.body.code).toBe("login_locked");
    expect([AUTH.accountLoginLocked("2 seconds"), AUTH.accountLoginLocked("1 second")]).toContain(waiting.body.message);
    // Bounded: the wait never exceeds the longest per-address wait.
    const key = `${username.toLowerCase()}|*`;
    const row = await sql<{ locked_until: number }>("SELECT locked_until FROM login_failures WHERE key = ?", key);
    expect(row!.locked_until - Date.now()).toBeLessThanOrEqual(15 * 60_000);
    // Even at the longest wait...
    await env.DB.prepare("UPDATE login_failures SET locked_until = ? WHERE key = ?")
      .bind(Date.now() + 15 * 60_000, key)
      .run();
    expect((await loginFrom(freshIp(), username, password)).body.code).toBe("login_locked");

    // The owner's way out at once: a reset link proves the mailbox and clears every wait.
    expect((await call("/api/auth/forgot-password", { body: { email: user.email } })).status).toBe(200);
    const token = linkToken((await waitForMail(user.email, "reset_password")).text_body, "/reset-password");
    expect((await call("/api/auth/reset-password", { body: { token, newPassword: "brand-new-pass-1" } })).status).toBe(200);
    expect((await loginFrom(freshIp(), username, "brand-new-pass-1")).status).toBe(200);
  });

  it("the same answer for a name with no account", async () => {
    const name = `ghost${Date.now().toString(36)}`;
    for (let i = 0; i < 21; i++) await loginFrom(freshIp(), name, "wrong-password");
    const res = await loginFrom(freshIp(), name, "wrong-password");
    expect(res.body.code).toBe("login_locked");
    expect([AUTH.accountLoginLocked("2 seconds"), AUTH.accountLoginLocked("1 second")]).toContain(res.body.message);
  });
});

describe("recovery codes under a keyed hash", () => {
  it("stores each code as an HMAC under a key derived from DATA_ENCRYPTION_KEYS, never its plain SHA-256", async () => {
    const { user, recoveryCodes, username, password } = await enrolled();
    const row = await sql<{ recovery_codes: string }>("SELECT recovery_codes FROM users WHERE id = ?", user.id);
    const stored: string[] = JSON.parse(row!.recovery_codes);
    expect(stored).toHaveLength(10);
    stored.forEach((d) => expect(d).toMatch(/^rc1:test1:[0-9a-f]{64}$/));
    recoveryCodes.forEach((c) => {
      expect(row!.recovery_codes).not.toContain(c);
      expect(row!.recovery_codes).not.toContain(sha256Hex(c));
    });
    // Still usable, and spent once used.
    expect((await loginFrom(freshIp(), username, password, recoveryCodes[3]!.toLowerCase())).status).toBe(200);
    expect((await loginFrom(freshIp(), username, password, recoveryCodes[3])).body.code).toBe("two_factor_invalid");
  });

  it("codes stored as plain SHA-256 before keep working once each", async () => {
    const { user, username, password } = await enrolled();
    await env.DB.prepare("UPDATE users SET recovery_codes = ? WHERE id = ?")
      .bind(JSON.stringify([sha256Hex("OLDCODE001"), sha256Hex("OLDCODE002")]), user.id)
      .run();
    expect((await loginFrom(freshIp(), username, password, "oldcode001")).status).toBe(200);
    expect((await loginFrom(freshIp(), username, password, "OLDCODE001")).body.code).toBe("two_factor_invalid");
    const row = await sql<{ recovery_codes: string }>("SELECT recovery_codes FROM users WHERE id = ?", user.id);
    expect(JSON.parse(row!.recovery_codes)).toEqual([sha256Hex("OLDCODE002")]);
  });
});

describe("a payout's sealed account number is bound to its row", () => {
  async function payoutOf(accountNumber: string) {
    const u = await registerUser();
    await fund(u.user.id, 50_000, { hoursAgo: PAST_HOLD });
    await readyToWithdraw(u.user.id);
    const res = await withdraw(u.cookie, 20, { ...validBank(), accountNumber });
    expect(res.status, res.text).toBe(200);
    return { id: res.body.payout.id as number, userId: u.user.id as number };
  }
  const sealedOf = async (id: number) => (await sql<{ s: string }>("SELECT account_number_sealed AS s FROM payouts WHERE id = ?", id))!.s;
  const exportFile = (cookie: string, payoutIds: number[]) => call("/api/admin/payouts/export", { cookie, body: { payoutIds } });

  it("a sealed number copied onto another payout does not open there", async () => {
    const op = await makeOperator();
    const thief = await payoutOf("11112222333");
    const victim = await payoutOf("99998888777");
    const sealed = await sealedOf(victim.id);
    expect(sealed).toMatch(/^v2:/);
    await env.DB.prepare("UPDATE payouts SET account_number_sealed = ? WHERE id = ?").bind(sealed, thief.id).run();
    const res = await exportFile(op.cookie, [thief.id]);
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ code: "payout_not_exportable", message: PAYOUTS.sealedUnreadable(thief.id) });
    // Its own row still opens.
    const own = await exportFile(op.cookie, [victim.id]);
    expect(own.status, own.text).toBe(200);
    expect(own.text).toContain("99998888777");
  });

  it("a number sealed before the binding (v1, no bound data) still opens", async () => {
    const op = await makeOperator();
    const old = await payoutOf("12121212121");
    await env.DB.prepare("UPDATE payouts SET account_number_sealed = ? WHERE id = ?")
      .bind(await seal(env, "12121212121"), old.id)
      .run();
    expect(await sealedOf(old.id)).toMatch(/^v1:/);
    const res = await exportFile(op.cookie, [old.id]);
    expect(res.status, res.text).toBe(200);
    expect(res.text).toContain("12121212121");
  });
});

describe("a deployment that kept the example secrets", () => {
  const EXAMPLE_RECEIPT_SECRET = "local-development-receipt-secret";
  const EXAMPLE_DATA_KEYS = "dev1:U1BXbmLumcwZPNIlc85XyX4raFIXmbeWbNqxyjFu+Nw=";

  it("refuses the API on a real host, and says so at /api/health", async () => {
    for (const bad of [{ RECEIPT_SECRET: EXAMPLE_RECEIPT_SECRET }, { DATA_ENCRYPTION_KEYS: EXAMPLE_DATA_KEYS }]) {
      const res = await call("/api/tournaments", { host: "arena.example.com", env: bad });
      expect(res.status).toBe(503);
      expect(res.body).toEqual({ code: "insecure_configuration", message: expect.stringContaining("example") });
      const login = await call("/api/login", { host: "arena.example.com", env: bad, body: { username: "someone", password: "secret123" } });
      expect(login.status).toBe(503);
      const health = await call("/api/health", { host: "arena.example.com", env: bad });
      expect(health.status).toBe(503);
      expect(health.body).toEqual({ ok: false, insecureSecrets: true });
    }
  });

  it("serves as usual on a loopback host (local development) and with real secrets", async () => {
    const local = await call("/api/tournaments", { env: { RECEIPT_SECRET: EXAMPLE_RECEIPT_SECRET } });
    expect(local.status).toBe(200);
    expect((await call("/api/health", { env: { RECEIPT_SECRET: EXAMPLE_RECEIPT_SECRET } })).body).toEqual({ ok: true });
    expect((await call("/api/tournaments", { host: "arena.example.com" })).status).toBe(200);
    expect((await call("/api/health", { host: "arena.example.com" })).body).toEqual({ ok: true });
  });
});

describe("the notification hub's sockets per user", () => {
  it("keeps the newest five of a user and closes the oldest with the replaced code", async () => {
    const p = await makePlayer();
    const sockets: SocketClient[] = [];
    for (let i = 0; i < 6; i++) {
      const { status, client } = await openSocket("/ws", p.cookie);
      expect(status).toBe(101);
      sockets.push(client!);
      await sleep(5);
    }
    expect(await waitForClose(sockets[0]!)).toEqual({ code: SOCKET_REPLACED_CLOSE_CODE, reason: expect.any(String) });
    const message = `capped ${crypto.randomUUID()}`;
    const sent = await pushNotification(env, [p.id], {
      type: "notification",
      message,
      data: { action: "tournament_started", tournamentId: 1, status: "live" },
    });
    expect(sent).toBe(5);
    for (const s of sockets.slice(1)) await s.waitFor((f) => f?.message === message);
    expect(sockets.slice(1).every((s) => s.closed === null)).toBe(true);
  });
});

describe("account changes", () => {
  it("a username change needs a fresh step-up and tells the account's address", async () => {
    const { cookie, user, password } = await registerUser();
    const newName = `n${user.username}`.slice(0, 30);
    const refused = await call("/api/user/profile", { method: "PATCH", cookie, body: { username: newName, email: user.email } });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe("step_up_required");
    expect((await call("/api/user", { cookie })).body.username).toBe(user.username);
    // The same name again needs nothing (the dashboard form always sends it).
    const same = await call("/api/user/profile", {
      method: "PATCH",
      cookie,
      body: { username: user.username, email: user.email, bio: "hi" },
    });
    expect(same.status, same.text).toBe(200);
    await expectNoMail(user.email, "username_changed");

    await stepUp(cookie, password);
    const res = await call("/api/user/profile", { method: "PATCH", cookie, body: { username: newName, email: user.email } });
    expect(res.status, res.text).toBe(200);
    expect(res.body.username).toBe(newName);
    const mail = await waitForMail(user.email, "username_changed");
    expect(mail.subject).toBe("Your Trivia Arena username was changed");
    expect(mail.text_body).toContain(`from ${user.username} to ${newName}`);
  });

  it("turning two-factor on, then off, closes the user's open sockets", async () => {
    const { cookie, password } = await registerUser();
    await stepUp(cookie, password);
    const setup = await call("/api/user/2fa/setup", { cookie, method: "POST" });
    const before = (await openSocket("/ws", cookie)).client!;
    const enable = await call("/api/user/2fa/enable", { cookie, body: { code: totpCode(setup.body.secret, Date.now()) } });
    expect(enable.status, enable.text).toBe(200);
    expect(await waitForClose(before)).toEqual({ code: SESSION_ENDED_CLOSE_CODE, reason: expect.any(String) });

    const rotated = cookieFrom(enable.setCookie);
    const again = (await openSocket("/ws", rotated)).client!;
    const disable = await call("/api/user/2fa/disable", { cookie: rotated, body: { password, code: enable.body.recoveryCodes[0] } });
    expect(disable.status, disable.text).toBe(200);
    expect(await waitForClose(again)).toEqual({ code: SESSION_ENDED_CLOSE_CODE, reason: expect.any(String) });
  });

  it("an email change voids the password reset links sent before it", async () => {
    const { cookie, user, password } = await registerUser();
    expect((await call("/api/auth/forgot-password", { body: { email: user.email } })).status).toBe(200);
    const [mail] = await waitForMails(user.email, "reset_password");
    const token = linkToken(mail!.text_body, "/reset-password");
    await stepUp(cookie, password);
    const changed = await call("/api/user/profile", {
      method: "PATCH",
      cookie,
      body: { username: user.username, email: `moved-${user.email}` },
    });
    expect(changed.status, changed.text).toBe(200);
    const res = await call("/api/auth/reset-password", { body: { token, newPassword: "taken-over-1" } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ code: "reset_token_invalid", message: EMAIL.resetTokenInvalid });
    expect((await login(user.username, password)).status).toBe(200);
  });
});

describe("GET /api/health", () => {
  it("carries the same security headers as every other API answer", async () => {
    const health = await call("/api/health");
    const other = await call("/api/config");
    expect(health.status).toBe(200);
    for (const name of [
      "content-security-policy",
      "x-frame-options",
      "x-content-type-options",
      "strict-transport-security",
      "referrer-policy",
      "cross-origin-resource-policy",
    ]) {
      expect(health.headers.get(name), name).toBe(other.headers.get(name));
      expect(health.headers.get(name), name).not.toBeNull();
    }
  });
});
