// Totals the statistics and leaderboards share, as drizzle expressions over the schema's columns.
import { and, eq, gte, inArray, sql, type AnyColumn, type SQL } from "drizzle-orm";
import type { Db } from "./client";
import { transactions } from "./schema";

/** sum() of an integer column, 0 over no rows (drizzle's own sum() reads the total back as text). */
export const total = (column: AnyColumn | SQL) => sql<number>`coalesce(sum(${column}), 0)`;

/** A prize the ledger paid (not one held for review or forfeited): the same figure as a player's total earnings. */
export const paidPrize = and(eq(transactions.type, "prize"), inArray(transactions.status, ["completed", "pending"]))!;

/**
 * Each player's prize money, as a subquery to join on `userId` (players without prizes have no
 * row); `since` counts only prizes paid from then on (epoch ms).
 */
export const prizeTotals = (db: Db, since: number | null = null) =>
  db
    .select({ userId: transactions.userId, total: total(transactions.amountCents).as("total") })
    .from(transactions)
    .where(since === null ? paidPrize : and(paidPrize, gte(transactions.createdAt, since)))
    .groupBy(transactions.userId)
    .as("prize_totals");
