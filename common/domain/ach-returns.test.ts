import { describe, expect, it } from "vitest";
import { achReturnReason, isAchReturnCode, isIsoDate, isPlausibleReturnDate } from "./ach-returns";

describe("ACH returns", () => {
  it("accepts the return reason codes R01-R85 only", () => {
    for (const code of ["R01", "R09", "R10", "R29", "R79", "R80", "R85"]) expect(isAchReturnCode(code), code).toBe(true);
    for (const code of ["R00", "R86", "R99", "R1", "r01", "R001", "X01", "", " R01"]) expect(isAchReturnCode(code), code).toBe(false);
  });

  it("says why, with the code's meaning and the bank's date", () => {
    expect(achReturnReason("R01", "2026-11-20")).toBe("Returned by the bank: R01 Insufficient funds, 2026-11-20");
    expect(achReturnReason("R02", "2026-11-21")).toBe("Returned by the bank: R02 Account closed, 2026-11-21");
    expect(achReturnReason("R70", "2026-11-21")).toBe("Returned by the bank: R70 ACH return, 2026-11-21");
  });

  it("takes a return date between the export's day and today", () => {
    expect(isIsoDate("2026-02-28")).toBe(true);
    expect(isIsoDate("2026-02-30")).toBe(false);
    expect(isIsoDate("20-11-2026")).toBe(false);
    const exported = Date.parse("2026-11-18T15:00:00Z");
    const now = Date.parse("2026-11-25T09:00:00Z");
    expect(isPlausibleReturnDate("2026-11-18", exported, now)).toBe(true);
    expect(isPlausibleReturnDate("2026-11-20", exported, now)).toBe(true);
    expect(isPlausibleReturnDate("2026-11-17", exported, now)).toBe(false);
    expect(isPlausibleReturnDate("2026-11-27", exported, now)).toBe(false);
  });
});
