import { describe, expect, it } from "vitest";
import { isPracticeTournament, isPremiumFee, minPlayersFor } from "./tournaments";
import { MIN_PLAYERS_PAID } from "../spec";

describe("tournament rules", () => {
  it("recognises practice by a free entry and the word Practice in the title", () => {
    expect(isPracticeTournament({ title: "Science Practice", entryFeeCents: 0 })).toBe(true);
    expect(isPracticeTournament({ title: "Science Practice", entryFeeCents: 500 })).toBe(false);
    expect(isPracticeTournament({ title: "Science Cup", entryFeeCents: 0 })).toBe(false);
  });

  it("requires the minimum only for paid tournaments", () => {
    expect(minPlayersFor({ title: "Cup", entryFeeCents: 500 })).toBe(MIN_PLAYERS_PAID);
    expect(minPlayersFor({ title: "Free Cup", entryFeeCents: 0 })).toBe(0);
    expect(minPlayersFor({ title: "History Practice", entryFeeCents: 0 })).toBe(0);
  });

  it("counts $20 and up as premium", () => {
    expect(isPremiumFee(1999)).toBe(false);
    expect(isPremiumFee(2000)).toBe(true);
  });
});
