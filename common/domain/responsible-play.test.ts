import { describe, expect, it } from "vitest";
import {
  activeExclusion,
  ageOn,
  barredBy,
  changeLimit,
  checkLimit,
  isIsoDate,
  limitFamily,
  limitWindowMs,
  minAgeFor,
  netEntryFees,
  NO_LIMIT,
  parseRegion,
  parseRegionAges,
  parseRegionList,
  selfExclusionEnd,
  settleLimit,
} from "./responsible-play";

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;
const NOW = Date.UTC(2026, 10, 24, 12, 0, 0);

describe("limit changes", () => {
  it("applies a first limit and a lower one at once, dropping a waiting raise", () => {
    const first = changeLimit(NO_LIMIT, 5000, NOW);
    expect(first).toEqual({ amountCents: 5000, pendingAmountCents: null, pendingFrom: null });
    const raising = changeLimit(first, 9000, NOW);
    expect(changeLimit(raising, 3000, NOW + HOUR)).toEqual({ amountCents: 3000, pendingAmountCents: null, pendingFrom: null });
  });

  it("holds a raise or a removal for 24 hours, then applies it when read", () => {
    const set = changeLimit(NO_LIMIT, 5000, NOW);
    const raised = changeLimit(set, 9000, NOW);
    expect(raised).toEqual({ amountCents: 5000, pendingAmountCents: 9000, pendingFrom: NOW + DAY });
    expect(settleLimit(raised, NOW + DAY - 1).amountCents).toBe(5000);
    expect(settleLimit(raised, NOW + DAY)).toEqual({ amountCents: 9000, pendingAmountCents: null, pendingFrom: null });
    const removed = changeLimit(set, null, NOW);
    expect(removed).toEqual({ amountCents: 5000, pendingAmountCents: null, pendingFrom: NOW + DAY });
    expect(settleLimit(removed, NOW + DAY)).toEqual(NO_LIMIT);
  });

  it("keeps the waiting time when the same raise is asked again, and cancels it when the current limit is asked for", () => {
    const raised = changeLimit(changeLimit(NO_LIMIT, 5000, NOW), 9000, NOW);
    expect(changeLimit(raised, 9000, NOW + 10 * HOUR).pendingFrom).toBe(NOW + DAY);
    expect(changeLimit(raised, 5000, NOW + HOUR)).toEqual({ amountCents: 5000, pendingAmountCents: null, pendingFrom: null });
    expect(changeLimit(raised, 7000, NOW + HOUR).pendingFrom).toBe(NOW + HOUR + DAY);
  });

  it("names each kind's family and window", () => {
    expect(limitFamily("deposit_weekly")).toBe("deposit");
    expect(limitFamily("entry_fees_daily")).toBe("entry_fees");
    expect(limitWindowMs("entry_fees_monthly")).toBe(30 * DAY);
    expect(limitWindowMs("deposit_daily")).toBe(DAY);
  });
});

describe("rolling windows", () => {
  const spends = [
    { at: NOW - 30 * HOUR, cents: 4000 }, // outside the last 24 h
    { at: NOW - 20 * HOUR, cents: 2000 },
    { at: NOW - 2 * HOUR, cents: 1000 },
  ];

  it("counts what happened in the last window only", () => {
    const c = checkLimit(5000, spends, DAY, NOW, 1500);
    expect(c).toMatchObject({ usedCents: 3000, leftCents: 2000, fits: true, fitsAt: NOW });
    expect(checkLimit(5000, spends, 7 * DAY, NOW, 1).usedCents).toBe(7000);
  });

  it("says when a refused amount fits: as the oldest amounts leave the window", () => {
    const c = checkLimit(5000, spends, DAY, NOW, 3000);
    expect(c).toMatchObject({ usedCents: 3000, leftCents: 2000, fits: false });
    expect(c.fitsAt).toBe(NOW - 20 * HOUR + DAY);
    expect(checkLimit(5000, spends, DAY, NOW, 5000).fitsAt).toBe(NOW - 2 * HOUR + DAY);
  });

  it("never fits an amount above the limit itself, and never shows less than nothing left", () => {
    expect(checkLimit(5000, spends, DAY, NOW, 6000)).toMatchObject({ fits: false, fitsAt: null });
    expect(checkLimit(2000, spends, DAY, NOW, 100)).toMatchObject({ leftCents: 0, fits: false });
  });
});

describe("entry fees net of refunds", () => {
  const at = NOW - HOUR;
  it("drops entries refunded by leaving or by a cancellation, and counts the rest", () => {
    const entries = [
      { reference: "entry:1:7", amountCents: -500, at },
      { reference: "entry:1:7:1", amountCents: -500, at: at + 1 },
      { reference: "entry:2:7", amountCents: -1000, at },
      { reference: "entry:3:7", amountCents: -2000, at },
    ];
    const refunds = [
      { reference: "leave:1:7:0", amountCents: 500, at: at + 1 },
      { reference: "refund:3:7", amountCents: 2000, at: at + 2 },
    ];
    expect(netEntryFees(entries, refunds)).toEqual([
      { at: at + 1, cents: 500 },
      { at, cents: 1000 },
    ]);
  });

  it("cannot be gamed by leaving and joining again: every kept entry counts at its own time", () => {
    const entries = [
      { reference: "entry:1:7", amountCents: -500, at },
      { reference: "entry:1:7:1", amountCents: -500, at: at + 5 },
    ];
    const refunds = [
      { reference: "leave:1:7:0", amountCents: 500, at: at + 3 },
      { reference: "refund:1:7", amountCents: 500, at: at + 9 },
    ];
    expect(netEntryFees(entries, refunds)).toEqual([]);
  });
});

describe("exclusions", () => {
  it("ends a self-exclusion calendar months later, or never", () => {
    expect(selfExclusionEnd("6m", Date.UTC(2026, 7, 31, 9))).toBe(Date.UTC(2027, 1, 28, 9));
    expect(selfExclusionEnd("1y", NOW)).toBe(Date.UTC(2027, 10, 24, 12));
    expect(selfExclusionEnd("permanent", NOW)).toBeNull();
  });

  it("finds the exclusion in force: a self-exclusion first, then the one that ends last", () => {
    const rows = [
      { kind: "cool_off" as const, startsAt: NOW - DAY * 2, endsAt: NOW - DAY },
      { kind: "cool_off" as const, startsAt: NOW - HOUR, endsAt: NOW + 30 * DAY },
      { kind: "self_exclusion" as const, startsAt: NOW - HOUR, endsAt: NOW + DAY },
    ];
    expect(activeExclusion(rows, NOW)).toBe(rows[2]);
    expect(activeExclusion(rows, NOW + 2 * DAY)).toBe(rows[1]);
    expect(activeExclusion(rows, NOW + 31 * DAY)).toBeNull();
    expect(activeExclusion([{ kind: "self_exclusion" as const, startsAt: NOW, endsAt: null }], NOW + 3650 * DAY)).not.toBeNull();
  });
});

describe("age", () => {
  it("accepts real calendar dates only", () => {
    expect(["2000-02-29", "1990-12-31"].every(isIsoDate)).toBe(true);
    expect(["2001-02-29", "1990-13-01", "1990-1-1", "31/12/1990", ""].some(isIsoDate)).toBe(false);
  });

  it("counts whole years, the birthday itself included", () => {
    expect(ageOn("2008-11-24", NOW)).toBe(18);
    expect(ageOn("2008-11-25", NOW)).toBe(17);
    expect(ageOn("2008-02-29", Date.UTC(2026, 1, 28))).toBe(17);
    expect(ageOn("2008-02-29", Date.UTC(2026, 2, 1))).toBe(18);
  });
});

describe("regions", () => {
  it("reads country and subdivision codes", () => {
    expect(parseRegion("us-wa")).toEqual({ country: "US", subdivision: "US-WA" });
    expect(parseRegion("DE")).toEqual({ country: "DE", subdivision: null });
    expect(parseRegion("Washington")).toBeNull();
    expect(parseRegionList(" US-WA, fr ,,")).toEqual(["US-WA", "FR"]);
  });

  it("bars a listed subdivision or a whole listed country", () => {
    const barred = parseRegionList("US-WA,FR");
    expect(barredBy(parseRegion("US-WA"), barred)).toBe("US-WA");
    expect(barredBy(parseRegion("FR-75"), barred)).toBe("FR");
    expect(barredBy(parseRegion("US-OR"), barred)).toBeNull();
    expect(barredBy(null, barred)).toBeNull();
  });

  it("takes the subdivision's age, else the country's, else the default", () => {
    const ages = parseRegionAges("US-AL:19, US-MS:21, JP:20, bogus, XX:abc");
    expect([...ages.keys()]).toEqual(["US-AL", "US-MS", "JP"]);
    expect(minAgeFor(parseRegion("US-MS"), ages, 18)).toBe(21);
    expect(minAgeFor(parseRegion("JP-13"), ages, 18)).toBe(20);
    expect(minAgeFor(parseRegion("US-TX"), ages, 18)).toBe(18);
    expect(minAgeFor(null, ages, 18)).toBe(18);
  });
});
