// The home page's hero figures: the real ones (prizes paid from the ledger, tournaments completed),
// and the spec's marketing claims only once the real figure has reached them, so the page never
// claims more than happened (docs/product.md, "Home").
import { MARKETING, MARKETING_REACHED_AT } from "../spec";
import type { Cents } from "./money";

export interface HeroFigureValues {
  paidToWinnersCents: Cents;
  tournamentsCompleted: number;
}

const count = new Intl.NumberFormat("en-US");

/** Whole dollars, rounded down: "$0", "$1,234". */
const dollars = (cents: Cents) => `$${count.format(Math.floor(Math.max(0, cents) / 100))}`;

export function heroFigures(real: HeroFigureValues): { paidToWinners: string; tournamentsCompleted: string } {
  return {
    paidToWinners:
      real.paidToWinnersCents >= MARKETING_REACHED_AT.paidToWinnersCents ? MARKETING.paidToWinners : dollars(real.paidToWinnersCents),
    tournamentsCompleted:
      real.tournamentsCompleted >= MARKETING_REACHED_AT.tournamentsCompleted
        ? MARKETING.tournamentsCompleted
        : count.format(Math.max(0, real.tournamentsCompleted)),
  };
}
