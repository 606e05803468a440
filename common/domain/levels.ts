import { PLACEMENT_XP, XP_PER_LEVEL } from "../spec";

export type Tier = "Beginner" | "Intermediate" | "Advanced" | "Elite";

/** Level = floor(XP / 1000) + 1. */
export const levelForXp = (xp: number) => Math.floor(Math.max(xp, 0) / XP_PER_LEVEL) + 1;

/** Beginner 1-2, Intermediate 3-5, Advanced 6-9, Elite 10+. */
export function tierForLevel(level: number): Tier {
  if (level >= 10) return "Elite";
  if (level >= 6) return "Advanced";
  if (level >= 3) return "Intermediate";
  return "Beginner";
}

/** Progress inside the current level, shown the same on profile and dashboard. */
export function levelProgress(xp: number) {
  const into = Math.max(xp, 0) % XP_PER_LEVEL;
  return { percent: Math.floor((into / XP_PER_LEVEL) * 100), xpToNext: XP_PER_LEVEL - into, nextLevel: levelForXp(xp) + 1 };
}

export const TIER_BONUS: Record<Tier, number> = { Beginner: 0, Intermediate: 0.1, Advanced: 0.25, Elite: 0.5 };

/** Placement XP for a 1-based rank, with the player's tier bonus. */
export function placementXp(rank: number, level: number): number {
  const base =
    rank === 1 ? PLACEMENT_XP.first
    : rank === 2 ? PLACEMENT_XP.second
    : rank === 3 ? PLACEMENT_XP.third
    : rank <= 10 ? PLACEMENT_XP.topTen
    : PLACEMENT_XP.participation;
  return Math.round(base * (1 + TIER_BONUS[tierForLevel(level)]));
}

/** Level requirement text: level 1 is open to all, otherwise "Complete {minLevel x 5} tournaments". */
export const levelRequirementText = (minLevel: number) =>
  minLevel <= 1 ? "Open to all players" : `Complete ${minLevel * 5} tournaments`;

export const winRate = (won: number, played: number) => (played > 0 ? Math.round((won / played) * 100) : 0);
