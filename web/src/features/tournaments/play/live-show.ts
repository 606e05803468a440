// What a live-show screen shows, from what the room has said: pure, so the screen is a function
// of the latest status, question and reveal however they arrived (push, sync, reply or HTTP).
import type { LiveShowState } from "@common/api/tournaments";
import type { TournamentStatus } from "@common/api/types";
import type { RevealFrame, TimedQuestion } from "./use-tournament-socket";

export type LiveView =
  /** Before question 1. */
  | { kind: "waiting" }
  /** A question this client holds, open or waiting for its reveal. */
  | { kind: "question"; question: TimedQuestion }
  /** A question is open that this client does not hold (a spectator; a player until `next` answers). */
  | { kind: "open"; index: number; total: number; closesAt: string | null }
  | { kind: "reveal"; reveal: RevealFrame }
  /** Between questions without the reveal (connected during the pause), or live with nothing known yet. */
  | { kind: "between"; nextAt: string | null }
  | { kind: "over" };

export interface LiveInput {
  status: TournamentStatus;
  show: LiveShowState | null;
  question: TimedQuestion | null;
  reveal: RevealFrame | null;
}

/** The newer of two held questions (by index); at the same index the first to arrive keeps its clock. */
export function newerQuestion(a: TimedQuestion | null, b: TimedQuestion | null): TimedQuestion | null {
  if (!a || !b) return a ?? b;
  return b.question.index > a.question.index ? b : a;
}

/**
 * The newest thing this client knows decides: a reveal replaces its question, the next question
 * replaces the reveal. The show's stage says what the client missed (its index runs ahead).
 */
export function liveView({ status, show, question, reveal }: LiveInput): LiveView {
  if (status === "completed" || show?.stage === "over") return { kind: "over" };
  const shownIndex = show?.index ?? -1;
  const q = question && question.question.index >= shownIndex ? question : null;
  const r = reveal && reveal.index >= shownIndex ? reveal : null;
  if (r && (!q || r.index >= q.question.index)) return { kind: "reveal", reveal: r };
  if (q) return { kind: "question", question: q };
  if (status === "upcoming" || show?.stage === "waiting") return { kind: "waiting" };
  if (show?.stage === "question") return { kind: "open", index: show.index, total: show.total, closesAt: show.nextAt };
  return { kind: "between", nextAt: show?.nextAt ?? null };
}

export interface OptionShare {
  option: string;
  count: number;
  /** Whole percent of all answers; 0 when nobody answered. */
  percent: number;
}

/** Each option's count and share of the answers, in the question's own order. */
export function optionShares(distribution: RevealFrame["distribution"]): OptionShare[] {
  const total = distribution.reduce((sum, d) => sum + d.count, 0);
  return distribution.map((d) => ({ ...d, percent: total === 0 ? 0 : Math.round((d.count / total) * 100) }));
}

/** "2:05" (or "1:02:05"), rounded up to the second. */
export function clockLabel(ms: number): string {
  const total = Math.ceil(Math.max(0, ms) / 1000);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, "0");
  return h > 0 ? `${h}:${String(m).padStart(2, "0")}:${s}` : `${m}:${s}`;
}
