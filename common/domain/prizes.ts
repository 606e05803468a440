import { PLATFORM_FEE_SHARE, PRIZE_SHARES_BPS } from "../spec";
import type { Cents } from "./money";

/** 85% of the entry fees collected, rounded down to the cent; the platform keeps the rest. */
const POOL_PERCENT = Math.round((1 - PLATFORM_FEE_SHARE) * 100);
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

/** The live figure SPEC.md displays: participants x fee x 0.85. */
export const displayedPrizePool = (participants: number, entryFee: Cents): Cents =>
  prizePoolFromFees(participants * entryFee);
