import { FEE_TIERS } from "../spec";
import { describe, expect, it } from "vitest";
import {
  TIERS,
  levelForXp,
  levelProgress,
  levelRequirementText,
  placementXp,
  tierForLevel,
  tierLabel,
  minLevelLabel,
  feeTierLabel,
  tierLevels,
  winRate,
  xpForLevel,
} from "./levels";

describe("levels", () => {
  it("level = floor(XP / 1000) + 1", () => {
    expect(levelForXp(0)).toBe(1);
    expect(levelForXp(999)).toBe(1);
    expect(levelForXp(1000)).toBe(2);
    expect(levelForXp(9_999)).toBe(10);
    expect(levelForXp(-5)).toBe(1);
  });

  it("tiers: Beginner 1-2, Intermediate 3-5, Advanced 6-9, Elite 10+", () => {
    expect([1, 2, 3, 5, 6, 9, 10, 42].map(tierForLevel)).toEqual([
      "Beginner",
      "Beginner",
      "Intermediate",
      "Intermediate",
      "Advanced",
      "Advanced",
      "Elite",
      "Elite",
    ]);
    expect(TIERS.map((t) => `${t.name} ${tierLevels(t)}`)).toEqual(["Beginner 1-2", "Intermediate 3-5", "Advanced 6-9", "Elite 10+"]);
    for (const t of TIERS) {
      expect(tierForLevel(t.minLevel)).toBe(t.name);
      if (t.maxLevel !== null) expect(tierForLevel(t.maxLevel)).toBe(t.name);
    }
  });

  it("names tiers, minimum levels and fee tiers one way everywhere", () => {
    expect(TIERS.map(tierLabel)).toEqual([
      "Beginner (levels 1-2)",
      "Intermediate (levels 3-5)",
      "Advanced (levels 6-9)",
      "Elite (levels 10+)",
    ]);
    expect([1, 3, 5, 6, 10].map(minLevelLabel)).toEqual([
      "All levels",
      "Level 3+ (Intermediate)",
      "Level 5+ (Intermediate)",
      "Level 6+ (Advanced)",
      "Level 10+ (Elite)",
    ]);
    expect(FEE_TIERS.map(feeTierLabel)).toEqual([
      "Standard tournaments: $5.00 entry, All levels",
      "Advanced tournaments: $10.00 entry, Level 3+ (Intermediate)",
      "Premium tournaments: $20.00 entry, Level 5+ (Intermediate)",
      "Elite tournaments: $50.00 entry, Level 10+ (Elite)",
    ]);
  });

  it("a level is reached at (level - 1) x 1000 XP", () => {
    expect([1, 2, 3, 10].map(xpForLevel)).toEqual([0, 1000, 2000, 9000]);
    for (const level of [1, 2, 3, 10]) expect(levelForXp(xpForLevel(level))).toBe(level);
  });

  it("progress inside the level is the same figure everywhere", () => {
    expect(levelProgress(1250)).toEqual({ percent: 25, xpToNext: 750, nextLevel: 3 });
    expect(levelProgress(0)).toEqual({ percent: 0, xpToNext: 1000, nextLevel: 2 });
  });

  it("placement XP with the tier bonus", () => {
    expect([1, 2, 3, 4, 10, 11].map((rank) => placementXp(rank, 1))).toEqual([500, 350, 250, 100, 100, 50]);
    expect(placementXp(1, 3)).toBe(550);
    expect(placementXp(1, 6)).toBe(625);
    expect(placementXp(1, 10)).toBe(750);
  });

  it("requirement text and win rate", () => {
    expect(levelRequirementText(1)).toBe("Open to all players");
    expect(levelRequirementText(3)).toBe("Reach 2,000 XP (level 3)");
    expect(levelRequirementText(10)).toBe("Reach 9,000 XP (level 10)");
    expect(winRate(1, 3)).toBe(33);
    expect(winRate(0, 0)).toBe(0);
  });
});
