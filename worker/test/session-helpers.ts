// Sessions in tests: the step-up a guarded action needs, and operators with their required 2FA.
import { expect } from "vitest";
import { env } from "cloudflare:workers";
import { seal } from "../crypto/sealed";
import { newTotpSecret, totpCode } from "../auth/totp";
import { call, cookieFrom, registerUser } from "./helpers";

/** Confirms the password (and a code when 2FA is on) in this session, as the step-up dialog does. */
export async function stepUp(cookie: string, password: string, totpCode?: string) {
  const res = await call("/api/auth/step-up", { cookie, body: totpCode === undefined ? { password } : { password, totpCode } });
  expect(res.status, res.text).toBe(200);
  return res;
}

/**
 * Turns two-factor authentication on in the database, as a finished enrolment leaves it (sealed
 * secret, no recovery codes), without the setup and enable requests; returns the secret.
 */
export async function enableTwoFactorDirectly(userId: number, secret = newTotpSecret()): Promise<string> {
  await env.DB.prepare("UPDATE users SET totp_secret = ?, totp_enabled = 1, recovery_codes = '[]' WHERE id = ?")
    .bind(await seal(env, secret), userId)
    .run();
  return secret;
}

/** Marks every session of the user as stepped up just now, for players made without a password (makePlayer). */
export async function markSteppedUp(userId: number): Promise<void> {
  await env.DB.prepare("UPDATE sessions SET step_up_at = ? WHERE user_id = ?").bind(Date.now(), userId).run();
}

/** Signs in through POST /api/login, with a second factor when given. */
export const login = (username: string, password: string, totp?: string) =>
  call("/api/login", { body: totp === undefined ? { username, password } : { username, password, totpCode: totp } });

/** A new player who turned two-factor on the real way; returns the secret, the recovery codes and the session's cookie as enabling rotated it. */
export async function enrolled() {
  const u = await registerUser();
  await stepUp(u.cookie, u.password);
  const setup = await call("/api/user/2fa/setup", { cookie: u.cookie, method: "POST" });
  const enable = await call("/api/user/2fa/enable", { cookie: u.cookie, body: { code: totpCode(setup.body.secret, Date.now()) } });
  expect(enable.status).toBe(200);
  return {
    ...u,
    cookie: cookieFrom(enable.setCookie),
    secret: setup.body.secret as string,
    recoveryCodes: enable.body.recoveryCodes as string[],
  };
}
