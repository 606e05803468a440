// The payout queue as operators see it: filters, the masked account, whether the payout can go in
// an ACH file or is a legacy one (last 4 digits only), and where it stands with the two-person rule.
import { and, asc, desc, eq, gte, lt, lte, sql, type SQL } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import type { z } from "zod";
import type { PayoutApprovalState, PayoutQueue, PayoutQueueItem, payoutQueueQuerySchema } from "../../common/api/payouts";
import { centsToDollars } from "../../common/domain/money";
import { needsSecondOperator } from "../../common/domain/two-person";
import { ACCOUNT_MASK, PAYOUT_QUEUE_LIMIT, TWO_PERSON_WINDOW_MS } from "../../common/spec";
import { twoPersonThresholds } from "../admin/approvals";
import { tallyTotals } from "../admin/two-person";
import type { Db } from "../db/client";
import { iso } from "../db/present";
import { payouts, users } from "../db/schema";
import { presentAdminPayout, type PayoutRow } from "../money/payouts";

const DAY_MS = 24 * 60 * 60 * 1000;

export const maskAccount = (last4: string) => `${ACCOUNT_MASK}${last4}`;

/**
 * Where the viewing operator stands with the two-person rule's payout total (common/domain/two-person.ts):
 * their own total over the last 24 h; each row brings its payee's.
 */
export interface QueueViewer {
  operatorId: number;
  operatorTotalCents: number;
}

export const queueViewer = async (env: Env, operatorId: number): Promise<QueueViewer> => ({
  operatorId,
  operatorTotalCents: (await tallyTotals(env.DB, "payout", operatorId)).operatorCents,
});

/** The pending "payout" approval of the payout row, if one waits (its payload is `{ payoutId }`). */
const pendingApproval = sql<
  number | null
>`(SELECT a.id FROM approvals a WHERE a.kind = 'payout' AND a.status = 'pending' AND json_extract(a.payload, '$.payoutId') = ${payouts.id} ORDER BY a.id DESC LIMIT 1)`;

/**
 * What the payee received on one operator's say in the last 24 h, this payout aside (an exported
 * payout is itself in the totals).
 */
const payeeTotal = (since: number) =>
  sql<number>`(SELECT coalesce(sum(t.amount_cents), 0) FROM two_person_tally t WHERE t.bucket = 'payout' AND t.payee_id = ${payouts.userId}
    AND t.created_at > ${since} AND t.reference <> 'payout:' || ${payouts.id})`;

/**
 * Whether this payout, paid now by the viewing operator, needs a second operator: above the
 * threshold with the viewer's and the payee's totals of the last 24 h, or to the viewer's own account.
 * An exported payout was counted when it was exported.
 */
export function payoutNeedsSecondOperator(env: Env, p: PayoutRow, payeeTotalCents: number, viewer: QueueViewer): boolean {
  if (p.approvedAt !== null) return false;
  const thresholdCents = twoPersonThresholds(env).payoutCents;
  if (p.batchId !== null) return p.amountCents > thresholdCents;
  return needsSecondOperator({
    amountCents: p.amountCents,
    operatorTotalCents24h: viewer.operatorTotalCents,
    payeeTotalCents24h: payeeTotalCents,
    thresholdCents,
    payeeIsOperator: p.userId === viewer.operatorId,
  });
}

function approvalState(
  env: Env,
  p: PayoutRow,
  pendingApprovalId: number | null,
  payeeTotalCents: number,
  viewer: QueueViewer,
): PayoutApprovalState {
  if (p.approvedAt !== null) return "approved";
  if (pendingApprovalId !== null) return "requested";
  return payoutNeedsSecondOperator(env, p, payeeTotalCents, viewer) ? "required" : "not_required";
}

export function presentQueueItem(
  env: Env,
  p: PayoutRow,
  username: string,
  approver: string | null,
  pendingApprovalId: number | null,
  payeeTotalCents: number,
  viewer: QueueViewer,
): PayoutQueueItem {
  const state = approvalState(env, p, pendingApprovalId, payeeTotalCents, viewer);
  return {
    ...presentAdminPayout(p, username),
    accountMasked: maskAccount(p.accountLast4),
    payableByFile: p.accountNumberSealed !== null,
    batchId: p.batchId,
    approval: {
      state,
      approvalId: state === "requested" ? pendingApprovalId : null,
      approvedBy: p.approvedAt !== null ? approver : null,
      approvedAt: p.approvedAt !== null ? iso(p.approvedAt) : null,
    },
  };
}

const approver = alias(users, "approver");

const selectQueue = (db: Db, now = Date.now()) =>
  db
    .select({
      payout: payouts,
      username: users.username,
      approver: approver.username,
      pendingApprovalId: pendingApproval,
      payeeTotalCents: payeeTotal(now - TWO_PERSON_WINDOW_MS),
    })
    .from(payouts)
    .innerJoin(users, eq(users.id, payouts.userId))
    .leftJoin(approver, eq(approver.id, payouts.approvedBy));

/** One payout as the queue shows it; null when there is none. */
export async function payoutQueueItem(env: Env, db: Db, id: number, viewer: QueueViewer): Promise<PayoutQueueItem | null> {
  const r = await selectQueue(db).where(eq(payouts.id, id)).get();
  return r ? presentQueueItem(env, r.payout, r.username, r.approver, r.pendingApprovalId, r.payeeTotalCents, viewer) : null;
}

/** The queue: pending oldest first (the order it is worked in), other statuses newest first. */
export async function listPayoutQueue(
  env: Env,
  db: Db,
  q: z.output<typeof payoutQueueQuerySchema>,
  viewer: QueueViewer,
): Promise<PayoutQueue> {
  const where: SQL[] = [];
  if (q.status) where.push(eq(payouts.status, q.status));
  if (q.minAmount !== undefined) where.push(gte(payouts.amountCents, q.minAmount));
  if (q.maxAmount !== undefined) where.push(lte(payouts.amountCents, q.maxAmount));
  if (q.from) where.push(gte(payouts.createdAt, Date.parse(`${q.from}T00:00:00Z`)));
  if (q.to) where.push(lt(payouts.createdAt, Date.parse(`${q.to}T00:00:00Z`) + DAY_MS));
  if (q.username) where.push(sql`instr(lower(${users.username}), lower(${q.username})) > 0`);
  const rows = await selectQueue(db)
    .where(where.length > 0 ? and(...where) : undefined)
    .orderBy(...(q.status === "pending" ? [asc(payouts.createdAt), asc(payouts.id)] : [desc(payouts.createdAt), desc(payouts.id)]))
    .limit(PAYOUT_QUEUE_LIMIT + 1)
    .all();
  return {
    items: rows
      .slice(0, PAYOUT_QUEUE_LIMIT)
      .map((r) => presentQueueItem(env, r.payout, r.username, r.approver, r.pendingApprovalId, r.payeeTotalCents, viewer)),
    approvalThreshold: centsToDollars(twoPersonThresholds(env).payoutCents),
    truncated: rows.length > PAYOUT_QUEUE_LIMIT,
  };
}
