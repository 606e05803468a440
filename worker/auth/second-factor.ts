// A second factor checked against the account's budget of wrong codes: TWO_FACTOR_MAX_FAILURES
// wrong TOTP or recovery codes in a run (at sign-in, step-up or disabling 2FA, from any address)
// and codes are refused for TWO_FACTOR_LOCK_MS, and the owner is mailed once per run. Only the
// password gets anyone this far, so the mail tells the owner to change it. The count lives in
// login_failures under `2fa|user:<id>`, which a password reset does not clear.
import type { Context } from "hono";
import { AUTH } from "../../common/messages";
import { TWO_FACTOR_FAILURES_FORGET_MS, TWO_FACTOR_LOCK_MS, TWO_FACTOR_MAX_FAILURES } from "../../common/spec";
import { sendSecurityNotice } from "../email/account-mail";
import type { AppEnv } from "../http/app-env";
import { HttpError } from "../http/errors";
import { loginFailures } from "../db/schema";
import { eq } from "drizzle-orm";
import { recordFailure } from "./login-lockout";
import type { SessionUser } from "./session";
import { verifySecondFactor } from "./two-factor";

export const codeBudgetKey = (userId: number) => `2fa|user:${userId}`;

const codesLocked = () => new HttpError(429, "two_factor_locked", AUTH.twoFactorLocked);

type CodeUser = Pick<SessionUser, "id" | "username" | "email" | "totpSecret" | "recoveryCodes">;

/**
 * Refuses (429 two_factor_locked) while the account's codes are locked, else checks and spends the
 * code like verifySecondFactor; a wrong one is counted, and the one that reaches the budget mails the owner.
 */
export async function checkSecondFactor(c: Context<AppEnv>, user: CodeUser, code: string): Promise<boolean> {
  const db = c.get("db");
  const key = codeBudgetKey(user.id);
  const now = Date.now();
  const row = await db.select({ lockedUntil: loginFailures.lockedUntil }).from(loginFailures).where(eq(loginFailures.key, key)).get();
  if (row && row.lockedUntil > now) throw codesLocked();
  if (await verifySecondFactor(c.env, db, user, code, now)) return true;
  const failures = await recordFailure(db, key, now, {
    delayMs: (n) => (n >= TWO_FACTOR_MAX_FAILURES ? TWO_FACTOR_LOCK_MS : 0),
    forgetMs: TWO_FACTOR_FAILURES_FORGET_MS,
  });
  // Exactly one request sees the count reach the budget (the upsert is atomic): one mail per run.
  if (failures === TWO_FACTOR_MAX_FAILURES) sendSecurityNotice(c, user, { kind: "second_factor_locked" });
  return false;
}
