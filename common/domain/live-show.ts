// The live show's clock (docs/product.md, Live show; docs/decisions/008-live-show-timing.md):
// every player gets each question at the same moment, answers are taken for the question's 30 s
// plus the network grace, then everyone sees the reveal, and after a pause the next question.
// Pure, so the room's alarm can run it late or twice and tests can run it without a room.
import { ANSWER_GRACE_MS, LATENCY_ALLOWANCE_MAX_MS, QUESTIONS_PER_TOURNAMENT, QUESTION_TIME_MS, REVEAL_PAUSE_MS } from "../spec";
import type { LifecyclePhase } from "./lifecycle";

/** How long a question takes answers: its 30 s and the network grace, the same for everyone. */
export const LIVE_SHOW_WINDOW_MS = QUESTION_TIME_MS + ANSWER_GRACE_MS;
/** A whole show of ten questions: about six minutes. */
export const LIVE_SHOW_DURATION_MS = QUESTIONS_PER_TOURNAMENT * (LIVE_SHOW_WINDOW_MS + REVEAL_PAUSE_MS);

export type ShowStage = "waiting" | "question" | "reveal" | "over";

export interface ShowClock {
  stage: ShowStage;
  /** The current (or last) question, 0-based; -1 while waiting. */
  ord: number;
  /** When the current stage began (ms). */
  since: number;
  total: number;
}

export type ShowStep =
  { kind: "open"; ord: number } | { kind: "reveal"; ord: number } | { kind: "finish" } | { kind: "wait"; until: number } | { kind: "done" };

/**
 * The next thing a live show does. A late alarm catches up one step at a time, and a question
 * opened late still gets its whole window: the window runs from when it actually went out.
 */
export function nextShowStep(c: ShowClock, now: number): ShowStep {
  switch (c.stage) {
    case "waiting":
      return c.total > 0 ? { kind: "open", ord: 0 } : { kind: "finish" };
    case "question": {
      const closesAt = c.since + LIVE_SHOW_WINDOW_MS;
      return now >= closesAt ? { kind: "reveal", ord: c.ord } : { kind: "wait", until: closesAt };
    }
    case "reveal": {
      const nextAt = c.since + REVEAL_PAUSE_MS;
      if (now < nextAt) return { kind: "wait", until: nextAt };
      return c.ord + 1 < c.total ? { kind: "open", ord: c.ord + 1 } : { kind: "finish" };
    }
    case "over":
      return { kind: "done" };
  }
}

/** When the current stage ends, for the players' countdowns; null when nothing is planned. */
export function showStageEndsAt(c: ShowClock): number | null {
  if (c.stage === "question") return c.since + LIVE_SHOW_WINDOW_MS;
  if (c.stage === "reveal") return c.ord + 1 < c.total ? c.since + REVEAL_PAUSE_MS : null;
  return null;
}

/**
 * The latency allowance: half the median of the player's measured round trips (the time the
 * question spent travelling to them), capped, so a far-away player is not slower on paper. 0
 * without a measurement.
 */
export function latencyAllowance(roundTripsMs: readonly number[]): number {
  const valid = roundTripsMs.filter((x) => Number.isFinite(x) && x >= 0).sort((a, b) => a - b);
  if (valid.length === 0) return 0;
  const mid = valid.length >> 1;
  const median = valid.length % 2 === 1 ? valid[mid]! : (valid[mid - 1]! + valid[mid]!) / 2;
  return Math.min(LATENCY_ALLOWANCE_MAX_MS, Math.round(median / 2));
}

/** The response time counted for a live-show answer: from the push, less the allowance, never negative. */
export const liveResponseMs = (answeredAt: number, pushedAt: number, allowanceMs: number) =>
  Math.max(0, answeredAt - pushedAt - allowanceMs);

/** Whether a live-show answer arrived inside the question's window (which is the same for everyone). */
export const insideWindow = (answeredAt: number, pushedAt: number) => answeredAt <= pushedAt + LIVE_SHOW_WINDOW_MS;

/** Where a show stands: the tournament's phase, the show's stage and its current (or last) question. */
export interface ShowPosition {
  phase: LifecyclePhase;
  stage: ShowStage;
  ord: number;
}

/**
 * Whether a question's verdict is out: its reveal has come (questions go out in order), or the
 * tournament is settling or settled. Until then a player's answer stays locked.
 */
export function isQuestionRevealed(p: ShowPosition, ord: number): boolean {
  if (p.phase === "completed" || p.phase === "settling") return true;
  return ord < p.ord || (ord === p.ord && (p.stage === "reveal" || p.stage === "over"));
}

/** How many of a show's questions have been revealed: those before the current one, and it too once revealed. */
export function revealedQuestions(p: { stage: ShowStage; ord: number }): number {
  if (p.stage === "reveal" || p.stage === "over") return p.ord + 1;
  return Math.max(0, p.ord);
}
