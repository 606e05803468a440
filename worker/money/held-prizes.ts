// Prizes held for fair-play review: the operators' queue, and the two ways out of it. Release
// turns the held ledger row completed (the trigger of migrations/0005 then credits the balance);
// forfeit turns it forfeited (never credited) and records the amount in the house ledger.
import { and, desc, eq, inArray, or, type SQL } from "drizzle-orm";
import type { HeldPrize } from "../../common/api/fair-play";
import type { NotificationFrame } from "../../common/api/tournaments";
import { FAIR_PLAY, NOTIFY } from "../../common/messages";
import { centsToDollars, formatCents } from "../../common/domain/money";
import type { Db } from "../db/client";
import { iso } from "../db/present";
import { isFlagged, parseFlags, prizeReferenceOf } from "../db/present-fair-play";
import { tournamentParticipants, tournaments, transactions, users } from "../db/schema";
import { conflict, notFound } from "../http/errors";
import { runAtomically } from "./ledger";
import { auditStatementIf } from "../admin/audit";
import { tallyGuardStatement, tallyStatement } from "../admin/two-person";

const LIST_LIMIT = 500;

/** A prize ledger row with its player, tournament and the participant's flags. */
const heldPrizeRows = (db: Db, where: SQL | undefined) =>
  db
    .select({
      id: transactions.id,
      userId: transactions.userId,
      username: users.username,
      tournamentId: tournaments.id,
      tournamentTitle: tournaments.title,
      amountCents: transactions.amountCents,
      status: transactions.status,
      flags: tournamentParticipants.flags,
      createdAt: transactions.createdAt,
    })
    .from(transactions)
    .innerJoin(users, eq(users.id, transactions.userId))
    .innerJoin(
      tournamentParticipants,
      and(eq(tournamentParticipants.userId, transactions.userId), eq(transactions.reference, prizeReferenceOf)),
    )
    .innerJoin(tournaments, eq(tournaments.id, tournamentParticipants.tournamentId))
    .where(and(eq(transactions.type, "prize"), where));

type HeldPrizeRow = Awaited<ReturnType<typeof heldPrizeRows>>[number];

function presentHeldPrize(r: HeldPrizeRow): HeldPrize {
  // Only prize rows reach here, and a prize row is never pending or failed.
  const status = r.status === "held" || r.status === "forfeited" ? r.status : "completed";
  return {
    id: r.id,
    userId: r.userId,
    username: r.username,
    tournamentId: r.tournamentId,
    tournamentTitle: r.tournamentTitle,
    amount: centsToDollars(r.amountCents),
    status,
    flags: parseFlags(r.flags),
    createdAt: iso(r.createdAt),
  };
}

/**
 * The review queue, newest first: `held` only, or `all` prizes that went to review (held,
 * forfeited, or released: a completed prize of a flagged participant).
 */
export async function listHeldPrizes(db: Db, which: "held" | "all"): Promise<HeldPrize[]> {
  const where = which === "held" ? eq(transactions.status, "held") : or(inArray(transactions.status, ["held", "forfeited"]), isFlagged);
  const rows = await heldPrizeRows(db, where).orderBy(desc(transactions.createdAt), desc(transactions.id)).limit(LIST_LIMIT).all();
  return rows.map(presentHeldPrize);
}

export async function loadPrize(db: Db, id: number): Promise<HeldPrizeRow> {
  const row = await heldPrizeRows(db, eq(transactions.id, id)).get();
  if (!row) throw notFound(FAIR_PLAY.heldPrizeNotFound, "held_prize_not_found");
  return row;
}

export type Review =
  | {
      outcome: "release";
      /** Released on one operator's say: counted toward the two-person rule's payout totals, guarded in the same batch. */
      tally?: { thresholdCents: number };
    }
  | { outcome: "forfeit"; reason: string };

/**
 * Releases or forfeits a held prize, exactly once: one D1 batch whose every statement is
 * conditional on the row still being held, the status move last. D1 runs batches one at a time,
 * so of two racing reviews (release and release, or release and forfeit) the first moves the row
 * and the second finds it no longer held and writes nothing (its audit row neither): 409
 * prize_not_held. Returns the
 * prize after the move and the frame to push to the player.
 */
export async function reviewPrize(
  d1: D1Database,
  db: Db,
  id: number,
  review: Review,
  actorUserId: number,
): Promise<{ prize: HeldPrize; frame: NotificationFrame }> {
  const before = await loadPrize(db, id);
  const stillHeld = "(SELECT status FROM transactions WHERE id = ?) = 'held'";
  const release = review.outcome === "release";
  const message = release
    ? NOTIFY.prizeReleased(formatCents(before.amountCents), before.tournamentTitle)
    : NOTIFY.prizeForfeited(before.tournamentTitle);
  const action = release ? "prize_released" : "prize_forfeited";
  const status = release ? "released" : "forfeited";
  const statements = [
    d1
      .prepare(`INSERT INTO notifications (user_id, message, action, tournament_id, status) SELECT ?, ?, ?, ?, ? WHERE ${stillHeld}`)
      .bind(before.userId, message, action, before.tournamentId, status, id),
    ...(review.outcome === "forfeit"
      ? [
          d1
            .prepare(
              `INSERT INTO house_ledger (amount_cents, type, tournament_id, reference, description)
               SELECT ?, 'forfeited_prize', ?, ?, ? WHERE ${stillHeld} ON CONFLICT (reference) DO NOTHING`,
            )
            .bind(
              before.amountCents,
              before.tournamentId,
              `forfeit:${before.tournamentId}:${before.userId}`,
              FAIR_PLAY.forfeitedPrize(before.tournamentTitle, review.reason),
              id,
            ),
        ]
      : []),
    ...(review.outcome === "release" && review.tally
      ? [
          tallyStatement(
            d1,
            {
              bucket: "payout",
              kind: "held_prize",
              operatorId: actorUserId,
              payeeId: before.userId,
              amountCents: before.amountCents,
              reference: `held_prize:${id}`,
            },
            stillHeld,
            id,
          ),
          tallyGuardStatement(d1, "payout", actorUserId, [before.userId], review.tally.thresholdCents),
        ]
      : []),
    d1
      .prepare("UPDATE transactions SET status = ? WHERE id = ? AND type = 'prize' AND status = 'held'")
      .bind(release ? "completed" : "forfeited", id),
    // Right after the move, so it is written only when the move happened.
    auditStatementIf(
      d1,
      actorUserId,
      {
        action: release ? "held_prize.release" : "held_prize.forfeit",
        targetType: "held_prize",
        targetId: id,
        before: { status: "held" },
        after: { status: release ? "completed" : "forfeited" },
        note: review.outcome === "forfeit" ? review.reason : null,
      },
      "changes() > 0",
    ),
  ];
  const changes = await runAtomically(d1, statements);
  if ((changes.at(-2) ?? 0) === 0) throw conflict(FAIR_PLAY.prizeNotHeld, "prize_not_held");
  const prize = presentHeldPrize(await loadPrize(db, id));
  return { prize, frame: { type: "notification", message, data: { action, tournamentId: before.tournamentId, status } } };
}
