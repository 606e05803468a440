// The operators' fair-play review of held prizes: the queue, and release or forfeit of each. A
// release counts toward the two-person rule's payout totals (common/domain/two-person.ts): one that
// would take the operator's or the player's last 24 h above TWO_PERSON_PAYOUT_USD, or that is the
// operator's own prize, waits for a second operator (the "held_prize" approval, executor below).
import { Hono, type Context } from "hono";
import { forfeitPrizeSchema, heldPrizeListQuerySchema } from "../../common/api/admin";
import type { HeldPrizeReleaseRequested } from "../../common/api/fair-play";
import { formatCents } from "../../common/domain/money";
import { needsSecondOperator } from "../../common/domain/two-person";
import { FAIR_PLAY } from "../../common/messages";
import { registerApprovalExecutor, requestApproval, twoPersonThresholds } from "../admin/approvals";
import { isTallyGuardTripped, tallyTotals } from "../admin/two-person";
import { listHeldPrizes, loadPrize, reviewPrize, type Review } from "../money/held-prizes";
import { pushStoredNotification } from "../durable/hub-client";
import { conflict } from "../http/errors";
import { currentUser, requireAdmin, requireUser } from "../http/middleware";
import { idParam, noFields, validate } from "../http/validate";
import type { AppEnv } from "../http/app-env";
import type { Db } from "../db/client";

/** The move, the player's stored notification and the audit row are one batch; the live push follows it. */
async function review(env: Env, db: Db, id: number, r: Review, actorUserId: number) {
  const { prize, frame } = await reviewPrize(env.DB, db, id, r, actorUserId);
  await pushStoredNotification(env, prize.userId, frame);
  return prize;
}

// A second operator approved a release: carry it out, once (a retry finds it released and changes nothing).
registerApprovalExecutor("held_prize", async (ctx, payload) => {
  const { prizeId } = payload as { prizeId: number };
  const prize = await loadPrize(ctx.db, prizeId);
  if (prize.status === "completed") return `held_prize:${prizeId}`;
  if (prize.status !== "held") throw conflict(FAIR_PLAY.prizeNotHeld, "prize_not_held");
  await review(ctx.env, ctx.db, prizeId, { outcome: "release" }, ctx.approverId);
  return `held_prize:${prizeId}`;
});

async function release(c: Context<AppEnv>, id: number) {
  const me = currentUser(c);
  const db = c.get("db");
  const prize = await loadPrize(db, id);
  if (prize.status !== "held") throw conflict(FAIR_PLAY.prizeNotHeld, "prize_not_held");
  const thresholdCents = twoPersonThresholds(c.env).payoutCents;
  const ask = async () => {
    const { id: approvalId } = await requestApproval(c, {
      kind: "held_prize",
      target: `held_prize:${id}`,
      beneficiaryId: prize.userId,
      payload: { prizeId: id },
      summary: FAIR_PLAY.releaseSummary(formatCents(prize.amountCents), prize.username, prize.tournamentTitle, id),
      amountCents: prize.amountCents,
    });
    const body: HeldPrizeReleaseRequested = { approvalId, message: FAIR_PLAY.releaseApprovalRequested(`$${formatCents(thresholdCents)}`) };
    return c.json(body, 202);
  };
  const totals = await tallyTotals(c.env.DB, "payout", me.id, [prize.userId]);
  const needed = needsSecondOperator({
    amountCents: prize.amountCents,
    operatorTotalCents24h: totals.operatorCents,
    payeeTotalCents24h: totals.payeeCents.get(prize.userId) ?? 0,
    thresholdCents,
    payeeIsOperator: prize.userId === me.id,
  });
  if (needed) return ask();
  try {
    return c.json(await review(c.env, db, id, { outcome: "release", tally: { thresholdCents } }, me.id), 200);
  } catch (e) {
    // Another release or payout took the totals up between the read and the batch.
    if (isTallyGuardTripped(e)) return ask();
    throw e;
  }
}

export const adminHeldPrizeRoutes = new Hono<AppEnv>()
  .use(requireUser, requireAdmin)
  .get("/", validate("query", heldPrizeListQuerySchema), async (c) => {
    return c.json(await listHeldPrizes(c.get("db"), c.req.valid("query").status));
  })
  .post("/:id/release", idParam, noFields, async (c) => release(c, c.req.valid("param").id))
  .post("/:id/forfeit", idParam, validate("json", forfeitPrizeSchema), async (c) => {
    const { reason } = c.req.valid("json");
    return c.json(await review(c.env, c.get("db"), c.req.valid("param").id, { outcome: "forfeit", reason }, currentUser(c).id));
  });
