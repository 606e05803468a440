// How the room shows a player their questions and answers: the question with its clock, the
// reply to an answer (its verdict, or locked until nobody can pass the verdict on), the signed
// receipt; and where a question stands (its slot, whether it is revealed).
import type { AnswerLocked, AnswerReply, AnswerResult, PlayerQuestion } from "../../../common/api/tournaments";
import type { AnswerReceipt } from "../../../common/api/fair-play";
import { drawCandidate, drawSecret } from "../../../common/domain/fairness";
import { LIVE_SHOW_WINDOW_MS, isQuestionRevealed, revealedQuestions } from "../../../common/domain/live-show";
import { slotOfQuestion } from "../../../common/domain/self-paced";
import { isVerdictWithheld } from "../../../common/domain/tournaments";
import { seededShuffle } from "../../../common/domain/questions";
import { QUESTION_TIME_MS } from "../../../common/spec";
import { iso } from "../../db/present";
import { signReceipt } from "../../fair-play/receipts";
import type { RoomCore } from "./core";
import type { MetaRow, PlayRow, QuestionRow } from "./tables";

export class Presenters {
  constructor(readonly core: RoomCore) {}

  present(meta: MetaRow, userId: number, play: PlayRow, now: number): PlayerQuestion {
    const question = this.core.store.questionAt(play.ord)!;
    if (meta.format === "live_show") return this.presentLive(meta, userId, question, now);
    return {
      id: question.question_id,
      question: question.question,
      options: seededShuffle(this.core.optionsOf(question), `${meta.tournament_id}:${userId}:${question.question_id}`),
      index: slotOf(meta, play.ord),
      total: this.core.store.slotCount(),
      issuedAt: iso(play.issued_at),
      deadline: iso(play.issued_at + QUESTION_TIME_MS),
      remainingMs: Math.max(0, play.issued_at + QUESTION_TIME_MS - now),
      result: play.answer !== null ? this.reply(meta, play, question) : null,
    };
  }

  /** A live show's question as one player sees it: the shared clock, and their answer locked until the reveal. */
  presentLive(meta: MetaRow, userId: number, question: QuestionRow, now: number): PlayerQuestion {
    const openedAt = question.opened_at ?? now;
    const play = this.core.store.play(userId, question.ord);
    return {
      id: question.question_id,
      question: question.question,
      options: seededShuffle(this.core.optionsOf(question), `${meta.tournament_id}:${userId}:${question.question_id}`),
      index: question.ord,
      total: this.core.store.slotCount(),
      issuedAt: iso(openedAt),
      deadline: iso(openedAt + QUESTION_TIME_MS),
      remainingMs: Math.max(0, openedAt + QUESTION_TIME_MS - now),
      result: play?.answer != null ? this.reply(meta, play, question) : null,
    };
  }

  /**
   * An answer's reply: the scored result only once nobody can pass the verdict on. A live show's
   * answer is locked until its question is revealed; a self-paced prize tournament's until the
   * tournament has ended (practice scores at once).
   */
  reply(meta: MetaRow, play: PlayRow, question: QuestionRow): AnswerReply {
    if (meta.format === "live_show" ? !isRevealed(meta, question.ord) : verdictWithheld(meta)) return this.locked(meta, play, question);
    return this.result(meta, play, question);
  }

  /**
   * A scored answer with its signed receipt. A self-paced prize tournament withholds the correct
   * answer and explanation until it has ended, so nobody can pass them on to players still
   * playing; practice shows them at once.
   */
  result(meta: MetaRow, play: PlayRow, question: QuestionRow): AnswerResult {
    const withheld = verdictWithheld(meta);
    // A voided question counts for nobody: its answer earns nothing, and its receipt says so.
    const voided = question.voided_at !== null;
    return {
      isCorrect: play.is_correct === 1,
      pointsEarned: voided ? 0 : (play.points ?? 0),
      xpEarned: voided ? 0 : (play.xp ?? 0),
      correctAnswer: withheld ? null : question.correct_answer,
      explanation: withheld ? null : question.explanation,
      withheldUntil: withheld && meta.end_time !== null ? iso(meta.end_time) : null,
      responseTime: play.response_ms ?? 0,
      receipt: play.answer === null ? null : this.receipt(meta, play, question, voided ? 0 : (play.points ?? 0)),
    };
  }

  /**
   * An answer before its verdict may be known: locked in, its receipt without points. Revealed
   * when a live show's window closes, or when a self-paced prize tournament ends.
   */
  locked(meta: MetaRow, play: PlayRow, question: QuestionRow): AnswerLocked {
    const revealAt = meta.format === "live_show" ? question.opened_at! + LIVE_SHOW_WINDOW_MS : (meta.end_time ?? play.issued_at);
    return {
      locked: true,
      questionId: question.question_id,
      answer: play.answer!,
      responseTime: play.response_ms ?? 0,
      revealAt: iso(revealAt),
      receipt: this.receipt(meta, play, question, null),
    };
  }

  receipt(meta: MetaRow, play: PlayRow, question: QuestionRow, points: number | null): AnswerReceipt {
    return signReceipt(this.core.env, {
      tournamentId: meta.tournament_id,
      userId: play.user_id,
      questionId: question.question_id,
      answer: play.answer!,
      receivedAt: iso(play.answered_at ?? play.issued_at),
      responseMs: play.response_ms ?? 0,
      points,
    });
  }
}

/**
 * Whether a self-paced prize tournament still keeps every verdict to itself: right or wrong,
 * points, scores. Every standard tournament counts as prize play, free ones included; only
 * practice scores at once. Shown once the tournament has ended (completed).
 */
export const verdictWithheld = (meta: MetaRow): boolean =>
  isVerdictWithheld({ format: meta.format, practice: meta.practice !== 0, phase: meta.phase });

/** The ramp slot (the player's question number, 0-based) of a question of the pool. */
export const slotOf = (meta: MetaRow, ord: number): number => slotOfQuestion(ord, meta.draw_width);

/** The question a player gets for a slot: one of its candidates, drawn from the secret salt. */
export function ordFor(meta: MetaRow, userId: number, slot: number): number {
  return slot * meta.draw_width + drawCandidate(drawSecret(meta.commitment_version, meta.salt ?? ""), userId, slot, meta.draw_width);
}

/** Whether a live show's question is revealed (common/domain/live-show.ts). */
export const isRevealed = (meta: MetaRow, ord: number): boolean =>
  isQuestionRevealed({ phase: meta.phase, stage: meta.show_stage, ord: meta.show_ord }, ord);

/** How many of a live show's questions have been revealed. */
export const revealedCount = (meta: MetaRow): number => revealedQuestions({ stage: meta.show_stage, ord: meta.show_ord });
