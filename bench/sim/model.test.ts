// The model against what can be worked out by hand: one shard, no network delay, known costs.
import { describe, expect, it } from "vitest";
import { simulateShow, type Scenario } from "./model";
import { constant, uniform } from "./random";

const PLAYERS = 10_000;

function oneShard(over: Partial<Scenario["d1"]> = {}): Scenario {
  return {
    players: PLAYERS,
    shards: 1,
    seed: 1,
    costs: {
      answerMs: 0.5,
      pushPerSocketMs: 0.05,
      settlePerPlayerMs: 0.1,
      d1StatementMs: 1,
      d1RowMs: 0.01,
      resultRowsPerPlayer: 6,
      responseRowsPerPlayer: 30,
      rpcMs: 0.2,
      perKbMs: 0.01,
      boardPerPlayerMs: 0.005,
      mergePerEntryMs: 0.0001,
    },
    playerLatency: constant(0),
    rpcLatency: constant(0),
    d1Latency: constant(0),
    // Answers start after the push has ended, spread evenly over 10 s: 1,000 answers/s.
    think: uniform(1000, 11_000),
    alarmLate: constant(0),
    leadMs: 5000,
    windowMs: 32_000,
    boardBytes: 45_000,
    reportBaseBytes: 1000,
    histogramEntryBytes: 12,
    scoreValues: 11_001,
    d1: {
      resultsPerChunk: 400,
      answersPerChunk: 40,
      resultsStatements: 4,
      answersStatements: 2,
      resultBytesPerPlayer: 125,
      answerBytesPerPlayer: 1250,
      totalsPerCall: 1000,
      totalBytesPerPlayer: 100,
      claimStatements: 5,
      claimRows: 20,
      concurrentShards: 1,
      writerShare: 1,
      ...over,
    },
  };
}

describe("one shard with known costs", () => {
  const r = simulateShow(oneShard());

  it("pushes the question to its last socket after one send per socket", () => {
    expect(r.pushLastSendMs).toBeCloseTo(PLAYERS * 0.05, 6);
    expect(r.pushMaxMs).toBeCloseTo(PLAYERS * 0.05, 6);
    expect(r.answers).toBe(PLAYERS);
    expect(r.answersRefused).toBe(0);
  });

  it("is as busy over the window as its push and its answers add up to", () => {
    // 500 ms of push and 5,000 ms of answers in a 32 s window.
    expect(r.busiest.windowCpu).toBeCloseTo((PLAYERS * 0.05 + PLAYERS * 0.5) / 32_000, 6);
    expect(r.busiest.peakAnswersPerSecond).toBeGreaterThan(950);
    expect(r.busiest.peakAnswersPerSecond).toBeLessThan(1150);
  });

  it("keeps answers waiting as long as a single server queue at half load does", () => {
    // Pollaczek-Khinchine for fixed service times: W = rho * s / (2 (1 - rho)), rho = 1,000/s * 0.5 ms.
    const rho = 0.5;
    const expected = (rho * 0.5) / (2 * (1 - rho));
    expect(r.busiest.answerWaitMeanMs).toBeGreaterThan(expected * 0.85);
    expect(r.busiest.answerWaitMeanMs).toBeLessThan(expected * 1.15);
  });

  it("writes every row once, in the chunks its plan sets", () => {
    const resultChunks = PLAYERS / 400;
    const answerChunks = PLAYERS / 40;
    expect(r.settlement.batches).toBe(1 + resultChunks + answerChunks);
    expect(r.settlement.statements).toBe(5 + resultChunks * 4 + answerChunks * 2);
    expect(r.settlement.rowsWritten).toBeCloseTo(20 + PLAYERS * 6 + resultChunks + PLAYERS * 30 + answerChunks, 6);
    expect(r.settlement.largestStatementBytes).toBe(50_000);
  });

  it("gathers the totals a chunk at a time, and pays the prizes only once every row is in D1", () => {
    expect(r.settlement.gatherCalls).toBe(PLAYERS / 1000);
    // Half the players a call: twice the calls, the same bytes; each call more is three messages of 0.2 ms.
    const halves = simulateShow(oneShard({ totalsPerCall: 500 })).settlement;
    expect(halves.gatherCalls).toBe(PLAYERS / 500);
    expect(halves.gatherMs - r.settlement.gatherMs).toBeCloseTo((PLAYERS / 1000) * 3 * 0.2, 3);
    expect(r.settlement.resultsMs).toBeGreaterThan(r.settlement.gatherMs);
    // The completion batch: 5 statements and 20 rows on the writer.
    expect(r.settlement.moneyMs - r.settlement.answersMs).toBeCloseTo(5 * 1 + 20 * 0.01, 6);
  });

  it("takes the writer's time for the answers, and four times that at a quarter of the writer", () => {
    const answerChunks = PLAYERS / 40;
    const writerMs = answerChunks * 2 * 1 + (PLAYERS * 30 + answerChunks) * 0.01;
    // The grant and the report back: three messages of 0.2 ms.
    expect(r.settlement.answersMs - r.settlement.resultsMs).toBeCloseTo(writerMs + 0.6, 3);
    const paced = simulateShow(oneShard({ writerShare: 0.25 })).settlement;
    expect(paced.answersMs - paced.resultsMs).toBeCloseTo(4 * writerMs + 0.6, 3);
  });
});
