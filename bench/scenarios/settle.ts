// Completion and settlement of an answer-path tournament: every player but one completes
// (each completion writes that player's totals and responses to D1), then the last one, whose
// completion settles the tournament (every participant finished). The D1 work of the
// settlement is the last completion's minus an ordinary completion's. A self-paced prize
// tournament withholds each player's score until it has ended: every completion but the
// settling one answers `score: null`, the settling one the player's score. Checked afterwards,
// from D1: the tournament is completed once, every score and rank matches the harness's sums
// (the points the scoring rule gives the answers it knows right or wrong), every response row is
// there, the house prize pool is paid to the cent to places 1-3.
import { splitPrizePool } from "../../common/domain/prizes";
import { compareStandings } from "../../common/domain/scoring";
import { D1_MAX_BOUND_BYTES } from "../../worker/db/d1-limits";
import type { HttpClient } from "../lib/http";
import { diffCounters, perOp, type BenchTournament, type D1Counters, type Fixtures, type Player } from "../lib/fixtures";
import { seededTotals } from "../lib/seeded-room";
import { now, parallel, round } from "../lib/stats";
import { settledScores, type PlayState } from "./answer";

export interface SettleRun {
  players: number;
  completeSeconds: number;
  completesPerSecond: number;
  settleRequestMs: number;
  errors: number;
  errorSamples: string[];
  checks: Record<string, boolean>;
  /** Players whose settled score or answered count differs from the harness's sums. */
  scoreMismatches: number;
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
  // Before the end the score is withheld (null); the completion that settles the tournament shows it.
  const check = (s: PlayState, r: { status: number; json: any; text: string }, settles: boolean) => {
    const score = settles ? s.points : null;
    if (r.status !== 200 || r.json?.score !== score || r.json?.questionsAnswered !== s.done) {
      fail(`complete ${s.player.username}: ${r.status} ${r.text.slice(0, 120)} (harness score ${score}, answered ${s.done})`);
    }
  };

  const [last, ...rest] = [...states].reverse();
  const before = await fx.d1();
  const started = now();
  const queue = [...rest];
  await parallel(o.lanes, async () => {
    for (let s = queue.shift(); s; s = queue.shift()) check(s, await http.post(path, {}, s.player.cookie), false);
  });
  const completeSeconds = (now() - started) / 1000;
  const mid = await fx.d1();
  const final = await http.post(path, {}, last!.player.cookie);
  check(last!, final, true);
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

  // Checks, from D1: the scores once the tournament has ended.
  const settled = await settledScores(http, t, states);
  for (const m of settled.samples) if (errorSamples.length < 10) errorSamples.push(m);
  const detail = await http.get(`/api/tournaments/${t.id}`);
  const board = await http.get(`/api/tournaments/${t.id}/leaderboard`);
  const rows = (board.json ?? []) as { userId: number; score: number; rank: number; questionsAnswered: number }[];
  const scoresMatch = rows.length === states.length && settled.ended && settled.mismatches === 0;
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
    scoreMismatches: settled.mismatches,
    d1PerCompletion: perCompletion,
    d1Settlement: settlement,
  };
}

export interface LargeSettleRun {
  players: number;
  /** The completing request, which settles the tournament (one completion included). */
  settleRequestMs: number;
  /** CPU the Worker's workerd (Worker, room and local D1 together) spent during that request: on a shared machine the wall time also holds waiting for a core. */
  settleCpuMs: number;
  /** Settlement chunks D1 recorded (each one batch), and the D1 work of the settling request. */
  chunks: number;
  d1: D1Counters;
  /** The largest bound values of one statement the room sent during the settlement, in bytes. */
  maxBoundBytes: number;
  errors: number;
  errorSamples: string[];
  checks: Record<string, boolean>;
}

/**
 * A 10,000-player settlement without 100,000 answers played first: the players are seated in
 * D1, their answers are written into the room's storage by the bench entry (every question
 * answered, all finished but one; bench/lib/seeded-room.ts), the room restarts and is loaded,
 * and the last player's completion settles the tournament. Checked from D1: every score and
 * rank against the harness's own sums, every participant completed, every response stored,
 * the house prize pool paid to the cent to places 1-3, one notification each, every chunk.
 */
export async function settleLarge(
  http: HttpClient,
  fx: Fixtures,
  players: Player[],
  o: { prizePoolCents: number; questions: number; cpuSeconds: () => number },
): Promise<LargeSettleRun> {
  const errorSamples: string[] = [];
  let errors = 0;
  const fail = (m: string) => {
    errors++;
    if (errorSamples.length < 10) errorSamples.push(m);
  };
  const t = await fx.tournament({ title: `Bench Settlement ${players.length}`, status: "live", prizePoolCents: o.prizePoolCents });
  await fx.seat(t.id, players);
  const last = players[players.length - 1]!;
  const seeded = await http.request("POST", "/api/__bench/seed-room", {
    body: { tournamentId: t.id, unfinishedUserId: last.id },
    timeoutMs: 180_000,
  });
  if (seeded.status !== 200 || seeded.json?.plays !== players.length * o.questions)
    fail(`seed: ${seeded.status} ${seeded.text.slice(0, 200)}`);
  // The restarted room loads its 100,000 plays on the next call, not inside the measured one.
  const warm = await http.get(`/api/tournaments/${t.id}/leaderboard`);
  if (warm.status !== 200) fail(`leaderboard before settling: ${warm.status} ${warm.text.slice(0, 200)}`);

  const before = await fx.d1();
  await http.request("POST", "/api/__bench/d1/bound", { body: {} });
  const cpuBefore = o.cpuSeconds();
  const final = await http.post(`/api/tournaments/${t.id}/complete`, {}, last.cookie);
  const settleCpuMs = (o.cpuSeconds() - cpuBefore) * 1000;
  const bound = (await http.get("/api/__bench/d1/bound")).json as Record<string, number>;
  const d1 = diffCounters(before, await fx.d1());
  const lastTotals = seededTotals(last.id, o.questions);
  if (final.status !== 200 || final.json?.score !== lastTotals.score)
    fail(`complete (settles): ${final.status} ${final.text.slice(0, 200)} (harness ${lastTotals.score})`);

  // The harness's own ranking of the seeded answers: everyone finished before the last player.
  const expected = players
    .map((p) => ({ userId: p.id, ...seededTotals(p.id, o.questions), finishedAt: p.id === last.id ? Number.MAX_SAFE_INTEGER - 1 : 0 }))
    .sort(compareStandings);
  const rows = await fx.all<{ user_id: number; score: number; rank: number; has_completed: number; correct: number }>(
    "SELECT user_id, score, rank, has_completed, correct_answers AS correct FROM tournament_participants WHERE tournament_id = ?",
    t.id,
  );
  const byUser = new Map(rows.map((r) => [r.user_id, r]));
  const wrongRows = expected.filter((e, i) => {
    const r = byUser.get(e.userId);
    return !r || r.score !== e.score || r.rank !== i + 1 || r.has_completed !== 1 || r.correct !== e.correct;
  }).length;
  const [facts] = await fx.sql([
    {
      sql: `SELECT
        (SELECT status FROM tournaments WHERE id = ?1) AS status,
        (SELECT count(*) FROM user_responses WHERE tournament_id = ?1) AS responses,
        (SELECT count(*) FROM notifications WHERE tournament_id = ?1 AND action = 'tournament_ended') AS ended,
        (SELECT count(*) FROM settlement_chunks WHERE tournament_id = ?1 AND chunk >= 0) AS chunks,
        (SELECT coalesce(sum(amount_cents), 0) FROM transactions WHERE type = 'prize' AND reference LIKE ?2) AS prizes,
        (SELECT group_concat(user_id || ':' || amount_cents) FROM (SELECT user_id, amount_cents FROM transactions
           WHERE type = 'prize' AND reference LIKE ?2 ORDER BY amount_cents DESC)) AS paid`,
      params: [t.id, `prize:${t.id}:%`],
    },
  ]);
  const f = facts![0] as { status: string; responses: number; ended: number; chunks: number; prizes: number; paid: string | null };
  const split = splitPrizePool(o.prizePoolCents, 3);
  const checks = {
    statusCompleted: f.status === "completed",
    everyScoreAndRank: rows.length === players.length && wrongRows === 0,
    everyResponseStored: f.responses === players.length * o.questions,
    notifiedOnce: f.ended === players.length,
    prizePoolPaidToTheCent:
      f.prizes === o.prizePoolCents &&
      f.paid ===
        expected
          .slice(0, 3)
          .map((e, i) => `${e.userId}:${split[i]}`)
          .join(","),
    boundValuesWithinLimit: (bound.room ?? 0) > 0 && (bound.room ?? 0) <= D1_MAX_BOUND_BYTES,
  };
  for (const [k, ok] of Object.entries(checks)) if (!ok) fail(`check ${k} failed: ${JSON.stringify({ ...f, wrongRows, bound })}`);
  return {
    players: players.length,
    settleRequestMs: round(final.ms, 1),
    settleCpuMs: round(settleCpuMs, 0),
    chunks: f.chunks,
    d1,
    maxBoundBytes: bound.room ?? 0,
    errors,
    errorSamples,
    checks,
  };
}
