import { PLATFORM_FEE_SHARE, PRIZE_SHARES_BPS } from "../spec";
import type { Cents } from "./money";

/** 85% of the entry fees collected, rounded down to the cent; the platform keeps the rest. */
export const POOL_PERCENT = Math.round((1 - PLATFORM_FEE_SHARE) * 100);
export const prizePoolFromFees = (feesCollected: Cents): Cents => Math.floor((feesCollected * POOL_PERCENT) / 100);

/**
 * Splits a pool 65/25/10 among places 1-3. Remainders go to 1st place so the whole pool is
 * paid out to the cent; with fewer than three players the unpaid shares also go to 1st.
 */
export function splitPrizePool(pool: Cents, players: number): Cents[] {
  const places = Math.min(players, PRIZE_SHARES_BPS.length);
  if (places <= 0 || pool <= 0) return [];
  const shares = PRIZE_SHARES_BPS.slice(0, places).map((bps) => Math.floor((pool * bps) / 10_000));
  const remainder = pool - shares.reduce((a, b) => a + b, 0);
  return shares.map((s, i) => (i === 0 ? s + remainder : s));
}

export interface PrizeAwards {
  /** Prize cents by user id. */
  byUser: Map<number, Cents>;
  /** Places nobody qualified for, with the share that stays with the house. */
  unclaimed: { place: number; cents: Cents }[];
}

/**
 * The pool's 65/25/10 shares go to the top three of the ranking among players who answered at
 * least one question; a place with no such player leaves its share with the house.
 */
export function awardPrizes(ranked: readonly { userId: number; questionsAnswered: number }[], pool: Cents): PrizeAwards {
  const qualifiers = ranked.filter((r) => r.questionsAnswered > 0);
  const byUser = new Map<number, Cents>();
  const unclaimed: PrizeAwards["unclaimed"] = [];
  splitPrizePool(pool, PRIZE_SHARES_BPS.length).forEach((cents, i) => {
    const winner = qualifiers[i];
    if (winner) byUser.set(winner.userId, cents);
    else unclaimed.push({ place: i + 1, cents });
  });
  return { byUser, unclaimed };
}

/** The live figure the product displays: participants x fee x 0.85. */
export const displayedPrizePool = (participants: number, entryFee: Cents): Cents => prizePoolFromFees(participants * entryFee);
