// The host's tools as the room applies them (docs/decisions/017-host-tools.md): what counts once a
// question is voided or a player disqualified, the D1 writes of each action (with its audit row, in
// one batch), and the refusals. The rules themselves are pure: common/domain/host-tools.ts.
import type { ErrorCode } from "../../../common/api/errors";
import type { AuditAction } from "../../../common/api/console";
import { HOST_TOOLS } from "../../../common/console-messages";
import { NOTIFY } from "../../../common/messages";
import { countedQuestions, countedRevealed, withoutVoided, type HostRefusal } from "../../../common/domain/host-tools";
import { auditStatement } from "../../admin/audit";
import type { TournamentNotice } from "./notices";
import type { RoomStore } from "./storage";
import type { ParticipantRow, PlayRow } from "./tables";

/**
 * What counts for the ranking: the players not disqualified, their plays of questions not voided,
 * and the number of questions left to count (a voided question is not a timed-out one either).
 */
export class Counted {
  readonly #store: RoomStore;
  constructor(store: RoomStore) {
    this.#store = store;
  }

  voided(): Set<number> {
    return this.#store.voidedOrds();
  }

  /** Participants in the ranking, in the order they joined. */
  ranked(): ParticipantRow[] {
    return this.#store.participants().filter((p) => p.disqualified_at === null);
  }

  plays(plays: readonly PlayRow[]): PlayRow[] {
    return withoutVoided(plays, this.voided());
  }

  /** Questions each player is scored on: the show's less the voided. */
  slots(): number {
    return countedQuestions(this.#store.slotCount(), this.voided().size);
  }

  /** Of the first `revealed` questions of a live show, how many count. */
  revealed(revealed: number): number {
    return countedRevealed(revealed, this.voided());
  }
}

export interface HostFailure {
  status: 404 | 409;
  code: ErrorCode;
  message: string;
}

/** A refusal of the pure rules as the API answers it. */
export function hostFailure(refusal: Exclude<HostRefusal, null> | "not_opened" | "unknown_question"): HostFailure {
  switch (refusal) {
    case "not_live_show":
      return { status: 409, code: "live_show_only", message: HOST_TOOLS.liveShowOnly };
    case "not_live":
      return { status: 409, code: "tournament_not_running", message: HOST_TOOLS.notRunning };
    case "settled":
      return { status: 409, code: "tournament_not_running", message: HOST_TOOLS.settled };
    case "not_opened":
      return { status: 409, code: "question_not_opened", message: HOST_TOOLS.questionNotOpened };
    case "unknown_question":
      return { status: 404, code: "question_not_found", message: HOST_TOOLS.questionNotFound };
  }
}

/** The audit row of a host action on a tournament. */
export const hostAudit = (
  db: D1Database,
  actorId: number,
  action: AuditAction,
  tournamentId: number,
  before: unknown,
  after: unknown,
  note: string | null = null,
) => auditStatement(db, actorId, { action, targetType: "tournament", targetId: tournamentId, before, after, note });

/** A resumed show's end time, in D1 as in the room: the pause does not eat into the show. */
export const endTimeStatement = (db: D1Database, tournamentId: number, endTime: number | null) =>
  db.prepare("UPDATE tournaments SET end_time = ? WHERE id = ? AND status = 'live'").bind(endTime, tournamentId);

/** A settled tournament's prize for this player, as the ledger has it; null when they won none. */
export const prizeRowStatement = (db: D1Database, tournamentId: number, userId: number) =>
  db
    .prepare("SELECT id, amount_cents, status FROM transactions WHERE reference = ? AND type = 'prize'")
    .bind(`prize:${tournamentId}:${userId}`);

/**
 * After settlement, a prize still held for fair-play review goes to the house ledger, once: the
 * forfeit's reference is the one Fair play's Forfeit uses, and both statements act only while the
 * prize is held. A prize already paid is never taken here (the route refuses it).
 */
export function forfeitHeldPrizeStatements(
  db: D1Database,
  p: { prizeId: number; amountCents: number; tournamentId: number; userId: number; description: string },
): D1PreparedStatement[] {
  const stillHeld = "(SELECT status FROM transactions WHERE id = ?) = 'held'";
  return [
    db
      .prepare(
        `INSERT INTO house_ledger (amount_cents, type, tournament_id, reference, description)
         SELECT ?, 'forfeited_prize', ?, ?, ? WHERE ${stillHeld} ON CONFLICT (reference) DO NOTHING`,
      )
      .bind(p.amountCents, p.tournamentId, `forfeit:${p.tournamentId}:${p.userId}`, p.description, p.prizeId),
    db.prepare("UPDATE transactions SET status = 'forfeited' WHERE id = ? AND type = 'prize' AND status = 'held'").bind(p.prizeId),
  ];
}

/** The notice a disqualified player gets (stored, and pushed to their open pages). */
export function disqualificationNotice(tournamentId: number, title: string, reason: string): TournamentNotice {
  const message = NOTIFY.disqualified(title, reason);
  const action = "player_disqualified" as const;
  return {
    message,
    action,
    status: "live",
    tournamentId,
    frame: { type: "notification", message, data: { action, tournamentId, status: "live" } },
  };
}

/**
 * The disqualification in D1, once: the participant row marked (the finished leaderboard leaves
 * it out), the player's notification and the audit row, each written only when the mark was made.
 */
export function disqualificationStatements(
  db: D1Database,
  d: { tournamentId: number; userId: number; username: string; reason: string; at: number; actorId: number; approvalId: number | null },
  notice: TournamentNotice,
): D1PreparedStatement[] {
  const marked = "EXISTS (SELECT 1 FROM tournament_participants WHERE tournament_id = ? AND user_id = ? AND disqualified_at = ?)";
  return [
    db
      .prepare(
        "UPDATE tournament_participants SET disqualified_at = ?, disqualified_reason = ? WHERE tournament_id = ? AND user_id = ? AND disqualified_at IS NULL",
      )
      .bind(d.at, d.reason, d.tournamentId, d.userId),
    db
      .prepare(`INSERT INTO notifications (user_id, message, action, tournament_id, status) SELECT ?, ?, ?, ?, ? WHERE ${marked}`)
      .bind(d.userId, notice.message, notice.action, d.tournamentId, notice.status, d.tournamentId, d.userId, d.at),
    db
      .prepare(
        `INSERT INTO audit_log (actor_user_id, action, target_type, target_id, before, after, note)
         SELECT ?, 'tournament.disqualify', 'tournament', ?, ?, ?, ? WHERE ${marked}`,
      )
      .bind(
        d.actorId,
        String(d.tournamentId),
        JSON.stringify({ userId: d.userId, username: d.username, disqualified: false }),
        JSON.stringify({ userId: d.userId, username: d.username, disqualified: true, approvalId: d.approvalId }),
        d.reason,
        d.tournamentId,
        d.userId,
        d.at,
      ),
  ];
}
