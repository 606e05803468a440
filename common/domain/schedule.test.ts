import { describe, expect, it } from "vitest";
import { tierForSlot, upcomingSlots } from "./schedule";
import { FEE_TIERS, SCHEDULE_LEAD_MS, SCHEDULE_SPACING_MS } from "../spec";

describe("schedule grid", () => {
  const now = Date.UTC(2026, 10, 21, 10, 7);

  it("gives the first slots at least the lead time ahead, one spacing apart", () => {
    const slots = upcomingSlots(3, now);
    expect(slots).toHaveLength(2);
    expect(slots[0]! - now).toBeGreaterThanOrEqual(SCHEDULE_LEAD_MS);
    expect(slots[0]! - now).toBeLessThan(SCHEDULE_LEAD_MS + SCHEDULE_SPACING_MS);
    expect(slots[1]! - slots[0]!).toBe(SCHEDULE_SPACING_MS);
  });

  it("lands on the same times whenever it runs within a slot", () => {
    expect(upcomingSlots(3, now + 60_000)).toEqual(upcomingSlots(3, now));
  });

  it("staggers categories", () => {
    expect(upcomingSlots(1, now)[0]).not.toBe(upcomingSlots(2, now)[0]);
  });

  it("rotates through every fee tier", () => {
    const start = upcomingSlots(5, now)[0]!;
    const tiers = Array.from({ length: FEE_TIERS.length }, (_, i) => tierForSlot(5, start + i * SCHEDULE_SPACING_MS).name);
    expect(new Set(tiers).size).toBe(FEE_TIERS.length);
  });
});
