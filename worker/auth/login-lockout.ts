// Failed sign-ins per account and address (login_failures). Keyed to both, so guessing one
// account's password from one address slows down quickly while nobody can lock the owner out by
// failing on purpose from elsewhere: another address has its own count.
import { eq, sql } from "drizzle-orm";
import { describeWait, loginDelayMs } from "../../common/domain/login-lockout";
import { AUTH } from "../../common/messages";
import { LOGIN_FAILURES_FORGET_MS } from "../../common/spec";
import type { Db } from "../db/client";
import { loginFailures } from "../db/schema";
import { HttpError } from "../http/errors";

export const lockoutKey = (username: string, address: string) => `${username.toLowerCase()}|${address}`;

/**
 * Refuses with 401 login_locked while this account and address must wait. 401, as for a wrong
 * password: the credentials are not being accepted now, and the same answer comes whether or not
 * the account exists (the key is the name typed), so it reveals nothing about it.
 */
export async function assertNotLocked(db: Db, key: string, now = Date.now()): Promise<void> {
  const row = await db.select({ lockedUntil: loginFailures.lockedUntil }).from(loginFailures).where(eq(loginFailures.key, key)).get();
  if (row && row.lockedUntil > now) throw new HttpError(401, "login_locked", AUTH.loginLocked(describeWait(row.lockedUntil - now)));
}

/** Counts one failure (a wrong password or code) and pushes the next allowed attempt out. */
export async function recordFailure(db: Db, key: string, now = Date.now()): Promise<void> {
  const forgetBefore = now - LOGIN_FAILURES_FORGET_MS;
  const row = await db
    .insert(loginFailures)
    .values({ key, failures: 1, lockedUntil: 0, updatedAt: now })
    .onConflictDoUpdate({
      target: loginFailures.key,
      set: {
        failures: sql`CASE WHEN ${loginFailures.updatedAt} < ${forgetBefore} THEN 1 ELSE ${loginFailures.failures} + 1 END`,
        updatedAt: now,
      },
    })
    .returning({ failures: loginFailures.failures })
    .get();
  const delay = loginDelayMs(row!.failures);
  if (delay > 0) {
    await db
      .update(loginFailures)
      .set({ lockedUntil: sql`max(${loginFailures.lockedUntil}, ${now + delay})` })
      .where(eq(loginFailures.key, key));
  }
}

export async function clearFailures(db: Db, key: string): Promise<void> {
  await db.delete(loginFailures).where(eq(loginFailures.key, key));
}

/** Forgets an account's failures at every address: after a password reset the owner has proved they hold the mailbox. */
export async function clearAccountFailures(db: Db, username: string): Promise<void> {
  const prefix = lockoutKey(username, "");
  await db.delete(loginFailures).where(sql`substr(${loginFailures.key}, 1, ${prefix.length}) = ${prefix}`);
}
