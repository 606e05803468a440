// Rules about a tournament as a whole: practice, minimum players, premium.
import { MIN_PLAYERS_PAID, PREMIUM_MIN_FEE_CENTS, isPracticeTitle } from "../spec";
import type { Cents } from "./money";

interface TournamentRules {
  title: string;
  entryFeeCents: Cents;
}

/** Practice tournaments are free and say so in their title: no minimum, capacity, level gate or prizes. */
export const isPracticeTournament = (t: TournamentRules) => t.entryFeeCents === 0 && isPracticeTitle(t.title);

/** Players needed to start: SPEC.md's minimum applies to paid tournaments only. */
export const minPlayersFor = (t: TournamentRules) => (t.entryFeeCents > 0 ? MIN_PLAYERS_PAID : 0);

export const isPremiumFee = (entryFeeCents: Cents) => entryFeeCents >= PREMIUM_MIN_FEE_CENTS;
