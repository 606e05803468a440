// The settlement's order and prizes from players' totals alone (no answers): what the coordinator
// of a sharded live show computes from the totals its shards send (docs/decisions/011, "Built").
// The same rules as one room's settlement: rankStandings' order, awardPrizes' places.
import { awardPrizes } from "./prizes";
import { rankStandings, type Standing } from "./scoring";
import type { Cents } from "./money";

export interface Totals extends Standing {
  questionsAnswered: number;
}

export interface Placed<T extends Totals> {
  /** Every player in rank order, with their 1-based rank and prize. */
  ranked: (T & { rank: number; prizeCents: Cents })[];
  /** Prize places nobody qualified for: their share stays with the house. */
  unclaimed: { place: number; cents: Cents }[];
}

/** Ranks every player (points, then total response time, then finish, then user id) and awards the pool. */
export function placeAndAward<T extends Totals>(rows: readonly T[], pool: Cents): Placed<T> {
  const ordered = rankStandings([...rows]);
  const prizes = awardPrizes(ordered, pool);
  return {
    ranked: ordered.map((r, i) => ({ ...r, rank: i + 1, prizeCents: prizes.byUser.get(r.userId) ?? 0 })),
    unclaimed: prizes.unclaimed,
  };
}
