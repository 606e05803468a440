// The two-person rule in aggregate (common/domain/two-person.ts): the rolling totals of what each
// operator let through on their own and what each payee received that way, read from
// two_person_tally, and the statements that add an action to them inside the action's own D1 batch.
//
// The guard is part of the action's batch: after the tally rows are inserted, a statement inserts a
// row with a NULL amount (a NOT NULL violation, which aborts the whole batch) when the operator's or a
// payee's total in the window now passes the threshold. D1 runs one batch at a time, so of two
// requests racing under the threshold the second sees the first's row and is aborted: they cannot
// both slip under. The read before the batch only chooses the answer (go ahead, or ask a second operator).
import { TWO_PERSON_WINDOW_MS } from "../../common/spec";

export type TallyBucket = "payout" | "house_pool";
export type TallyKind = "payout" | "held_prize" | "house_pool";

export interface TallyTotals {
  operatorCents: number;
  /** Per payee id; absent ones are 0. */
  payeeCents: Map<number, number>;
}

const since = (now: number) => now - TWO_PERSON_WINDOW_MS;

/** The operator's total and each payee's, of this bucket, over the last 24 h. */
export async function tallyTotals(
  d1: D1Database,
  bucket: TallyBucket,
  operatorId: number,
  payeeIds: readonly number[] = [],
  now = Date.now(),
): Promise<TallyTotals> {
  const [op, payees] = await d1.batch<{ payee_id?: number; total: number }>([
    d1
      .prepare(
        "SELECT coalesce(sum(amount_cents), 0) AS total FROM two_person_tally WHERE bucket = ? AND operator_id = ? AND created_at > ?",
      )
      .bind(bucket, operatorId, since(now)),
    d1
      .prepare(
        `SELECT payee_id, sum(amount_cents) AS total FROM two_person_tally
         WHERE bucket = ? AND payee_id IN (SELECT value FROM json_each(?)) AND created_at > ? GROUP BY payee_id`,
      )
      .bind(bucket, JSON.stringify([...new Set(payeeIds)]), since(now)),
  ]);
  return {
    operatorCents: op?.results[0]?.total ?? 0,
    payeeCents: new Map((payees?.results ?? []).map((r) => [r.payee_id!, r.total])),
  };
}

export interface TallyRow {
  bucket: TallyBucket;
  kind: TallyKind;
  operatorId: number;
  payeeId: number | null;
  amountCents: number;
  reference: string;
}

/**
 * Adds one action to the totals, only while `conditionSql` holds (the action's own condition, so
 * an action that did not happen counts nothing); a reference already counted is not counted again.
 */
export function tallyStatement(d1: D1Database, row: TallyRow, conditionSql = "1", ...params: unknown[]): D1PreparedStatement {
  return d1
    .prepare(
      `INSERT INTO two_person_tally (bucket, kind, operator_id, payee_id, amount_cents, reference)
       SELECT ?, ?, ?, ?, ?, ? WHERE ${conditionSql} ON CONFLICT (reference) DO NOTHING`,
    )
    .bind(row.bucket, row.kind, row.operatorId, row.payeeId, row.amountCents, row.reference, ...params);
}

/**
 * Aborts the batch it is in (NOT NULL constraint failed: two_person_tally.amount_cents) when, with
 * the rows inserted before it, the operator's total or any of `payeeIds`' totals of the bucket over
 * the last 24 h is above `thresholdCents`. Put it after the tally statements.
 */
export function tallyGuardStatement(
  d1: D1Database,
  bucket: TallyBucket,
  operatorId: number,
  payeeIds: readonly number[],
  thresholdCents: number,
  now = Date.now(),
): D1PreparedStatement {
  return d1
    .prepare(
      `INSERT INTO two_person_tally (bucket, kind, operator_id, payee_id, amount_cents, reference)
       SELECT ?, 'guard', ?, NULL, NULL, 'guard' WHERE
         (SELECT coalesce(sum(amount_cents), 0) FROM two_person_tally WHERE bucket = ? AND operator_id = ? AND created_at > ?) > ?
         OR EXISTS (SELECT 1 FROM two_person_tally WHERE bucket = ? AND payee_id IN (SELECT value FROM json_each(?)) AND created_at > ?
                    GROUP BY payee_id HAVING sum(amount_cents) > ?)`,
    )
    .bind(
      bucket,
      operatorId,
      bucket,
      operatorId,
      since(now),
      thresholdCents,
      bucket,
      JSON.stringify([...new Set(payeeIds)]),
      since(now),
      thresholdCents,
    );
}

/** The guard above aborted the batch: the action needs a second operator after all. */
export const isTallyGuardTripped = (e: unknown) =>
  String((e as Error)?.message ?? e).includes("NOT NULL constraint failed: two_person_tally.amount_cents");
