import { CORRECT_ANSWER_POINTS, MAX_SPEED_BONUS, QUESTION_TIME_MS, ANSWER_GRACE_MS, XP_PER_CORRECT } from "../spec";

/** round(1000 / seconds), capped at 1000: 1 s gives 1000, 2 s 500, 5 s 200. */
export function speedBonus(responseMs: number): number {
  const seconds = Math.max(responseMs, 1) / 1000;
  return Math.min(MAX_SPEED_BONUS, Math.round(1000 / seconds));
}

export const isLate = (responseMs: number) => responseMs > QUESTION_TIME_MS + ANSWER_GRACE_MS;

/** Points for one answer: 100 + speed bonus when correct and in time, otherwise 0. */
export function answerPoints(isCorrect: boolean, responseMs: number): number {
  if (!isCorrect || isLate(responseMs)) return 0;
  return CORRECT_ANSWER_POINTS + speedBonus(responseMs);
}

/** 10 XP per correct answer plus a 1-5 speed bonus (5 under 3 s, down to 1 near the limit). */
export function answerXp(isCorrect: boolean, responseMs: number): number {
  if (!isCorrect || isLate(responseMs)) return 0;
  const fraction = Math.min(Math.max(responseMs, 0), QUESTION_TIME_MS) / QUESTION_TIME_MS;
  return XP_PER_CORRECT + Math.max(1, 5 - Math.floor(fraction * 5));
}

export interface Standing {
  userId: number;
  score: number;
  totalResponseMs: number;
  /** When the player finished (ms); null if they never did. */
  finishedAt: number | null;
}

/** Rank by points, then lower total response time, then earlier finish, then user id for stability. */
export function compareStandings(a: Standing, b: Standing): number {
  return (
    b.score - a.score ||
    a.totalResponseMs - b.totalResponseMs ||
    (a.finishedAt ?? Number.MAX_SAFE_INTEGER) - (b.finishedAt ?? Number.MAX_SAFE_INTEGER) ||
    a.userId - b.userId
  );
}

export const rankStandings = <T extends Standing>(rows: T[]): T[] => [...rows].sort(compareStandings);

/**
 * Total response time for the tiebreak: measured times of answered questions, plus the full 30 s
 * for every question that timed out, so skipping questions never beats answering them.
 */
export const totalResponseMs = (answeredMs: readonly number[], timedOut: number) =>
  answeredMs.reduce((sum, ms) => sum + ms, 0) + Math.max(timedOut, 0) * QUESTION_TIME_MS;
