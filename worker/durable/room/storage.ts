// The TournamentRoom's own SQLite storage: its copy of the tournament's configuration, its
// participants, every question it issued to each player with the answers, and the one table of
// deadlines its single alarm serves. Everything a player does lands here before it is
// acknowledged; D1 receives the results in batches.
//
// The store also keeps every row in memory (the room's hot state): reads never touch SQLite, so
// an answer costs one SQLite write. The memory is loaded from SQLite whenever the object starts,
// which is how an evicted room comes back with nothing lost.
import {
  ADDED_COLUMNS,
  SCHEMA,
  unansweredPlay,
  withAnswer,
  type Answer,
  type MetaRow,
  type ParticipantRow,
  type Phase,
  type PlayRow,
  type QuestionRow,
  type ScheduleKind,
  type TournamentConfig,
} from "./tables";
import type { ShowStage } from "../../../common/domain/live-show";

/**
 * Typed access to the room's tables. Every method is synchronous; reads come from memory, writes
 * go to SQLite and memory together (SQLite first: a failed write leaves memory as it was).
 */
export class RoomStore {
  readonly #sql: SqlStorage;
  readonly #storage: DurableObjectStorage;
  #meta: MetaRow | null;
  #questions: QuestionRow[];
  #questionsById: Map<number, QuestionRow>;
  #participants: Map<number, ParticipantRow>;
  /** Per player, ordered by ord. */
  #plays: Map<number, PlayRow[]>;
  #departures: Map<number, number>;
  #schedule: Map<ScheduleKind, number>;
  /** The hot path's writes (questions issued, answers), waiting for the next group commit. */
  #pending: (() => void)[] = [];
  #waiting: (() => void)[] = [];
  #timer: ReturnType<typeof setTimeout> | null = null;

  constructor(storage: DurableObjectStorage) {
    this.#storage = storage;
    this.#sql = storage.sql;
    // Idempotent, so running it on every start is how the tables get created once.
    this.#sql.exec(SCHEMA);
    for (const [table, column, definition] of ADDED_COLUMNS) {
      const columns = this.#sql.exec<{ name: string }>(`SELECT name FROM pragma_table_info('${table}')`).toArray();
      if (!columns.some((c) => c.name === column)) this.#sql.exec(`ALTER TABLE ${table} ADD COLUMN ${column} ${definition}`);
    }
    this.#meta = this.#sql.exec<MetaRow>("SELECT * FROM meta WHERE id = 1").toArray()[0] ?? null;
    this.#questions = this.#sql.exec<QuestionRow>("SELECT * FROM questions ORDER BY ord").toArray();
    this.#questionsById = new Map(this.#questions.map((q) => [q.question_id, q]));
    this.#participants = new Map(
      this.#sql
        .exec<ParticipantRow>("SELECT * FROM participants")
        .toArray()
        .map((p) => [p.user_id, p]),
    );
    this.#plays = new Map();
    for (const play of this.#sql.exec<PlayRow>("SELECT * FROM plays ORDER BY user_id, ord")) this.#appendPlay(play);
    this.#departures = new Map(
      this.#sql
        .exec<{ user_id: number; times: number }>("SELECT * FROM departures")
        .toArray()
        .map((d) => [d.user_id, d.times]),
    );
    this.#schedule = new Map(
      this.#sql
        .exec<{ kind: ScheduleKind; due_at: number }>("SELECT * FROM schedule")
        .toArray()
        .map((r) => [r.kind, r.due_at]),
    );
  }

  meta(): MetaRow | null {
    return this.#meta;
  }

  /**
   * Resolves once every write queued so far is in SQLite. Each storage commit costs the same
   * however much it holds, so the answers that arrive together are written in one transaction
   * (group commit) on the next turn, and their replies go out after it: nothing is acknowledged
   * before it is stored.
   */
  stored(): Promise<void> {
    if (this.#pending.length === 0) return Promise.resolve();
    return new Promise((resolve) => {
      this.#waiting.push(resolve);
      this.#timer ??= setTimeout(() => this.commit(), 0);
    });
  }

  /** Writes what the hot path queued, now (before any other write, so storage keeps their order). */
  commit(): void {
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#timer = null;
    const writes = this.#pending;
    this.#pending = [];
    if (writes.length > 0) this.#storage.transactionSync(() => writes.forEach((write) => write()));
    const waiting = this.#waiting;
    this.#waiting = [];
    for (const resolve of waiting) resolve();
  }

  /** Any other write goes after the queued ones, in storage order. */
  #writer(): SqlStorage {
    if (this.#pending.length > 0) this.commit();
    return this.#sql;
  }

  #transaction(fn: () => void): void {
    if (this.#pending.length > 0) this.commit();
    this.#storage.transactionSync(fn);
  }

  /** First load: the tournament as D1 has it, in one transaction. */
  install(config: TournamentConfig): void {
    this.#transaction(() => this.#insertConfig(config));
    this.#loadConfig(config);
  }

  /**
   * An operator changed the tournament before anyone joined: its configuration and questions
   * are replaced (no player has a play or a seat to lose); `published` keeps the note that D1
   * has the commitment when the questions, and so the commitment, did not change.
   */
  replaceConfig(config: TournamentConfig, published: boolean): void {
    this.#transaction(() => {
      this.#writer().exec("DELETE FROM meta");
      this.#writer().exec("DELETE FROM questions");
      this.#insertConfig(config);
      this.#writer().exec("UPDATE meta SET commitment_published = ? WHERE id = 1", published ? 1 : 0);
    });
    this.#loadConfig(config);
  }

  #loadConfig(config: TournamentConfig): void {
    this.#meta = this.#sql.exec<MetaRow>("SELECT * FROM meta WHERE id = 1").one();
    this.#questions = config.questions.map((q) => ({ ...q, opened_at: null, voided_at: null, void_reason: null }));
    this.#questionsById = new Map(this.#questions.map((q) => [q.question_id, q]));
  }

  #insertConfig(config: TournamentConfig): void {
    const m = config.meta;
    this.#writer().exec(
      `INSERT INTO meta (id, tournament_id, title, entry_fee_cents, prize_pool_cents, max_participants, min_level, practice,
         min_players, start_time, end_time, phase, settled, format, draw_width, salt, commitment, commitment_version, shard_count)
       VALUES (1, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
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
      m.format,
      m.draw_width,
      m.salt,
      m.commitment,
      m.commitment_version,
      m.shard_count,
    );
    for (const q of config.questions) {
      this.#writer().exec(
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
  }

  setPhase(phase: Phase, changes: { endTime?: number | null; settled?: boolean } = {}): void {
    const meta = this.#meta!;
    const endTime = changes.endTime !== undefined ? changes.endTime : meta.end_time;
    const settled = changes.settled ? 1 : meta.settled;
    this.#writer().exec("UPDATE meta SET phase = ?, end_time = ?, settled = ? WHERE id = 1", phase, endTime, settled);
    this.#meta = { ...meta, phase, end_time: endTime, settled };
  }

  setPrizePool(cents: number): void {
    this.#writer().exec("UPDATE meta SET prize_pool_cents = ? WHERE id = 1", cents);
    this.#meta = { ...this.#meta!, prize_pool_cents: cents };
  }

  /** A commitment for a room that had none (it started before commitments existed), or the note that D1 has it. */
  setCommitment(salt: string, commitment: string, published: boolean, version: number): void {
    this.#writer().exec(
      "UPDATE meta SET salt = ?, commitment = ?, commitment_published = ?, commitment_version = ? WHERE id = 1",
      salt,
      commitment,
      published ? 1 : 0,
      version,
    );
    this.#meta = { ...this.#meta!, salt, commitment, commitment_published: published ? 1 : 0, commitment_version: version };
  }

  setSettleStamp(stamp: number): void {
    this.#writer().exec("UPDATE meta SET settle_stamp = ? WHERE id = 1", stamp);
    this.#meta = { ...this.#meta!, settle_stamp: stamp };
  }

  /** A live show moves on: its stage, question and the moment it happened; an opened question records when it went out. */
  setShow(stage: ShowStage, ord: number, since: number): void {
    this.#transaction(() => {
      this.#writer().exec("UPDATE meta SET show_stage = ?, show_ord = ?, show_since = ? WHERE id = 1", stage, ord, since);
      if (stage === "question") this.#writer().exec("UPDATE questions SET opened_at = ? WHERE ord = ?", since, ord);
    });
    this.#meta = { ...this.#meta!, show_stage: stage, show_ord: ord, show_since: since };
    if (stage === "question") this.#questions[ord] = { ...this.#questions[ord]!, opened_at: since };
    this.#questionsById = new Map(this.#questions.map((q) => [q.question_id, q]));
  }

  /** The host pauses (`at`) or resumes (null) the live show. */
  setPaused(at: number | null): void {
    this.#writer().exec("UPDATE meta SET paused_at = ? WHERE id = 1", at);
    this.#meta = { ...this.#meta!, paused_at: at };
  }

  /** The host voids a question: it counts for nobody from now on. */
  voidQuestion(ord: number, at: number, reason: string): void {
    this.#writer().exec("UPDATE questions SET voided_at = ?, void_reason = ? WHERE ord = ? AND voided_at IS NULL", at, reason, ord);
    const q = this.#questions[ord]!;
    if (q.voided_at !== null) return;
    this.#questions[ord] = { ...q, voided_at: at, void_reason: reason };
    this.#questionsById = new Map(this.#questions.map((x) => [x.question_id, x]));
  }

  /** The ords of the voided questions. */
  voidedOrds(): Set<number> {
    const ords = new Set<number>();
    for (const q of this.#questions) if (q.voided_at !== null) ords.add(q.ord);
    return ords;
  }

  /** The host disqualifies a player: out of the ranking, and finished (no more questions). */
  disqualify(userId: number, at: number, reason: string): void {
    const p = this.#participants.get(userId);
    if (!p || p.disqualified_at !== null) return;
    this.#writer().exec(
      "UPDATE participants SET disqualified_at = ?, disqualified_reason = ?, finished_at = coalesce(finished_at, ?) WHERE user_id = ?",
      at,
      reason,
      at,
      userId,
    );
    this.#participants.set(userId, { ...p, disqualified_at: at, disqualified_reason: reason, finished_at: p.finished_at ?? at });
  }

  questions(): readonly QuestionRow[] {
    return this.#questions;
  }

  /** The questions each player gets: the pool divided by the candidates per slot. */
  slotCount(): number {
    return Math.floor(this.#questions.length / (this.#meta?.draw_width ?? 1));
  }

  /**
   * The committed questions that went out to at least one player, by ord: in a self-paced
   * tournament those someone was issued (a play exists), in a live show those opened to everyone.
   */
  issuedOrds(): Set<number> {
    const ords = new Set<number>();
    for (const q of this.#questions) if (q.opened_at !== null) ords.add(q.ord);
    for (const mine of this.#plays.values()) for (const p of mine) ords.add(p.ord);
    return ords;
  }

  /**
   * Which committed questions were issued to anyone and which never were, each in committed
   * order: what settlement of a prize tournament needs to burn the former and release the latter
   * (their answers were never shown, nor revealed by the fairness report: decision 015). A pure
   * read of the room's tables (as loaded in memory, which SQLite mirrors).
   */
  issuedQuestionIds(): { issued: number[]; unissued: number[] } {
    const ords = this.issuedOrds();
    const issued: number[] = [];
    const unissued: number[] = [];
    for (const q of this.#questions) (ords.has(q.ord) ? issued : unissued).push(q.question_id);
    return { issued, unissued };
  }

  questionById(questionId: number): QuestionRow | null {
    return this.#questionsById.get(questionId) ?? null;
  }

  questionAt(ord: number): QuestionRow | null {
    return this.#questions[ord] ?? null;
  }

  participant(userId: number): ParticipantRow | null {
    return this.#participants.get(userId) ?? null;
  }

  /** In the order they joined. */
  participants(): ParticipantRow[] {
    return [...this.#participants.values()].sort((a, b) => a.joined_at - b.joined_at || a.user_id - b.user_id);
  }

  /** Whether every participant has finished (false when there are none); stops at the first who has not. */
  everyoneFinished(): boolean {
    if (this.#participants.size === 0) return false;
    for (const p of this.#participants.values()) if (p.finished_at === null) return false;
    return true;
  }

  participantCount(): number {
    return this.#participants.size;
  }

  /** Adds participants this object does not know yet (a D1 row is the proof of a paid entry). */
  addParticipants(rows: TournamentConfig["participants"]): void {
    for (const p of rows) {
      if (this.#participants.has(p.user_id)) continue;
      this.#writer().exec(
        `INSERT INTO participants (user_id, username, level, joined_at, finished_at, results_written, show_level, device_hash, network_hash)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (user_id) DO NOTHING`,
        p.user_id,
        p.username,
        p.level,
        p.joined_at,
        p.finished_at,
        p.results_written,
        p.show_level,
        p.device_hash,
        p.network_hash,
      );
      this.#participants.set(p.user_id, { ...p, rank: null, prize_cents: 0, disqualified_at: null, disqualified_reason: null });
    }
  }

  /**
   * Removes participants D1 has no entry for: a leave whose D1 batch committed while this copy
   * never recorded it. Only before the start, when leaving is possible at all.
   */
  dropParticipantsNotIn(userIds: Set<number>): number[] {
    const dropped = [...this.#participants.keys()].filter((id) => !userIds.has(id));
    for (const id of dropped) {
      this.#writer().exec("DELETE FROM participants WHERE user_id = ?", id);
      this.#participants.delete(id);
    }
    return dropped;
  }

  /** How many times the player left this tournament: each entry and its refund get their own ledger reference. */
  departures(userId: number): number {
    return this.#departures.get(userId) ?? 0;
  }

  /** Departures D1's ledger proves (a leave this copy never recorded); counts only grow. */
  adoptDepartures(counts: Map<number, number>): void {
    for (const [userId, times] of counts) {
      if (times <= this.departures(userId)) continue;
      this.#writer().exec(
        "INSERT INTO departures (user_id, times) VALUES (?, ?) ON CONFLICT (user_id) DO UPDATE SET times = max(times, excluded.times)",
        userId,
        times,
      );
      this.#departures.set(userId, times);
    }
  }

  /** The player left before the start: no longer a participant, and the next entry is a new one. */
  recordDeparture(userId: number): void {
    this.#transaction(() => {
      this.#writer().exec("DELETE FROM participants WHERE user_id = ?", userId);
      this.#writer().exec(
        "INSERT INTO departures (user_id, times) VALUES (?, 1) ON CONFLICT (user_id) DO UPDATE SET times = times + 1",
        userId,
      );
    });
    this.#participants.delete(userId);
    this.#departures.set(userId, this.departures(userId) + 1);
  }

  finish(userId: number, at: number): void {
    const p = this.#participants.get(userId);
    if (!p || p.finished_at !== null) return;
    this.#writer().exec("UPDATE participants SET finished_at = ? WHERE user_id = ? AND finished_at IS NULL", at, userId);
    this.#participants.set(userId, { ...p, finished_at: at });
  }

  /** Everyone still playing finishes now (the end of a live show). */
  finishAll(at: number): void {
    this.#writer().exec("UPDATE participants SET finished_at = ? WHERE finished_at IS NULL", at);
    for (const [id, p] of this.#participants) if (p.finished_at === null) this.#participants.set(id, { ...p, finished_at: at });
  }

  markResultsWritten(userIds: number[]): void {
    for (const id of userIds) {
      const p = this.#participants.get(id);
      if (!p) continue;
      this.#writer().exec("UPDATE participants SET results_written = 1 WHERE user_id = ?", id);
      this.#participants.set(id, { ...p, results_written: 1 });
    }
  }

  recordPlacings(placings: { userId: number; rank: number; prizeCents: number }[]): void {
    // One statement for the whole room: ten thousand single-row updates cost far more.
    this.#writer().exec(
      `UPDATE participants SET rank = p.value ->> 1, prize_cents = p.value ->> 2, results_written = 1
       FROM json_each(?) AS p WHERE participants.user_id = p.value ->> 0`,
      JSON.stringify(placings.map((p) => [p.userId, p.rank, p.prizeCents])),
    );
    for (const p of placings) {
      const row = this.#participants.get(p.userId);
      if (row) this.#participants.set(p.userId, { ...row, rank: p.rank, prize_cents: p.prizeCents, results_written: 1 });
    }
  }

  plays(userId: number): readonly PlayRow[] {
    return this.#plays.get(userId) ?? [];
  }

  allPlays(): PlayRow[] {
    return [...this.#plays.values()].flat();
  }

  latestPlay(userId: number): PlayRow | null {
    const mine = this.#plays.get(userId);
    return mine?.[mine.length - 1] ?? null;
  }

  play(userId: number, ord: number): PlayRow | null {
    return this.#plays.get(userId)?.find((p) => p.ord === ord) ?? null;
  }

  /** The question a socket frame asked for, when that frame is seen again. */
  playByFrame(userId: number, frameId: string): PlayRow | null {
    return this.#plays.get(userId)?.find((p) => p.frame_id === frameId) ?? null;
  }

  issue(userId: number, ord: number, at: number, frameId: string | null = null): PlayRow {
    this.#pending.push(() =>
      this.#sql.exec("INSERT INTO plays (user_id, ord, issued_at, frame_id) VALUES (?, ?, ?, ?)", userId, ord, at, frameId),
    );
    return this.#appendPlay(unansweredPlay(userId, ord, at, frameId));
  }

  recordAnswer(userId: number, ord: number, a: Answer): PlayRow {
    this.#pending.push(() =>
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
      ),
    );
    const mine = this.#plays.get(userId)!;
    const i = mine.findIndex((p) => p.ord === ord);
    mine[i] = withAnswer(mine[i]!, a);
    return mine[i];
  }

  /** A live show's answer: the play is created with its answer in one write (issued when the question went out). */
  recordLiveAnswer(userId: number, ord: number, openedAt: number, a: Answer): PlayRow {
    this.#pending.push(() =>
      this.#sql.exec(
        `INSERT INTO plays (user_id, ord, issued_at, answer, is_correct, response_ms, points, xp, answered_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        userId,
        ord,
        openedAt,
        a.answer,
        a.isCorrect ? 1 : 0,
        a.responseMs,
        a.points,
        a.xp,
        a.at,
      ),
    );
    return this.#appendPlay(withAnswer(unansweredPlay(userId, ord, openedAt), a));
  }

  #appendPlay(play: PlayRow): PlayRow {
    const mine = this.#plays.get(play.user_id);
    if (!mine) this.#plays.set(play.user_id, [play]);
    else {
      mine.push(play);
      if (mine.length > 1 && mine[mine.length - 2]!.ord > play.ord) mine.sort((a, b) => a.ord - b.ord);
    }
    return play;
  }

  /** The sharding state (announcements, confirmations, reports, the settlement's progress) as JSON by key. */
  shardState<T>(key: string): T | null {
    const row = this.#sql.exec<{ value: string }>("SELECT value FROM shard_state WHERE key = ?", key).toArray()[0];
    return row ? (JSON.parse(row.value) as T) : null;
  }

  setShardState(key: string, value: unknown): void {
    this.#writer().exec(
      "INSERT INTO shard_state (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
      key,
      JSON.stringify(value),
    );
  }

  // ---- The deadline table served by the one alarm ----

  schedule(kind: ScheduleKind, dueAt: number): void {
    if (this.#schedule.get(kind) === dueAt) return;
    this.#writer().exec(
      "INSERT INTO schedule (kind, due_at) VALUES (?, ?) ON CONFLICT (kind) DO UPDATE SET due_at = excluded.due_at",
      kind,
      dueAt,
    );
    this.#schedule.set(kind, dueAt);
  }

  scheduled(kind: ScheduleKind): number | null {
    return this.#schedule.get(kind) ?? null;
  }

  unschedule(kind: ScheduleKind): void {
    if (!this.#schedule.has(kind)) return;
    this.#writer().exec("DELETE FROM schedule WHERE kind = ?", kind);
    this.#schedule.delete(kind);
  }

  earliestDeadline(): number | null {
    return this.#schedule.size === 0 ? null : Math.min(...this.#schedule.values());
  }
}
