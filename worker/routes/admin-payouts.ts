// The operators' payout queue (docs/operating.md, "Payouts and the ACH file"): the queue with its
// filters, a second operator's approval for a large payout (the "payout" approval, carried out by
// the executor registered below), the export of a selection as an ACH file, and one payout marked
// paid (a legacy payout paid outside the file) or failed with a reason. Batches: admin-payout-batches.ts.
import { Hono } from "hono";
import { eq } from "drizzle-orm";
import { payoutFailSchema } from "../../common/api/money";
import { payoutExportSchema, payoutQueueQuerySchema, type PayoutApprovalRequested } from "../../common/api/payouts";
import { formatCents } from "../../common/domain/money";
import { achReturnReason, isPlausibleReturnDate } from "../../common/domain/ach-returns";
import { MONEY } from "../../common/messages";
import { PAYOUTS } from "../../common/console-messages";
import { registerApprovalExecutor, requestApproval, twoPersonThresholds } from "../admin/approvals";
import { auditStatementIf } from "../admin/audit";
import { payouts, users } from "../db/schema";
import { badRequest, conflict, notFound } from "../http/errors";
import { currentUser, requireAdmin, requireUser } from "../http/middleware";
import { idParam, noFields, validate } from "../http/validate";
import type { AppEnv } from "../http/app-env";
import type { Db } from "../db/client";
import { PAYOUT_STILL_PENDING, payoutFailedFrame, presentAdminPayout, settlePayout } from "../money/payouts";
import { pushStoredNotification } from "../durable/hub-client";
import { exportPayouts } from "../payouts/batches";
import { listPayoutQueue, payoutNeedsSecondOperator, payoutQueueItem, queueViewer } from "../payouts/queue";
import { isTallyGuardTripped, tallyGuardStatement, tallyStatement, tallyTotals } from "../admin/two-person";

async function loadPayout(db: Db, id: number) {
  const row = await db
    .select({ payout: payouts, username: users.username })
    .from(payouts)
    .innerJoin(users, eq(users.id, payouts.userId))
    .where(eq(payouts.id, id))
    .get();
  if (!row) throw notFound(MONEY.payoutNotFound, "payout_not_found");
  return row;
}

const thresholdText = (env: Env) => `$${formatCents(twoPersonThresholds(env).payoutCents)}`;

/**
 * Settles a payout, idempotently: asking for the state it is already in answers 200; the other
 * final state is a 409. The audit row commits with the move and only with it. The call that fails
 * a payout pushes the player's notification (already stored with the move) to their open /ws sockets.
 * Paying a large payout by hand needs the same second operator as exporting it.
 */
async function settle(env: Env, db: Db, actorId: number, id: number, outcome: "paid" | "failed", reason: string | null) {
  const before = await loadPayout(db, id);
  const p = before.payout;
  const thresholdCents = twoPersonThresholds(env).payoutCents;
  const approvalRequired = () =>
    conflict(
      p.amountCents > thresholdCents
        ? PAYOUTS.approvalRequired(id, thresholdText(env))
        : PAYOUTS.approvalRequiredTotal(id, thresholdText(env)),
      "approval_required",
    );
  // Paid by hand on one operator's say: it counts toward the two-person rule's totals (an exported one was counted at export).
  const counted = outcome === "paid" && p.status === "pending" && p.approvedAt === null;
  if (counted) {
    const totals = await tallyTotals(env.DB, "payout", actorId, [p.userId]);
    const viewer = { operatorId: actorId, operatorTotalCents: totals.operatorCents };
    if (payoutNeedsSecondOperator(env, p, totals.payeeCents.get(p.userId) ?? 0, viewer)) throw approvalRequired();
  }
  const tally =
    counted && p.batchId === null
      ? [
          tallyStatement(
            env.DB,
            {
              bucket: "payout",
              kind: "payout",
              operatorId: actorId,
              payeeId: p.userId,
              amountCents: p.amountCents,
              reference: `payout:${id}`,
            },
            PAYOUT_STILL_PENDING,
            id,
          ),
          tallyGuardStatement(env.DB, "payout", actorId, [p.userId], thresholdCents),
        ]
      : [];
  const audit = auditStatementIf(
    env.DB,
    actorId,
    {
      action: outcome === "paid" ? "payout.mark_paid" : "payout.mark_failed",
      targetType: "payout",
      targetId: id,
      before: { status: "pending", amountCents: p.amountCents, batchId: p.batchId },
      after: { status: outcome },
      note: reason,
    },
    PAYOUT_STILL_PENDING,
    id,
  );
  let moved: boolean;
  try {
    moved = await settlePayout(env.DB, p, outcome, reason, [audit, ...tally]);
  } catch (e) {
    if (isTallyGuardTripped(e)) throw approvalRequired();
    throw e;
  }
  const after = await loadPayout(db, id);
  if (after.payout.status !== outcome) throw conflict(MONEY.payoutAlready(after.payout.status), "payout_already_settled");
  if (moved && outcome === "failed") await pushStoredNotification(env, after.payout.userId, payoutFailedFrame(after.payout, reason ?? ""));
  return presentAdminPayout(after.payout, after.username);
}

// A second operator approved a payout above the threshold: it may now be exported (or paid by
// hand). Approving it again, or after another approval of the same payout, changes nothing.
registerApprovalExecutor("payout", async (ctx, payload) => {
  const { payoutId } = payload as { payoutId: number };
  const { payout } = await loadPayout(ctx.db, payoutId);
  if (payout.approvedAt !== null) return String(payoutId);
  if (payout.status !== "pending") throw conflict(MONEY.payoutAlready(payout.status), "payout_already_settled");
  await ctx.env.DB.prepare(
    "UPDATE payouts SET approved_by = ?, approved_at = ? WHERE id = ? AND status = 'pending' AND approved_at IS NULL",
  )
    .bind(ctx.approverId, Date.now(), payoutId)
    .run();
  const now = await loadPayout(ctx.db, payoutId);
  if (now.payout.approvedAt === null) throw conflict(MONEY.payoutAlready(now.payout.status), "payout_already_settled");
  return String(payoutId);
});

// A second operator approved a bank return of an exported payout: fail it with the return as its
// reason (the money back to the player once; a retry finds it failed and changes nothing).
registerApprovalExecutor("payout_return", async (ctx, payload) => {
  const { payoutId, returnCode, returnDate } = payload as { payoutId: number; returnCode: string; returnDate: string };
  await settle(ctx.env, ctx.db, ctx.approverId, payoutId, "failed", achReturnReason(returnCode, returnDate));
  return `payout:${payoutId}`;
});

export const adminPayoutRoutes = new Hono<AppEnv>()
  .use(requireUser, requireAdmin)
  .get("/", validate("query", payoutQueueQuerySchema), async (c) => {
    return c.json(await listPayoutQueue(c.env, c.get("db"), c.req.valid("query"), await queueViewer(c.env, currentUser(c).id)));
  })
  .post("/export", validate("json", payoutExportSchema), async (c) => {
    const { fileName, file, batchId } = await exportPayouts(c.env, c.get("db"), currentUser(c).id, c.req.valid("json").payoutIds);
    return c.text(file, 200, {
      "content-disposition": `attachment; filename="${fileName}"`,
      "x-payout-batch-id": String(batchId),
    });
  })
  .post("/:id/request-approval", idParam, noFields, async (c) => {
    const id = c.req.valid("param").id;
    const { payout, username } = await loadPayout(c.get("db"), id);
    const item = (await payoutQueueItem(c.env, c.get("db"), id, await queueViewer(c.env, currentUser(c).id)))!;
    if (item.status !== "pending") throw conflict(MONEY.payoutAlready(item.status), "payout_already_settled");
    if (item.approval.state === "not_required") throw conflict(PAYOUTS.approvalNotRequired(thresholdText(c.env)), "approval_not_required");
    if (item.approval.state === "approved") throw conflict(PAYOUTS.alreadyApproved, "approval_not_required");
    // A second click (or a second operator) gets the request that already waits.
    const { id: approvalId } = await requestApproval(c, {
      kind: "payout",
      target: `payout:${id}`,
      beneficiaryId: payout.userId,
      payload: { payoutId: id },
      summary: PAYOUTS.approvalSummary(formatCents(payout.amountCents), username, id, payout.accountLast4),
      amountCents: payout.amountCents,
    });
    return c.json({ approvalId, message: PAYOUTS.approvalRequested } satisfies PayoutApprovalRequested, 202);
  })
  .post("/:id/paid", idParam, async (c) => {
    return c.json(await settle(c.env, c.get("db"), currentUser(c).id, c.req.valid("param").id, "paid", null));
  })
  .post("/:id/failed", idParam, validate("json", payoutFailSchema), async (c) => {
    const id = c.req.valid("param").id;
    const body = c.req.valid("json");
    const { payout, username } = await loadPayout(c.get("db"), id);
    const bankReturn =
      body.returnCode !== undefined && body.returnDate !== undefined ? achReturnReason(body.returnCode, body.returnDate) : null;
    if (payout.batchId !== null && payout.status === "pending") {
      // In a file the bank received: only the bank's return fails it, and a second operator confirms it.
      if (body.returnCode === undefined || body.returnDate === undefined || bankReturn === null)
        throw badRequest(PAYOUTS.bankReturnRequired, "bank_return_required");
      const batch = await c.env.DB.prepare("SELECT created_at FROM payout_batches WHERE id = ?")
        .bind(payout.batchId)
        .first<{ created_at: number }>();
      if (!isPlausibleReturnDate(body.returnDate, batch?.created_at ?? 0, Date.now()))
        throw badRequest(PAYOUTS.returnDateImplausible, "bank_return_required");
      const { id: approvalId } = await requestApproval(c, {
        kind: "payout_return",
        target: `payout:${id}`,
        beneficiaryId: payout.userId,
        payload: { payoutId: id, returnCode: body.returnCode, returnDate: body.returnDate, note: body.reason || null },
        summary: PAYOUTS.returnSummary(formatCents(payout.amountCents), username, id, bankReturn),
        amountCents: payout.amountCents,
      });
      return c.json({ approvalId, message: PAYOUTS.returnRequested } satisfies PayoutApprovalRequested, 202);
    }
    return c.json(await settle(c.env, c.get("db"), currentUser(c).id, id, "failed", bankReturn ?? body.reason ?? ""), 200);
  });
