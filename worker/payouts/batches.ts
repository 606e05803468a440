// Payout batches: the operator's selection of pending payouts exported as one ACH file, that file
// downloaded again, and the batch marked paid once the bank has paid it. A payout goes in one batch
// at most; the export is all or nothing, and its audit row commits with it.
import { and, asc, eq, sql } from "drizzle-orm";
import type { PayoutBatchPaid, PayoutBatchView } from "../../common/api/payouts";
import { centsToDollars, formatCents } from "../../common/domain/money";
import { MONEY } from "../../common/messages";
import { PAYOUTS } from "../../common/console-messages";
import { PAYOUT_BATCH_LIST_LIMIT } from "../../common/spec";
import { twoPersonThresholds } from "../admin/approvals";
import { auditStatementIf } from "../admin/audit";
import type { Db } from "../db/client";
import { iso } from "../db/present";
import { payouts } from "../db/schema";
import { conflict, HttpError, notFound } from "../http/errors";
import { settleStatements, type PayoutRow } from "../money/payouts";
import { achCredits, achFileNamePrefix, achFileOf, achOriginator } from "./ach";
import { open, seal } from "../crypto/sealed";
import { firstNeedingSecondOperator } from "../../common/domain/two-person";
import { isTallyGuardTripped, tallyGuardStatement, tallyTotals, type TallyTotals } from "../admin/two-person";

interface BatchRow {
  id: number;
  file_name: string;
  entry_count: number;
  total_cents: number;
  status: "exported" | "paid";
  created_by: number;
  creator: string;
  created_at: number;
  paid_by: number | null;
  payer: string | null;
  paid_at: number | null;
  pending: number;
  paid: number;
  failed: number;
}

const SELECT_BATCHES = `SELECT b.*, cu.username AS creator, pu.username AS payer,
    (SELECT count(*) FROM payouts p WHERE p.batch_id = b.id AND p.status = 'pending') AS pending,
    (SELECT count(*) FROM payouts p WHERE p.batch_id = b.id AND p.status = 'paid') AS paid,
    (SELECT count(*) FROM payouts p WHERE p.batch_id = b.id AND p.status = 'failed') AS failed
  FROM payout_batches b JOIN users cu ON cu.id = b.created_by LEFT JOIN users pu ON pu.id = b.paid_by`;

const present = (b: BatchRow): PayoutBatchView => ({
  id: b.id,
  fileName: b.file_name,
  entryCount: b.entry_count,
  total: centsToDollars(b.total_cents),
  status: b.status,
  createdBy: { id: b.created_by, username: b.creator },
  createdAt: iso(b.created_at),
  paidBy: b.paid_by === null ? null : { id: b.paid_by, username: b.payer ?? "" },
  paidAt: b.paid_at === null ? null : iso(b.paid_at),
  payouts: { pending: b.pending, paid: b.paid, failed: b.failed },
});

/** The batches, newest first. */
export async function listBatches(d1: D1Database): Promise<PayoutBatchView[]> {
  const { results } = await d1.prepare(`${SELECT_BATCHES} ORDER BY b.id DESC LIMIT ?`).bind(PAYOUT_BATCH_LIST_LIMIT).all<BatchRow>();
  return results.map(present);
}

export async function batchView(d1: D1Database, id: number): Promise<PayoutBatchView> {
  const row = await d1.prepare(`${SELECT_BATCHES} WHERE b.id = ?`).bind(id).first<BatchRow>();
  if (!row) throw notFound(PAYOUTS.batchNotFound, "payout_batch_not_found");
  return present(row);
}

/** Payouts by id, in id order (their order in the file); a list of ids goes in as one JSON parameter. */
const payoutsById = (db: Db, ids: readonly number[]) =>
  db
    .select()
    .from(payouts)
    .where(sql`${payouts.id} IN (SELECT value FROM json_each(${JSON.stringify(ids)}))`)
    .orderBy(asc(payouts.id))
    .all();

/** The first reason the selection cannot be exported, as the refusal the operator sees. */
function refusal(env: Env, ids: readonly number[], rows: readonly PayoutRow[], actorId: number, totals: TallyTotals): HttpError | null {
  const byId = new Map(rows.map((r) => [r.id, r]));
  const thresholdCents = twoPersonThresholds(env).payoutCents;
  const threshold = `$${formatCents(thresholdCents)}`;
  for (const id of ids) {
    const p = byId.get(id);
    if (!p) return notFound(`${MONEY.payoutNotFound}: #${id}`, "payout_not_found");
    if (p.status !== "pending") return conflict(PAYOUTS.notPending(id, p.status), "payout_already_settled");
    if (p.batchId !== null) return conflict(PAYOUTS.alreadyExported(id, p.batchId), "payout_already_exported");
    if (p.accountNumberSealed === null) return conflict(PAYOUTS.notExportable(id), "payout_not_exportable");
  }
  // The two-person rule over the operator's and each payee's last 24 h, the selection's own payouts counted in file order.
  const items = rows.map((p) => ({ amountCents: p.amountCents, payeeId: p.userId, approved: p.approvedAt !== null }));
  const i = firstNeedingSecondOperator(items, totals.operatorCents, totals.payeeCents, thresholdCents, actorId);
  if (i >= 0) {
    const p = rows[i]!;
    const message =
      p.amountCents > thresholdCents ? PAYOUTS.approvalRequired(p.id, threshold) : PAYOUTS.approvalRequiredTotal(p.id, threshold);
    return conflict(message, "approval_required");
  }
  return null;
}

const totalsFor = (env: Env, actorId: number, rows: readonly PayoutRow[]) =>
  tallyTotals(
    env.DB,
    "payout",
    actorId,
    rows.map((r) => r.userId),
  );

/** SQLite raises no error outside a trigger: the guard inserts a batch without a name exactly when the selection changed. */
const isGuardTripped = (e: unknown) => String((e as Error)?.message ?? e).includes("NOT NULL constraint failed: payout_batches.file_name");

export interface ExportedFile {
  batchId: number;
  fileName: string;
  file: string;
}

/**
 * Puts the selected payouts in a new batch and answers its ACH file. Everything is checked first
 * (each pending, in no batch, its account number kept and readable, approved when above the
 * threshold; the file builds); then one D1 batch re-checks all of it and writes the batch row,
 * the payouts' batch_id and the audit row together, so two exports racing for a payout put it in one file only.
 */
export async function exportPayouts(env: Env, db: Db, actorId: number, ids: readonly number[]): Promise<ExportedFile> {
  const originator = achOriginator(env);
  const rows = await payoutsById(db, ids);
  const refused = refusal(env, ids, rows, actorId, await totalsFor(env, actorId, rows));
  if (refused) throw refused;
  const credits = await achCredits(env, rows);
  const createdAt = Date.now();
  // A payout the file cannot carry is refused before anything is stored (the real batch number comes later).
  achFileOf(originator, 1, createdAt, credits);

  const d1 = env.DB;
  const idsJson = JSON.stringify(rows.map((r) => r.id));
  const totalCents = rows.reduce((sum, r) => sum + r.amountCents, 0);
  let batchId: number | undefined;
  try {
    const results = await d1.batch<{ id: number }>([
      d1
        .prepare(
          `INSERT INTO payout_batches (file_name, entry_count, total_cents, created_by) SELECT NULL, 0, 0, ?
           WHERE (SELECT count(*) FROM payouts WHERE id IN (SELECT value FROM json_each(?)) AND status = 'pending' AND batch_id IS NULL
                  AND account_number_sealed IS NOT NULL AND (amount_cents <= ? OR approved_at IS NOT NULL)) <> ?`,
        )
        .bind(actorId, idsJson, twoPersonThresholds(env).payoutCents, rows.length),
      d1
        .prepare(
          "INSERT INTO payout_batches (file_name, entry_count, total_cents, created_by, created_at) VALUES (?, ?, ?, ?, ?) RETURNING id",
        )
        .bind(achFileNamePrefix(createdAt), rows.length, totalCents, actorId, createdAt),
      // The batch just inserted: its id completes its file name and tags its payouts (same batch, same connection).
      d1.prepare("UPDATE payout_batches SET file_name = file_name || id || '.txt' WHERE id = last_insert_rowid()"),
      d1.prepare("UPDATE payouts SET batch_id = last_insert_rowid() WHERE id IN (SELECT value FROM json_each(?))").bind(idsJson),
      d1
        .prepare(
          `INSERT INTO audit_log (actor_user_id, action, target_type, target_id, after)
           SELECT ?, 'payout.export', 'payout_batch', id, json_object('fileName', file_name, 'payoutIds', json(?), 'entryCount', entry_count, 'totalCents', total_cents)
           FROM payout_batches WHERE id = last_insert_rowid()`,
        )
        .bind(actorId, idsJson),
      // The two-person rule's totals: the payouts paid on this operator's say, then the guard that
      // aborts all of it when they take the operator's or a payee's last 24 h above the threshold.
      d1
        .prepare(
          `INSERT INTO two_person_tally (bucket, kind, operator_id, payee_id, amount_cents, reference)
           SELECT 'payout', 'payout', ?, user_id, amount_cents, 'payout:' || id FROM payouts
           WHERE id IN (SELECT value FROM json_each(?)) AND approved_at IS NULL ON CONFLICT (reference) DO NOTHING`,
        )
        .bind(actorId, idsJson),
      tallyGuardStatement(
        d1,
        "payout",
        actorId,
        rows.map((r) => r.userId),
        twoPersonThresholds(env).payoutCents,
      ),
    ]);
    batchId = results[1]?.results[0]?.id;
  } catch (e) {
    if (!isGuardTripped(e) && !isTallyGuardTripped(e)) throw e;
    // Another operator changed the selection, or paid out meanwhile, between the checks and the batch: say what changed.
    const now = await payoutsById(db, ids);
    throw refusal(env, ids, now, actorId, await totalsFor(env, actorId, now)) ?? conflict(PAYOUTS.exportRaced, "payout_already_exported");
  }
  if (typeof batchId !== "number") throw new Error("payout batch insert returned no id");
  const { fileName } = await batchView(d1, batchId);
  const file = achFileOf(originator, batchId, createdAt, credits);
  // Kept (sealed: it holds account numbers) so every re-download is the bytes the bank received.
  await d1
    .prepare("UPDATE payout_batches SET file_sealed = ? WHERE id = ? AND file_sealed IS NULL")
    .bind(await seal(env, file), batchId)
    .run();
  return { batchId, fileName, file };
}

/** The batch's file again, the same bytes as at export (its payouts as exported, whatever became of them since). */
export async function batchFile(env: Env, db: Db, batchId: number): Promise<{ fileName: string; file: string }> {
  const batch = await env.DB.prepare("SELECT file_name, created_at, file_sealed FROM payout_batches WHERE id = ?")
    .bind(batchId)
    .first<{ file_name: string; created_at: number; file_sealed: string | null }>();
  if (!batch) throw notFound(PAYOUTS.batchNotFound, "payout_batch_not_found");
  // The file as exported: a payout failed since (a bank return) or a changed ACH_* variable changes nothing in it.
  if (batch.file_sealed !== null) return { fileName: batch.file_name, file: await open(env, batch.file_sealed) };
  // A batch from before files were kept: rebuilt from its payouts as exported.
  const originator = achOriginator(env);
  const rows = await db.select().from(payouts).where(eq(payouts.batchId, batchId)).orderBy(asc(payouts.id)).all();
  const credits = await achCredits(env, rows);
  return { fileName: batch.file_name, file: achFileOf(originator, batchId, batch.created_at, credits) };
}

/**
 * Marks an exported batch paid: in one D1 batch, the batch row and every payout of it still
 * pending (settleStatements: the ledger row completes), with the audit row. Repeating it, or two
 * operators at once, changes nothing more; a payout failed before (a bank return) stays failed.
 */
export async function markBatchPaid(env: Env, db: Db, actorId: number, batchId: number): Promise<PayoutBatchPaid> {
  const d1 = env.DB;
  const before = await batchView(d1, batchId);
  if (before.status === "paid") return { batch: before, paid: 0 };
  const pending = await db
    .select()
    .from(payouts)
    .where(and(eq(payouts.batchId, batchId), eq(payouts.status, "pending")))
    .orderBy(asc(payouts.id))
    .all();
  const stamp = Date.now();
  const settles = pending.map((p) => settleStatements(d1, p, "paid"));
  const results = await d1.batch([
    d1
      .prepare("UPDATE payout_batches SET status = 'paid', paid_by = ?, paid_at = ? WHERE id = ? AND status = 'exported'")
      .bind(actorId, stamp, batchId),
    ...settles.flat(),
    // Written only when this call's update took (its stamp is on the row): the loser of a race records nothing.
    auditStatementIf(
      d1,
      actorId,
      {
        action: "payout_batch.mark_paid",
        targetType: "payout_batch",
        targetId: batchId,
        before: { status: "exported", payouts: before.payouts },
        after: { status: "paid", paidPayoutIds: pending.map((p) => p.id) },
      },
      "EXISTS (SELECT 1 FROM payout_batches WHERE id = ? AND paid_by = ? AND paid_at = ?)",
      batchId,
      actorId,
      stamp,
    ),
  ]);
  // The last statement of each payout's group moves the payout itself.
  let offset = 1;
  let paid = 0;
  for (const group of settles) {
    offset += group.length;
    paid += results[offset - 1]?.meta.changes ?? 0;
  }
  return { batch: await batchView(d1, batchId), paid };
}
