// Everything a TournamentRoom reads from and writes to D1. Writes are batches (one transaction
// each); the per-row data of a batch travels as one JSON parameter read with json_each, so a
// batch stays a handful of statements however many players there are.
import { XP_PER_LEVEL } from "../../../common/spec";
import { isPracticeKind, minPlayersFor } from "../../../common/domain/tournaments";
import { TOURNAMENT_DURATION_MS } from "../../../common/spec";
import { ledgerStatement } from "../../money/ledger";
import type { TournamentNotice } from "./notices";
import type { TournamentFormat, TournamentKind } from "../../../common/api/types";
import type { Phase, TournamentConfig } from "./storage";
import type { ResponseRecord } from "./standings";
import type { FairPlayFlag } from "../../../common/api/fair-play";

/** Publishes the room's fairness commitment, before the start and once. */
export const commitmentStatement = (db: D1Database, tournamentId: number, commitment: string): D1PreparedStatement =>
  db.prepare("UPDATE tournaments SET fairness_commitment = ? WHERE id = ? AND fairness_commitment IS NULL").bind(commitment, tournamentId);

type TournamentRecord = {
  id: number;
  title: string;
  entry_fee_cents: number;
  prize_pool_cents: number;
  max_participants: number | null;
  min_level: number;
  start_time: number;
  end_time: number | null;
  status: "upcoming" | "live" | "completed" | "cancelled";
  kind: TournamentKind;
  format: TournamentFormat;
  question_draw: number;
  settled_at: number | null;
};

type ParticipantRecord = TournamentConfig["participants"][number];

const participantsQuery = (db: D1Database, tournamentId: number) =>
  db
    .prepare(
      `SELECT p.user_id, u.username, u.level, p.joined_at, p.finished_at, p.has_completed AS results_written,
              CASE WHEN json_extract(u.preferences, '$.showLevel') = 0 THEN 0 ELSE 1 END AS show_level,
              p.device_hash, p.network_hash
       FROM tournament_participants p JOIN users u ON u.id = p.user_id WHERE p.tournament_id = ? ORDER BY p.joined_at, p.id`,
    )
    .bind(tournamentId);

/**
 * The tournament, its questions and its participants as D1 has them; null when it does not exist.
 * The fairness salt and commitment are the room's own: they are added by the caller.
 */
export async function loadConfig(
  db: D1Database,
  tournamentId: number,
): Promise<(Omit<TournamentConfig, "meta"> & { meta: Omit<TournamentConfig["meta"], "salt" | "commitment"> }) | null> {
  const [t, qs, ps] = await db.batch([
    db.prepare("SELECT * FROM tournaments WHERE id = ?").bind(tournamentId),
    db
      .prepare(
        `SELECT tq."order" AS ord, q.id AS question_id, q.question, q.options, q.correct_answer, q.explanation
         FROM tournament_questions tq JOIN questions q ON q.id = tq.question_id
         WHERE tq.tournament_id = ? ORDER BY tq."order"`,
      )
      .bind(tournamentId),
    participantsQuery(db, tournamentId),
  ]);
  const row = t?.results[0] as TournamentRecord | undefined;
  if (!row) return null;
  const practice = isPracticeKind(row.kind);
  const phase: Phase = row.status;
  return {
    meta: {
      tournament_id: row.id,
      title: row.title,
      entry_fee_cents: row.entry_fee_cents,
      prize_pool_cents: practice ? 0 : row.prize_pool_cents,
      max_participants: practice ? null : row.max_participants,
      min_level: practice ? 1 : row.min_level,
      practice: practice ? 1 : 0,
      min_players: minPlayersFor({ entryFeeCents: row.entry_fee_cents }),
      start_time: row.start_time,
      // The always-open practice entry never ends; a practice run ends at its own end time.
      end_time: row.kind === "practice" ? null : (row.end_time ?? row.start_time + TOURNAMENT_DURATION_MS),
      phase,
      settled: row.settled_at !== null,
      format: practice ? "self_paced" : row.format,
      // A live show sends one question to everyone; practice runs pick their own fresh ten.
      draw_width: practice || row.format === "live_show" ? 1 : Math.max(1, row.question_draw),
    },
    // Questions are renumbered 0..n-1 in their stored order.
    questions: (qs!.results as TournamentConfig["questions"]).map((q, i) => ({ ...q, ord: i })),
    participants: ps!.results as ParticipantRecord[],
  };
}

export async function loadParticipants(db: D1Database, tournamentId: number): Promise<ParticipantRecord[]> {
  return (await participantsQuery(db, tournamentId).all<ParticipantRecord>()).results;
}

export async function userLevels(db: D1Database, userIds: number[]): Promise<Map<number, number>> {
  const rows = await db
    .prepare("SELECT id, level FROM users WHERE id IN (SELECT value FROM json_each(?))")
    .bind(JSON.stringify(userIds))
    .all<{ id: number; level: number }>();
  return new Map(rows.results.map((r) => [r.id, r.level]));
}

export function cheatAttemptStatement(db: D1Database, tournamentId: number, userId: number, reason: string) {
  return db.prepare("INSERT INTO cheat_attempts (user_id, tournament_id, reason) VALUES (?, ?, ?)").bind(userId, tournamentId, reason);
}

/**
 * The ledger reference of a player's entry. A player who left before the start and joins again
 * pays a new entry, so each entry after the first carries how many times they had left.
 */
export const entryReference = (tournamentId: number, userId: number, departures: number) =>
  departures === 0 ? `entry:${tournamentId}:${userId}` : `entry:${tournamentId}:${userId}:${departures}`;

/** The refund of the entry a player leaves: one per entry, so a repeated leave pays nothing twice. */
export const leaveReference = (tournamentId: number, userId: number, departures: number) => `leave:${tournamentId}:${userId}:${departures}`;

/** The tournament an entry or leave reference names. */
export function tournamentOfReference(reference: string): number {
  const id = Number(/^(?:entry|leave):(\d+):/.exec(reference)?.[1]);
  if (!Number.isSafeInteger(id)) throw new Error(`not an entry or leave reference: ${reference}`);
  return id;
}

/** Leaving before the start: the entry fee back, the seat freed, the count and pool lowered, together. */
export function leaveStatements(
  db: D1Database,
  l: {
    tournamentId: number;
    title: string;
    userId: number;
    feeCents: number;
    departures: number;
    participants: number;
    prizePoolCents: number;
  },
): D1PreparedStatement[] {
  return [
    ...(l.feeCents > 0
      ? [
          ledgerStatement(db, {
            userId: l.userId,
            amountCents: l.feeCents,
            type: "refund",
            reference: leaveReference(l.tournamentId, l.userId, l.departures),
            description: `Refund: ${l.title} (left before the start)`,
          }),
        ]
      : []),
    db.prepare("DELETE FROM tournament_participants WHERE tournament_id = ? AND user_id = ?").bind(l.tournamentId, l.userId),
    db
      .prepare("UPDATE tournaments SET current_participants = ?, prize_pool_cents = ? WHERE id = ? AND status = 'upcoming'")
      .bind(l.participants, l.prizePoolCents, l.tournamentId),
  ];
}

/** How many times each player left this tournament, as the ledger's refunds prove it (paid tournaments). */
export async function loadDepartures(db: D1Database, tournamentId: number): Promise<Map<number, number>> {
  const { results } = await db
    .prepare("SELECT user_id, count(*) AS times FROM transactions WHERE reference LIKE ? GROUP BY user_id")
    .bind(`leave:${tournamentId}:%`)
    .all<{ user_id: number; times: number }>();
  return new Map(results.map((r) => [r.user_id, r.times]));
}

/**
 * Stores one notification per user, once: a repeated lifecycle step finds the rows already there.
 */
export function notificationsStatement(db: D1Database, n: TournamentNotice, userIds: number[]): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO notifications (user_id, message, action, tournament_id, status)
       SELECT j.value, ?1, ?2, ?3, ?4 FROM json_each(?5) AS j
       WHERE NOT EXISTS (SELECT 1 FROM notifications n WHERE n.user_id = j.value AND n.tournament_id = ?3 AND n.action = ?2)`,
    )
    .bind(n.message, n.action, n.tournamentId, n.status, JSON.stringify(userIds));
}

/** A practice run is over (its player finished, or its time ran out): completed, once. */
export function closePracticeRunStatement(db: D1Database, tournamentId: number, now: number): D1PreparedStatement {
  return db
    .prepare(
      "UPDATE tournaments SET status = 'completed', settled_at = ?1, end_time = min(coalesce(end_time, ?1), ?1) WHERE id = ?2 AND settled_at IS NULL",
    )
    .bind(now, tournamentId);
}

/** upcoming -> live; a late start moves the end by the same delay so play keeps its full length. */
export function startStatement(db: D1Database, tournamentId: number, endTime: number | null): D1PreparedStatement {
  return db
    .prepare("UPDATE tournaments SET status = 'live', end_time = ? WHERE id = ? AND status = 'upcoming'")
    .bind(endTime, tournamentId);
}

/**
 * upcoming (or, by an operator, live) -> cancelled, with every entry fee refunded: the references
 * make a repeat a no-op, and the lifecycle's cancel and an operator's share them.
 */
export function cancelStatements(
  db: D1Database,
  c: { tournamentId: number; title: string; feeCents: number; userIds: number[] },
): D1PreparedStatement[] {
  const refunds =
    c.feeCents > 0
      ? c.userIds.map((userId) =>
          ledgerStatement(db, {
            userId,
            amountCents: c.feeCents,
            type: "refund",
            reference: `refund:${c.tournamentId}:${userId}`,
            description: `Refund: ${c.title} (cancelled)`,
          }),
        )
      : [];
  return [
    db
      .prepare(
        "UPDATE tournaments SET status = 'cancelled', prize_pool_cents = 0 WHERE id = ? AND status IN ('upcoming', 'live') AND settled_at IS NULL",
      )
      .bind(c.tournamentId),
    ...refunds,
  ];
}

/** A player's totals as the participant row stores them. */
export interface ParticipantResult {
  u: number;
  score: number;
  answered: number;
  correct: number;
  totalMs: number;
  xp: number;
  finishedAt: number | null;
  rank: number | null;
  prize: number;
}

export function participantResultsStatement(db: D1Database, tournamentId: number, rows: ParticipantResult[]): D1PreparedStatement {
  return db
    .prepare(
      `UPDATE tournament_participants SET score = s.score, questions_answered = s.answered, correct_answers = s.correct,
         total_response_ms = s.total_ms, xp_earned = s.xp, finished_at = s.finished_at, has_completed = 1,
         rank = coalesce(s.rank, tournament_participants.rank), prize_cents = s.prize
       FROM (SELECT json_extract(value, '$.u') AS u, json_extract(value, '$.score') AS score, json_extract(value, '$.answered') AS answered,
               json_extract(value, '$.correct') AS correct, json_extract(value, '$.totalMs') AS total_ms, json_extract(value, '$.xp') AS xp,
               json_extract(value, '$.finishedAt') AS finished_at, json_extract(value, '$.rank') AS rank, json_extract(value, '$.prize') AS prize
             FROM json_each(?)) AS s
       -- The unary + keeps SQLite from driving the join off the tournament index (a scan of every
       -- participant per JSON row, quadratic at settlement); it looks each row up by user instead.
       WHERE +tournament_participants.tournament_id = ? AND tournament_participants.user_id = s.u`,
    )
    .bind(JSON.stringify(rows), tournamentId);
}

export function responsesStatement(db: D1Database, tournamentId: number, rows: ResponseRecord[]): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO user_responses (tournament_id, user_id, question_id, answer, is_correct, response_time, points_earned, created_at, answered_at)
       SELECT ?, json_extract(value, '$.u'), json_extract(value, '$.q'), json_extract(value, '$.a'), json_extract(value, '$.c'),
              json_extract(value, '$.ms'), json_extract(value, '$.p'), json_extract(value, '$.at'), json_extract(value, '$.ra')
       FROM json_each(?) WHERE true
       ON CONFLICT (tournament_id, user_id, question_id) DO NOTHING`,
    )
    .bind(tournamentId, JSON.stringify(rows));
}

/**
 * Level from total XP, as common/domain/levels.ts levelForXp computes it, evaluated inside the
 * UPDATE so concurrent settlements cannot race. The cast keeps the division integral: D1 may bind
 * a JS number as REAL.
 */
const levelSql = (xpExpr: string) => `max(users.level, CAST(${xpExpr} AS INTEGER) / ${XP_PER_LEVEL} + 1)`;

/**
 * XP for a practice run, credited once: the participant row still says not completed, and the
 * statement that marks it completed comes after this one in the same batch.
 */
export function practiceXpStatement(db: D1Database, tournamentId: number, userId: number, xp: number): D1PreparedStatement {
  return db
    .prepare(
      `UPDATE users SET experience_points = experience_points + ?1, level = ${levelSql("users.experience_points + ?1")}
       WHERE id = ?2 AND EXISTS (SELECT 1 FROM tournament_participants WHERE tournament_id = ?3 AND user_id = ?2 AND has_completed = 0)`,
    )
    .bind(xp, userId, tournamentId);
}

export interface SettlementRow extends ParticipantResult {
  rank: number;
  won: 0 | 1;
}

/**
 * The whole settlement as one batch. The first statement claims it: it stamps settled_at only
 * while settled_at is still null. Every statement that is not idempotent on its own (counters,
 * XP, notifications) runs only while settled_at carries this run's stamp, so a second run, even
 * after a restart between the batch and the room's own bookkeeping, changes nothing. Prizes are
 * ledger rows with unique references on top of that.
 */
export function settlementStatements(
  db: D1Database,
  s: {
    tournamentId: number;
    title: string;
    stamp: number;
    endTime: number;
    rows: SettlementRow[];
    /** Prize places nobody qualified for: their share stays with the house. */
    unclaimed: { place: number; cents: number }[];
    responses: ResponseRecord[];
    notice: TournamentNotice;
    /** Fair-play flags by player: their prize is held for review (docs/fair-play.md). */
    flags: Map<number, FairPlayFlag[]>;
  },
): D1PreparedStatement[] {
  const gate = "EXISTS (SELECT 1 FROM tournaments WHERE id = ?2 AND settled_at = ?3)";
  const ordinal = ["1st", "2nd", "3rd"];
  const placeName = (place: number) => ordinal[place - 1] ?? `#${place}`;
  return [
    db
      .prepare("UPDATE tournaments SET status = 'completed', settled_at = ?, end_time = ? WHERE id = ? AND settled_at IS NULL")
      .bind(s.stamp, s.endTime, s.tournamentId),
    ...s.rows
      .filter((r) => r.prize > 0)
      .map((r) =>
        ledgerStatement(db, {
          userId: r.u,
          amountCents: r.prize,
          type: "prize",
          status: s.flags.has(r.u) ? "held" : "completed",
          reference: `prize:${s.tournamentId}:${r.u}`,
          description: `Prize: ${s.title} (${placeName(r.rank)} place)${s.flags.has(r.u) ? " - under review" : ""}`,
        }),
      ),
    ...s.unclaimed.map((u) =>
      db
        .prepare(
          `INSERT INTO house_ledger (amount_cents, type, tournament_id, reference, description)
           VALUES (?, 'unclaimed_prize', ?, ?, ?) ON CONFLICT (reference) DO NOTHING`,
        )
        .bind(
          u.cents,
          s.tournamentId,
          `unclaimed:${s.tournamentId}:${u.place}`,
          `Unclaimed ${placeName(u.place)} prize: ${s.title} (no qualifying player)`,
        ),
    ),
    db
      .prepare(
        `UPDATE users SET experience_points = users.experience_points + s.xp,
           level = ${levelSql("users.experience_points + s.xp")},
           tournaments_played = users.tournaments_played + 1,
           tournaments_won = users.tournaments_won + s.won
         FROM (SELECT json_extract(value, '$.u') AS u, json_extract(value, '$.xp') AS xp, json_extract(value, '$.won') AS won FROM json_each(?1)) AS s
         WHERE users.id = s.u AND ${gate}`,
      )
      .bind(JSON.stringify(s.rows.map((r) => ({ u: r.u, xp: r.xp, won: r.won }))), s.tournamentId, s.stamp),
    participantResultsStatement(db, s.tournamentId, s.rows),
    db
      .prepare(
        `UPDATE tournament_participants SET flags = json_extract(f.value, '$.flags')
         FROM json_each(?1) AS f WHERE +tournament_participants.tournament_id = ?2 AND tournament_participants.user_id = json_extract(f.value, '$.u')`,
      )
      .bind(JSON.stringify([...s.flags].map(([u, flags]) => ({ u, flags: JSON.stringify(flags) }))), s.tournamentId),
    responsesStatement(db, s.tournamentId, s.responses),
    db
      .prepare(
        `INSERT INTO notifications (user_id, message, action, tournament_id, status)
         SELECT j.value, ?4, ?5, ?2, ?6 FROM json_each(?1) AS j WHERE ${gate}`,
      )
      .bind(JSON.stringify(s.rows.map((r) => r.u)), s.tournamentId, s.stamp, s.notice.message, s.notice.action, s.notice.status),
  ];
}
