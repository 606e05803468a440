// Which questions may go where (docs/questions.md, "Fresh, burned and practice-only"). A question
// whose correct answer anyone but an operator has seen is burned: it never decides a prize again.
// Prize play draws only fresh questions, each once; practice draws only what can no longer decide
// a prize. DEMO_QUESTION_REUSE (local runs of the public demo bank only) lifts both limits.
import { DIFFICULTY_RAMP, SCHEDULE_SPACING_MS } from "../spec";

export interface QuestionState {
  paidUses: number;
  /** Epoch ms when it was burned, or null. */
  answerShownAt: number | null;
  practiceOnly: boolean;
  /** Epoch ms when an operator retired it from every draw, or null. */
  retiredAt: number | null;
}

export const QUESTION_SUPPLY_STATES = ["fresh", "held", "burned", "practice_only", "retired"] as const;
export type QuestionSupplyState = (typeof QUESTION_SUPPLY_STATES)[number];

/**
 * One word for a question's place in the supply, in the order the rules decide it. A question held
 * by a prize tournament stays `held` even if an operator marks it for practice meanwhile: practice
 * must not show its answer before that tournament has ended (then it is burned, or given back).
 */
export function supplyState(q: QuestionState): QuestionSupplyState {
  if (q.retiredAt !== null) return "retired";
  if (q.answerShownAt !== null) return "burned";
  if (q.paidUses > 0) return "held";
  return q.practiceOnly ? "practice_only" : "fresh";
}

/** Never shown, in no prize tournament, not kept for practice: it may decide a prize. */
export const isFresh = (q: QuestionState) => supplyState(q) === "fresh";

/**
 * May a new prize tournament take it? Only a fresh one; with demo reuse any question an operator
 * has neither retired nor kept for practice (fresh ones are still preferred: see `preferFresh`).
 */
export function usableForPrize(q: QuestionState, demoReuse: boolean): boolean {
  if (demoReuse) return q.retiredAt === null && !q.practiceOnly;
  return isFresh(q);
}

/** May practice draw it? Only what can no longer decide a prize; with demo reuse the whole bank. */
export function usableForPractice(q: QuestionState, demoReuse: boolean): boolean {
  if (demoReuse) return q.retiredAt === null;
  const state = supplyState(q);
  return state === "burned" || state === "practice_only";
}

/** Marks every non-fresh question `seen`, so a pick takes fresh ones first (demo reuse). */
export const preferFresh = <T extends QuestionState>(pool: readonly T[]): (T & { seen: boolean })[] =>
  pool.map((q) => ({ ...q, seen: !isFresh(q) }));

/** Live shows the schedule puts into prize play per category per day: one per slot of its grid. */
export const SCHEDULED_SHOWS_PER_DAY = Math.round((24 * 60 * 60 * 1000) / SCHEDULE_SPACING_MS);

/**
 * Days of the schedule the fresh questions last, to a tenth of a day (rounded down): each live
 * show burns one question per slot of the ramp, and a slot short of its difficulty takes the
 * nearest one, so every full set of ten is one show. Null when nothing is scheduled.
 */
export function daysOfSupply(fresh: number, showsPerDay = SCHEDULED_SHOWS_PER_DAY): number | null {
  if (showsPerDay <= 0) return null;
  const shows = Math.floor(fresh / DIFFICULTY_RAMP.length);
  return Math.floor((shows / showsPerDay) * 10) / 10;
}
