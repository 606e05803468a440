import { DurableObject } from "cloudflare:workers";
import type {
  AnswerInput,
  AnswerResult,
  CompleteResult,
  LeaderboardRow,
  NotificationFrame,
  PlayerQuestion,
  TournamentServerFrame,
} from "../../common/api/tournaments";
import { tournamentClientFrameSchema } from "../../common/api/tournaments";
import type { TournamentStatus } from "../../common/api/types";
import type { ApiErrorBody, ErrorCode } from "../../common/api/errors";
import { CHEAT, JOIN, PLAY } from "../../common/messages";
import { LEADERBOARD_PUSH_MS, LEADERBOARD_PUSH_SIZE, QUESTION_TIME_MS, START_RECHECK_MS } from "../../common/spec";
import { nextLifecycleStep } from "../../common/domain/lifecycle";
import { answerPoints, answerXp, isLate } from "../../common/domain/scoring";
import { placementXp } from "../../common/domain/levels";
import { awardPrizes, prizePoolFromFees } from "../../common/domain/prizes";
import { centsToDollars, formatCents } from "../../common/domain/money";
import { seededShuffle } from "../../common/domain/questions";
import { InsufficientFundsError, runAtomically } from "../money/ledger";
import { iso } from "../db/present";
import { closeQuietly, parseJson } from "./notification-hub";
import { pushNotification, TOURNAMENT_ID_HEADER, USER_ID_HEADER } from "./hub-client";
import { RoomStore, isOpen, type MetaRow, type Phase, type PlayRow, type QuestionRow } from "./room/storage";
import { computeStandings, responseRecords, type PlayerStanding } from "./room/standings";
import { tournamentNotice } from "./room/notices";
import {
  balanceCents,
  cancelStatements,
  cheatAttemptStatement,
  closePracticeRunStatement,
  joinStatements,
  leaveStatements,
  loadConfig,
  loadDepartures,
  loadParticipants,
  notificationsStatement,
  participantResultsStatement,
  practiceXpStatement,
  responsesStatement,
  settlementStatements,
  startStatement,
  userLevels,
  type ParticipantResult,
} from "./room/d1";

export interface RoomUser {
  userId: number;
  username: string;
  level: number;
  /** Whether others may see the level (the player's preference when joining). */
  showLevel: boolean;
}

/** A refusal the Worker turns into an HTTP error; errors do not cross RPC with their fields. */
export interface RoomFailure {
  ok: false;
  status: 400 | 403 | 404 | 409;
  code: ErrorCode;
  message: string;
  title?: string;
}
export type RoomResult<T> = { ok: true; value: T } | RoomFailure;

const ok = <T>(value: T): RoomResult<T> => ({ ok: true, value });
const fail = (status: RoomFailure["status"], code: ErrorCode, message: string, title?: string): RoomFailure =>
  title === undefined ? { ok: false, status, code, message } : { ok: false, status, code, message, title };
const notFound = () => fail(404, "tournament_not_found", PLAY.notFound);

interface SocketAttachment {
  userId: number;
}

/** The status the API shows: settling is still live to players. */
const publicStatus = (phase: Phase): TournamentStatus => (phase === "settling" ? "live" : phase);

/**
 * One per tournament (idFromName(String(tournamentId))): the single writer of its live state.
 * It learns its tournament from D1 on first use, then owns joins (capacity, fees), the lifecycle
 * (one alarm over a table of deadlines), every question issued and answer given (in its own
 * SQLite before any reply), the leaderboard pushed to its sockets, and settlement.
 *
 * Work that waits on D1 runs through #serial: the input gate does not hold other calls back
 * while an object waits on the network, and joins, lifecycle steps and settlement must not
 * interleave. Questions and answers only touch local storage, so they never wait behind D1.
 * Design and the plan for tournaments larger than one object: docs/decisions/004-tournament-room.md.
 */
export class TournamentRoom extends DurableObject<Env> {
  readonly #store: RoomStore;
  /** Whether this instance has reconciled its participants with D1 since it started. */
  #synced = false;
  #tail: Promise<unknown> = Promise.resolve();

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.#store = new RoomStore(ctx.storage);
    this.ctx.setWebSocketAutoResponse(new WebSocketRequestResponsePair("ping", "pong"));
  }

  // ---- RPC ----

  /**
   * Called by the scheduler when it creates the tournament, so the first alarm is set at once,
   * and on every cron run after that: an alarm that exhausted its retries is set again here.
   */
  async init(tournamentId: number): Promise<TournamentStatus | null> {
    if (!(await this.#ready(tournamentId))) return null;
    return this.#serial(async () => {
      await this.#advance(Date.now());
      return publicStatus(this.#store.meta()!.phase);
    });
  }

  async join(tournamentId: number, user: RoomUser): Promise<RoomResult<{ alreadyJoined: boolean }>> {
    if (!(await this.#ready(tournamentId))) return notFound();
    return this.#serial(async () => {
      const meta = this.#store.meta()!;
      if (this.#store.participant(user.userId)) return ok({ alreadyJoined: true });
      const now = Date.now();
      // Closed once over, and from the end time on even before the alarm has settled it.
      const over = meta.end_time !== null && now >= meta.end_time;
      if ((meta.phase !== "upcoming" && meta.phase !== "live") || over) return fail(409, "join_closed", PLAY.joinClosed, JOIN.failedTitle);
      // The order after sign-in: level, capacity, balance.
      if (!meta.practice && user.level < meta.min_level) {
        return fail(403, "level_too_low", JOIN.levelDescription(meta.min_level), JOIN.levelTitle);
      }
      const count = this.#store.participantCount();
      if (meta.max_participants !== null && count >= meta.max_participants)
        return fail(409, "tournament_full", JOIN.full.description, JOIN.full.title);

      const fee = meta.entry_fee_cents;
      const pool = fee > 0 ? prizePoolFromFees((count + 1) * fee) : meta.prize_pool_cents;
      const statements = joinStatements(this.env.DB, {
        tournamentId: meta.tournament_id,
        title: meta.title,
        userId: user.userId,
        feeCents: fee,
        departures: this.#store.departures(user.userId),
        joinedAt: now,
        participants: count + 1,
        prizePoolCents: pool,
      });
      try {
        await runAtomically(this.env.DB, statements);
      } catch (e) {
        if (e instanceof InsufficientFundsError) {
          const balance = await balanceCents(this.env.DB, user.userId);
          return fail(
            409,
            "insufficient_balance",
            JOIN.balanceDescription(formatCents(Math.max(fee - balance, 1)), formatCents(fee)),
            JOIN.balanceTitle,
          );
        }
        // A participant row this instance did not know about: an earlier join whose reply was lost.
        await this.#syncParticipants(meta.tournament_id);
        if (this.#store.participant(user.userId)) return ok({ alreadyJoined: true });
        throw e;
      }
      this.#store.addParticipants([
        {
          user_id: user.userId,
          username: user.username,
          level: user.level,
          joined_at: now,
          finished_at: null,
          results_written: 0,
          show_level: user.showLevel ? 1 : 0,
        },
      ]);
      this.#store.setPrizePool(pool);
      // The player who completes the minimum starts a tournament that is waiting for players.
      if (meta.phase === "upcoming" && now >= meta.start_time) await this.#advance(now);
      await this.#leaderboardChanged();
      return ok({ alreadyJoined: false });
    });
  }

  /**
   * Leaving before the start: the entry fee comes back (once: its ledger reference is tied to this
   * entry), the seat is free and the pool shrinks. Refused once the tournament has started.
   */
  async leave(tournamentId: number, userId: number): Promise<RoomResult<{ refundedCents: number }>> {
    if (!(await this.#ready(tournamentId))) return notFound();
    return this.#serial(async () => {
      const meta = this.#store.meta()!;
      if (!this.#store.participant(userId)) return fail(409, "not_joined", PLAY.notJoined);
      if (meta.phase !== "upcoming") return fail(409, "leave_closed", PLAY.leaveClosed);
      const count = this.#store.participantCount() - 1;
      const fee = meta.entry_fee_cents;
      const pool = fee > 0 ? prizePoolFromFees(count * fee) : meta.prize_pool_cents;
      await runAtomically(
        this.env.DB,
        leaveStatements(this.env.DB, {
          tournamentId: meta.tournament_id,
          title: meta.title,
          userId,
          feeCents: fee,
          departures: this.#store.departures(userId),
          participants: count,
          prizePoolCents: pool,
        }),
      );
      this.#store.recordDeparture(userId);
      this.#store.setPrizePool(pool);
      await this.#leaderboardChanged();
      return ok({ refundedCents: fee });
    });
  }

  /** The player's open question, or the next one (its 30 s start now), or a refusal. */
  async nextQuestion(tournamentId: number, userId: number): Promise<RoomResult<PlayerQuestion>> {
    const meta = await this.#ready(tournamentId);
    if (!meta) return notFound();
    const now = Date.now();
    const refusal = this.#playRefusal(meta, userId, now);
    if (refusal) return refusal;
    const last = this.#store.latestPlay(userId);
    if (last && isOpen(last, now)) return ok(this.#present(meta, userId, last, now));
    const ord = last ? last.ord + 1 : 0;
    if (ord >= this.#store.questionCount()) return fail(409, "no_more_questions", PLAY.noMoreQuestions);
    return ok(this.#present(meta, userId, this.#store.issue(userId, ord, now), now));
  }

  /** Only the questions already issued to this player, in order. */
  async listQuestions(tournamentId: number, userId: number): Promise<RoomResult<PlayerQuestion[]>> {
    const meta = await this.#ready(tournamentId);
    if (!meta) return notFound();
    const now = Date.now();
    return ok(this.#store.plays(userId).map((play) => this.#present(meta, userId, play, now)));
  }

  async answer(tournamentId: number, userId: number, input: AnswerInput): Promise<RoomResult<AnswerResult>> {
    const meta = await this.#ready(tournamentId);
    if (!meta) return notFound();
    const participant = this.#store.participant(userId);
    if (!participant) return fail(409, "not_joined", PLAY.notJoined);
    const question = this.#store.questionById(input.questionId);
    if (!question) return this.#cheat(meta, userId, CHEAT.unknownQuestion(input.questionId), "not_issued", PLAY.notIssued);
    const play = this.#store.play(userId, question.ord);
    // A resent answer (a retry after a lost reply) gets the stored result, whatever happened since.
    if (play?.answer != null && play.answer === input.answer) return ok(resultOf(play, question));
    if (participant.finished_at !== null)
      return this.#cheat(meta, userId, CHEAT.afterFinish(input.questionId), "already_finished", PLAY.alreadyFinished);
    const now = Date.now();
    if (!this.#isLive(meta, now)) return fail(409, "not_live", PLAY.notLive);
    if (!play) return this.#cheat(meta, userId, CHEAT.notIssued(input.questionId), "not_issued", PLAY.notIssued);
    if (play.answer !== null)
      return this.#cheat(meta, userId, CHEAT.secondAnswer(input.questionId), "already_answered", PLAY.alreadyAnswered);
    if (this.#store.latestPlay(userId)!.ord !== play.ord)
      return this.#cheat(meta, userId, CHEAT.notCurrent(input.questionId), "not_current", PLAY.notCurrent);
    const options = JSON.parse(question.options) as string[];
    if (!options.includes(input.answer)) return fail(400, "not_an_option", PLAY.notAnOption);

    const responseMs = Math.max(0, now - play.issued_at);
    const right = input.answer === question.correct_answer;
    const stored = this.#store.recordAnswer(userId, play.ord, {
      answer: input.answer,
      // A late answer is a timed-out one: no points, not counted correct.
      isCorrect: right && !isLate(responseMs),
      responseMs,
      points: answerPoints(right, responseMs),
      xp: answerXp(right, responseMs),
      at: now,
    });
    await this.#leaderboardChanged();
    return ok(resultOf(stored, question));
  }

  /** Finishes the player: what they did not answer counts as timed out. Repeating it changes nothing. */
  async complete(tournamentId: number, userId: number): Promise<RoomResult<CompleteResult>> {
    const first = await this.#ready(tournamentId);
    if (!first) return notFound();
    if (!this.#store.participant(userId)) return fail(409, "not_joined", PLAY.notJoined);
    if (first.phase === "upcoming" || first.phase === "cancelled") return fail(409, "not_live", PLAY.notLive);
    return this.#serial(async () => {
      const now = Date.now();
      const meta = this.#store.meta()!;
      if (meta.phase === "live") {
        this.#store.finish(userId, now);
        if (this.#store.participant(userId)!.results_written === 0) await this.#writeResults(meta, userId, now);
        await this.#leaderboardChanged();
        if (this.#store.participants().every((p) => p.finished_at !== null)) {
          try {
            await this.#advance(now);
          } catch (e) {
            // The player is finished either way; the alarm retries the settlement shortly.
            console.error("early settlement failed", meta.tournament_id, e);
            this.#store.schedule("lifecycle", Date.now() + START_RECHECK_MS);
            await this.#arm();
          }
        }
      }
      // Only this player's plays: ranking the whole field here made every completion O(players).
      const [me] = computeStandings([this.#store.participant(userId)!], this.#store.plays(userId), this.#store.questionCount(), now, true);
      return ok({ finished: true as const, score: me!.score, questionsAnswered: me!.questionsAnswered });
    });
  }

  async leaderboard(tournamentId: number): Promise<RoomResult<LeaderboardRow[]>> {
    const meta = await this.#ready(tournamentId);
    if (!meta) return notFound();
    return ok(this.#standings(Date.now()).map(toLeaderboardRow));
  }

  // ---- Alarm: one alarm, many deadlines ----

  override async alarm(): Promise<void> {
    if (!(await this.#ready())) return;
    await this.#serial(async () => {
      const now = Date.now();
      // The lifecycle step reads the phase and the clock, so running it early or twice is harmless.
      await this.#advance(now);
      const flushAt = this.#store.scheduled("flush");
      if (flushAt !== null && flushAt <= now) {
        this.#store.unschedule("flush");
        this.#pushLeaderboard(now);
      }
      await this.#arm();
    });
  }

  // ---- Sockets (hibernation API) ----

  override async fetch(request: Request): Promise<Response> {
    const userId = Number(request.headers.get(USER_ID_HEADER));
    const tournamentId = Number(request.headers.get(TOURNAMENT_ID_HEADER));
    if (request.headers.get("upgrade")?.toLowerCase() !== "websocket" || !isId(userId) || !isId(tournamentId)) {
      return Response.json({ code: "invalid_request", message: "Expected an authenticated WebSocket upgrade" } satisfies ApiErrorBody, {
        status: 400,
      });
    }
    const meta = await this.#ready(tournamentId);
    if (!meta) return Response.json({ code: "tournament_not_found", message: PLAY.notFound } satisfies ApiErrorBody, { status: 404 });
    const { 0: client, 1: server } = new WebSocketPair();
    this.ctx.acceptWebSocket(server, [`user:${userId}`]);
    server.serializeAttachment({ userId } satisfies SocketAttachment);
    this.#sync(server, meta);
    return new Response(null, { status: 101, webSocket: client });
  }

  override async webSocketMessage(ws: WebSocket, message: string | ArrayBuffer): Promise<void> {
    const frame = tournamentClientFrameSchema.safeParse(parseJson(message));
    if (!frame.success) return send(ws, { type: "error", code: "invalid_frame", message: "Invalid frame" });
    switch (frame.data.type) {
      case "sync": {
        const meta = this.#store.meta();
        if (meta) this.#sync(ws, meta);
        return;
      }
    }
  }

  override async webSocketClose(ws: WebSocket, code: number, reason: string): Promise<void> {
    closeQuietly(ws, code, reason);
  }

  // ---- Internals ----

  #serial<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.#tail.then(fn);
    this.#tail = run.catch(() => undefined);
    return run;
  }

  /** The room's config, loaded from D1 on first use; null when the tournament does not exist. */
  async #ready(tournamentId?: number): Promise<MetaRow | null> {
    const meta = this.#store.meta();
    if (meta && tournamentId !== undefined && meta.tournament_id !== tournamentId) {
      throw new Error(`room of tournament ${meta.tournament_id} was asked about tournament ${tournamentId}`);
    }
    if (meta && this.#synced) return meta;
    if (!meta && tournamentId === undefined) return null;
    return this.#serial(async () => {
      const current = this.#store.meta();
      if (current) {
        if (!this.#synced) await this.#syncParticipants(current.tournament_id);
        return this.#store.meta();
      }
      const config = await loadConfig(this.env.DB, tournamentId!);
      if (!config) return null;
      this.#store.install(config);
      this.#synced = true;
      // Sets the first alarm (or starts a tournament whose start time has passed).
      await this.#advance(Date.now());
      return this.#store.meta();
    });
  }

  /**
   * D1 has the proof of every entry (the participant row written with the fee) and of every leave
   * (its refund); adopt what this copy missed, e.g. when it stopped between D1's batch and its own write.
   */
  async #syncParticipants(tournamentId: number): Promise<void> {
    const [participants, departures] = await Promise.all([
      loadParticipants(this.env.DB, tournamentId),
      loadDepartures(this.env.DB, tournamentId),
    ]);
    this.#store.adoptDepartures(departures);
    if (this.#store.meta()?.phase === "upcoming") this.#store.dropParticipantsNotIn(new Set(participants.map((p) => p.user_id)));
    this.#store.addParticipants(participants);
    this.#synced = true;
  }

  #isLive(meta: MetaRow, now: number): boolean {
    return meta.phase === "live" && (meta.end_time === null || now < meta.end_time);
  }

  #playRefusal(meta: MetaRow, userId: number, now: number): RoomFailure | null {
    const participant = this.#store.participant(userId);
    if (!participant) return fail(409, "not_joined", PLAY.notJoined);
    if (participant.finished_at !== null) return fail(409, "already_finished", PLAY.alreadyFinished);
    if (!this.#isLive(meta, now)) return fail(409, "not_live", PLAY.notLive);
    return null;
  }

  async #cheat(meta: MetaRow, userId: number, reason: string, code: ErrorCode, message: string): Promise<RoomFailure> {
    await cheatAttemptStatement(this.env.DB, meta.tournament_id, userId, reason).run();
    return fail(409, code, message);
  }

  #present(meta: MetaRow, userId: number, play: PlayRow, now: number): PlayerQuestion {
    const question = this.#store.questionAt(play.ord)!;
    const options = JSON.parse(question.options) as string[];
    return {
      id: question.question_id,
      question: question.question,
      options: seededShuffle(options, `${meta.tournament_id}:${userId}:${question.question_id}`),
      index: play.ord,
      total: this.#store.questionCount(),
      issuedAt: iso(play.issued_at),
      deadline: iso(play.issued_at + QUESTION_TIME_MS),
      remainingMs: Math.max(0, play.issued_at + QUESTION_TIME_MS - now),
      result: play.answer !== null ? resultOf(play, question) : null,
    };
  }

  #standings(now: number): PlayerStanding[] {
    const meta = this.#store.meta()!;
    const final = meta.phase === "completed" || meta.phase === "cancelled";
    return computeStandings(this.#store.participants(), this.#store.allPlays(), this.#store.questionCount(), now, final);
  }

  /** A finishing player's totals and responses to D1 (practice also credits the answers' XP). */
  async #writeResults(meta: MetaRow, userId: number, now: number): Promise<void> {
    const plays = this.#store.plays(userId);
    const [me] = computeStandings([this.#store.participant(userId)!], plays, this.#store.questionCount(), now, true);
    const result: ParticipantResult = {
      u: userId,
      score: me!.score,
      answered: me!.questionsAnswered,
      correct: me!.correctAnswers,
      totalMs: me!.totalResponseMs,
      xp: me!.answerXp,
      finishedAt: me!.finishedAt,
      rank: null,
      prize: 0,
    };
    const db = this.env.DB;
    await db.batch([
      ...(meta.practice ? [practiceXpStatement(db, meta.tournament_id, userId, me!.answerXp)] : []),
      participantResultsStatement(db, meta.tournament_id, [result]),
      responsesStatement(db, meta.tournament_id, responseRecords(plays, this.#questionIds(), new Set([userId]))),
    ]);
    this.#store.markResultsWritten([userId]);
  }

  #questionIds(): Map<number, number> {
    return new Map(this.#store.questions().map((q) => [q.ord, q.question_id]));
  }

  /** Moves the lifecycle on as far as the clock allows, then sets the alarm for what is next. */
  async #advance(now: number): Promise<void> {
    const meta = this.#store.meta()!;
    const participants = this.#store.participants();
    const step = nextLifecycleStep(
      {
        phase: meta.phase,
        practice: meta.practice === 1,
        startTime: meta.start_time,
        endTime: meta.end_time,
        minPlayers: meta.min_players,
        participants: participants.length,
        everyoneFinished: participants.length > 0 && participants.every((p) => p.finished_at !== null),
      },
      now,
    );
    switch (step.kind) {
      case "wait":
        this.#store.schedule("lifecycle", step.until);
        break;
      case "start":
        await this.#start(meta, now);
        break;
      case "cancel":
        await this.#cancel(meta);
        break;
      case "settle":
        await this.#settle(meta, now);
        break;
      case "close_practice_run":
        await this.#closePracticeRun(meta, now);
        break;
      case "done":
        this.#store.unschedule("lifecycle");
        break;
    }
    await this.#arm();
  }

  async #start(meta: MetaRow, now: number): Promise<void> {
    // A delayed start keeps the full playing time.
    const endTime = meta.end_time === null ? null : meta.end_time + Math.max(0, now - meta.start_time);
    const userIds = this.#store.participants().map((p) => p.user_id);
    const notice = tournamentNotice(meta.tournament_id, meta.title, "started");
    await this.env.DB.batch([
      startStatement(this.env.DB, meta.tournament_id, endTime),
      notificationsStatement(this.env.DB, notice, userIds),
    ]);
    this.#store.setPhase("live", { endTime });
    if (endTime === null || meta.practice) this.#store.unschedule("lifecycle");
    else this.#store.schedule("lifecycle", endTime);
    this.#broadcast({ type: "status", status: "live" });
    await this.#notify(userIds, notice.frame);
  }

  async #cancel(meta: MetaRow): Promise<void> {
    const userIds = this.#store.participants().map((p) => p.user_id);
    const notice = tournamentNotice(meta.tournament_id, meta.title, "cancelled");
    await runAtomically(this.env.DB, [
      ...cancelStatements(this.env.DB, { tournamentId: meta.tournament_id, title: meta.title, feeCents: meta.entry_fee_cents, userIds }),
      notificationsStatement(this.env.DB, notice, userIds),
    ]);
    this.#store.setPhase("cancelled");
    this.#store.setPrizePool(0);
    this.#store.unschedule("lifecycle");
    this.#broadcast({ type: "status", status: "cancelled" });
    await this.#notify(userIds, notice.frame);
  }

  /** Exactly once, however often it runs: see settlementStatements for the guard. */
  async #settle(meta: MetaRow, now: number): Promise<void> {
    if (meta.settled) {
      this.#store.setPhase("completed");
      this.#store.unschedule("lifecycle");
      return;
    }
    // From here on no answer is accepted, so the results written are the results stored.
    this.#store.setPhase("settling");
    const plays = this.#store.allPlays();
    const standings = computeStandings(this.#store.participants(), plays, this.#store.questionCount(), now, true);
    const ids = standings.map((s) => s.userId);
    const prizes = awardPrizes(standings, meta.prize_pool_cents);
    const levels = await userLevels(this.env.DB, ids);
    // Unique per attempt, so a retry cannot pass the guard of an earlier attempt that committed.
    const stamp = Math.max(now, (meta.settle_stamp ?? 0) + 1);
    this.#store.setSettleStamp(stamp);
    const rows = standings.map((s) => ({
      u: s.userId,
      score: s.score,
      answered: s.questionsAnswered,
      correct: s.correctAnswers,
      totalMs: s.totalResponseMs,
      xp: s.answerXp + placementXp(s.rank, levels.get(s.userId) ?? s.level),
      finishedAt: s.finishedAt,
      rank: s.rank,
      prize: prizes.byUser.get(s.userId) ?? 0,
      won: s.rank === 1 ? (1 as const) : (0 as const),
    }));
    const notice = tournamentNotice(meta.tournament_id, meta.title, "completed");
    const [claimed] = await runAtomically(
      this.env.DB,
      settlementStatements(this.env.DB, {
        tournamentId: meta.tournament_id,
        title: meta.title,
        stamp,
        endTime: Math.min(now, meta.end_time ?? now),
        rows,
        unclaimed: prizes.unclaimed,
        responses: responseRecords(plays, this.#questionIds(), new Set(ids)),
        notice,
      }),
    );
    this.#store.recordPlacings(rows.map((r) => ({ userId: r.u, rank: r.rank, prizeCents: r.prize })));
    this.#store.setPhase("completed", { settled: true });
    this.#store.unschedule("lifecycle");
    this.#broadcast({ type: "status", status: "completed" });
    this.#pushLeaderboard(now);
    // claimed is 0 when an earlier attempt had settled: it already notified.
    if ((claimed ?? 0) > 0) {
      await this.#notify(ids, notice.frame);
    }
  }

  /**
   * A practice run ends when its player finishes or its time runs out: the results (and the XP of
   * the answers) go to D1 if they have not yet, and the run is completed. No placing, no prize.
   */
  async #closePracticeRun(meta: MetaRow, now: number): Promise<void> {
    for (const p of this.#store.participants()) {
      if (p.results_written !== 0) continue;
      this.#store.finish(p.user_id, now);
      await this.#writeResults(meta, p.user_id, now);
    }
    await closePracticeRunStatement(this.env.DB, meta.tournament_id, now).run();
    this.#store.setPhase("completed", { settled: true });
    this.#store.unschedule("lifecycle");
    this.#broadcast({ type: "status", status: "completed" });
  }

  async #arm(): Promise<void> {
    const next = this.#store.earliestDeadline();
    if (next === null) return this.ctx.storage.deleteAlarm();
    // Never exactly now: an alarm set for the present from inside alarm() may not fire again.
    await this.ctx.storage.setAlarm(Math.max(next, Date.now() + 1));
  }

  /** Marks the leaderboard changed: sockets get it with the next flush, at most every LEADERBOARD_PUSH_MS. */
  async #leaderboardChanged(): Promise<void> {
    if (this.ctx.getWebSockets().length === 0 || this.#store.scheduled("flush") !== null) return;
    this.#store.schedule("flush", Date.now() + LEADERBOARD_PUSH_MS);
    await this.#arm();
  }

  #pushLeaderboard(now: number): void {
    const sockets = this.ctx.getWebSockets();
    if (sockets.length === 0) return;
    const standings = this.#standings(now);
    const top = standings.slice(0, LEADERBOARD_PUSH_SIZE).map(toLeaderboardRow);
    const byUser = new Map(standings.map((s) => [s.userId, s]));
    for (const ws of sockets) {
      const mine = byUser.get((ws.deserializeAttachment() as SocketAttachment).userId);
      send(ws, { type: "leaderboard", top, me: mine ? { rank: mine.rank, score: mine.score } : null });
    }
  }

  #sync(ws: WebSocket, meta: MetaRow): void {
    send(ws, { type: "status", status: publicStatus(meta.phase) });
    const standings = this.#standings(Date.now());
    const mine = standings.find((s) => s.userId === (ws.deserializeAttachment() as SocketAttachment).userId);
    send(ws, {
      type: "leaderboard",
      top: standings.slice(0, LEADERBOARD_PUSH_SIZE).map(toLeaderboardRow),
      me: mine ? { rank: mine.rank, score: mine.score } : null,
    });
  }

  #broadcast(frame: TournamentServerFrame): void {
    for (const ws of this.ctx.getWebSockets()) send(ws, frame);
  }

  /** Pushes to connected /ws sockets; the notification rows are already stored, so a failure here loses nothing. */
  async #notify(userIds: number[], frame: NotificationFrame): Promise<void> {
    if (userIds.length === 0) return;
    try {
      await pushNotification(this.env, userIds, frame);
    } catch (e) {
      console.error("notification push failed", e);
    }
  }
}

const isId = (n: number) => Number.isSafeInteger(n) && n > 0;

function send(ws: WebSocket, frame: TournamentServerFrame): void {
  try {
    ws.send(JSON.stringify(frame));
  } catch {
    // The socket is closing; the client resyncs when it reconnects.
  }
}

function resultOf(play: PlayRow, question: QuestionRow): AnswerResult {
  return {
    isCorrect: play.is_correct === 1,
    pointsEarned: play.points ?? 0,
    xpEarned: play.xp ?? 0,
    correctAnswer: question.correct_answer,
    explanation: question.explanation,
    responseTime: play.response_ms ?? 0,
  };
}

function toLeaderboardRow(s: PlayerStanding): LeaderboardRow {
  return {
    userId: s.userId,
    username: s.username,
    level: s.showLevel ? s.level : null,
    score: s.score,
    questionsAnswered: s.questionsAnswered,
    rank: s.rank,
    prize: centsToDollars(s.prizeCents),
  };
}
