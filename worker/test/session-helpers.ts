// Sessions in tests: the step-up a guarded action needs, and operators with their required 2FA.
import { expect } from "vitest";
import { env } from "cloudflare:workers";
import { seal } from "../crypto/sealed";
import { newTotpSecret } from "../auth/totp";
import { call } from "./helpers";

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
