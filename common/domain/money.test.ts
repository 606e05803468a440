import { describe, expect, it } from "vitest";
import { centsToDollars, dollarsToCents, formatDollars, formatCents, hasDigitsPastCents, dollarsToCentsExact } from "./money";

describe("money", () => {
  it("turns USD amounts with at most 2 decimals into cents, and refuses finer ones", () => {
    expect(dollarsToCentsExact(10)).toBe(1000);
    expect(dollarsToCentsExact(0.1 + 0.2)).toBe(30);
    expect(dollarsToCentsExact(19.99)).toBe(1999);
    expect(dollarsToCentsExact(1.005)).toBeNull();
    expect(dollarsToCentsExact(0.29)).toBe(29);
    expect(dollarsToCentsExact(99_999_999.99)).toBe(9_999_999_999);
    // Finer than a cent is refused, never rounded away, however small the excess.
    expect(dollarsToCentsExact(0.000000001)).toBeNull();
    expect(dollarsToCentsExact(0.004)).toBeNull();
    expect(dollarsToCentsExact(5.000000001)).toBeNull();
    expect(dollarsToCentsExact(1_000_000.000001)).toBeNull();
    expect(dollarsToCentsExact(Number.NaN)).toBeNull();
    expect(dollarsToCentsExact(Infinity)).toBeNull();
  });

  it("spots numeric text finer than a cent, even where the number parses to whole cents", () => {
    expect(["5.0000000000000001", "0.001", "10.105"].filter(hasDigitsPastCents)).toEqual(["5.0000000000000001", "0.001", "10.105"]);
    expect(["5", "5.1", "5.10", "5.100", "0.01"].filter(hasDigitsPastCents)).toEqual([]);
  });

  it("formats cents with 2 decimals, negatives included", () => {
    expect(formatCents(0)).toBe("0.00");
    expect(formatCents(5)).toBe("0.05");
    expect(formatCents(123456)).toBe("1234.56");
    expect(formatCents(-250)).toBe("-2.50");
    expect(centsToDollars(1999)).toBe(19.99);
  });

  it("formats API amounts as dollars", () => {
    expect(formatDollars(25)).toBe("$25.00");
    expect(formatDollars(8.5)).toBe("$8.50");
    expect(formatDollars(-10)).toBe("-$10.00");
    expect(dollarsToCents(0.07)).toBe(7);
  });
});
