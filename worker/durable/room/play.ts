// Play: the next question, an answer, finishing; the same rules for socket frames (./play-frames.ts)
// and the HTTP endpoints' RPC calls. Self-paced play issues each player their own questions on
// their own clock; a live show takes answers to the question that is out, inside its window.
// Both formats share one answer path so that its refusals keep one order (no probing, below).
import type { AnswerInput, AnswerReply, CompleteResult, PlayerQuestion, TournamentServerFrame } from "../../../common/api/tournaments";
import type { ErrorCode } from "../../../common/api/errors";
import { CHEAT, PLAY } from "../../../common/messages";
import { START_RECHECK_MS } from "../../../common/spec";
import { insideWindow, liveResponseMs } from "../../../common/domain/live-show";
import { answerPoints, answerXp, isLate } from "../../../common/domain/scoring";
import { carriedNext } from "../../../common/domain/self-paced";
import { isPlayable } from "../../../common/domain/lifecycle";
import type { RoomCore } from "./core";
import { cheatAttemptStatements } from "./d1";
import type { RoomBoard } from "./leaderboard";
import type { Lifecycle } from "./lifecycle";
import { replyTo, type FrameRules, type PlayFrame } from "./play-frames";
import { ordFor, slotOf, verdictWithheld, type Presenters } from "./presenters";
import { fail, ok, type RoomFailure, type RoomResult } from "./results";
import type { Settlement } from "./settlement";
import type { RoomSockets } from "./sockets";
import { computeStandings } from "./standings";
import { isOpen, type MetaRow, type PlayRow, type QuestionRow } from "./tables";

export class Play {
  constructor(
    readonly core: RoomCore,
    readonly presenters: Presenters,
    readonly board: RoomBoard,
    readonly sockets: RoomSockets,
    readonly settlement: Settlement,
    readonly lifecycle: Lifecycle,
  ) {}

  /** A play frame's reply, sent only once what it changed is stored. */
  async frame(userId: number, frame: PlayFrame, now: number): Promise<TournamentServerFrame> {
    const reply = await replyTo(this.#frameRules, userId, frame, now);
    await this.core.store.stored();
    return reply;
  }

  /** The play rules as socket frames reach them (./play-frames.ts). */
  readonly #frameRules: FrameRules = {
    next: (userId, now, frameId) => this.next(this.core.meta(), userId, now, frameId),
    answer: (userId, input, now) => this.answer(this.core.meta(), userId, input, now),
    nextAfter: (userId, questionId, now, frameId) => this.#nextAfter(this.core.meta(), userId, questionId, now, frameId),
    complete: (userId) => this.complete(this.core.meta(), userId),
  };

  /** Only the questions already issued to this player (in a live show: already sent to everyone), in order. */
  issuedTo(meta: MetaRow, userId: number, now: number): PlayerQuestion[] {
    const { store } = this.core;
    if (meta.format === "live_show") {
      if (!store.participant(userId)) return [];
      const opened = store.questions().filter((q) => q.opened_at !== null);
      return opened.map((q) => this.presenters.presentLive(meta, userId, q, now));
    }
    return store.plays(userId).map((play) => this.presenters.present(meta, userId, play, now));
  }

  /** Whether this room put the question to the player, a participant (TournamentRoom.wasIssued). */
  wasIssued(meta: MetaRow, userId: number, questionId: number): boolean {
    const { store } = this.core;
    if (!store.participant(userId)) return false;
    const question = store.questionById(questionId);
    if (!question) return false;
    return meta.format === "live_show" ? question.opened_at !== null : store.play(userId, question.ord) !== null;
  }

  /**
   * The question an accepted self-paced answer's reply carries: the one already issued after the
   * answered one (a resent answer: the same question, its clock unchanged), else the next slot
   * issued now, its clock starting with this reply; null after the last (common/domain/self-paced.ts).
   */
  #nextAfter(meta: MetaRow, userId: number, questionId: number, now: number, frameId: string): PlayerQuestion | null | undefined {
    if (meta.format === "live_show") return undefined;
    const { store } = this.core;
    const answered = store.questionById(questionId)!;
    const carried = carriedNext(store.plays(userId), answered.ord, (ord) => slotOf(meta, ord), store.slotCount());
    if (carried.kind === "issued") return this.presenters.present(meta, userId, carried.play, now);
    if (carried.kind === "none") return null;
    // Refused only when nothing more can be played (finished, or the tournament is over).
    const r = this.#openOrIssue(meta, userId, now, frameId);
    return r.ok ? r.value : null;
  }

  next(meta: MetaRow, userId: number, now: number, frameId: string | null): RoomResult<PlayerQuestion> {
    const { store } = this.core;
    if (!store.participant(userId)) return fail(409, "not_joined", PLAY.notJoined);
    // A frame seen before (its reply was lost): the same question again, nothing new issued.
    const seen = frameId === null ? null : store.playByFrame(userId, frameId);
    if (seen) return ok(this.presenters.present(meta, userId, seen, now));
    return this.#openOrIssue(meta, userId, now, frameId);
  }

  /** The player's open question, or the next one issued now (named by the frame that asked, for its resends). */
  #openOrIssue(meta: MetaRow, userId: number, now: number, frameId: string | null): RoomResult<PlayerQuestion> {
    const { store } = this.core;
    const refusal = this.#playRefusal(meta, userId, now);
    if (refusal) return refusal;
    if (meta.format === "live_show") {
      const current = meta.show_stage === "question" ? store.questionAt(meta.show_ord) : null;
      return current ? ok(this.presenters.presentLive(meta, userId, current, now)) : fail(409, "no_open_question", PLAY.waitForQuestion);
    }
    const last = store.latestPlay(userId);
    if (last && isOpen(last, now)) return ok(this.presenters.present(meta, userId, last, now));
    const slot = last ? slotOf(meta, last.ord) + 1 : 0;
    if (slot >= store.slotCount()) return fail(409, "no_more_questions", PLAY.noMoreQuestions);
    const play = store.issue(userId, ordFor(meta, userId, slot), now, frameId);
    // The previous question timed out unanswered: it now counts in the tiebreak total.
    if (last && last.answer === null) this.board.refreshPlayer(userId, now);
    return ok(this.presenters.present(meta, userId, play, now));
  }

  /**
   * Refusals that could tell a tournament's question ids from others (before the start, not
   * issued to this player, after finishing) are decided without looking at whether the id is in
   * the tournament: the same status, message and work (a cheat log) for any id. No probing.
   */
  async answer(meta: MetaRow, userId: number, input: AnswerInput, now: number): Promise<RoomResult<AnswerReply>> {
    const { store } = this.core;
    const participant = store.participant(userId);
    if (!participant) return fail(409, "not_joined", PLAY.notJoined);
    if (participant.disqualified_reason !== null)
      return fail(409, "player_disqualified", PLAY.disqualified(participant.disqualified_reason));
    const known = store.questionById(input.questionId);
    const play = known ? store.play(userId, known.ord) : null;
    // A resent answer (a retry after a lost reply) gets the stored result, whatever happened since.
    if (known && play?.answer != null && play.answer === input.answer) return ok(this.presenters.reply(meta, play, known));
    if (participant.finished_at !== null)
      return this.#cheat(meta, userId, CHEAT.afterFinish(input.questionId), "already_finished", PLAY.alreadyFinished);
    if (meta.phase === "upcoming") return this.#cheat(meta, userId, CHEAT.beforeStart(input.questionId), "not_live", PLAY.notLive);
    if (!isLive(meta, now)) return fail(409, "not_live", PLAY.notLive);
    // Issued: in a live show, sent to everyone; self-paced, issued to this player.
    const question = known && (meta.format === "live_show" ? known.opened_at !== null : play !== null) ? known : null;
    if (!question) {
      // The log tells operators which it was; the player's refusal is the same either way.
      const reason = known ? CHEAT.notIssued(input.questionId) : CHEAT.unknownQuestion(input.questionId);
      return this.#cheat(meta, userId, reason, "not_issued", PLAY.notIssued);
    }
    if (meta.format === "live_show") return this.#answerLive(meta, userId, input, question, play, now);
    if (!play) return this.#cheat(meta, userId, CHEAT.notIssued(input.questionId), "not_issued", PLAY.notIssued);
    if (play.answer !== null)
      return this.#cheat(meta, userId, CHEAT.secondAnswer(input.questionId), "already_answered", PLAY.alreadyAnswered);
    if (store.latestPlay(userId)!.ord !== play.ord)
      return this.#cheat(meta, userId, CHEAT.notCurrent(input.questionId), "not_current", PLAY.notCurrent);
    if (!this.core.optionsOf(question).includes(input.answer)) return fail(400, "not_an_option", PLAY.notAnOption);

    const responseMs = Math.max(0, now - play.issued_at);
    const right = input.answer === question.correct_answer;
    const stored = store.recordAnswer(userId, play.ord, {
      answer: input.answer,
      // A late answer is a timed-out one: no points, not counted correct.
      isCorrect: right && !isLate(responseMs),
      responseMs,
      points: answerPoints(right, responseMs),
      xp: answerXp(right, responseMs),
      at: now,
    });
    this.board.refreshPlayer(userId, now);
    await this.board.changed();
    return ok(this.presenters.reply(meta, stored, question));
  }

  /**
   * A live show's answer: only to the question that is out, inside its window, once. The reply
   * says it is locked in and nothing more; the score moves on the board at the reveal.
   */
  async #answerLive(
    meta: MetaRow,
    userId: number,
    input: AnswerInput,
    question: QuestionRow,
    play: PlayRow | null,
    now: number,
  ): Promise<RoomResult<AnswerReply>> {
    if (play) return this.#cheat(meta, userId, CHEAT.secondAnswer(input.questionId), "already_answered", PLAY.alreadyAnswered);
    const current = meta.show_stage === "question" && meta.show_ord === question.ord;
    if (!current || !insideWindow(now, question.opened_at!)) return fail(409, "answer_window_closed", PLAY.windowClosed);
    if (!this.core.optionsOf(question).includes(input.answer)) return fail(400, "not_an_option", PLAY.notAnOption);
    const responseMs = liveResponseMs(now, question.opened_at!, this.sockets.allowanceFor(userId));
    const right = input.answer === question.correct_answer;
    const stored = this.core.store.recordLiveAnswer(userId, question.ord, question.opened_at!, {
      answer: input.answer,
      isCorrect: right,
      responseMs,
      points: answerPoints(right, responseMs),
      xp: answerXp(right, responseMs),
      at: now,
    });
    return ok(this.presenters.locked(meta, stored, question));
  }

  async complete(first: MetaRow, userId: number): Promise<RoomResult<CompleteResult>> {
    const { core } = this;
    const { store, counted } = core;
    const participant = store.participant(userId);
    if (!participant) return fail(409, "not_joined", PLAY.notJoined);
    if (participant.disqualified_reason !== null)
      return fail(409, "player_disqualified", PLAY.disqualified(participant.disqualified_reason));
    if (first.phase === "upcoming" || first.phase === "cancelled") return fail(409, "not_live", PLAY.notLive);
    const now = Date.now();
    // Finishing is local; the D1 write joins the completions of the same moment in one batch,
    // awaited outside the serial chain so that the next completions can join it.
    const written = await core.serial(async () => {
      if (core.meta().phase !== "live") return null;
      store.finish(userId, now);
      this.board.refreshPlayer(userId, now);
      await this.board.changed();
      return store.participant(userId)!.results_written === 0
        ? { done: this.settlement.completions.add(this.settlement.completion(userId, now)) }
        : {};
    });
    if (written) {
      await written.done;
      await core.serial(async () => {
        const meta = core.meta();
        if (meta.phase !== "live" || !store.everyoneFinished()) return;
        try {
          await this.lifecycle.advance(Date.now());
        } catch (e) {
          // The player is finished either way; the alarm retries the settlement shortly.
          console.error("early settlement failed", meta.tournament_id, e);
          store.schedule("lifecycle", Date.now() + START_RECHECK_MS);
          await core.arm();
        }
      });
    }
    const [me] = computeStandings([store.participant(userId)!], counted.plays(store.plays(userId)), counted.slots(), now, true);
    // Prize play: the score is the verdict summed up, shown once the tournament has ended.
    const score = verdictWithheld(core.meta()) ? null : me!.score;
    return ok({ finished: true as const, score, questionsAnswered: me!.questionsAnswered });
  }

  #playRefusal(meta: MetaRow, userId: number, now: number): RoomFailure | null {
    const participant = this.core.store.participant(userId);
    if (!participant) return fail(409, "not_joined", PLAY.notJoined);
    if (participant.disqualified_reason !== null)
      return fail(409, "player_disqualified", PLAY.disqualified(participant.disqualified_reason));
    if (participant.finished_at !== null) return fail(409, "already_finished", PLAY.alreadyFinished);
    if (!isLive(meta, now)) return fail(409, "not_live", PLAY.notLive);
    return null;
  }

  async #cheat(meta: MetaRow, userId: number, reason: string, code: ErrorCode, message: string): Promise<RoomFailure> {
    const db = this.core.env.DB;
    await db.batch(cheatAttemptStatements(db, meta.tournament_id, userId, reason));
    return fail(409, code, message);
  }
}

const isLive = (meta: MetaRow, now: number): boolean => isPlayable({ phase: meta.phase, endTime: meta.end_time }, now);
