import { describe, expect, it } from "vitest";
import { firstNeedingSecondOperator, needsSecondOperator } from "./two-person";

const T = 100_000; // $1,000

describe("needsSecondOperator", () => {
  it("holds the threshold for one item as before: above it needs a second operator, at it does not", () => {
    expect(needsSecondOperator({ amountCents: T, operatorTotalCents24h: 0, payeeTotalCents24h: 0, thresholdCents: T })).toBe(false);
    expect(needsSecondOperator({ amountCents: T + 1, operatorTotalCents24h: 0, payeeTotalCents24h: 0, thresholdCents: T })).toBe(true);
  });

  it("counts what the operator let through on their own in the last 24 h", () => {
    // The tenth $999 payout of the day by one operator.
    expect(needsSecondOperator({ amountCents: 99_900, operatorTotalCents24h: 9 * 99_900, payeeTotalCents24h: 0, thresholdCents: T })).toBe(
      true,
    );
    expect(needsSecondOperator({ amountCents: 400, operatorTotalCents24h: T - 400, payeeTotalCents24h: 0, thresholdCents: T })).toBe(false);
    expect(needsSecondOperator({ amountCents: 401, operatorTotalCents24h: T - 400, payeeTotalCents24h: 0, thresholdCents: T })).toBe(true);
  });

  it("counts what the payee received that way in the last 24 h, whoever let it through", () => {
    expect(needsSecondOperator({ amountCents: 99_900, operatorTotalCents24h: 0, payeeTotalCents24h: 99_900, thresholdCents: T })).toBe(
      true,
    );
    expect(needsSecondOperator({ amountCents: 100, operatorTotalCents24h: 0, payeeTotalCents24h: T - 100, thresholdCents: T })).toBe(false);
  });

  it("has no payee total for house pools: five $500 pools by one operator cross a $500 threshold at the second", () => {
    const pool = 50_000;
    expect(needsSecondOperator({ amountCents: pool, operatorTotalCents24h: 0, payeeTotalCents24h: null, thresholdCents: pool })).toBe(
      false,
    );
    expect(needsSecondOperator({ amountCents: pool, operatorTotalCents24h: pool, payeeTotalCents24h: null, thresholdCents: pool })).toBe(
      true,
    );
  });

  it("always needs a second operator for money to the operator's own account", () => {
    expect(
      needsSecondOperator({ amountCents: 1, operatorTotalCents24h: 0, payeeTotalCents24h: 0, thresholdCents: T, payeeIsOperator: true }),
    ).toBe(true);
  });
});

describe("firstNeedingSecondOperator", () => {
  it("counts the selection's own items in order, per operator and per payee; approved items count for nothing", () => {
    const item = (amountCents: number, payeeId: number, approved = false) => ({ amountCents, payeeId, approved });
    expect(firstNeedingSecondOperator([item(60_000, 1), item(40_000, 2)], 0, new Map(), T, 99)).toBe(-1);
    expect(firstNeedingSecondOperator([item(60_000, 1), item(40_001, 2)], 0, new Map(), T, 99)).toBe(1);
    expect(firstNeedingSecondOperator([item(200_000, 1, true), item(T, 1)], 0, new Map(), T, 99)).toBe(-1);
    expect(firstNeedingSecondOperator([item(10, 1)], 0, new Map([[1, T - 5]]), T, 99)).toBe(0);
    expect(firstNeedingSecondOperator([item(10, 1)], T - 5, new Map(), T, 99)).toBe(0);
    expect(firstNeedingSecondOperator([item(10, 1), item(10, 99)], 0, new Map(), T, 99)).toBe(1);
  });
});
