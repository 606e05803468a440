// Failed sign-ins (login_failures), three counts on one table:
// - per account and address (`name|address`, the address grouped as worker/http/client-address.ts
//   does): guessing one account's password from one network slows down quickly, while nobody can
//   lock the owner out by failing on purpose from elsewhere: another address has its own count;
// - per account over every address (`name|*`): past LOGIN_ACCOUNT_FREE_FAILURES wrong passwords
//   a sign-in needs the bot check, or without one the whole account waits (bounded, and a password
//   reset ends it), so rotating addresses does not give unlimited guesses;
// - per account's wrong second-factor codes (`2fa|user:id`, worker/auth/second-factor.ts).
import { eq, sql } from "drizzle-orm";
import { accountDelayMs, describeWait, loginDelayMs, overAccountBudget } from "../../common/domain/login-lockout";
import { AUTH } from "../../common/messages";
import { LOGIN_FAILURES_FORGET_MS } from "../../common/spec";
import type { Db } from "../db/client";
import { loginFailures } from "../db/schema";
import { HttpError } from "../http/errors";
import { requireHuman, turnstileSiteKey } from "./turnstile";

export const lockoutKey = (username: string, address: string) => `${username.toLowerCase()}|${address}`;

/** The count of wrong passwords for this name from every address together (no address contains "*"). */
export const accountKey = (username: string) => lockoutKey(username, "*");

/**
 * Refuses with 401 login_locked while this account and address must wait. 401, as for a wrong
 * password: the credentials are not being accepted now, and the same answer comes whether or not
 * the account exists (the key is the name typed), so it reveals nothing about it.
 */
export async function assertNotLocked(db: Db, key: string, now = Date.now()): Promise<void> {
  const row = await db.select({ lockedUntil: loginFailures.lockedUntil }).from(loginFailures).where(eq(loginFailures.key, key)).get();
  if (row && row.lockedUntil > now) throw new HttpError(401, "login_locked", AUTH.loginLocked(describeWait(row.lockedUntil - now)));
}

interface FailureRule {
  /** The wait after this many failures in the run. */
  delayMs: (failures: number) => number;
  /** A run with no failure for this long is forgotten. */
  forgetMs: number;
}

const PER_ADDRESS: FailureRule = { delayMs: loginDelayMs, forgetMs: LOGIN_FAILURES_FORGET_MS };

/** Counts one failure (a wrong password or code) and pushes the next allowed attempt out; the run's count so far. */
export async function recordFailure(db: Db, key: string, now = Date.now(), rule: FailureRule = PER_ADDRESS): Promise<number> {
  const forgetBefore = now - rule.forgetMs;
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
  const failures = row!.failures;
  const delay = rule.delayMs(failures);
  if (delay > 0) {
    await db
      .update(loginFailures)
      .set({ lockedUntil: sql`max(${loginFailures.lockedUntil}, ${now + delay})` })
      .where(eq(loginFailures.key, key));
  }
  return failures;
}

type BotCheckEnv = Parameters<typeof requireHuman>[0];

/** Whether sign-ins over the account budget are asked for the bot check (Turnstile configured) rather than made to wait. */
const botCheckOn = (env: BotCheckEnv) => turnstileSiteKey(env) !== null;

/**
 * Before the password is checked: within the account's budget, nothing. Over it, with the bot
 * check on, the request needs a Turnstile token solved for "login" (403 bot_check_required
 * without one, bot_check_failed for a bad one); without the bot check, 401 login_locked while the
 * account-wide wait runs. Keyed by the name typed, so the same whether or not the account exists.
 */
export async function assertAccountOpen(
  env: BotCheckEnv,
  req: Request,
  db: Db,
  username: string,
  turnstileToken: string | undefined,
  now = Date.now(),
): Promise<void> {
  const row = await db
    .select()
    .from(loginFailures)
    .where(eq(loginFailures.key, accountKey(username)))
    .get();
  if (!row || row.updatedAt < now - LOGIN_FAILURES_FORGET_MS || !overAccountBudget(row.failures)) return;
  if (botCheckOn(env)) {
    if (!turnstileToken) throw new HttpError(403, "bot_check_required", AUTH.loginBotCheckRequired, { botCheckRequired: true });
    await requireHuman(env, req, turnstileToken, "login");
    return;
  }
  if (row.lockedUntil > now) throw new HttpError(401, "login_locked", AUTH.accountLoginLocked(describeWait(row.lockedUntil - now)));
}

/** A wrong password: counted for this address and for the account over every address. */
export async function recordPasswordFailure(env: BotCheckEnv, db: Db, username: string, address: string, now = Date.now()) {
  // With the bot check on, the account count only decides when to ask for it: it never makes the owner wait.
  const accountRule: FailureRule = { delayMs: botCheckOn(env) ? () => 0 : accountDelayMs, forgetMs: LOGIN_FAILURES_FORGET_MS };
  await Promise.all([recordFailure(db, lockoutKey(username, address), now), recordFailure(db, accountKey(username), now, accountRule)]);
}

export async function clearFailures(db: Db, key: string): Promise<void> {
  await db.delete(loginFailures).where(eq(loginFailures.key, key));
}

/**
 * Forgets an account's password failures at every address and over all of them: after a password
 * reset the owner has proved they hold the mailbox. Wrong second-factor codes stay counted.
 */
export async function clearAccountFailures(db: Db, username: string): Promise<void> {
  const prefix = lockoutKey(username, "");
  await db.delete(loginFailures).where(sql`substr(${loginFailures.key}, 1, ${prefix.length}) = ${prefix}`);
}
