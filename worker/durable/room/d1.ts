// Everything a TournamentRoom reads from and writes to D1. Writes are batches (one transaction
// each); the per-row data of a batch travels as JSON parameters read with json_each, each
// statement's bound values within D1's limit (worker/db/d1-limits.ts): settlement is written in
// chunks of players, each applied exactly once (docs/decisions/012-chunked-settlement.md).
import { CHEAT_ATTEMPTS_STORED_MAX, XP_PER_LEVEL } from "../../../common/spec";
import { isPracticeKind, minPlayersFor } from "../../../common/domain/tournaments";
import { TOURNAMENT_DURATION_MS } from "../../../common/spec";
import { ledgerStatement } from "../../money/ledger";
import { POOL_PERCENT } from "../../../common/domain/prizes";
import { bindWithin, D1_MAX_BOUND_BYTES, packJson } from "../../db/d1-limits";
import { settleQuestionStatements } from "../../questions/usage";
import type { TournamentNotice } from "./notices";
import type { TournamentFormat, TournamentKind } from "../../../common/api/types";
import type { Phase, TournamentConfig } from "./tables";
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
  shard_count: number;
};

type ParticipantRecord = TournamentConfig["participants"][number];

/** `shard`: only the seats on this play shard (decision 011); null, every seat. */
const participantsQuery = (db: D1Database, tournamentId: number, shard: number | null) =>
  db
    .prepare(
      `SELECT p.user_id, u.username, u.level, p.joined_at, p.finished_at, p.has_completed AS results_written,
              CASE WHEN json_extract(u.preferences, '$.showLevel') = 0 THEN 0 ELSE 1 END AS show_level,
              p.device_hash, p.network_hash
       FROM tournament_participants p JOIN users u ON u.id = p.user_id
       WHERE p.tournament_id = ?1 AND (?2 IS NULL OR p.shard = ?2) ORDER BY p.joined_at, p.id`,
    )
    .bind(tournamentId, shard);

/**
 * The tournament, its questions and its participants as D1 has them; null when it does not exist.
 * The fairness salt and commitment (and its version) are the room's own: they are added by the caller.
 */
export async function loadConfig(
  db: D1Database,
  tournamentId: number,
  shard: number | null = null,
): Promise<
  (Omit<TournamentConfig, "meta"> & { meta: Omit<TournamentConfig["meta"], "salt" | "commitment" | "commitment_version"> }) | null
> {
  const [t, qs, ps] = await db.batch([
    db.prepare("SELECT * FROM tournaments WHERE id = ?").bind(tournamentId),
    db
      .prepare(
        `SELECT tq."order" AS ord, q.id AS question_id, q.question, q.options, q.correct_answer, q.explanation
         FROM tournament_questions tq JOIN questions q ON q.id = tq.question_id
         WHERE tq.tournament_id = ? ORDER BY tq."order"`,
      )
      .bind(tournamentId),
    participantsQuery(db, tournamentId, shard),
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
      shard_count: row.shard_count,
    },
    // Questions are renumbered 0..n-1 in their stored order.
    questions: (qs!.results as TournamentConfig["questions"]).map((q, i) => ({ ...q, ord: i })),
    participants: ps!.results as ParticipantRecord[],
  };
}

export async function loadParticipants(db: D1Database, tournamentId: number, shard: number | null = null): Promise<ParticipantRecord[]> {
  return (await participantsQuery(db, tournamentId, shard).all<ParticipantRecord>()).results;
}

/** Bytes left for one JSON parameter beside a statement's few other bound values. */
const JSON_BUDGET = D1_MAX_BOUND_BYTES - 1_000;

export async function userLevels(db: D1Database, userIds: number[]): Promise<Map<number, number>> {
  if (userIds.length === 0) return new Map();
  const results = await db.batch<{ id: number; level: number }>(
    packJson(userIds, JSON_BUDGET).map((ids) =>
      bindWithin(db.prepare("SELECT id, level FROM users WHERE id IN (SELECT value FROM json_each(?))"), ids),
    ),
  );
  return new Map(results.flatMap((r) => r.results.map((row) => [row.id, row.level] as const)));
}

/**
 * A refused answer's log (one batch): a row while the player has fewer than
 * CHEAT_ATTEMPTS_STORED_MAX in this tournament, else one more on the `suppressed` count of their
 * last row, so refusals cannot grow the table without limit. Both statements run every time, so
 * what a refusal costs depends on the player's count, never on the question id it named.
 */
export function cheatAttemptStatements(db: D1Database, tournamentId: number, userId: number, reason: string): D1PreparedStatement[] {
  const mine = "FROM cheat_attempts WHERE tournament_id = ?1 AND user_id = ?2";
  return [
    // First, so that the row the insert below adds at the cap is not counted as an extra.
    db
      .prepare(
        `UPDATE cheat_attempts SET suppressed = suppressed + 1 WHERE id = (SELECT max(id) ${mine}) AND (SELECT count(*) ${mine}) >= ?3`,
      )
      .bind(tournamentId, userId, CHEAT_ATTEMPTS_STORED_MAX),
    db
      .prepare(`INSERT INTO cheat_attempts (user_id, tournament_id, reason) SELECT ?2, ?1, ?4 WHERE (SELECT count(*) ${mine}) < ?3`)
      .bind(tournamentId, userId, CHEAT_ATTEMPTS_STORED_MAX, reason),
  ];
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
    /** Null (a sharded show, whose seats no one object holds): counted from the seats, and a paid pool from them. */
    participants: number | null;
    prizePoolCents: number | null;
    /** Why the seat goes: the player left, or staff may not play for prizes (removed at the start). */
    why?: "left" | "staff";
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
            description:
              l.why === "staff" ? `Refund: ${l.title} (staff cannot play for prizes)` : `Refund: ${l.title} (left before the start)`,
          }),
        ]
      : []),
    db.prepare("DELETE FROM tournament_participants WHERE tournament_id = ? AND user_id = ?").bind(l.tournamentId, l.userId),
    l.participants === null
      ? db
          .prepare(
            `UPDATE tournaments SET current_participants = s.n,
               prize_pool_cents = CASE WHEN ?2 > 0 THEN CAST(s.n * ?2 * ?3 / 100 AS INTEGER) ELSE prize_pool_cents END
             FROM (SELECT count(*) AS n FROM tournament_participants WHERE tournament_id = ?1) AS s
             WHERE id = ?1 AND status = 'upcoming'`,
          )
          .bind(l.tournamentId, l.feeCents, POOL_PERCENT)
      : db
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

/** D1 binds at most 100 values per statement: the notice's four, and user ids for the rest. */
export const NOTIFICATION_ROWS_PER_STATEMENT = 96;

/**
 * Stores one notification per user, once: a repeated lifecycle step finds the rows already there.
 * Multi-row INSERTs of NOTIFICATION_ROWS_PER_STATEMENT users each, so no statement outgrows D1's
 * bound-value limit however many players a tournament has; run them in the batch of the status
 * change they announce.
 */
export function notificationsStatements(db: D1Database, n: TournamentNotice, userIds: number[]): D1PreparedStatement[] {
  const out: D1PreparedStatement[] = [];
  for (let i = 0; i < userIds.length; i += NOTIFICATION_ROWS_PER_STATEMENT) {
    const ids = userIds.slice(i, i + NOTIFICATION_ROWS_PER_STATEMENT);
    const values = ids.map((_, k) => `(?${k + 5})`).join(", ");
    out.push(
      db
        .prepare(
          `INSERT INTO notifications (user_id, message, action, tournament_id, status)
           SELECT v.column1, ?1, ?2, ?3, ?4 FROM (VALUES ${values}) AS v
           WHERE NOT EXISTS (SELECT 1 FROM notifications n WHERE n.user_id = v.column1 AND n.tournament_id = ?3 AND n.action = ?2)`,
        )
        .bind(n.message, n.action, n.tournamentId, n.status, ...ids),
    );
  }
  return out;
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
  c: {
    tournamentId: number;
    title: string;
    feeCents: number;
    userIds: number[];
    questionUse: QuestionUse;
    /** Stored with the status, so the tournament's page says why (an operator's reason as given). */
    cause: { by: "too_few_players" } | { by: "operator"; reason: string } | { by: "creator" };
  },
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
    // Before the status changes: each applies only while the tournament is still open, so once.
    ...settleQuestionStatements(db, c.questionUse, {
      sql: "EXISTS (SELECT 1 FROM tournaments WHERE id = ? AND status IN ('upcoming', 'live') AND settled_at IS NULL)",
      params: [c.tournamentId],
    }),
    db
      .prepare(
        "UPDATE tournaments SET status = 'cancelled', prize_pool_cents = 0, cancel_cause = ?, cancel_reason = ? WHERE id = ? AND status IN ('upcoming', 'live') AND settled_at IS NULL",
      )
      .bind(c.cause.by, c.cause.by === "operator" ? c.cause.reason : null, c.tournamentId),
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
  /** XP from answers, and once settled from the place too. */
  xp: number;
  finishedAt: number | null;
  rank: number | null;
  prize: number;
}

/** A results row as JSON: an array, so 10,000 rows do not repeat 10,000 sets of keys. */
const resultTuple = (r: ParticipantResult) => [r.u, r.score, r.answered, r.correct, r.totalMs, r.xp, r.finishedAt, r.rank, r.prize];

/** The participant rows' totals; rows whose JSON exceeds one statement's budget go in several statements. */
export function participantResultsStatements(db: D1Database, tournamentId: number, rows: ParticipantResult[]): D1PreparedStatement[] {
  return packJson(rows.map(resultTuple), JSON_BUDGET).map((json) =>
    bindWithin(
      db.prepare(
        `UPDATE tournament_participants SET score = s.score, questions_answered = s.answered, correct_answers = s.correct,
           total_response_ms = s.total_ms, xp_earned = s.xp, finished_at = s.finished_at, has_completed = 1,
           rank = coalesce(s.rank, tournament_participants.rank), prize_cents = s.prize
         FROM (SELECT value ->> 0 AS u, value ->> 1 AS score, value ->> 2 AS answered, value ->> 3 AS correct, value ->> 4 AS total_ms,
                 value ->> 5 AS xp, value ->> 6 AS finished_at, value ->> 7 AS rank, value ->> 8 AS prize
               FROM json_each(?)) AS s
         -- The unary + keeps SQLite from driving the join off the tournament index (a scan of every
         -- participant per JSON row, quadratic at settlement); it looks each row up by user instead.
         WHERE +tournament_participants.tournament_id = ? AND tournament_participants.user_id = s.u`,
      ),
      json,
      tournamentId,
    ),
  );
}

/** user_responses rows, idempotent per (tournament, user, question), in as many statements as their size needs. */
export function responsesStatements(db: D1Database, tournamentId: number, rows: ResponseRecord[]): D1PreparedStatement[] {
  return packJson(
    rows.map((r) => [r.u, r.q, r.a, r.c, r.ms, r.p, r.at, r.ra]),
    JSON_BUDGET,
  ).map((json) =>
    bindWithin(
      db.prepare(
        `INSERT INTO user_responses (tournament_id, user_id, question_id, answer, is_correct, response_time, points_earned, created_at, answered_at)
         SELECT ?, value ->> 0, value ->> 1, value ->> 2, value ->> 3, value ->> 4, value ->> 5, value ->> 6, value ->> 7
         FROM json_each(?) WHERE true
         ON CONFLICT (tournament_id, user_id, question_id) DO NOTHING`,
      ),
      tournamentId,
      json,
    ),
  );
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

/** What a settlement writes, computed by the room from its own storage; the same on every attempt. */
export interface SettlementPlan {
  tournamentId: number;
  title: string;
  /** settled_at: when the first attempt began. */
  stamp: number;
  endTime: number;
  /** Every participant, in rank order. */
  rows: SettlementRow[];
  /** Prize places nobody qualified for: their share stays with the house. */
  unclaimed: { place: number; cents: number }[];
  responses: ResponseRecord[];
  notice: TournamentNotice;
  /** Fair-play flags by player: their prize is held for review (docs/fair-play.md). */
  flags: Map<number, FairPlayFlag[]>;
  /** Its questions: issued ones are burned, the others give their prize use back (docs/questions.md). */
  questionUse: QuestionUse;
}

export interface QuestionUse {
  issued: number[];
  unissued: number[];
  at: number;
}

/** The most bytes one results row takes as JSON: nine safe integers (16 characters at most each) or nulls. */
const RESULT_ROW_MAX_BYTES = 9 * 16 + 8 + 2;
/**
 * Players per settlement chunk, from D1_MAX_BOUND_BYTES: a chunk's results rows always fit one
 * statement. Its responses (about 1 KB a player) are split over as many statements as they need,
 * so a chunk's batch is some hundreds of KB for any tournament size.
 */
export const SETTLEMENT_CHUNK_PLAYERS = Math.floor(JSON_BUDGET / RESULT_ROW_MAX_BYTES);

/**
 * The setting `SETTLEMENT_CHUNK_PLAYERS` as players per chunk: a whole number from 1 to the most
 * one statement holds (SETTLEMENT_CHUNK_PLAYERS); that most when unset or out of range. Smaller
 * chunks make more, smaller D1 batches (the Worker tests use a few players a chunk).
 */
export function settlementChunkSize(setting: string | undefined): number {
  const n = Number(setting);
  return Number.isSafeInteger(n) && n >= 1 && n <= SETTLEMENT_CHUNK_PLAYERS ? n : SETTLEMENT_CHUNK_PLAYERS;
}

export interface SettlementChunk {
  index: number;
  rows: SettlementRow[];
  responses: ResponseRecord[];
}

/**
 * The plan's chunks: `size` players at a time in rank order, each with its
 * players' responses. The ranking is fixed once the room is settling, so chunk k holds the same
 * players on every attempt.
 */
export function settlementChunks(plan: SettlementPlan, size = SETTLEMENT_CHUNK_PLAYERS): SettlementChunk[] {
  const byUser = new Map<number, ResponseRecord[]>();
  for (const r of plan.responses) {
    const mine = byUser.get(r.u);
    if (mine) mine.push(r);
    else byUser.set(r.u, [r]);
  }
  const chunks: SettlementChunk[] = [];
  for (let i = 0; i < plan.rows.length; i += size) {
    const rows = plan.rows.slice(i, i + size);
    chunks.push({ index: chunks.length, rows, responses: rows.flatMap((r) => byUser.get(r.u) ?? []) });
  }
  return chunks;
}

/** How far a tournament's settlement got in D1: settled, and which chunks are applied. */
export async function settlementProgress(db: D1Database, tournamentId: number): Promise<{ settled: boolean; applied: Set<number> }> {
  const [t, chunks] = await db.batch([
    db.prepare("SELECT settled_at FROM tournaments WHERE id = ?").bind(tournamentId),
    db.prepare("SELECT chunk FROM settlement_chunks WHERE tournament_id = ?").bind(tournamentId),
  ]);
  const settled = (t!.results[0] as { settled_at: number | null } | undefined)?.settled_at != null;
  return { settled, applied: new Set((chunks!.results as { chunk: number }[]).map((c) => c.chunk)) };
}

/** The error of a chunk batch whose marker was already there: that chunk had been applied. */
export const isChunkApplied = (e: unknown) => /UNIQUE constraint failed: settlement_chunks/i.test(String((e as Error)?.message ?? e));

/**
 * One chunk as one batch. Its first statement is the chunk's marker, a plain INSERT: when the
 * chunk was applied before, the key exists, the insert fails and so does the whole batch
 * (isChunkApplied). Everything after it (results, counters, XP, levels, flags, notifications,
 * responses) is therefore applied once, whatever the retries.
 */
export function chunkStatements(
  db: D1Database,
  plan: Pick<SettlementPlan, "tournamentId" | "flags" | "notice">,
  chunk: SettlementChunk,
  now: number,
): D1PreparedStatement[] {
  const t = plan.tournamentId;
  const flagged = chunk.rows.filter((r) => plan.flags.has(r.u)).map((r) => [r.u, JSON.stringify(plan.flags.get(r.u))]);
  return [
    db.prepare("INSERT INTO settlement_chunks (tournament_id, chunk, applied_at) VALUES (?, ?, ?)").bind(t, chunk.index, now),
    ...participantResultsStatements(db, t, chunk.rows),
    ...packJson(
      chunk.rows.map((r) => [r.u, r.xp, r.won]),
      JSON_BUDGET,
    ).map((json) =>
      bindWithin(
        db.prepare(
          `UPDATE users SET experience_points = users.experience_points + s.xp,
             level = ${levelSql("users.experience_points + s.xp")},
             tournaments_played = users.tournaments_played + 1,
             tournaments_won = users.tournaments_won + s.won
           FROM (SELECT value ->> 0 AS u, value ->> 1 AS xp, value ->> 2 AS won FROM json_each(?)) AS s
           WHERE users.id = s.u`,
        ),
        json,
      ),
    ),
    ...packJson(flagged, JSON_BUDGET).map((json) =>
      bindWithin(
        db.prepare(
          `UPDATE tournament_participants SET flags = f.value ->> 1
           FROM json_each(?) AS f WHERE +tournament_participants.tournament_id = ? AND tournament_participants.user_id = f.value ->> 0`,
        ),
        json,
        t,
      ),
    ),
    ...packJson(
      chunk.rows.map((r) => r.u),
      JSON_BUDGET,
    ).map((json) =>
      bindWithin(
        db.prepare(
          `INSERT INTO notifications (user_id, message, action, tournament_id, status)
           SELECT j.value, ?, ?, ?, ? FROM json_each(?) AS j`,
        ),
        plan.notice.message,
        plan.notice.action,
        t,
        plan.notice.status,
        json,
      ),
    ),
    ...responsesStatements(db, t, chunk.responses),
  ];
}

/** What the completion batch needs: the prize winners' rows are enough (others are skipped). */
export type CompletionPlan = Omit<SettlementPlan, "rows" | "responses" | "notice"> & {
  rows: Pick<SettlementRow, "u" | "rank" | "prize">[];
};

/**
 * The last batch, once every chunk is applied: the tournament completed (claimed only while
 * settled_at is null, so the room can tell the attempt that completed it), the prizes as ledger
 * rows `prize:{t}:{u}` (65/25/10, remainder to 1st; unique references) and the unclaimed places
 * for the house. A handful of small statements whatever the size of the tournament.
 */
export function completionStatements(db: D1Database, plan: CompletionPlan): D1PreparedStatement[] {
  const ordinal = ["1st", "2nd", "3rd"];
  const placeName = (place: number) => ordinal[place - 1] ?? `#${place}`;
  return [
    db
      .prepare("UPDATE tournaments SET status = 'completed', settled_at = ?, end_time = ? WHERE id = ? AND settled_at IS NULL")
      .bind(plan.stamp, plan.endTime, plan.tournamentId),
    ...plan.rows
      .filter((r) => r.prize > 0)
      .map((r) =>
        ledgerStatement(db, {
          userId: r.u,
          amountCents: r.prize,
          type: "prize",
          status: plan.flags.has(r.u) ? "held" : "completed",
          reference: `prize:${plan.tournamentId}:${r.u}`,
          description: `Prize: ${plan.title} (${placeName(r.rank)} place)${plan.flags.has(r.u) ? " - under review" : ""}`,
        }),
      ),
    ...plan.unclaimed.map((u) =>
      db
        .prepare(
          `INSERT INTO house_ledger (amount_cents, type, tournament_id, reference, description)
           VALUES (?, 'unclaimed_prize', ?, ?, ?) ON CONFLICT (reference) DO NOTHING`,
        )
        .bind(
          u.cents,
          plan.tournamentId,
          `unclaimed:${plan.tournamentId}:${u.place}`,
          `Unclaimed ${placeName(u.place)} prize: ${plan.title} (no qualifying player)`,
        ),
    ),
    // Its questions burned or given back, once: the marker row below is in the same batch.
    ...settleQuestionStatements(db, plan.questionUse, {
      sql: "NOT EXISTS (SELECT 1 FROM settlement_chunks WHERE tournament_id = ? AND chunk = ?)",
      params: [plan.tournamentId, QUESTIONS_SETTLED_MARKER],
    }),
    db
      .prepare("INSERT INTO settlement_chunks (tournament_id, chunk, applied_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING")
      .bind(plan.tournamentId, QUESTIONS_SETTLED_MARKER, plan.questionUse.at),
  ];
}

/** The settlement_chunks row that says a tournament's questions were burned and given back (chunks count from 0). */
const QUESTIONS_SETTLED_MARKER = -1;

/** Chunks per play shard the markers can tell apart. */
const SHARD_CHUNKS_MAX = 100_000;

/**
 * The settlement_chunks key of chunk `c` of play shard `k` (a sharded live show: each shard writes
 * its own players' rows). Past every chunk key of a one-room settlement (a chunk holds at least one
 * player, and one room never has SHARD_CHUNKS_MAX chunks); `c` is refused past the range.
 */
export function shardChunkKey(k: number, c: number): number {
  if (c >= SHARD_CHUNKS_MAX) throw new Error(`shard ${k}: chunk ${c} is past the markers' range`);
  return (k + 1) * SHARD_CHUNKS_MAX + c;
}
