// Completion and settlement of an answer-path tournament: every player but one completes
// (each completion writes that player's totals and responses to D1), then the last one, whose
// completion settles the tournament (every participant finished). The D1 work of the
// settlement is the last completion's minus an ordinary completion's. Checked afterwards, from
// D1: the tournament is completed once, every score and rank matches the harness's sums, every
// response row is there, the house prize pool is paid to the cent to places 1-3.
import { splitPrizePool } from "../../common/domain/prizes";
import type { HttpClient } from "../lib/http";
import { diffCounters, perOp, type BenchTournament, type D1Counters, type Fixtures } from "../lib/fixtures";
import { now, parallel, round } from "../lib/stats";
import type { PlayState } from "./answer";

export interface SettleRun {
  players: number;
  completeSeconds: number;
  completesPerSecond: number;
  settleRequestMs: number;
  errors: number;
  errorSamples: string[];
  checks: Record<string, boolean>;
  d1PerCompletion: D1Counters;
  d1Settlement: D1Counters;
}

export async function completeAndSettle(
  http: HttpClient,
  fx: Fixtures,
  t: BenchTournament,
  states: PlayState[],
  o: { lanes: number; prizePoolCents: number },
): Promise<SettleRun> {
  const errorSamples: string[] = [];
  let errors = 0;
  const fail = (m: string) => {
    errors++;
    if (errorSamples.length < 10) errorSamples.push(m);
  };
  const path = `/api/tournaments/${t.id}/complete`;
  const check = (s: PlayState, r: { status: number; json: any; text: string }) => {
    if (r.status !== 200 || r.json?.score !== s.points || r.json?.questionsAnswered !== s.done) {
      fail(`complete ${s.player.username}: ${r.status} ${r.text.slice(0, 120)} (harness ${s.points}/${s.done})`);
    }
  };

  const [last, ...rest] = [...states].reverse();
  const before = await fx.d1();
  const started = now();
  const queue = [...rest];
  await parallel(o.lanes, async () => {
    for (let s = queue.shift(); s; s = queue.shift()) check(s, await http.post(path, {}, s.player.cookie));
  });
  const completeSeconds = (now() - started) / 1000;
  const mid = await fx.d1();
  const final = await http.post(path, {}, last!.player.cookie);
  check(last!, final);
  const after = await fx.d1();

  const perCompletion = perOp(diffCounters(before, mid), Math.max(1, rest.length));
  const lastOne = diffCounters(mid, after);
  const settlement: D1Counters = {};
  for (const [tag, v] of Object.entries(lastOne)) {
    const c = perCompletion[tag];
    settlement[tag] = {
      statements: round(v.statements - (c?.statements ?? 0), 2),
      reads: round(v.reads - (c?.reads ?? 0), 2),
      writes: round(v.writes - (c?.writes ?? 0), 2),
      batches: round(v.batches - (c?.batches ?? 0), 2),
      rowsRead: round(v.rowsRead - (c?.rowsRead ?? 0), 2),
      rowsWritten: round(v.rowsWritten - (c?.rowsWritten ?? 0), 2),
    };
  }

  // Checks, from D1.
  const detail = await http.get(`/api/tournaments/${t.id}`);
  const board = await http.get(`/api/tournaments/${t.id}/leaderboard`);
  const rows = (board.json ?? []) as { userId: number; score: number; rank: number; questionsAnswered: number }[];
  const want = new Map(states.map((s) => [s.player.id, s]));
  const scoresMatch =
    rows.length === states.length &&
    rows.every((r) => want.get(r.userId)?.points === r.score && want.get(r.userId)?.done === r.questionsAnswered);
  const ranksOk = rows.every((r, i) => r.rank === i + 1 && (i === 0 || rows[i - 1]!.score >= r.score));
  const [facts] = await fx.sql([
    {
      sql: `SELECT
        (SELECT settled_at IS NOT NULL FROM tournaments WHERE id = ?1) AS settled,
        (SELECT count(*) FROM tournament_participants WHERE tournament_id = ?1 AND has_completed = 1) AS completed,
        (SELECT count(*) FROM user_responses WHERE tournament_id = ?1) AS responses,
        (SELECT count(*) FROM notifications WHERE tournament_id = ?1 AND action = 'tournament_ended') AS ended,
        (SELECT coalesce(sum(amount_cents), 0) FROM transactions WHERE type = 'prize' AND reference LIKE ?2) AS prizes,
        (SELECT count(*) FROM transactions WHERE type = 'prize' AND reference LIKE ?2) AS prizeRows`,
      // The reference as text: a bound number may arrive as REAL (12.0) and never match.
      params: [t.id, `prize:${t.id}:%`],
    },
  ]);
  const f = facts![0] as { settled: number; completed: number; responses: number; ended: number; prizes: number; prizeRows: number };
  const split = splitPrizePool(o.prizePoolCents, states.length).filter((c) => c > 0);
  const issuedTotal = states.reduce((n, s) => n + s.issued, 0);
  const checks = {
    statusCompleted: detail.json?.status === "completed",
    settledOnce: f.settled === 1 && f.ended === states.length,
    everyScoreAndRank: scoresMatch && ranksOk,
    everyParticipantCompleted: f.completed === states.length,
    everyResponseStored: f.responses === issuedTotal,
    prizePoolPaidToTheCent: f.prizes === o.prizePoolCents && f.prizeRows === split.length,
  };
  for (const [k, ok] of Object.entries(checks)) if (!ok) fail(`check ${k} failed: ${JSON.stringify(f)}`);

  return {
    players: states.length,
    completeSeconds: round(completeSeconds, 2),
    completesPerSecond: round(rest.length / completeSeconds, 0),
    settleRequestMs: round(final.ms, 1),
    errors,
    errorSamples,
    checks,
    d1PerCompletion: perCompletion,
    d1Settlement: settlement,
  };
}
