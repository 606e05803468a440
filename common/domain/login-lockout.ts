// How long a sign-in waits after failures for one account from one address (login_failures).
import { LOGIN_ACCOUNT_FREE_FAILURES, LOGIN_FIRST_DELAY_MS, LOGIN_FREE_FAILURES, LOGIN_MAX_DELAY_MS } from "../spec";

/** The wait before the next attempt after `failures` failures in a row. */
export function loginDelayMs(failures: number): number {
  if (failures < LOGIN_FREE_FAILURES) return 0;
  return Math.min(LOGIN_MAX_DELAY_MS, LOGIN_FIRST_DELAY_MS * 2 ** (failures - LOGIN_FREE_FAILURES));
}

/** Past the account's budget (every address together): is the account over it after `failures`? */
export const overAccountBudget = (failures: number) => failures > LOGIN_ACCOUNT_FREE_FAILURES;

/**
 * Without the bot check: the account-wide wait after `failures` wrong passwords from every
 * address together; none within the budget, then 2 s doubling, never longer than LOGIN_MAX_DELAY_MS.
 */
export function accountDelayMs(failures: number): number {
  if (!overAccountBudget(failures)) return 0;
  return Math.min(LOGIN_MAX_DELAY_MS, LOGIN_FIRST_DELAY_MS * 2 ** (failures - LOGIN_ACCOUNT_FREE_FAILURES));
}

const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? "" : "s"}`;

/** A wait as people read it, never shorter than it is. */
export function describeWait(ms: number): string {
  const seconds = Math.max(1, Math.ceil(ms / 1000));
  return seconds < 60 ? plural(seconds, "second") : plural(Math.ceil(seconds / 60), "minute");
}
