// Reading a player's limits, exclusions and what counts against the limits, from D1.
import { and, eq, gt, inArray, lte, sql } from "drizzle-orm";
import {
  LIMIT_KINDS,
  NO_LIMIT,
  netEntryFees,
  settleLimit,
  type Exclusion,
  type LimitFamily,
  type LimitKind,
  type LimitState,
  type Spend,
} from "../../common/domain/responsible-play";
import { LIMIT_WINDOWS_MS } from "../../common/spec";
import type { Db } from "../db/client";
import { depositIntents, exclusions, playLimits, transactions } from "../db/schema";

/**
 * The player's limits as they stand at `now`. A raise or removal whose time has come is written
 * back here, when it is first read: no scheduled job has to apply it.
 */
export async function loadLimits(db: Db, userId: number, now: number): Promise<Map<LimitKind, LimitState>> {
  return settleLimits(db, userId, await limitRows(db, userId).all(), now);
}

const limitRows = (db: Db, userId: number) => db.select().from(playLimits).where(eq(playLimits.userId, userId));

async function settleLimits(
  db: Db,
  userId: number,
  rows: (typeof playLimits.$inferSelect)[],
  now: number,
): Promise<Map<LimitKind, LimitState>> {
  const limits = new Map<LimitKind, LimitState>(LIMIT_KINDS.map((k) => [k, NO_LIMIT]));
  const due = rows.filter((r) => r.pendingFrom !== null && r.pendingFrom <= now);
  if (due.length > 0) {
    // Guarded by the pending time read, so a change the player made meanwhile is not overwritten.
    const [first, ...rest] = due.map((r) =>
      db
        .update(playLimits)
        .set({ amountCents: settleLimit(r, now).amountCents, pendingAmountCents: null, pendingFrom: null, updatedAt: now })
        .where(and(eq(playLimits.userId, userId), eq(playLimits.kind, r.kind), eq(playLimits.pendingFrom, r.pendingFrom!))),
    );
    await db.batch([first!, ...rest]);
  }
  for (const r of rows) limits.set(r.kind, settleLimit(r, now));
  return limits;
}

/** Exclusions and limits in one round trip to D1 (a paid join needs both). */
export async function loadExclusionsAndLimits(
  db: Db,
  userId: number,
  now: number,
): Promise<{ exclusions: ExclusionRow[]; limits: Map<LimitKind, LimitState> }> {
  const [excluded, rows] = await db.batch([exclusionRows(db, userId), limitRows(db, userId)]);
  return { exclusions: excluded, limits: await settleLimits(db, userId, rows, now) };
}

/** Writes the limits given (already changed by changeLimit). */
export async function saveLimits(db: Db, userId: number, changed: [LimitKind, LimitState][], now: number): Promise<void> {
  const [first, ...rest] = changed.map(([kind, s]) =>
    db
      .insert(playLimits)
      .values({ userId, kind, ...s, updatedAt: now })
      .onConflictDoUpdate({ target: [playLimits.userId, playLimits.kind], set: { ...s, updatedAt: now } }),
  );
  if (first) await db.batch([first, ...rest]);
}

/**
 * What counts against a family's limits within the longest window: deposits as credited
 * (pending and completed) and open checkouts, entry fees net of refunds (common/domain/responsible-play.ts).
 */
export async function spendsOf(db: Db, userId: number, family: LimitFamily, now: number): Promise<Spend[]> {
  const since = now - LIMIT_WINDOWS_MS.monthly;
  const rowsOf = (type: "deposit" | "tournament_entry" | "refund") =>
    db
      .select({ reference: transactions.reference, amountCents: transactions.amountCents, at: transactions.createdAt })
      .from(transactions)
      .where(
        and(
          eq(transactions.userId, userId),
          eq(transactions.type, type),
          inArray(transactions.status, ["completed", "pending"]),
          gt(transactions.createdAt, since),
          lte(transactions.createdAt, now),
        ),
      )
      .all();
  if (family === "deposit") {
    // Checkouts created and not yet paid, refunded or cancelled count too, from when they were made.
    const [credited, open] = await Promise.all([
      rowsOf("deposit"),
      db
        .select({ amountCents: depositIntents.amountCents, at: depositIntents.createdAt })
        .from(depositIntents)
        .where(
          and(
            eq(depositIntents.userId, userId),
            eq(depositIntents.status, "open"),
            gt(depositIntents.createdAt, since),
            sql`NOT EXISTS (SELECT 1 FROM transactions t WHERE t.reference = ${depositIntents.id})`,
          ),
        )
        .all(),
    ]);
    return [...credited, ...open].map((r) => ({ at: r.at, cents: r.amountCents }));
  }
  const [entries, refunds] = await Promise.all([rowsOf("tournament_entry"), rowsOf("refund")]);
  return netEntryFees(entries, refunds);
}

export type ExclusionRow = Exclusion & { id: number };

const exclusionRows = (db: Db, userId: number) =>
  db
    .select({ id: exclusions.id, kind: exclusions.kind, startsAt: exclusions.startsAt, endsAt: exclusions.endsAt })
    .from(exclusions)
    .where(eq(exclusions.userId, userId));

export async function loadExclusions(db: Db, userId: number): Promise<ExclusionRow[]> {
  return exclusionRows(db, userId).all();
}
