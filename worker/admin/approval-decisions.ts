// Deciding an approval (the two-person rule, docs/operating.md). The decision is claimed with a
// conditional UPDATE (… WHERE status = 'pending'), so of two operators clicking at once exactly
// one carries it out; the other is told it was decided. The claim is taken back when the
// executor fails, so a failed action stays pending and can be approved again.
import type { ApprovalKind, ApprovalStatus, ApprovalView } from "../../common/api/console";
import { centsToDollars } from "../../common/domain/money";
import { APPROVALS } from "../../common/console-messages";
import type { Db } from "../db/client";
import { iso } from "../db/present";
import { conflict, describeError, forbidden, HttpError, notFound } from "../http/errors";
import { approvalExecutor, type ApprovalExecutor } from "./approvals";
import { auditStatement } from "./audit";

interface ApprovalRow {
  id: number;
  kind: ApprovalKind;
  payload: string;
  summary: string;
  amount_cents: number;
  requested_by: number;
  requester: string;
  requested_at: number;
  status: ApprovalStatus;
  decided_by: number | null;
  decider: string | null;
  decided_at: number | null;
  note: string | null;
  result_ref: string | null;
  beneficiary_id: number | null;
}

const SELECT = `SELECT a.*, r.username AS requester, d.username AS decider FROM approvals a
  JOIN users r ON r.id = a.requested_by LEFT JOIN users d ON d.id = a.decided_by`;

const LIST_LIMIT = 200;

function present(row: ApprovalRow, viewerId: number): ApprovalView {
  return {
    id: row.id,
    kind: row.kind,
    summary: row.summary,
    amount: centsToDollars(row.amount_cents),
    payload: JSON.parse(row.payload) as unknown,
    status: row.status,
    requestedBy: { id: row.requested_by, username: row.requester },
    requestedAt: iso(row.requested_at),
    decidedBy: row.decided_by === null ? null : { id: row.decided_by, username: row.decider ?? "" },
    decidedAt: row.decided_at === null ? null : iso(row.decided_at),
    note: row.note,
    resultRef: row.result_ref,
    mine: row.requested_by === viewerId,
  };
}

/** Pending first (oldest waiting first), then the decided ones, newest first. */
export async function listApprovals(d1: D1Database, viewerId: number, status: ApprovalStatus | "all" | undefined): Promise<ApprovalView[]> {
  const where = status && status !== "all" ? "WHERE a.status = ?" : "";
  const stmt = d1.prepare(
    `${SELECT} ${where} ORDER BY a.status = 'pending' DESC,
       CASE WHEN a.status = 'pending' THEN a.requested_at ELSE -coalesce(a.decided_at, a.requested_at) END, a.id DESC LIMIT ${LIST_LIMIT}`,
  );
  const { results } = await (where ? stmt.bind(status) : stmt).all<ApprovalRow>();
  return results.map((r) => present(r, viewerId));
}

const load = (d1: D1Database, id: number) => d1.prepare(`${SELECT} WHERE a.id = ?`).bind(id).first<ApprovalRow>();

/** The refusals every decision shares: unknown, asked by the decider, already decided. */
async function decidable(d1: D1Database, id: number, deciderId: number, approving: boolean): Promise<ApprovalRow> {
  const row = await load(d1, id);
  if (!row) throw notFound(APPROVALS.notFound, "approval_not_found");
  if (row.requested_by === deciderId) throw forbidden(APPROVALS.own, "own_approval");
  // Rejecting what pays oneself is fine; approving it is not.
  if (approving && row.beneficiary_id === deciderId) throw forbidden(APPROVALS.ownBenefit, "own_benefit");
  if (row.status !== "pending") throw conflict(APPROVALS.decided(row.status), "approval_decided");
  return row;
}

/** After losing the race for the claim: say what the other operator decided. */
async function lostRace(d1: D1Database, id: number): Promise<never> {
  const now = await load(d1, id);
  throw conflict(APPROVALS.decided(now?.status ?? "decided"), "approval_decided");
}

const claimStatement = (
  d1: D1Database,
  id: number,
  status: "approved" | "rejected",
  deciderId: number,
  stamp: number,
  note: string | null,
) =>
  d1
    .prepare(
      `UPDATE approvals SET status = ?, decided_by = ?, decided_at = ?, note = ? WHERE id = ? AND status = 'pending' AND requested_by <> ?
       AND (? = 'rejected' OR beneficiary_id IS NULL OR beneficiary_id <> ?)`,
    )
    .bind(status, deciderId, stamp, note, id, deciderId, status, deciderId);

const before = (row: ApprovalRow) => ({ status: row.status, kind: row.kind, summary: row.summary, amountCents: row.amount_cents });

export async function approve(env: Env, db: Db, id: number, approverId: number, note: string | null): Promise<ApprovalView> {
  const d1 = env.DB;
  const row = await decidable(d1, id, approverId, true);
  let execute: ApprovalExecutor;
  try {
    execute = approvalExecutor(row.kind);
  } catch {
    // Nothing registered to carry out this kind (yet): refuse before claiming, so it stays pending.
    throw conflict(APPROVALS.failed(APPROVALS.noExecutor), "approval_failed");
  }
  const stamp = Date.now();
  const claim = await claimStatement(d1, id, "approved", approverId, stamp, note).run();
  if ((claim.meta.changes ?? 0) === 0) return lostRace(d1, id);

  let resultRef: string;
  try {
    resultRef = await execute({ env, db, approverId, requesterId: row.requested_by, approvalId: id }, JSON.parse(row.payload));
  } catch (e) {
    await d1
      .prepare(
        "UPDATE approvals SET status = 'pending', decided_by = NULL, decided_at = NULL, note = NULL WHERE id = ? AND decided_at = ? AND decided_by = ?",
      )
      .bind(id, stamp, approverId)
      .run();
    if (!(e instanceof HttpError)) console.error("approval executor failed", row.kind, id, describeError(e));
    throw conflict(APPROVALS.failed(e instanceof HttpError ? e.message : APPROVALS.failedUnknown), "approval_failed");
  }

  await d1.batch([
    d1.prepare("UPDATE approvals SET result_ref = ? WHERE id = ?").bind(resultRef, id),
    auditStatement(d1, approverId, {
      action: "approval.approve",
      targetType: "approval",
      targetId: id,
      before: before(row),
      after: { status: "approved", resultRef },
      note,
    }),
  ]);
  return present((await load(d1, id))!, approverId);
}

export async function reject(d1: D1Database, id: number, rejecterId: number, note: string): Promise<ApprovalView> {
  const row = await decidable(d1, id, rejecterId, false);
  const stamp = Date.now();
  const [claim] = await d1.batch([
    claimStatement(d1, id, "rejected", rejecterId, stamp, note),
    // Written only when this request's claim took (its stamp is on the row): the loser of a race records nothing.
    d1
      .prepare(
        `INSERT INTO audit_log (actor_user_id, action, target_type, target_id, before, after, note)
         SELECT ?, 'approval.reject', 'approval', ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM approvals WHERE id = ? AND decided_by = ? AND decided_at = ? AND status = 'rejected')`,
      )
      .bind(rejecterId, String(id), JSON.stringify(before(row)), JSON.stringify({ status: "rejected" }), note, id, rejecterId, stamp),
  ]);
  if ((claim?.meta.changes ?? 0) === 0) return lostRace(d1, id);
  return present((await load(d1, id))!, rejecterId);
}
