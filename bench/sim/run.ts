// `npm run bench:sim`: one tournament of 10,000, 100,000 and 1,000,000 players in a live show,
// over a coordinator and N play shards (docs/decisions/011-one-tournament-past-one-durable-object.md),
// simulated on the per-operation costs the bench measured on this machine. Prints what it
// assumed, where each cost came from, and the tables the README shows; writes bench/results/sim.json.
import { writeFileSync } from "node:fs";
import {
  CORRECT_ANSWER_POINTS,
  LEADERBOARD_PUSH_SIZE,
  MAX_SPEED_BONUS,
  PRIZE_SHARES_BPS,
  QUESTIONS_PER_TOURNAMENT,
  REVEAL_PAUSE_MS,
} from "../../common/spec";
import { LIVE_SHOW_WINDOW_MS } from "../../common/domain/live-show";
import { loadCosts, type Costs, type LiveShowReference, type ShardedShowReference } from "./costs";
import { simulateShow, type D1Plan, type ModelCosts, type Scenario, type ShowResult } from "./model";
import { constant, exponential, logNormal, mixture, uniform } from "./random";

/** BENCH_SIM_RESULTS=path: another results file of the same shape (e.g. a complete run with rows from partial runs put in). */
const BENCH_RESULTS = process.env.BENCH_SIM_RESULTS ?? "bench/results/latest.json";
const OUT = "bench/results/sim.json";
const SIZES = [10_000, 100_000, 1_000_000] as const;
const SEED = 16;

/** What the players and the network do: assumptions, printed with the run. */
const PLAYER_LATENCY = logNormal(40, 0.7);
const RPC_LATENCY = logNormal(5, 0.6);
const D1_LATENCY = logNormal(20, 0.5);
/** As the bench's live show answers: 70% within 2 s of receiving the question, the rest over the next 10 s. */
const BURST_SHARE = 0.7;
const BURST_MS = 2000;
const THINK = mixture(BURST_SHARE, uniform(0, BURST_MS), uniform(BURST_MS, 12_000));
const ALARM_LATE = exponential(5);

/** Shard size: the push to a shard's last socket within this budget (it counts in that player's response time)... */
const PUSH_SPREAD_BUDGET_MS = 100;
/** ...its thread at most this busy in the answer burst, and its sockets within one object's limit. */
const BURST_CPU_BUDGET = 0.7;
const SOCKETS_PER_OBJECT = 32_768;

/**
 * D1's documented limits, as assumed here (D1's limits page and its guidance on throughput):
 * a statement of at most 100 KB (bound values held to the same bound), at most 100 bound
 * parameters per statement, at most 1,000 queries per invocation (paid plan), at most 30 s per
 * query, and one writer per database that runs one query at a time: about 1,000 queries/s when
 * each takes 1 ms.
 */
const D1_LIMITS = {
  statementBytes: 100_000,
  boundParameters: 100,
  queriesPerInvocation: 1000,
  queryMs: 30_000,
  statementsPerSecond: 1000,
} as const;
/** A chunk's largest bound value is held to half the statement limit: answers may be longer than the bank's. */
const CHUNK_BYTES = D1_LIMITS.statementBytes / 2;
/** The most parameters any settlement statement binds (the notifications insert: ?1 to ?6). */
const PARAMETERS_PER_STATEMENT = 6;
const CONCURRENT_SHARDS = 8;
/** Settlement leaves the other half of D1's writer to joins, deposits and reads. */
const WRITER_SHARE = 0.5;

function d1Plan(): D1Plan {
  // Representative rows at their widest: a seven-digit user id, a 40-character answer (the bank's longest is 39).
  const result = {
    u: 1_000_000,
    score: 11_000,
    answered: 10,
    correct: 10,
    totalMs: 300_000,
    xp: 1500,
    finishedAt: 1_763_900_000_000,
    rank: 1_000_000,
    prize: 0,
  };
  const totals = { u: 1_000_000, score: 11_000, answered: 10, correct: 10, totalMs: 300_000, xp: 1500, finishedAt: 1_763_900_000_000 };
  const response = { u: 1_000_000, q: 100_000, a: "x".repeat(40), c: 1, ms: 30_000, p: 1100, at: 1_763_900_000_000, ra: 1_763_900_000_000 };
  const resultBytesPerPlayer = JSON.stringify(result).length + 1;
  const answerBytesPerPlayer = QUESTIONS_PER_TOURNAMENT * (JSON.stringify(response).length + 1);
  return {
    resultsPerChunk: Math.max(1, Math.floor(CHUNK_BYTES / resultBytesPerPlayer)),
    answersPerChunk: Math.max(1, Math.floor(CHUNK_BYTES / answerBytesPerPlayer)),
    // The chunk's marker, the participants' results, XP and counters, the notifications.
    resultsStatements: 4,
    // The chunk's marker, the answers.
    answersStatements: 2,
    resultBytesPerPlayer,
    answerBytesPerPlayer,
    // A shard's totals call: the settlement chunk (SETTLEMENT_CHUNK_PLAYERS, at most 642 players), a
    // player's totals as the shard sends them (worker/durable/room/shard-settlement.ts, no flags).
    totalsPerCall: 642,
    totalBytesPerPlayer: JSON.stringify(totals).length + 1,
    // The completion (settled_at), one ledger row per prize, the unclaimed remainder to the house.
    claimStatements: 2 + PRIZE_SHARES_BPS.length,
    claimRows: 20,
    concurrentShards: CONCURRENT_SHARDS,
    writerShare: WRITER_SHARE,
  };
}

/** Players per shard: the smallest of the three bounds, rounded down to a hundred. */
function playersPerShard(c: ModelCosts): { players: number; bound: string } {
  const bounds = [
    { players: PUSH_SPREAD_BUDGET_MS / c.pushPerSocketMs, bound: `push to the last socket within ${PUSH_SPREAD_BUDGET_MS} ms` },
    {
      players: BURST_CPU_BUDGET / ((BURST_SHARE / (BURST_MS / 1000)) * (c.answerMs / 1000)),
      bound: `thread at most ${BURST_CPU_BUDGET * 100}% busy in the answer burst`,
    },
    { players: SOCKETS_PER_OBJECT, bound: "sockets per object" },
  ].sort((a, b) => a.players - b.players);
  return { players: Math.floor(bounds[0]!.players / 100) * 100, bound: bounds[0]!.bound };
}

const scoreValues = QUESTIONS_PER_TOURNAMENT * (CORRECT_ANSWER_POINTS + MAX_SPEED_BONUS) + 1;
const boardRow = JSON.stringify({
  rank: 1_000_000,
  userId: 1_000_000,
  username: "x".repeat(20),
  level: 50,
  score: 11_000,
  questionsAnswered: 10,
});

function scenario(players: number, shards: number, costs: ModelCosts, plan: D1Plan, over: Partial<Scenario> = {}): Scenario {
  return {
    players,
    shards,
    seed: SEED ^ players,
    costs,
    playerLatency: PLAYER_LATENCY,
    rpcLatency: RPC_LATENCY,
    d1Latency: D1_LATENCY,
    think: THINK,
    alarmLate: ALARM_LATE,
    leadMs: REVEAL_PAUSE_MS,
    windowMs: LIVE_SHOW_WINDOW_MS,
    // The top 10 as JSON and a count per possible score as 32-bit integers.
    boardBytes: LEADERBOARD_PUSH_SIZE * (boardRow.length + 1) + scoreValues * 4,
    reportBaseBytes: LEADERBOARD_PUSH_SIZE * (boardRow.length + 1),
    // "[10234,37]," per distinct score.
    histogramEntryBytes: 12,
    scoreValues,
    d1: plan,
    ...over,
  };
}

/**
 * The model against the bench's own live show: one room (N = 1) with as many sockets, over
 * loopback. The push cost is taken from that run, so its push matches by construction; the
 * answers' wait is the model's own prediction, beside the latency the bench measured.
 */
function calibrate(ref: LiveShowReference, costs: ModelCosts, plan: D1Plan) {
  const loopback = constant(0.1);
  const r = simulateShow(
    scenario(ref.sockets, 1, costs, plan, { playerLatency: loopback, rpcLatency: loopback, d1Latency: loopback, alarmLate: constant(0) }),
  );
  return {
    sockets: ref.sockets,
    pushToLastSocketMs: { simulated: Math.round(r.pushMaxMs), bench: ref.pushToLastSocketMs },
    answerP50Ms: { simulatedWait: Math.round(r.busiest.answerWaitP50Ms), benchLatency: ref.answerLatencyP50Ms },
    answerP99Ms: { simulatedWait: Math.round(r.busiest.answerWaitP99Ms), benchLatency: ref.answerLatencyP99Ms },
  };
}

/**
 * The model against the bench's sharded show: the same sockets over the same number of shards,
 * over loopback. The model gives each shard a thread of its own, as Cloudflare runs each object;
 * the bench runs every shard and the coordinator on workerd's one thread (shared with the rest of
 * a loaded machine), so its push and board take every shard's work in turn and come out longer.
 */
function calibrateSharded(ref: ShardedShowReference, costs: ModelCosts, plan: D1Plan) {
  const loopback = constant(0.1);
  const r = simulateShow(
    scenario(ref.sockets, ref.shards, costs, plan, {
      playerLatency: loopback,
      rpcLatency: loopback,
      d1Latency: loopback,
      alarmLate: constant(0),
    }),
  );
  return {
    sockets: ref.sockets,
    shards: ref.shards,
    pushToLastSocketMs: { simulated: Math.round(r.pushMaxMs), bench: ref.pushToLastSocketMs },
    boardToLastSocketMs: { simulated: Math.round(r.boardMaxMs), bench: ref.boardToLastSocketMs },
    answerP99Ms: { simulatedWait: Math.round(r.busiest.answerWaitP99Ms), benchLatency: ref.answerLatencyP99Ms },
  };
}

const fmt = (x: number, digits = 0) => x.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits });
const ms = (x: number) =>
  x >= 120_000 ? `${fmt(x / 60_000, 1)} min` : x >= 10_000 ? `${fmt(x / 1000, 1)} s` : `${fmt(x, x < 10 ? 1 : 0)} ms`;
const pct = (x: number) => `${fmt(x * 100)}%`;

function d1Verdict(r: ShowResult, plan: D1Plan): { ok: boolean; over: string[] } {
  const st = r.settlement;
  const over = [
    st.peakStatementsPerSecond > D1_LIMITS.statementsPerSecond && `${fmt(st.peakStatementsPerSecond)} statements/s`,
    st.largestStatementBytes > D1_LIMITS.statementBytes && `a ${fmt(st.largestStatementBytes / 1000)} KB statement`,
    PARAMETERS_PER_STATEMENT > D1_LIMITS.boundParameters && "bound parameters",
    st.statementsPerInvocation > D1_LIMITS.queriesPerInvocation && `${st.statementsPerInvocation} queries in one invocation`,
    st.longestBatchMs > D1_LIMITS.queryMs && "a batch over 30 s",
    st.writerMean > plan.writerShare * 1.05 && `writer ${pct(st.writerMean)} busy`,
  ].filter((x): x is string => typeof x === "string");
  return { ok: over.length === 0, over };
}

function tables(results: ShowResult[], plan: D1Plan): string {
  const show = [
    "| Players | Shards (players each) | Question push: last send / p99 / last player | Answers per shard: peak/s, thread busy (burst second / window), wait p99 | Board: merged / p99 / last player | Coordinator busiest second |",
    "|---|---|---|---|---|---|",
    ...results
      .map((r) =>
        [
          fmt(r.players),
          `${fmt(r.shards)} (${fmt(r.playersPerShard.min)}-${fmt(r.playersPerShard.max)})`,
          `${ms(r.pushLastSendMs)} / ${ms(r.pushP99Ms)} / ${ms(r.pushMaxMs)}`,
          `${fmt(r.busiest.peakAnswersPerSecond)}/s, ${pct(r.busiest.busiestSecondCpu)} / ${pct(r.busiest.windowCpu)}, ${ms(r.busiest.answerWaitP99Ms)}`,
          `${ms(r.mergeMs)} / ${ms(r.boardP99Ms)} / ${ms(r.boardMaxMs)}`,
          pct(r.coordinatorBusiestSecondCpu),
        ].join(" | "),
      )
      .map((row) => `| ${row} |`),
  ];
  const settle = [
    "| Players | Settlement: totals ranked / results in D1 / answers in D1 / prizes paid | D1 batches, statements, rows | D1 peak statements/s, rows/s | D1 writer busy: busiest second / mean | Largest statement | Within D1's limits |",
    "|---|---|---|---|---|---|---|",
    ...results.map((r) => {
      const st = r.settlement;
      const v = d1Verdict(r, plan);
      return `| ${[
        fmt(r.players),
        `${ms(st.gatherMs)} / ${ms(st.resultsMs)} / ${ms(st.answersMs)} / ${ms(st.moneyMs)}`,
        `${fmt(st.batches)}, ${fmt(st.statements)}, ${fmt(st.rowsWritten)}`,
        `${fmt(st.peakStatementsPerSecond)}, ${fmt(st.peakRowsPerSecond)}`,
        `${pct(st.writerBusiestSecond)} / ${pct(st.writerMean)}`,
        `${fmt(st.largestStatementBytes / 1000, 1)} KB`,
        v.ok ? "OK" : `over: ${v.over.join(", ")}`,
      ].join(" | ")} |`;
    }),
  ];
  return `${show.join("\n")}\n\n${settle.join("\n")}`;
}

const t0 = performance.now();
const { costs: figures, benchTimestamp, liveShow, shardedShow } = loadCosts(BENCH_RESULTS);
const costs = Object.fromEntries(Object.entries(figures).map(([k, f]) => [k, f.value])) as unknown as ModelCosts;
const plan = d1Plan();
const sizing = playersPerShard(costs);

console.log(`Costs (${BENCH_RESULTS}${benchTimestamp ? `, run of ${benchTimestamp}` : ", not found"}):`);
for (const [name, f] of Object.entries(figures) as [keyof Costs, Costs[keyof Costs]][]) {
  console.log(`  ${name.padEnd(22)} ${String(+f.value.toPrecision(3)).padStart(8)}  ${f.kind.padEnd(8)}  ${f.source}`);
}
console.log("Assumed:");
const assumptions = {
  playerLatency: `player to shard, one way: ${PLAYER_LATENCY.describe}`,
  rpcLatency: `object to object, one way: ${RPC_LATENCY.describe}`,
  d1Latency: `object to D1, one way: ${D1_LATENCY.describe}`,
  think: `question received to answer sent: ${THINK.describe}`,
  alarmLate: `a shard's alarm fires late by: ${ALARM_LATE.describe}`,
  shardSize: `${fmt(sizing.players)} players per shard (bound: ${sizing.bound}); N = players / that, rounded up; players assigned by a hash of the user id`,
  d1: `one writer; a statement costs ${+costs.d1StatementMs.toPrecision(3)} ms + ${+costs.d1RowMs.toPrecision(3)} ms per row; limits ${D1_LIMITS.statementBytes / 1000} KB per statement, ${D1_LIMITS.boundParameters} parameters, ${D1_LIMITS.queriesPerInvocation} queries per invocation, ${D1_LIMITS.queryMs / 1000} s per query, about ${D1_LIMITS.statementsPerSecond}/s`,
  chunks: `results ${plan.resultsPerChunk} players (${fmt((plan.resultsPerChunk * plan.resultBytesPerPlayer) / 1000, 1)} KB), answers ${plan.answersPerChunk} players (${fmt((plan.answersPerChunk * plan.answerBytesPerPlayer) / 1000, 1)} KB) per chunk; ${plan.concurrentShards} shards at a time, settlement at most ${pct(plan.writerShare)} of the writer`,
};
for (const line of Object.values(assumptions)) console.log(`  ${line}`);

const results: ShowResult[] = [];
for (const players of SIZES) {
  const started = performance.now();
  const r = simulateShow(scenario(players, Math.ceil(players / sizing.players), costs, plan));
  results.push(r);
  console.log(`  simulated ${fmt(players)} players: ${fmt(r.events)} events in ${fmt((performance.now() - started) / 1000, 1)} s`);
}
const calibration = liveShow && calibrate(liveShow, costs, plan);
if (calibration) {
  const c = calibration;
  console.log(
    `  calibration, one room of ${fmt(c.sockets)} sockets over loopback as in the bench: push to the last socket ${fmt(c.pushToLastSocketMs.simulated)} ms ` +
      `(bench ${fmt(c.pushToLastSocketMs.bench)} ms, the cost is taken from it); answers' wait p50 ${fmt(c.answerP50Ms.simulatedWait)} / p99 ${fmt(c.answerP99Ms.simulatedWait)} ms ` +
      `(bench answer latency ${fmt(c.answerP50Ms.benchLatency)} / ${fmt(c.answerP99Ms.benchLatency)} ms)`,
  );
}
const shardedCalibration = shardedShow && calibrateSharded(shardedShow, costs, plan);
if (shardedCalibration) {
  const c = shardedCalibration;
  console.log(
    `  calibration, the bench's sharded show (${fmt(c.sockets)} sockets over ${c.shards} shards, loopback; every shard on one workerd thread there, one thread each here): ` +
      `push to the last socket ${fmt(c.pushToLastSocketMs.simulated)} ms (bench ${fmt(c.pushToLastSocketMs.bench)} ms); ` +
      `merged board to the last socket after the close ${fmt(c.boardToLastSocketMs.simulated)} ms (bench ${fmt(c.boardToLastSocketMs.bench)} ms); ` +
      `answers' wait p99 ${fmt(c.answerP99Ms.simulatedWait)} ms (bench answer latency p99 ${fmt(c.answerP99Ms.benchLatency)} ms)`,
  );
}
const table = tables(results, plan);
const seconds = (performance.now() - t0) / 1000;
console.log(`\n${table}\n\nSimulated in ${fmt(seconds, 1)} s.`);

writeFileSync(
  OUT,
  `${JSON.stringify(
    {
      generatedAt: new Date().toISOString(),
      benchResults: { path: BENCH_RESULTS, timestamp: benchTimestamp },
      seed: SEED,
      costs: figures,
      assumptions,
      d1Limits: D1_LIMITS,
      plan,
      playersPerShard: sizing,
      calibration,
      shardedCalibration,
      results: results.map((r) => ({ ...r, d1: d1Verdict(r, plan) })),
      table,
      seconds: Math.round(seconds * 10) / 10,
    },
    null,
    1,
  )}\n`,
);
console.log(`Wrote ${OUT}.`);
