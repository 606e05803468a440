// The TournamentRoom's own SQLite storage: its copy of the tournament's configuration, its
// participants, every question it issued to each player with the answers, and the one table of
// deadlines its single alarm serves. Everything a player does lands here before it is
// acknowledged; D1 receives the results in batches.
import { ANSWER_GRACE_MS, QUESTION_TIME_MS } from "../../../common/spec";
import type { LifecyclePhase } from "../../../common/domain/lifecycle";

/** The room's phase: a tournament's status, plus settling while its results are being written. */
export type Phase = LifecyclePhase;

const SCHEMA = `
CREATE TABLE IF NOT EXISTS meta (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  tournament_id INTEGER NOT NULL,
  title TEXT NOT NULL,
  entry_fee_cents INTEGER NOT NULL,
  prize_pool_cents INTEGER NOT NULL,
  max_participants INTEGER,
  min_level INTEGER NOT NULL,
  practice INTEGER NOT NULL,
  min_players INTEGER NOT NULL,
  start_time INTEGER NOT NULL,
  end_time INTEGER,
  phase TEXT NOT NULL,
  settled INTEGER NOT NULL DEFAULT 0,
  settle_stamp INTEGER
);
CREATE TABLE IF NOT EXISTS questions (
  ord INTEGER PRIMARY KEY,
  question_id INTEGER NOT NULL UNIQUE,
  question TEXT NOT NULL,
  options TEXT NOT NULL,
  correct_answer TEXT NOT NULL,
  explanation TEXT
);
CREATE TABLE IF NOT EXISTS participants (
  user_id INTEGER PRIMARY KEY,
  username TEXT NOT NULL,
  level INTEGER NOT NULL,
  joined_at INTEGER NOT NULL,
  finished_at INTEGER,
  results_written INTEGER NOT NULL DEFAULT 0,
  rank INTEGER,
  prize_cents INTEGER NOT NULL DEFAULT 0,
  show_level INTEGER NOT NULL DEFAULT 1
);
CREATE TABLE IF NOT EXISTS plays (
  user_id INTEGER NOT NULL,
  ord INTEGER NOT NULL,
  issued_at INTEGER NOT NULL,
  answer TEXT,
  is_correct INTEGER,
  response_ms INTEGER,
  points INTEGER,
  xp INTEGER,
  answered_at INTEGER,
  PRIMARY KEY (user_id, ord)
);
CREATE TABLE IF NOT EXISTS departures (
  user_id INTEGER PRIMARY KEY,
  times INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS schedule (
  kind TEXT PRIMARY KEY,
  due_at INTEGER NOT NULL
);
`;

export type MetaRow = {
  tournament_id: number;
  title: string;
  entry_fee_cents: number;
  prize_pool_cents: number;
  max_participants: number | null;
  min_level: number;
  practice: number;
  min_players: number;
  start_time: number;
  end_time: number | null;
  phase: Phase;
  settled: number;
  settle_stamp: number | null;
};

export type QuestionRow = {
  ord: number;
  question_id: number;
  question: string;
  /** JSON array. */
  options: string;
  correct_answer: string;
  explanation: string | null;
};

export type ParticipantRow = {
  user_id: number;
  username: string;
  level: number;
  joined_at: number;
  finished_at: number | null;
  results_written: number;
  rank: number | null;
  prize_cents: number;
  /** 0 when the player hides their level from others (as their preferences said when they joined). */
  show_level: number;
};

export type PlayRow = {
  user_id: number;
  ord: number;
  issued_at: number;
  answer: string | null;
  is_correct: number | null;
  response_ms: number | null;
  points: number | null;
  xp: number | null;
  answered_at: number | null;
};

/** What the alarm serves: the lifecycle step and the coalesced leaderboard push. */
export type ScheduleKind = "lifecycle" | "flush";

export interface TournamentConfig {
  meta: Omit<MetaRow, "settled" | "settle_stamp"> & { settled: boolean };
  questions: QuestionRow[];
  participants: Omit<ParticipantRow, "rank" | "prize_cents">[];
}

/** A question issued and still open: not answered and inside its 30 s plus the network grace. */
export const isOpen = (play: PlayRow, now: number) => play.answer === null && now <= play.issued_at + QUESTION_TIME_MS + ANSWER_GRACE_MS;

/** Typed access to the room's tables. Every method is synchronous: SQLite in the object. */
export class RoomStore {
  readonly #sql: SqlStorage;
  readonly #storage: DurableObjectStorage;

  constructor(storage: DurableObjectStorage) {
    this.#storage = storage;
    this.#sql = storage.sql;
    // Idempotent, so running it on every start is how the tables get created once.
    this.#sql.exec(SCHEMA);
    // Rooms created before participants had show_level get the column (everyone shown, as then).
    const columns = this.#sql.exec<{ name: string }>("SELECT name FROM pragma_table_info('participants')").toArray();
    if (!columns.some((c) => c.name === "show_level"))
      this.#sql.exec("ALTER TABLE participants ADD COLUMN show_level INTEGER NOT NULL DEFAULT 1");
  }

  meta(): MetaRow | null {
    return this.#sql.exec<MetaRow>("SELECT * FROM meta WHERE id = 1").toArray()[0] ?? null;
  }

  /** First load: the tournament as D1 has it, in one transaction. */
  install(config: TournamentConfig): void {
    this.#storage.transactionSync(() => {
      const m = config.meta;
      this.#sql.exec(
        `INSERT INTO meta (id, tournament_id, title, entry_fee_cents, prize_pool_cents, max_participants, min_level, practice,
           min_players, start_time, end_time, phase, settled) VALUES (1, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        m.tournament_id,
        m.title,
        m.entry_fee_cents,
        m.prize_pool_cents,
        m.max_participants,
        m.min_level,
        m.practice,
        m.min_players,
        m.start_time,
        m.end_time,
        m.phase,
        m.settled ? 1 : 0,
      );
      for (const q of config.questions) {
        this.#sql.exec(
          "INSERT INTO questions (ord, question_id, question, options, correct_answer, explanation) VALUES (?, ?, ?, ?, ?, ?)",
          q.ord,
          q.question_id,
          q.question,
          q.options,
          q.correct_answer,
          q.explanation,
        );
      }
      this.addParticipants(config.participants);
    });
  }

  setPhase(phase: Phase, changes: { endTime?: number | null; settled?: boolean } = {}): void {
    this.#sql.exec("UPDATE meta SET phase = ? WHERE id = 1", phase);
    if (changes.endTime !== undefined) this.#sql.exec("UPDATE meta SET end_time = ? WHERE id = 1", changes.endTime);
    if (changes.settled) this.#sql.exec("UPDATE meta SET settled = 1 WHERE id = 1");
  }

  setPrizePool(cents: number): void {
    this.#sql.exec("UPDATE meta SET prize_pool_cents = ? WHERE id = 1", cents);
  }

  setSettleStamp(stamp: number): void {
    this.#sql.exec("UPDATE meta SET settle_stamp = ? WHERE id = 1", stamp);
  }

  questions(): QuestionRow[] {
    return this.#sql.exec<QuestionRow>("SELECT * FROM questions ORDER BY ord").toArray();
  }

  questionCount(): number {
    return this.#sql.exec<{ n: number }>("SELECT count(*) AS n FROM questions").one().n;
  }

  questionById(questionId: number): QuestionRow | null {
    return this.#sql.exec<QuestionRow>("SELECT * FROM questions WHERE question_id = ?", questionId).toArray()[0] ?? null;
  }

  questionAt(ord: number): QuestionRow | null {
    return this.#sql.exec<QuestionRow>("SELECT * FROM questions WHERE ord = ?", ord).toArray()[0] ?? null;
  }

  participant(userId: number): ParticipantRow | null {
    return this.#sql.exec<ParticipantRow>("SELECT * FROM participants WHERE user_id = ?", userId).toArray()[0] ?? null;
  }

  participants(): ParticipantRow[] {
    return this.#sql.exec<ParticipantRow>("SELECT * FROM participants ORDER BY joined_at, user_id").toArray();
  }

  participantCount(): number {
    return this.#sql.exec<{ n: number }>("SELECT count(*) AS n FROM participants").one().n;
  }

  /** Adds participants this object does not know yet (a D1 row is the proof of a paid entry). */
  addParticipants(rows: TournamentConfig["participants"]): void {
    for (const p of rows) {
      this.#sql.exec(
        `INSERT INTO participants (user_id, username, level, joined_at, finished_at, results_written, show_level)
         VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (user_id) DO NOTHING`,
        p.user_id,
        p.username,
        p.level,
        p.joined_at,
        p.finished_at,
        p.results_written,
        p.show_level,
      );
    }
  }

  /**
   * Removes participants D1 has no entry for: a leave whose D1 batch committed while this copy
   * never recorded it. Only before the start, when leaving is possible at all.
   */
  dropParticipantsNotIn(userIds: Set<number>): void {
    for (const p of this.participants())
      if (!userIds.has(p.user_id)) this.#sql.exec("DELETE FROM participants WHERE user_id = ?", p.user_id);
  }

  /** How many times the player left this tournament: each entry and its refund get their own ledger reference. */
  departures(userId: number): number {
    return this.#sql.exec<{ times: number }>("SELECT times FROM departures WHERE user_id = ?", userId).toArray()[0]?.times ?? 0;
  }

  /** Departures D1's ledger proves (a leave this copy never recorded); counts only grow. */
  adoptDepartures(counts: Map<number, number>): void {
    for (const [userId, times] of counts) {
      this.#sql.exec(
        "INSERT INTO departures (user_id, times) VALUES (?, ?) ON CONFLICT (user_id) DO UPDATE SET times = max(times, excluded.times)",
        userId,
        times,
      );
    }
  }

  /** The player left before the start: no longer a participant, and the next entry is a new one. */
  recordDeparture(userId: number): void {
    this.#storage.transactionSync(() => {
      this.#sql.exec("DELETE FROM participants WHERE user_id = ?", userId);
      this.#sql.exec("INSERT INTO departures (user_id, times) VALUES (?, 1) ON CONFLICT (user_id) DO UPDATE SET times = times + 1", userId);
    });
  }

  finish(userId: number, at: number): void {
    this.#sql.exec("UPDATE participants SET finished_at = ? WHERE user_id = ? AND finished_at IS NULL", at, userId);
  }

  markResultsWritten(userIds: number[]): void {
    for (const id of userIds) this.#sql.exec("UPDATE participants SET results_written = 1 WHERE user_id = ?", id);
  }

  recordPlacings(placings: { userId: number; rank: number; prizeCents: number }[]): void {
    this.#storage.transactionSync(() => {
      for (const p of placings) {
        this.#sql.exec(
          "UPDATE participants SET rank = ?, prize_cents = ?, results_written = 1 WHERE user_id = ?",
          p.rank,
          p.prizeCents,
          p.userId,
        );
      }
    });
  }

  plays(userId: number): PlayRow[] {
    return this.#sql.exec<PlayRow>("SELECT * FROM plays WHERE user_id = ? ORDER BY ord", userId).toArray();
  }

  allPlays(): PlayRow[] {
    return this.#sql.exec<PlayRow>("SELECT * FROM plays ORDER BY user_id, ord").toArray();
  }

  latestPlay(userId: number): PlayRow | null {
    return this.#sql.exec<PlayRow>("SELECT * FROM plays WHERE user_id = ? ORDER BY ord DESC LIMIT 1", userId).toArray()[0] ?? null;
  }

  play(userId: number, ord: number): PlayRow | null {
    return this.#sql.exec<PlayRow>("SELECT * FROM plays WHERE user_id = ? AND ord = ?", userId, ord).toArray()[0] ?? null;
  }

  issue(userId: number, ord: number, at: number): PlayRow {
    this.#sql.exec("INSERT INTO plays (user_id, ord, issued_at) VALUES (?, ?, ?)", userId, ord, at);
    return this.play(userId, ord)!;
  }

  recordAnswer(
    userId: number,
    ord: number,
    a: { answer: string; isCorrect: boolean; responseMs: number; points: number; xp: number; at: number },
  ): PlayRow {
    this.#sql.exec(
      `UPDATE plays SET answer = ?, is_correct = ?, response_ms = ?, points = ?, xp = ?, answered_at = ?
       WHERE user_id = ? AND ord = ? AND answer IS NULL`,
      a.answer,
      a.isCorrect ? 1 : 0,
      a.responseMs,
      a.points,
      a.xp,
      a.at,
      userId,
      ord,
    );
    return this.play(userId, ord)!;
  }

  // ---- The deadline table served by the one alarm ----

  schedule(kind: ScheduleKind, dueAt: number): void {
    this.#sql.exec(
      "INSERT INTO schedule (kind, due_at) VALUES (?, ?) ON CONFLICT (kind) DO UPDATE SET due_at = excluded.due_at",
      kind,
      dueAt,
    );
  }

  scheduled(kind: ScheduleKind): number | null {
    return this.#sql.exec<{ due_at: number }>("SELECT due_at FROM schedule WHERE kind = ?", kind).toArray()[0]?.due_at ?? null;
  }

  unschedule(kind: ScheduleKind): void {
    this.#sql.exec("DELETE FROM schedule WHERE kind = ?", kind);
  }

  earliestDeadline(): number | null {
    return this.#sql.exec<{ due: number | null }>("SELECT min(due_at) AS due FROM schedule").one().due;
  }
}
