import { describe, expect, it } from "vitest";
import { heroFigures } from "./hero-figures";

describe("the home page's hero figures", () => {
  it("shows the real figures while they are below the spec's claims", () => {
    expect(heroFigures({ paidToWinnersCents: 0, tournamentsCompleted: 0 })).toEqual({ paidToWinners: "$0", tournamentsCompleted: "0" });
    expect(heroFigures({ paidToWinnersCents: 123_456_78, tournamentsCompleted: 1_234 })).toEqual({
      paidToWinners: "$123,456",
      tournamentsCompleted: "1,234",
    });
    // One cent and one tournament short: still the real figure, never the claim.
    expect(heroFigures({ paidToWinnersCents: 119_999_999, tournamentsCompleted: 34_999 })).toEqual({
      paidToWinners: "$1,199,999",
      tournamentsCompleted: "34,999",
    });
  });

  it("shows the spec's claim once the real figure reaches it, each on its own", () => {
    expect(heroFigures({ paidToWinnersCents: 120_000_000, tournamentsCompleted: 10 })).toEqual({
      paidToWinners: "$1.2M+",
      tournamentsCompleted: "10",
    });
    expect(heroFigures({ paidToWinnersCents: 500, tournamentsCompleted: 35_000 })).toEqual({
      paidToWinners: "$5",
      tournamentsCompleted: "35,000+",
    });
  });
});
