// Recalibrating a question's difficulty from how players really answered it. The set difficulty
// places a question on the tournaments' ramp; when the share of correct answers says otherwise,
// the console suggests the band the rate falls in, and the operator decides.
import { CALIBRATION_EASY_FROM, CALIBRATION_HARD_BELOW, CALIBRATION_MIN_ANSWERS } from "../spec";

/** Correct answers over all answers (a timed-out one counts as wrong); null before any answer. */
export function correctRate(correct: number, answers: number): number | null {
  return answers > 0 ? correct / answers : null;
}

/** The difficulty a correct rate reads as: easy from CALIBRATION_EASY_FROM, hard below CALIBRATION_HARD_BELOW. */
export function difficultyForRate(rate: number): 1 | 2 | 3 {
  if (rate >= CALIBRATION_EASY_FROM) return 1;
  if (rate < CALIBRATION_HARD_BELOW) return 3;
  return 2;
}

/** The difficulty to suggest, or null when too few players answered or the rate agrees with the set one. */
export function suggestDifficulty(q: { difficulty: number; answers: number; correct: number }): 1 | 2 | 3 | null {
  if (q.answers < CALIBRATION_MIN_ANSWERS) return null;
  const band = difficultyForRate(q.correct / q.answers);
  return band === q.difficulty ? null : band;
}
