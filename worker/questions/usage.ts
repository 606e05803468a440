// How often a question may appear in prize tournaments. The bank is finite and answers leak once
// a question has been played for money, so a question is retired from prize play after
// QUESTION_RETIRE_AFTER prize tournaments; practice keeps using the whole bank.
import { DEFAULT_QUESTION_RETIRE_AFTER } from "../../common/spec";

/** QUESTION_RETIRE_AFTER from wrangler.toml; a missing or nonsensical value falls back to the default. */
export function questionRetireAfter(env: { QUESTION_RETIRE_AFTER?: string }): number {
  const n = Number(env.QUESTION_RETIRE_AFTER);
  return Number.isSafeInteger(n) && n >= 1 ? n : DEFAULT_QUESTION_RETIRE_AFTER;
}

/** Still allowed in a new prize tournament. */
export const isUnretired = (q: { paidUses: number }, retireAfter: number) => q.paidUses < retireAfter;
