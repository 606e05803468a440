import { describe, expect, it } from "vitest";
import { isPracticeKind, isPremiumFee, isVerdictWithheld, minPlayersFor } from "./tournaments";
import { MIN_PLAYERS_PAID } from "../spec";

describe("tournament rules", () => {
  it("counts the practice entry and a player's practice run as practice, nothing else", () => {
    expect(isPracticeKind("practice")).toBe(true);
    expect(isPracticeKind("practice_run")).toBe(true);
    expect(isPracticeKind("standard")).toBe(false);
  });

  it("requires the minimum only for paid tournaments", () => {
    expect(minPlayersFor({ entryFeeCents: 500 })).toBe(MIN_PLAYERS_PAID);
    expect(minPlayersFor({ entryFeeCents: 0 })).toBe(0);
  });

  it("counts $20 and up as premium", () => {
    expect(isPremiumFee(1999)).toBe(false);
    expect(isPremiumFee(2000)).toBe(true);
  });
});

describe("when a self-paced prize tournament shows its verdicts", () => {
  const prize = { format: "self_paced" as const, practice: false, phase: "live" as const };
  it("withholds them until the tournament has completed, settling included", () => {
    expect(isVerdictWithheld(prize)).toBe(true);
    expect(isVerdictWithheld({ ...prize, phase: "settling" })).toBe(true);
    expect(isVerdictWithheld({ ...prize, phase: "completed" })).toBe(false);
  });
  it("withholds nothing in practice, nor in a live show (its reveals do that)", () => {
    expect(isVerdictWithheld({ ...prize, practice: true })).toBe(false);
    expect(isVerdictWithheld({ ...prize, format: "live_show" })).toBe(false);
  });
});
