// Fixed-window counters in D1: one upsert per attempt, atomic under concurrency.
import { sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { HttpError } from "../http/errors";
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
  const row = await db.get<{ count: number }>(sql`
    INSERT INTO rate_limits (key, window_start, count) VALUES (${key}, ${windowStart}, 1)
    ON CONFLICT (key) DO UPDATE SET
      count = CASE WHEN window_start = excluded.window_start THEN count + 1 ELSE 1 END,
      window_start = excluded.window_start
    RETURNING count`);
  if (row && row.count > limit.max) throw new HttpError(429, AUTH.tooManyAttempts);
}

/** Clears an account's failure counter after a successful login. */
export async function clear(db: Db, key: string): Promise<void> {
  await db.run(sql`DELETE FROM rate_limits WHERE key = ${key}`);
}
