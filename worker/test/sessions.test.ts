// Sessions and what protects them: step-up before sensitive actions (a stolen session cookie
// alone cannot withdraw or lock the owner out), token rotation, the __Host- cookie, sockets
// closed at sign-out, the per-account-and-address login lockout, operators' 2FA and input limits.
import { describe, expect, it } from "vitest";
import { env, exports } from "cloudflare:workers";
import { ACCOUNT, AUTH } from "../../common/messages";
import { SESSION_ENDED_CLOSE_CODE, STEP_UP_TTL_MS } from "../../common/spec";
import { totpCode } from "../auth/totp";
import { call, cookieFrom, freshIp, registerUser } from "./helpers";
import { balanceCents, fund, makeAdmin, withdraw, PAST_HOLD } from "./money-helpers";
import { linkToken, verifyEmail, waitForMail } from "./email-helpers";
import { verifyIdentity } from "./identity-helpers";
import { enableTwoFactorDirectly, stepUp } from "./session-helpers";
import { join, makeCategory, makePlayer, makeTournament, openSocket, sleep } from "./tournament-fixtures";

const STEP = 30_000;
const stepUpRequired = { code: "step_up_required", message: AUTH.stepUpRequired };
const login = (username: string, password: string, ip?: string) => call("/api/login", { ip, body: { username, password } });

/** A player with 2FA on (set directly), whose cookie has not stepped up. */
async function withTwoFactor() {
  const u = await registerUser();
  const secret = await enableTwoFactorDirectly(u.user.id);
  return { ...u, secret };
}

describe("POST /api/auth/step-up", () => {
  it("needs a session and the right password, then opens a window for sensitive actions", async () => {
    const { cookie, password } = await registerUser();
    expect((await call("/api/auth/step-up", { body: { password } })).status).toBe(401);
    const wrong = await call("/api/auth/step-up", { cookie, body: { password: "not-my-password" } });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toEqual({ code: "wrong_password", message: ACCOUNT.passwordWrong });
    const before = Date.now();
    const ok = await stepUp(cookie, password);
    expect(ok.body.stepUpUntil).toBeGreaterThanOrEqual(before + STEP_UP_TTL_MS);
  });

  it("with 2FA on, also needs a fresh code", async () => {
    const { cookie, password, secret } = await withTwoFactor();
    const noCode = await call("/api/auth/step-up", { cookie, body: { password } });
    expect(noCode.status).toBe(400);
    expect(noCode.body).toEqual({ code: "two_factor_required", message: AUTH.stepUpTwoFactorRequired, twoFactorRequired: true });
    const badCode = await call("/api/auth/step-up", { cookie, body: { password, totpCode: "000000" } });
    expect(badCode.body.code).toBe("two_factor_invalid");
    await stepUp(cookie, password, totpCode(secret, Date.now()));
  });

  it("is rate limited like the other password checks", async () => {
    const { cookie } = await registerUser();
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) statuses.push((await call("/api/auth/step-up", { cookie, body: { password: "guess-guess" } })).status);
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(400));
    expect(statuses[10]).toBe(429);
  });
});

describe("a stolen session cookie without a step-up", () => {
  it("cannot withdraw; after a step-up the owner can, until the step-up is 10 minutes old", async () => {
    const { cookie, user, password } = await registerUser();
    await fund(user.id, 5_000, { hoursAgo: PAST_HOLD });
    await verifyEmail(user.id);
    await verifyIdentity(cookie);
    const refused = await withdraw(cookie, 10);
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual(stepUpRequired);
    expect(await balanceCents(user.id)).toBe(5_000);

    await stepUp(cookie, password);
    expect((await withdraw(cookie, 10)).status).toBe(200);
    await env.DB.prepare("UPDATE sessions SET step_up_at = ? WHERE user_id = ?")
      .bind(Date.now() - STEP_UP_TTL_MS - 1, user.id)
      .run();
    expect((await withdraw(cookie, 10)).body).toEqual(stepUpRequired);
    expect(await balanceCents(user.id)).toBe(4_000);
  });

  it("cannot change the email address, though the rest of the profile still saves", async () => {
    const { cookie, user, password } = await registerUser();
    const refused = await call("/api/user/profile", {
      method: "PATCH",
      cookie,
      body: { username: user.username, email: "thief@example.com" },
    });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual(stepUpRequired);
    const same = await call("/api/user/profile", {
      method: "PATCH",
      cookie,
      body: { username: user.username, email: user.email.toUpperCase(), bio: "Still mine" },
    });
    expect(same.status).toBe(200);
    expect((await call("/api/user", { cookie })).body.email).toBe(user.email.toUpperCase());

    await stepUp(cookie, password);
    const moved = await call("/api/user/profile", {
      method: "PATCH",
      cookie,
      body: { username: user.username, email: `new-${user.email}` },
    });
    expect(moved.status).toBe(200);
  });

  it("cannot change the password without the current one, nor with it when 2FA is on", async () => {
    const plain = await registerUser();
    const noPassword = await call("/api/user/password", { method: "PATCH", cookie: plain.cookie, body: { newPassword: "taken-over-1" } });
    expect(noPassword.status).toBe(400);

    const { cookie, user, password, secret } = await withTwoFactor();
    const change = { currentPassword: password, newPassword: "taken-over-1" };
    const refused = await call("/api/user/password", { method: "PATCH", cookie, body: change });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual(stepUpRequired);
    expect((await call("/api/login", { body: { username: user.username, password, totpCode: totpCode(secret, Date.now()) } })).status).toBe(
      200,
    );
  });

  it("cannot disable 2FA or start a new enrolment", async () => {
    const { cookie, user } = await withTwoFactor();
    const disable = await call("/api/user/2fa/disable", { cookie, body: { code: "123456" } });
    expect(disable.status).toBe(400);
    const plain = await registerUser();
    const setup = await call("/api/user/2fa/setup", { cookie: plain.cookie, method: "POST" });
    expect(setup.status).toBe(403);
    expect(setup.body).toEqual(stepUpRequired);
    const row = await env.DB.prepare("SELECT totp_enabled AS on_ FROM users WHERE id = ?").bind(user.id).first<{ on_: number }>();
    expect(row!.on_).toBe(1);
  });
});

describe("session tokens", () => {
  it("rotate on a password change: the old token stops working, the new one works", async () => {
    const { cookie, user, password } = await registerUser();
    const res = await call("/api/user/password", {
      method: "PATCH",
      cookie,
      body: { currentPassword: password, newPassword: "brand-new-pass" },
    });
    expect(res.status).toBe(200);
    const rotated = cookieFrom(res.setCookie);
    expect(rotated).not.toBe(cookie);
    expect((await call("/api/user", { cookie })).status).toBe(401);
    expect((await call("/api/user", { cookie: rotated })).body.id).toBe(user.id);
  });

  it("rotate when 2FA is enabled and disabled", async () => {
    const { cookie, password } = await registerUser();
    await stepUp(cookie, password);
    const setup = await call("/api/user/2fa/setup", { cookie, method: "POST" });
    const enable = await call("/api/user/2fa/enable", { cookie, body: { code: totpCode(setup.body.secret, Date.now()) } });
    const afterEnable = cookieFrom(enable.setCookie);
    expect((await call("/api/user", { cookie })).status).toBe(401);
    expect((await call("/api/user", { cookie: afterEnable })).status).toBe(200);

    const disable = await call("/api/user/2fa/disable", {
      cookie: afterEnable,
      body: { password, code: totpCode(setup.body.secret, Date.now() + STEP) },
    });
    expect(disable.status).toBe(200);
    const afterDisable = cookieFrom(disable.setCookie);
    expect((await call("/api/user", { cookie: afterEnable })).status).toBe(401);
    expect((await call("/api/user", { cookie: afterDisable })).status).toBe(200);
  });

  it("are named __Host-sid, Secure, Path=/ and without a Domain on a real host, and read by that name only", async () => {
    const host = "https://arena.example";
    const name = `h${Date.now().toString(36)}${Math.floor(Math.random() * 1e6)}`;
    const send = (path: string, init: RequestInit = {}) =>
      exports.default.fetch(
        new Request(`${host}${path}`, {
          ...init,
          headers: { origin: host, "cf-connecting-ip": freshIp(), "content-type": "application/json", ...init.headers },
        }),
      );
    const res = await send("/api/register", {
      method: "POST",
      body: JSON.stringify({ username: name, email: `${name}@example.com`, password: "secret123", acceptTerms: true }),
    });
    expect(res.status).toBe(201);
    const setCookie = res.headers.get("set-cookie")!;
    expect(setCookie).toMatch(/^__Host-sid=[A-Za-z0-9_-]{43}; Max-Age=\d+; Path=\/; HttpOnly; Secure; SameSite=Lax$/);
    const token = setCookie.split(";")[0]!.slice("__Host-sid=".length);
    expect((await send("/api/user", { headers: { cookie: `__Host-sid=${token}` } })).status).toBe(200);
    expect((await send("/api/user", { headers: { cookie: `sid=${token}` } })).status).toBe(401);
    const out = await send("/api/logout", { method: "POST", headers: { cookie: `__Host-sid=${token}` } });
    expect(out.headers.get("set-cookie")).toMatch(/^__Host-sid=; Max-Age=0; Path=\/; Secure/);
  });
});

describe("signing out closes the user's sockets", () => {
  const closedWith = async (client: { closed: { code: number } | null }) => {
    for (let i = 0; i < 100 && !client.closed; i++) await sleep(20);
    return client.closed?.code;
  };

  it("logout closes the /ws socket and the rooms of the tournaments the player is in", async () => {
    const player = await makePlayer();
    const t = await makeTournament(await makeCategory());
    expect((await join(player, t.id)).status).toBe(200);
    const hub = await openSocket("/ws", player.cookie);
    const room = await openSocket(`/api/tournaments/${t.id}/ws`, player.cookie);
    const bystander = await makePlayer();
    const other = await openSocket("/ws", bystander.cookie);

    expect((await call("/api/logout", { method: "POST", cookie: player.cookie })).status).toBe(200);
    expect(await closedWith(hub.client!)).toBe(SESSION_ENDED_CLOSE_CODE);
    expect(await closedWith(room.client!)).toBe(SESSION_ENDED_CLOSE_CODE);
    expect(other.client!.closed).toBeNull();
    other.client!.ws.close();
  });

  it("a password change and an account deletion close them too", async () => {
    const { cookie, password } = await registerUser();
    const hub = await openSocket("/ws", cookie);
    const res = await call("/api/user/password", {
      method: "PATCH",
      cookie,
      body: { currentPassword: password, newPassword: "brand-new-pass" },
    });
    expect(await closedWith(hub.client!)).toBe(SESSION_ENDED_CLOSE_CODE);

    const rotated = cookieFrom(res.setCookie);
    const again = await openSocket("/ws", rotated);
    expect(
      (await call("/api/user", { method: "DELETE", cookie: rotated, body: { password: "brand-new-pass", confirm: "DELETE" } })).status,
    ).toBe(200);
    expect(await closedWith(again.client!)).toBe(SESSION_ENDED_CLOSE_CODE);
  });
});

describe("a password reset by email", () => {
  it("closes the player's sockets and lifts the account's sign-in waits, at every address", async () => {
    const { user, cookie } = await registerUser();
    const hub = await openSocket("/ws", cookie);
    const attacker = freshIp();
    for (let i = 0; i < 6; i++) await login(user.username, "wrong-guess", attacker);
    expect((await login(user.username, "whatever-pass", attacker)).body.code).toBe("login_locked");

    expect((await call("/api/auth/forgot-password", { body: { email: user.email } })).status).toBe(200);
    const token = linkToken((await waitForMail(user.email, "reset_password")).text_body, "/reset-password");
    expect((await call("/api/auth/reset-password", { body: { token, newPassword: "reset-new-pass" } })).status).toBe(200);

    for (let i = 0; i < 100 && !hub.client!.closed; i++) await sleep(20);
    expect(hub.client!.closed?.code).toBe(SESSION_ENDED_CLOSE_CODE);
    expect((await login(user.username, "reset-new-pass", attacker)).status).toBe(200);
  });
});

describe("login lockout, per account and address", () => {
  it("after 5 failures the same address waits, even with the right password; another address still signs in", async () => {
    const { user, password } = await registerUser();
    const attacker = freshIp();
    for (let i = 0; i < 5; i++) expect((await login(user.username, "wrong-guess", attacker)).body.code).toBe("invalid_credentials");
    const locked = await login(user.username, password, attacker);
    expect(locked.status).toBe(401);
    expect(locked.body).toEqual({ code: "login_locked", message: AUTH.loginLocked("1 second") });
    expect(locked.setCookie).toBeNull();

    expect((await login(user.username, password, freshIp())).status).toBe(200);
  });

  it("the wait grows with each failure and a success clears it (the account's count over every address stays)", async () => {
    const { user, password } = await registerUser();
    const ip = freshIp();
    await env.DB.prepare("INSERT INTO login_failures (key, failures, locked_until, updated_at) VALUES (?, 7, ?, ?)")
      .bind(`${user.username.toLowerCase()}|${ip}`, Date.now() - 1, Date.now())
      .run();
    expect((await login(user.username, "wrong-guess", ip)).status).toBe(401);
    const locked = await login(user.username, password, ip);
    expect(locked.body).toEqual({ code: "login_locked", message: AUTH.loginLocked("8 seconds") });

    await env.DB.prepare("UPDATE login_failures SET locked_until = 0").run();
    expect((await login(user.username, password, ip)).status).toBe(200);
    expect(
      await env.DB.prepare("SELECT 1 FROM login_failures WHERE key = ?").bind(`${user.username.toLowerCase()}|${ip}`).first(),
    ).toBeNull();
    // A sign-in of the owner does not give whoever guesses from elsewhere a fresh budget.
    expect(
      await env.DB.prepare("SELECT failures FROM login_failures WHERE key = ?").bind(`${user.username.toLowerCase()}|*`).first("failures"),
    ).toBe(1);
  });

  it("a wrong second-factor code counts as a failure", async () => {
    const { user, password } = await withTwoFactor();
    const ip = freshIp();
    for (let i = 0; i < 5; i++) {
      expect((await call("/api/login", { ip, body: { username: user.username, password, totpCode: "000000" } })).body.code).toBe(
        "two_factor_invalid",
      );
    }
    expect((await login(user.username, password, ip)).body.code).toBe("login_locked");
  });
});

describe("operators", () => {
  it("are refused the operators' routes until 2FA is on, with a message saying where to turn it on", async () => {
    const op = await registerUser();
    await env.DB.prepare("UPDATE users SET role = 'admin' WHERE id = ?").bind(op.user.id).run();
    const refused = await call("/api/admin/payouts?status=pending", { cookie: op.cookie });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ code: "admin_two_factor_required", message: AUTH.adminTwoFactorRequired });
    await makeAdmin(op.user.id);
    expect((await call("/api/admin/payouts?status=pending", { cookie: op.cookie })).status).toBe(200);
  });
});

describe("username and email length limits", () => {
  const long = "a".repeat(31);
  const longEmail = `${"a".repeat(243)}@example.com`;

  it("apply to login, registration and the profile", async () => {
    expect((await login(long, "secret123")).status).toBe(400);
    expect(
      (await call("/api/register", { body: { username: long, email: "x@example.com", password: "secret123", acceptTerms: true } })).status,
    ).toBe(400);
    expect(
      (await call("/api/register", { body: { username: "okname", email: longEmail, password: "secret123", acceptTerms: true } })).status,
    ).toBe(400);
    const { cookie, user } = await registerUser();
    expect((await call("/api/user/profile", { method: "PATCH", cookie, body: { username: long, email: user.email } })).status).toBe(400);
    expect((await call("/api/user/profile", { method: "PATCH", cookie, body: { username: user.username, email: longEmail } })).status).toBe(
      400,
    );
  });
});

describe("the email-taken answer on a profile change", () => {
  it("is rate limited per user, so addresses cannot be probed through it", async () => {
    const { cookie, user, password } = await registerUser();
    await stepUp(cookie, password);
    const taken = await Promise.all(Array.from({ length: 6 }, () => registerUser()));
    const answers: string[] = [];
    for (const other of taken) {
      answers.push(
        (await call("/api/user/profile", { method: "PATCH", cookie, body: { username: user.username, email: other.user.email } })).body
          .code,
      );
    }
    expect(answers.slice(0, 5)).toEqual(Array(5).fill("email_taken"));
    expect(answers[5]).toBe("rate_limited");
  });
});
