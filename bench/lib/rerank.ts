// The live-show rows' final check (restart, sharded show): every settled score and rank against a
// re-rank of the acknowledged answers by the product's own rules, and the prizes to the cent.
import { awardPrizes } from "../../common/domain/prizes";
import { answerPoints, compareStandings, totalResponseMs } from "../../common/domain/scoring";
import type { BenchTournament, Fixtures, Player } from "./fixtures";

/** An answer the server acknowledged: what was sent and the response time it counted. */
export interface Ack {
  answer: string;
  responseTime: number;
}

export interface ReRankCheck {
  scoreMismatches: number;
  rankMismatches: number;
  /** The prizes paid equal the re-ranked awards, and with the unclaimed places add up to the pool. */
  prizesToTheCent: boolean;
  /** Up to 10 players whose settled row differs from the re-rank. */
  samples: string[];
}

/** `acks[i][k]`: player i's acknowledged answer to the question of ord k (undefined: none). */
export async function checkAgainstReRank(
  fx: Fixtures,
  t: BenchTournament,
  players: Player[],
  acks: (Ack | undefined)[][],
  o: { questions: number; prizePoolCents: number },
): Promise<ReRankCheck> {
  const ordered = [...t.questions.values()].sort((a, b) => a.ord - b.ord);
  const expected = players
    .map((p, i) => {
      const answered = acks[i]!.filter((a): a is Ack => a !== undefined);
      const score = acks[i]!.reduce((s, a, k) => (a ? s + answerPoints(a.answer === ordered[k]!.correct, a.responseTime) : s), 0);
      return {
        userId: p.id,
        score,
        totalResponseMs: totalResponseMs(
          answered.map((a) => a.responseTime),
          o.questions - answered.length,
        ),
        // The show's end finishes every player at the same moment.
        finishedAt: 0,
        questionsAnswered: answered.length,
      };
    })
    .sort(compareStandings);
  const rows = await fx.all<{ user_id: number; score: number; rank: number }>(
    "SELECT user_id, score, rank FROM tournament_participants WHERE tournament_id = ?",
    t.id,
  );
  const rowBy = new Map(rows.map((r) => [r.user_id, r]));
  const check: ReRankCheck = { scoreMismatches: 0, rankMismatches: 0, prizesToTheCent: false, samples: [] };
  expected.forEach((e, i) => {
    const r = rowBy.get(e.userId);
    if (r?.score !== e.score) check.scoreMismatches++;
    if (r?.rank !== i + 1) check.rankMismatches++;
    if ((r?.score !== e.score || r?.rank !== i + 1) && check.samples.length < 10)
      check.samples.push(`user ${e.userId}: settled ${JSON.stringify(r ?? null)}, re-ranked score ${e.score} rank ${i + 1}`);
  });
  const prizes = await fx.all<{ user_id: number; cents: number }>(
    "SELECT user_id, sum(amount_cents) AS cents FROM transactions WHERE type = 'prize' AND reference LIKE ? GROUP BY user_id",
    `prize:${t.id}:%`,
  );
  const awards = awardPrizes(expected, o.prizePoolCents);
  check.prizesToTheCent =
    prizes.length === awards.byUser.size &&
    prizes.every((p) => awards.byUser.get(p.user_id) === p.cents) &&
    prizes.reduce((s, p) => s + p.cents, 0) + awards.unclaimed.reduce((s, u) => s + u.cents, 0) === o.prizePoolCents;
  return check;
}
