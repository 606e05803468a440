import { FEE_TIERS, PLACEMENT_XP, XP_PER_LEVEL } from "../spec";

/** The level tiers, lowest first: the one source of their names and ranges. */
export const TIERS = [
  { name: "Beginner", minLevel: 1, maxLevel: 2 },
  { name: "Intermediate", minLevel: 3, maxLevel: 5 },
  { name: "Advanced", minLevel: 6, maxLevel: 9 },
  { name: "Elite", minLevel: 10, maxLevel: null },
] as const;
export type Tier = (typeof TIERS)[number]["name"];
export type TierRange = (typeof TIERS)[number];

/** Level = floor(XP / 1000) + 1. */
export const levelForXp = (xp: number) => Math.floor(Math.max(xp, 0) / XP_PER_LEVEL) + 1;

/** The XP at which a level is reached (level 1 at 0 XP). */
export const xpForLevel = (level: number) => Math.max(level - 1, 0) * XP_PER_LEVEL;

/** Beginner 1-2, Intermediate 3-5, Advanced 6-9, Elite 10+. */
export function tierForLevel(level: number): Tier {
  const tier = TIERS.findLast((t) => level >= t.minLevel) ?? TIERS[0];
  return tier.name;
}

/** "1-2", or "10+" for the open-ended top tier. */
export const tierLevels = (tier: TierRange) => (tier.maxLevel === null ? `${tier.minLevel}+` : `${tier.minLevel}-${tier.maxLevel}`);

// One naming on every page (learn-more, how-it-works, the filter, cards and detail pages): a level
// tier always with its levels, a minimum level always with its tier, a fee tier always with its fee
// and minimum level.

/** "Intermediate (levels 3-5)". */
export const tierLabel = (tier: TierRange) => `${tier.name} (levels ${tierLevels(tier)})`;

/** "All levels" for level 1, else "Level 3+ (Intermediate)". */
export const minLevelLabel = (minLevel: number) => (minLevel <= 1 ? "All levels" : `Level ${minLevel}+ (${tierForLevel(minLevel)})`);

/** "Advanced tournaments: $10.00 entry, Level 3+ (Intermediate)". */
export const feeTierLabel = (tier: (typeof FEE_TIERS)[number]) =>
  `${tier.label} tournaments: $${(tier.entryFeeCents / 100).toFixed(2)} entry, ${minLevelLabel(tier.minLevel)}`;

/** Progress inside the current level, shown the same on profile and dashboard. */
export function levelProgress(xp: number) {
  const into = Math.max(xp, 0) % XP_PER_LEVEL;
  return { percent: Math.floor((into / XP_PER_LEVEL) * 100), xpToNext: XP_PER_LEVEL - into, nextLevel: levelForXp(xp) + 1 };
}

export const TIER_BONUS: Record<Tier, number> = { Beginner: 0, Intermediate: 0.1, Advanced: 0.25, Elite: 0.5 };

/** Placement XP for a 1-based rank, with the player's tier bonus. */
export function placementXp(rank: number, level: number): number {
  const base =
    rank === 1
      ? PLACEMENT_XP.first
      : rank === 2
        ? PLACEMENT_XP.second
        : rank === 3
          ? PLACEMENT_XP.third
          : rank <= 10
            ? PLACEMENT_XP.topTen
            : PLACEMENT_XP.participation;
  return Math.round(base * (1 + TIER_BONUS[tierForLevel(level)]));
}

/** Level requirement text: level 1 is open to all, otherwise the XP that reaches the level. */
export const levelRequirementText = (minLevel: number) =>
  minLevel <= 1 ? "Open to all players" : `Reach ${xpForLevel(minLevel).toLocaleString("en-US")} XP (level ${minLevel})`;

export const winRate = (won: number, played: number) => (played > 0 ? Math.round((won / played) * 100) : 0);
