// Fixed-window counters in D1: one upsert per attempt, atomic under concurrency.
import { sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { rateLimits } from "../db/schema";
import { HttpError } from "./errors";
import { AUTH } from "../../common/messages";

export interface Limit {
  /** Attempts allowed per window. */
  max: number;
  windowMs: number;
}

/** Counts one attempt against `key`; throws 429 once the window's allowance is spent. */
export async function hit(db: Db, key: string, limit: Limit): Promise<void> {
  const now = Date.now();
  const windowStart = now - (now % limit.windowMs);
  const row = await db
    .insert(rateLimits)
    .values({ key, windowStart, count: 1 })
    .onConflictDoUpdate({
      target: rateLimits.key,
      // Both read the stored row: a new window starts the count again.
      set: {
        count: sql`CASE WHEN ${rateLimits.windowStart} = ${windowStart} THEN ${rateLimits.count} + 1 ELSE 1 END`,
        windowStart,
      },
    })
    .returning({ count: rateLimits.count })
    .get();
  if (row && row.count > limit.max) throw new HttpError(429, "rate_limited", AUTH.tooManyAttempts);
}

/** Password and code guesses with a stolen session (disabling 2FA, deleting the account) stay slow. */
export const SENSITIVE_LIMIT: Limit = { max: 10, windowMs: 15 * 60_000 };
export const sensitiveKey = (userId: number) => `sensitive:user:${userId}`;
