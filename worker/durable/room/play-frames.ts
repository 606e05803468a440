// A player's play frames on the tournament socket and their replies: `next`, `answer` (with
// `next: true`, the reply also carries the next question: one frame per answer) and `complete`.
// The rules themselves are the room's, shared with the HTTP endpoints; this maps frames to them
// and their outcomes to reply frames (docs/decisions/004-tournament-room.md, "One frame per answer").
import type {
  AnswerInput,
  AnswerReply,
  CompleteResult,
  PlayerQuestion,
  TournamentClientFrame,
  TournamentServerFrame,
} from "../../../common/api/tournaments";
import type { ErrorCode } from "../../../common/api/errors";
import type { RoomResult } from "./results";

export type PlayFrame = Extract<TournamentClientFrame, { type: "next" | "answer" | "complete" }>;

/** The room's play rules as the frames reach them. */
export interface FrameRules {
  next(userId: number, now: number, frameId: string): RoomResult<PlayerQuestion>;
  answer(userId: number, input: AnswerInput, now: number): Promise<RoomResult<AnswerReply>>;
  /**
   * After an accepted answer (fresh or resent): the question its reply carries, issued now or
   * the one already issued after it (common/domain/self-paced.ts); null after the player's last
   * question; undefined where nothing is carried (a live show pushes its questions).
   */
  nextAfter(userId: number, questionId: number, now: number, frameId: string): PlayerQuestion | null | undefined;
  complete(userId: number): Promise<RoomResult<CompleteResult>>;
}

export async function replyTo(rules: FrameRules, userId: number, frame: PlayFrame, now: number): Promise<TournamentServerFrame> {
  switch (frame.type) {
    case "next": {
      const r = rules.next(userId, now, frame.id);
      return r.ok ? { type: "question", id: frame.id, question: r.value } : errorFrame(frame.id, r.status, r.code, r.message);
    }
    case "answer": {
      const r = await rules.answer(userId, { questionId: frame.questionId, answer: frame.answer }, now);
      if (!r.ok) return errorFrame(frame.id, r.status, r.code, r.message);
      // Issued now, after the answer was recorded: its clock starts with the reply that carries it.
      const next = frame.next ? rules.nextAfter(userId, frame.questionId, Date.now(), frame.id) : undefined;
      return next === undefined
        ? { type: "result", id: frame.id, result: r.value }
        : { type: "result", id: frame.id, result: r.value, next };
    }
    case "complete": {
      const r = await rules.complete(userId);
      return r.ok ? { type: "completed", id: frame.id, ...r.value } : errorFrame(frame.id, r.status, r.code, r.message);
    }
  }
}

export function errorFrame(id: string | undefined, status: number, code: ErrorCode, message: string): TournamentServerFrame {
  return id === undefined ? { type: "error", status, code, message } : { type: "error", id, status, code, message };
}
