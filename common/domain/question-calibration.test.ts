import { describe, expect, it } from "vitest";
import { correctRate, difficultyForRate, suggestDifficulty } from "./question-calibration";
import { CALIBRATION_MIN_ANSWERS } from "../spec";

describe("question calibration", () => {
  it("measures the correct rate over every answer, timed-out ones included, and has none without answers", () => {
    expect(correctRate(0, 0)).toBeNull();
    expect(correctRate(3, 4)).toBe(0.75);
  });

  it("bands a rate: 70% or more is easy, under 40% is hard, medium in between", () => {
    expect(difficultyForRate(0.7)).toBe(1);
    expect(difficultyForRate(0.69)).toBe(2);
    expect(difficultyForRate(0.4)).toBe(2);
    expect(difficultyForRate(0.39)).toBe(3);
  });

  it("suggests a difficulty only when enough players answered and the band disagrees with the set one", () => {
    const n = CALIBRATION_MIN_ANSWERS;
    // Set hard, but nearly everyone gets it right.
    expect(suggestDifficulty({ difficulty: 3, answers: n, correct: n - 1 })).toBe(1);
    // Set easy, but most miss it.
    expect(suggestDifficulty({ difficulty: 1, answers: n, correct: Math.floor(n / 2) })).toBe(2);
    // Agrees: nothing to suggest.
    expect(suggestDifficulty({ difficulty: 2, answers: n, correct: Math.floor(n / 2) })).toBeNull();
    // Too few answers to tell.
    expect(suggestDifficulty({ difficulty: 3, answers: n - 1, correct: n - 1 })).toBeNull();
  });
});
