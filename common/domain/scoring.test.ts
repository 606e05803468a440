import { describe, expect, it } from "vitest";
import { answerPoints, answerXp, compareStandings, rankStandings, speedBonus, totalResponseMs } from "./scoring";

describe("scoring", () => {
  it("gives the product's speed bonus", () => {
    expect(speedBonus(1000)).toBe(1000);
    expect(speedBonus(2000)).toBe(500);
    expect(speedBonus(5000)).toBe(200);
    expect(speedBonus(100)).toBe(1000);
  });

  it("scores correct answers in time only", () => {
    expect(answerPoints(true, 2000)).toBe(600);
    expect(answerPoints(false, 2000)).toBe(0);
    expect(answerPoints(true, 32_001)).toBe(0);
    expect(answerXp(true, 1000)).toBe(15);
    expect(answerXp(true, 32_001)).toBe(0);
  });

  it("counts a timed-out question as the full 30 s in the tiebreak", () => {
    expect(totalResponseMs([1200, 800], 0)).toBe(2000);
    expect(totalResponseMs([1200, 800], 2)).toBe(62_000);
    expect(totalResponseMs([], 10)).toBe(300_000);
  });

  it("ranks by points, then total time, then finish", () => {
    const rows = [
      { userId: 1, score: 500, totalResponseMs: 9000, finishedAt: 10 },
      { userId: 2, score: 700, totalResponseMs: 9999, finishedAt: 20 },
      { userId: 3, score: 500, totalResponseMs: 8000, finishedAt: 30 },
      { userId: 4, score: 500, totalResponseMs: 8000, finishedAt: 25 },
      { userId: 5, score: 500, totalResponseMs: 8000, finishedAt: null },
    ];
    expect(rankStandings(rows).map((r) => r.userId)).toEqual([2, 4, 3, 5, 1]);
    expect(compareStandings(rows[0]!, rows[0]!)).toBe(0);
  });
});
