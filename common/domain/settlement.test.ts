import { describe, expect, it } from "vitest";
import { placeAndAward } from "./settlement";
import { awardPrizes } from "./prizes";
import { rankStandings } from "./scoring";

const row = (userId: number, score: number, totalResponseMs: number, finishedAt: number | null = null, questionsAnswered = 10) => ({
  userId,
  score,
  totalResponseMs,
  finishedAt,
  questionsAnswered,
});

describe("placeAndAward", () => {
  it("orders by score, then total response time, then finish, then user id, and ranks 1..n", () => {
    const rows = [row(5, 900, 20_000), row(2, 1000, 30_000), row(9, 900, 20_000, 100), row(4, 900, 20_000, 50), row(1, 900, 20_000)];
    const { ranked } = placeAndAward(rows, 0);
    expect(ranked.map((r) => [r.userId, r.rank])).toEqual([
      [2, 1],
      [4, 2],
      [9, 3],
      [1, 4],
      [5, 5],
    ]);
  });

  it("gives the same order and prizes as ranking first and awarding after (one room's settlement), whatever order the rows come in", () => {
    const rows = Array.from({ length: 40 }, (_, i) => row(100 + ((i * 17) % 40), (i % 4) * 100, 1000 * (i % 3), null, i % 5));
    const shuffled = [...rows].reverse();
    const { ranked, unclaimed } = placeAndAward(shuffled, 10_001);
    const expected = rankStandings(rows);
    const awards = awardPrizes(expected, 10_001);
    expect(ranked.map((r) => r.userId)).toEqual(expected.map((r) => r.userId));
    expect(ranked.filter((r) => r.prizeCents > 0).map((r) => [r.userId, r.prizeCents])).toEqual([...awards.byUser]);
    expect(unclaimed).toEqual(awards.unclaimed);
    expect(ranked.reduce((s, r) => s + r.prizeCents, 0) + unclaimed.reduce((s, u) => s + u.cents, 0)).toBe(10_001);
  });

  it("leaves a place with no player who answered anything to the house", () => {
    const { ranked, unclaimed } = placeAndAward([row(1, 500, 1000), row(2, 0, 300_000, null, 0)], 1000);
    expect(ranked.map((r) => r.prizeCents)).toEqual([650, 0]);
    expect(unclaimed.map((u) => u.place)).toEqual([2, 3]);
  });
});
