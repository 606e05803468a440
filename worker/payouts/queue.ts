// The payout queue as operators see it: filters, the masked account, whether the payout can go in
// an ACH file or is a legacy one (last 4 digits only), and where it stands with the two-person rule.
import { and, asc, desc, eq, gte, lt, lte, sql, type SQL } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import type { z } from "zod";
import type { PayoutApprovalState, PayoutQueue, PayoutQueueItem, payoutQueueQuerySchema } from "../../common/api/payouts";
import { centsToDollars } from "../../common/domain/money";
import { ACCOUNT_MASK, PAYOUT_QUEUE_LIMIT } from "../../common/spec";
import { twoPersonThresholds } from "../admin/approvals";
import type { Db } from "../db/client";
import { iso } from "../db/present";
import { payouts, users } from "../db/schema";
import { presentAdminPayout, type PayoutRow } from "../money/payouts";

const DAY_MS = 24 * 60 * 60 * 1000;

export const maskAccount = (last4: string) => `${ACCOUNT_MASK}${last4}`;

/** Above the threshold a payout waits for a second operator before it is exported or marked paid. */
export const needsSecondOperator = (env: Env, amountCents: number) => amountCents > twoPersonThresholds(env).payoutCents;

/** The pending "payout" approval of the payout row, if one waits (its payload is `{ payoutId }`). */
const pendingApproval = sql<
  number | null
>`(SELECT a.id FROM approvals a WHERE a.kind = 'payout' AND a.status = 'pending' AND json_extract(a.payload, '$.payoutId') = ${payouts.id} ORDER BY a.id DESC LIMIT 1)`;

function approvalState(env: Env, p: PayoutRow, pendingApprovalId: number | null): PayoutApprovalState {
  if (p.approvedAt !== null) return "approved";
  if (!needsSecondOperator(env, p.amountCents)) return "not_required";
  return pendingApprovalId !== null ? "requested" : "required";
}

export function presentQueueItem(
  env: Env,
  p: PayoutRow,
  username: string,
  approver: string | null,
  pendingApprovalId: number | null,
): PayoutQueueItem {
  const state = approvalState(env, p, pendingApprovalId);
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

const selectQueue = (db: Db) =>
  db
    .select({ payout: payouts, username: users.username, approver: approver.username, pendingApprovalId: pendingApproval })
    .from(payouts)
    .innerJoin(users, eq(users.id, payouts.userId))
    .leftJoin(approver, eq(approver.id, payouts.approvedBy));

/** One payout as the queue shows it; null when there is none. */
export async function payoutQueueItem(env: Env, db: Db, id: number): Promise<PayoutQueueItem | null> {
  const r = await selectQueue(db).where(eq(payouts.id, id)).get();
  return r ? presentQueueItem(env, r.payout, r.username, r.approver, r.pendingApprovalId) : null;
}

/** The queue: pending oldest first (the order it is worked in), other statuses newest first. */
export async function listPayoutQueue(env: Env, db: Db, q: z.output<typeof payoutQueueQuerySchema>): Promise<PayoutQueue> {
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
    items: rows.slice(0, PAYOUT_QUEUE_LIMIT).map((r) => presentQueueItem(env, r.payout, r.username, r.approver, r.pendingApprovalId)),
    approvalThreshold: centsToDollars(twoPersonThresholds(env).payoutCents),
    truncated: rows.length > PAYOUT_QUEUE_LIMIT,
  };
}
