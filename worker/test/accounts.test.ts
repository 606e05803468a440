import { describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import { call, cookieFrom, freshIp, registerUser } from "./helpers";
import { AUTH, VALIDATION } from "../../common/messages";
import { totpCode } from "../auth/totp";
import { stepUp } from "./session-helpers";

const uniq = () => `u${Math.random().toString(36).slice(2, 10)}`;

describe("registration", () => {
  it("creates the user, signs them in and never returns the password hash", async () => {
    const name = uniq();
    const res = await call("/api/register", {
      body: { username: name, email: `${name}@example.com`, password: "secret123", bio: "Hi", acceptTerms: true },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      username: name,
      email: `${name}@example.com`,
      balance: 0,
      level: 1,
      experiencePoints: 0,
      tournamentsPlayed: 0,
      tournamentsWon: 0,
      bio: "Hi",
    });
    expect(res.text).not.toMatch(/password|scrypt/i);
    expect(res.setCookie).toMatch(/sid=[^;]+;.*HttpOnly/i);
    expect(res.setCookie).toMatch(/SameSite=Lax/i);
    const me = await call("/api/user", { cookie: cookieFrom(res.setCookie) });
    expect(me.status).toBe(200);
    expect(me.body.username).toBe(name);
    expect(me.text).not.toMatch(/password_hash|passwordHash|scrypt/);
    const stored = await env.DB.prepare("SELECT password_hash FROM users WHERE username = ?").bind(name).first<{ password_hash: string }>();
    expect(stored?.password_hash).toMatch(/^scrypt\$/);
  });

  it("returns the avatar with the user, though requests load the session without it", async () => {
    const avatar = "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";
    const { cookie, user } = await registerUser({ avatar });
    expect(user.avatar).toBe(avatar);
    expect((await call("/api/user", { cookie })).body.avatar).toBe(avatar);
  });

  it.each([
    [{ username: "ab", email: "ab@example.com", password: "secret123" }, VALIDATION.usernameMin],
    [{ username: "abcdef", email: "ab@example.com", password: "12345" }, VALIDATION.passwordMinLogin],
    [{ username: "abcdef", email: "not-an-email", password: "secret123" }, VALIDATION.emailInvalid],
  ])("refuses %j with its message", async (body, message) => {
    const res = await call("/api/register", { body });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ code: "invalid_request", message });
  });

  it("refuses a taken username or email with 409, case-insensitively", async () => {
    const { user } = await registerUser();
    const byName = await call("/api/register", {
      body: { username: user.username.toUpperCase(), email: `${uniq()}@example.com`, password: "secret123", acceptTerms: true },
    });
    expect(byName.status).toBe(409);
    expect(byName.body).toEqual({ code: "username_taken", message: AUTH.usernameTaken });
    const byEmail = await call("/api/register", {
      body: { username: uniq(), email: user.email.toUpperCase(), password: "secret123", acceptTerms: true },
    });
    expect(byEmail.status).toBe(409);
    expect(byEmail.body).toEqual({ code: "email_taken", message: AUTH.emailTaken });
  });

  it("answers malformed JSON with 400 and creates nothing", async () => {
    const before = await env.DB.prepare("SELECT count(*) AS n FROM users").first<{ n: number }>();
    const res = await call("/api/register", { rawBody: "{not json" });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ code: "malformed_json", message: "Malformed JSON body" });
    const after = await env.DB.prepare("SELECT count(*) AS n FROM users").first<{ n: number }>();
    expect(after?.n).toBe(before?.n);
  });

  it("rate limits registrations per address", async () => {
    const ip = freshIp();
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) {
      const name = uniq();
      statuses.push(
        (
          await call("/api/register", {
            ip,
            body: { username: name, email: `${name}@example.com`, password: "secret123", acceptTerms: true },
          })
        ).status,
      );
    }
    expect(statuses.slice(0, 10).every((s) => s === 201)).toBe(true);
    expect(statuses[10]).toBe(429);
  });
});

describe("login and logout", () => {
  it("logs in with the right password, case-insensitive username", async () => {
    const { user, password } = await registerUser();
    const res = await call("/api/login", { body: { username: user.username.toUpperCase(), password } });
    expect(res.status).toBe(200);
    expect(res.body.id).toBe(user.id);
    expect(res.text).not.toMatch(/scrypt/);
    expect((await call("/api/user", { cookie: cookieFrom(res.setCookie) })).body.id).toBe(user.id);
  });

  it("refuses a wrong password and an unknown user with the same 401", async () => {
    const { user } = await registerUser();
    const wrong = await call("/api/login", { body: { username: user.username, password: "wrong-password" } });
    const unknown = await call("/api/login", { body: { username: uniq(), password: "wrong-password" } });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body).toEqual({ code: "invalid_credentials", message: AUTH.invalidCredentials });
    expect(unknown.body).toEqual(wrong.body);
    expect(wrong.setCookie).toBeNull();
  });

  it.each([
    [{ username: "ab", password: "secret123" }, VALIDATION.usernameMin],
    [{ username: "abc", password: "12345" }, VALIDATION.passwordMinLogin],
  ])("validates %j", async (body, message) => {
    const res = await call("/api/login", { body });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ code: "invalid_request", message });
  });

  it("slows failed logins per account and address, without locking the owner out elsewhere", async () => {
    const { user, password } = await registerUser();
    const guesser = freshIp();
    for (let i = 0; i < 5; i++) {
      expect((await call("/api/login", { ip: guesser, body: { username: user.username, password: "nope-nope" } })).status).toBe(401);
    }
    const blocked = await call("/api/login", { ip: guesser, body: { username: user.username, password } });
    expect(blocked.status).toBe(401);
    expect(blocked.body.code).toBe("login_locked");
    expect((await call("/api/login", { body: { username: user.username, password } })).status).toBe(200);
  });

  it("rate limits logins per address", async () => {
    const ip = freshIp();
    let last = 0;
    for (let i = 0; i < 31; i++) last = (await call("/api/login", { ip, body: { username: uniq(), password: "whatever1" } })).status;
    expect(last).toBe(429);
  });

  it("logout ends the session on the server, not just in the browser", async () => {
    const { cookie } = await registerUser();
    expect((await call("/api/user", { cookie })).status).toBe(200);
    const out = await call("/api/logout", { method: "POST", cookie });
    expect(out.status).toBe(200);
    expect(out.setCookie).toMatch(/sid=;/);
    const after = await call("/api/user", { cookie });
    expect(after.status).toBe(401);
    expect(after.body).toEqual({ code: "not_authenticated", message: AUTH.notAuthenticated });
  });

  it("GET /api/user is 401 when signed out or with a forged cookie", async () => {
    expect((await call("/api/user")).status).toBe(401);
    expect((await call("/api/user", { cookie: "sid=forged-token" })).status).toBe(401);
  });
});

describe("CSRF", () => {
  it("refuses a state change from another origin and changes nothing", async () => {
    const { cookie, user } = await registerUser();
    const res = await call("/api/user/profile", {
      method: "PATCH",
      cookie,
      headers: { origin: "https://evil.example" },
      body: { username: "hijacked", email: "evil@example.com" },
    });
    expect(res.status).toBe(403);
    expect((await call("/api/user", { cookie })).body.username).toBe(user.username);
  });

  it("refuses a form-encoded body even from our origin", async () => {
    const name = uniq();
    const res = await call("/api/register", {
      rawBody: `username=${name}&email=${name}%40example.com&password=secret123`,
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(res.status).toBe(400);
    const row = await env.DB.prepare("SELECT id FROM users WHERE username = ?").bind(name).first();
    expect(row).toBeNull();
  });

  it("refuses a request without Origin unless the browser says it is same-origin", async () => {
    const name = uniq();
    const body = { username: name, email: `${name}@example.com`, password: "secret123", acceptTerms: true };
    const noOrigin = await call("/api/register", { body, headers: { origin: "" } });
    expect(noOrigin.status).toBe(403);
  });
});

describe("profile and password", () => {
  it("updates the profile fields and keeps untouched ones", async () => {
    const { cookie, user, password } = await registerUser({ bio: "Old bio" });
    // A new email address needs the password confirmed first.
    await stepUp(cookie, password);
    const name = uniq();
    const res = await call("/api/user/profile", {
      method: "PATCH",
      cookie,
      body: {
        username: name,
        email: `${name}@example.com`,
        location: "Lisbon, Portugal",
        socialLinks: JSON.stringify({ github: "https://github.com/x" }),
      },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: user.id,
      username: name,
      location: "Lisbon, Portugal",
      bio: "Old bio",
      socialLinks: { github: "https://github.com/x" },
    });
    expect(res.text).not.toMatch(/scrypt/);
  });

  it.each([
    [{ username: "ab", email: "a@example.com" }, VALIDATION.usernameMin],
    [{ username: "abcd", email: "nope" }, VALIDATION.emailInvalid],
  ])("validates %j", async (body, message) => {
    const { cookie } = await registerUser();
    const res = await call("/api/user/profile", { method: "PATCH", cookie, body });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ code: "invalid_request", message });
  });

  it("refuses taking another user's username with 409", async () => {
    const a = await registerUser();
    const b = await registerUser();
    // A new name needs a step-up first (sign-in-hardening.test.ts).
    await stepUp(b.cookie, b.password);
    const res = await call("/api/user/profile", {
      method: "PATCH",
      cookie: b.cookie,
      body: { username: a.user.username, email: b.user.email },
    });
    expect(res.status).toBe(409);
    expect(res.body.message).toBe(AUTH.usernameTaken);
  });

  it("requires a session", async () => {
    const res = await call("/api/user/profile", { method: "PATCH", body: { username: "abcd", email: "a@example.com" } });
    expect(res.status).toBe(401);
  });

  it.each([
    [{ currentPassword: "", newPassword: "longenough1", confirmPassword: "longenough1" }, VALIDATION.currentPasswordRequired],
    [{ currentPassword: "secret123", newPassword: "short", confirmPassword: "short" }, VALIDATION.newPasswordMin],
    [{ currentPassword: "secret123", newPassword: "longenough1", confirmPassword: "different1" }, VALIDATION.newPasswordsDontMatch],
  ])("validates the password change %j", async (body, message) => {
    const { cookie } = await registerUser();
    const res = await call("/api/user/password", { method: "PATCH", cookie, body });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ code: "invalid_request", message });
  });

  it("refuses a wrong current password and keeps the old one", async () => {
    const { cookie, user, password } = await registerUser();
    const res = await call("/api/user/password", {
      method: "PATCH",
      cookie,
      body: { currentPassword: "wrong-one", newPassword: "longenough1" },
    });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(AUTH.currentPasswordWrong);
    expect((await call("/api/login", { body: { username: user.username, password } })).status).toBe(200);
  });

  it("a password change ends every other session and the old password stops working", async () => {
    const { cookie, user, password } = await registerUser();
    const other = cookieFrom((await call("/api/login", { body: { username: user.username, password } })).setCookie);
    const res = await call("/api/user/password", {
      method: "PATCH",
      cookie,
      body: { currentPassword: password, newPassword: "brand-new-pass", confirmPassword: "brand-new-pass" },
    });
    expect(res.status).toBe(200);
    expect((await call("/api/user", { cookie: other })).status).toBe(401);
    expect((await call("/api/user", { cookie: cookieFrom(res.setCookie) })).status).toBe(200);
    expect((await call("/api/login", { body: { username: user.username, password } })).status).toBe(401);
    expect((await call("/api/login", { body: { username: user.username, password: "brand-new-pass" } })).status).toBe(200);
  });
});

describe("two-factor login step", () => {
  it("asks for a code once enabled, then accepts a valid one", async () => {
    const { user, password } = await registerUser();
    const secret = "JBSWY3DPEHPK3PXP";
    await env.DB.prepare("UPDATE users SET totp_secret = ?, totp_enabled = 1 WHERE id = ?").bind(secret, user.id).run();
    const first = await call("/api/login", { body: { username: user.username, password } });
    expect(first.status).toBe(401);
    expect(first.body).toEqual({ code: "two_factor_required", message: AUTH.twoFactorRequired, twoFactorRequired: true });
    expect(first.setCookie).toBeNull();
    const bad = await call("/api/login", { body: { username: user.username, password, totpCode: "000000" } });
    expect(bad.status).toBe(401);
    const ok = await call("/api/login", { body: { username: user.username, password, totpCode: totpCode(secret, Date.now()) } });
    expect(ok.status).toBe(200);
  });
});

it("unknown API paths are a JSON 404", async () => {
  const res = await call("/api/nope");
  expect(res.status).toBe(404);
  expect(res.body).toEqual({ code: "not_found", message: "Not found" });
});
