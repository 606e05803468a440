import { describe, expect, it } from "vitest";
import { awardPrizes, displayedPrizePool, prizePoolFromFees, splitPrizePool } from "./prizes";

describe("prize pool", () => {
  it("is 85% of the fees collected (the product's example: $10 x 20 players = $170)", () => {
    expect(prizePoolFromFees(20 * 1000)).toBe(17_000);
    expect(displayedPrizePool(20, 1000)).toBe(17_000);
    expect(prizePoolFromFees(0)).toBe(0);
  });

  it("rounds down to the cent, never paying more than 85%", () => {
    expect(prizePoolFromFees(333)).toBe(283);
  });
});

describe("prize split", () => {
  it("splits 65/25/10 and pays the whole pool to the cent", () => {
    expect(splitPrizePool(17_000, 20)).toEqual([11_050, 4_250, 1_700]);
    for (const pool of [1, 7, 850, 999, 12_345, 100_001]) {
      expect(splitPrizePool(pool, 10).reduce((a, b) => a + b, 0)).toBe(pool);
    }
  });

  it("gives rounding remainders to 1st place", () => {
    // 850 cents: 552.5 / 212.5 / 85 -> 552 + 212 + 85 = 849, so 1st gets 553.
    expect(splitPrizePool(850, 10)).toEqual([553, 212, 85]);
  });

  it("gives unpaid places' shares to 1st when fewer than three played", () => {
    expect(splitPrizePool(1000, 2)).toEqual([750, 250]);
    expect(splitPrizePool(1000, 1)).toEqual([1000]);
    expect(splitPrizePool(1000, 0)).toEqual([]);
    expect(splitPrizePool(0, 5)).toEqual([]);
  });
});

describe("prize awards", () => {
  const ranked = (answered: number[]) => answered.map((questionsAnswered, i) => ({ userId: i + 1, questionsAnswered }));

  it("pays places 1-3 of the ranking when each answered something", () => {
    const { byUser, unclaimed } = awardPrizes(ranked([10, 9, 3, 1]), 850);
    expect([...byUser]).toEqual([
      [1, 553],
      [2, 212],
      [3, 85],
    ]);
    expect(unclaimed).toEqual([]);
  });

  it("skips players who answered no question, and keeps a place nobody qualifies for with the house", () => {
    const { byUser, unclaimed } = awardPrizes(ranked([4, 0, 2, 0, 0]), 1000);
    expect([...byUser]).toEqual([
      [1, 650],
      [3, 250],
    ]);
    expect(unclaimed).toEqual([{ place: 3, cents: 100 }]);
  });

  it("keeps the whole pool with the house when nobody answered", () => {
    const { byUser, unclaimed } = awardPrizes(ranked([0, 0]), 1000);
    expect(byUser.size).toBe(0);
    expect(unclaimed).toEqual([
      { place: 1, cents: 650 },
      { place: 2, cents: 250 },
      { place: 3, cents: 100 },
    ]);
  });

  it("pays out nothing from an empty pool", () => {
    expect(awardPrizes(ranked([5, 5, 5]), 0)).toEqual({ byUser: new Map(), unclaimed: [] });
  });
});
