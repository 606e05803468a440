// One tournament over a coordinator and N play shards (docs/decisions/011-one-tournament-past-one-durable-object.md),
// simulated through one live-show question and the settlement that follows the show:
//
// 1. At the previous reveal the coordinator sends every shard the board and the next question's
//    open time T (one message each, sent one after another from its single thread).
// 2. At T each shard's alarm fires (a little late, by a stated distribution) and it pushes the
//    question to its sockets one after another; each player gets it after the network's delay,
//    thinks, and answers; the answer waits for the shard's thread behind whatever is queued.
// 3. At the window's close each shard reports its top 10 and score histogram, then pushes the
//    reveal; the coordinator merges the reports and sends the merged board to every shard, which
//    pushes it to its sockets.
// 4. Settlement, as built (money last): the coordinator gathers every shard's players' totals,
//    one shard and one chunk at a time, and ranks them; shards then write their players' results,
//    then their answers, in chunks, a few shards at a time, each pacing itself so settlement uses a
//    fixed share of D1's single writer; the prizes are paid last, in one small D1 batch.
//
// Every thread (each shard, the coordinator, D1's writer) is a Cpu: one job at a time, in order.
import { Simulation } from "./engine";
import { Bins, Cpu } from "./resources";
import { hash32, seeded, type Distribution } from "./random";

const kb = (bytes: number) => bytes / 1000;

export interface ModelCosts {
  answerMs: number;
  pushPerSocketMs: number;
  settlePerPlayerMs: number;
  d1StatementMs: number;
  d1RowMs: number;
  resultRowsPerPlayer: number;
  responseRowsPerPlayer: number;
  rpcMs: number;
  perKbMs: number;
  boardPerPlayerMs: number;
  mergePerEntryMs: number;
}

/** How settlement uses D1: chunk sizes, statements per chunk, and how much of the writer it may take. */
export interface D1Plan {
  /** Players per results chunk (participant rows, XP, notifications) and per answers chunk. */
  resultsPerChunk: number;
  answersPerChunk: number;
  /** Statements per chunk's batch, the chunk's marker included. */
  resultsStatements: number;
  answersStatements: number;
  /** Bound-value bytes per player in the largest statement of each kind of chunk. */
  resultBytesPerPlayer: number;
  answerBytesPerPlayer: number;
  /** Players' totals per call when the coordinator gathers them, and their bytes per player. */
  totalsPerCall: number;
  totalBytesPerPlayer: number;
  /** The completion and the prizes: one batch. */
  claimStatements: number;
  claimRows: number;
  /** Shards writing at once, and the share of the writer's time settlement may use between them. */
  concurrentShards: number;
  writerShare: number;
}

export interface Scenario {
  players: number;
  shards: number;
  seed: number;
  costs: ModelCosts;
  /** One way, player to shard and back (drawn per message). */
  playerLatency: Distribution;
  /** One way, between two Durable Objects. */
  rpcLatency: Distribution;
  /** One way, between a Durable Object and D1. */
  d1Latency: Distribution;
  /** From receiving the question to sending the answer. */
  think: Distribution;
  /** How late a shard's alarm fires after the time it was set for (clock skew included). */
  alarmLate: Distribution;
  /** The next open time is announced this long before it (the reveal pause). */
  leadMs: number;
  /** How long a question takes answers, the same for everyone. */
  windowMs: number;
  /** Bytes of the board the coordinator sends (top 10 and the score counts), and per histogram entry a shard reports. */
  boardBytes: number;
  reportBaseBytes: number;
  histogramEntryBytes: number;
  /** Distinct scores possible (0 to the maximum): the most entries a histogram holds. */
  scoreValues: number;
  d1: D1Plan;
}

export interface ShardStats {
  players: number;
  peakAnswersPerSecond: number;
  /** Busy share of the thread in the answer window's busiest second, and over the whole window. */
  busiestSecondCpu: number;
  windowCpu: number;
  /** Mean, p50 and p99 of the time an answer waited for the thread before being read (it counts in response time). */
  answerWaitMeanMs: number;
  answerWaitP50Ms: number;
  answerWaitP99Ms: number;
}

export interface ShowResult {
  players: number;
  shards: number;
  playersPerShard: { min: number; max: number };
  /** The open time was known to the last shard this long before T (negative: after). */
  announceMarginMs: number;
  /** From T: the last shard's last send; then receipt at the players (network included). */
  pushLastSendMs: number;
  pushP50Ms: number;
  pushP99Ms: number;
  pushMaxMs: number;
  /** The busiest shard by each measure, and the mean over shards. */
  busiest: ShardStats;
  mean: { peakAnswersPerSecond: number; busiestSecondCpu: number; windowCpu: number };
  answers: number;
  answersRefused: number;
  /** From the window's close: merged board ready at the coordinator; the board at the players. */
  mergeMs: number;
  boardP99Ms: number;
  boardMaxMs: number;
  coordinatorBusiestSecondCpu: number;
  settlement: SettlementResult;
  events: number;
}

export interface SettlementResult {
  /** From the show's end (the merged final board): totals gathered and ranked; every result, every answer in D1; prizes paid. */
  gatherMs: number;
  resultsMs: number;
  answersMs: number;
  moneyMs: number;
  /** Calls the coordinator made to gather the totals. */
  gatherCalls: number;
  batches: number;
  statements: number;
  rowsWritten: number;
  peakStatementsPerSecond: number;
  peakRowsPerSecond: number;
  /** The writer's busy share in its busiest second, and over the whole settlement. */
  writerBusiestSecond: number;
  writerMean: number;
  largestStatementBytes: number;
  /** Statements one shard sends in one phase (one invocation of its settlement step). */
  statementsPerInvocation: number;
  longestBatchMs: number;
}

/** Sorts in place; nearest-rank percentiles. */
function quantiles(v: Float64Array): { p50: number; p99: number; max: number } {
  if (v.length === 0) return { p50: 0, p99: 0, max: 0 };
  v.sort();
  const at = (p: number) => v[Math.min(v.length - 1, Math.max(0, Math.ceil((p / 100) * v.length) - 1))]!;
  return { p50: at(50), p99: at(99), max: v[v.length - 1]! };
}

export function simulateShow(s: Scenario): ShowResult {
  const { players: m, shards: n, costs: c } = s;
  const sim = new Simulation();
  const random = seeded(s.seed);
  const draw = (d: Distribution) => d.draw(random);

  // Players by shard: user id i + 1, shard = hash(user id) mod N, in their sockets' order.
  const shardOf = new Int32Array(m);
  const counts = new Int32Array(n);
  for (let i = 0; i < m; i++) counts[(shardOf[i] = hash32(i + 1) % n)]!++;
  const offsets = new Int32Array(n + 1);
  for (let k = 0; k < n; k++) offsets[k + 1] = offsets[k]! + counts[k]!;
  const members = new Int32Array(m);
  const fill = offsets.slice(0, n);
  for (let i = 0; i < m; i++) members[fill[shardOf[i]!]!++] = i;

  const shardCpu = Array.from({ length: n }, () => new Cpu(sim));
  const arrivals = Array.from({ length: n }, () => new Bins());
  const coordinator = new Cpu(sim);

  const T = s.leadMs;
  const close = T + s.windowMs;
  const pushAt = new Float64Array(m);
  const waitOf = new Float64Array(m).fill(-1);
  const boardAt = new Float64Array(m);
  let lastSend = 0;
  let refused = 0;
  let answers = 0;

  // 1. The announcement: serialised once, sent to each shard in turn.
  const announcedAt = new Float64Array(n);
  const heard = new Uint8Array(n);
  const openLate: ((() => void) | undefined)[] = new Array(n);
  coordinator.run(kb(s.boardBytes) * c.perKbMs);
  for (let k = 0; k < n; k++) {
    coordinator.run(c.rpcMs, (sent) => {
      sim.at(sent + draw(s.rpcLatency), () => {
        shardCpu[k]!.run(c.rpcMs + kb(s.boardBytes) * c.perKbMs, (end) => {
          announcedAt[k] = end;
          heard[k] = 1;
          // The alarm went off before the announcement arrived: the shard opens on hearing.
          openLate[k]?.();
        });
      });
    });
  }

  // 2. The question: each shard's alarm at T; a shard that has not heard of T yet opens on hearing.
  const onAnswer = (i: number) => {
    const k = shardOf[i]!;
    arrivals[k]!.add(sim.now);
    const { start } = shardCpu[k]!.run(c.answerMs);
    waitOf[i] = start - sim.now;
    answers++;
  };
  for (let k = 0; k < n; k++) {
    sim.at(T + draw(s.alarmLate), () => {
      const open = () => {
        const count = counts[k]!;
        const { start } = shardCpu[k]!.run(count * c.pushPerSocketMs);
        for (let j = 0; j < count; j++) {
          const i = members[offsets[k]! + j]!;
          const sent = start + (j + 1) * c.pushPerSocketMs;
          const received = sent + draw(s.playerLatency);
          pushAt[i] = received - T;
          const arrives = received + draw(s.think) + draw(s.playerLatency);
          if (arrives > close) refused++;
          else sim.at(arrives, onAnswer, i);
        }
        lastSend = Math.max(lastSend, start + count * c.pushPerSocketMs - T);
      };
      if (heard[k]) open();
      else openLate[k] = open;
    });
  }

  // 3. The close: each shard reports (top 10 and histogram), then pushes the reveal; the
  // coordinator merges every report and sends the merged board back.
  const histogramEntries = (k: number) => Math.min(counts[k]!, s.scoreValues);
  let reports = 0;
  let mergedAt = 0;
  const settlement = newSettlement(s, sim, coordinator, shardCpu, counts, draw);
  for (let k = 0; k < n; k++) {
    sim.at(close + draw(s.alarmLate), () => {
      const reportBytes = s.reportBaseBytes + histogramEntries(k) * s.histogramEntryBytes;
      const cpu = shardCpu[k]!;
      cpu.run(counts[k]! * c.boardPerPlayerMs + kb(reportBytes) * c.perKbMs + c.rpcMs, (sent) => {
        sim.at(sent + draw(s.rpcLatency), () => {
          coordinator.run(c.rpcMs + kb(reportBytes) * c.perKbMs + histogramEntries(k) * c.mergePerEntryMs, (merged) => {
            if (++reports === n) {
              mergedAt = merged;
              sendBoard();
            }
          });
        });
      });
      cpu.run(counts[k]! * c.pushPerSocketMs);
    });
  }
  function sendBoard() {
    coordinator.run(kb(s.boardBytes) * c.perKbMs);
    for (let k = 0; k < n; k++) {
      coordinator.run(c.rpcMs, (sent) => {
        sim.at(sent + draw(s.rpcLatency), () => {
          const count = counts[k]!;
          const { start } = shardCpu[k]!.run(c.rpcMs + kb(s.boardBytes) * c.perKbMs + count * c.pushPerSocketMs);
          const first = start + c.rpcMs + kb(s.boardBytes) * c.perKbMs;
          for (let j = 0; j < count; j++) {
            const i = members[offsets[k]! + j]!;
            boardAt[i] = first + (j + 1) * c.pushPerSocketMs + draw(s.playerLatency) - close;
          }
          // With the final board the shard knows every rank: it prepares its settlement rows.
          shardCpu[k]!.run(count * c.settlePerPlayerMs);
        });
      });
    }
    settlement.start(mergedAt);
  }

  sim.run();

  // Per shard: arrivals, busy time, waits.
  const windowFrom = Math.floor(T / 1000);
  const windowTo = Math.ceil(close / 1000);
  const stats: ShardStats[] = [];
  for (let k = 0; k < n; k++) {
    const waits = new Float64Array(counts[k]!);
    let w = 0;
    for (let j = 0; j < counts[k]!; j++) {
      const v = waitOf[members[offsets[k]! + j]!]!;
      if (v >= 0) waits[w++] = v;
    }
    const q = quantiles(waits.subarray(0, w));
    stats.push({
      players: counts[k]!,
      peakAnswersPerSecond: arrivals[k]!.max(),
      busiestSecondCpu: shardCpu[k]!.busy.max(windowFrom, windowTo) / 1000,
      windowCpu: shardCpu[k]!.busy.sum(windowFrom, windowTo) / (windowTo * 1000 - windowFrom * 1000),
      answerWaitMeanMs: w > 0 ? waits.subarray(0, w).reduce((a, x) => a + x, 0) / w : 0,
      answerWaitP50Ms: q.p50,
      answerWaitP99Ms: q.p99,
    });
  }
  const most = (f: (x: ShardStats) => number) => Math.max(...stats.map(f));
  const avg = (f: (x: ShardStats) => number) => stats.reduce((a, x) => a + f(x), 0) / n;
  const push = quantiles(pushAt);
  const board = quantiles(boardAt);
  return {
    players: m,
    shards: n,
    playersPerShard: { min: Math.min(...counts), max: Math.max(...counts) },
    announceMarginMs: T - Math.max(...announcedAt),
    pushLastSendMs: lastSend,
    pushP50Ms: push.p50,
    pushP99Ms: push.p99,
    pushMaxMs: push.max,
    busiest: {
      players: most((x) => x.players),
      peakAnswersPerSecond: most((x) => x.peakAnswersPerSecond),
      busiestSecondCpu: most((x) => x.busiestSecondCpu),
      windowCpu: most((x) => x.windowCpu),
      answerWaitMeanMs: most((x) => x.answerWaitMeanMs),
      answerWaitP50Ms: most((x) => x.answerWaitP50Ms),
      answerWaitP99Ms: most((x) => x.answerWaitP99Ms),
    },
    mean: {
      peakAnswersPerSecond: avg((x) => x.peakAnswersPerSecond),
      busiestSecondCpu: avg((x) => x.busiestSecondCpu),
      windowCpu: avg((x) => x.windowCpu),
    },
    answers,
    answersRefused: refused,
    mergeMs: mergedAt - close,
    boardP99Ms: board.p99,
    boardMaxMs: board.max,
    coordinatorBusiestSecondCpu: coordinator.busy.max() / 1000,
    settlement: settlement.result(),
    events: sim.processed,
  };
}

/**
 * Settlement. The coordinator gathers the totals (one call per chunk of a shard's players, one
 * after another, each stored before the next) and ranks every player; then, through D1's single
 * writer, every shard's results chunks, then every shard's answers chunks, `concurrentShards` shards
 * at a time; the completion batch (prizes: the money) last. A shard sends one batch at a time and, after each, waits so that its batches take at
 * most writerShare / concurrentShards of the writer's time: together, settlement leaves the rest
 * of the writer to the rest of the product.
 */
function newSettlement(
  s: Scenario,
  sim: Simulation,
  coordinator: Cpu,
  shardCpu: Cpu[],
  counts: Int32Array,
  draw: (d: Distribution) => number,
) {
  const { costs: c, d1: plan } = s;
  const n = counts.length;
  const writer = new Cpu(sim);
  const statementsPerSecond = new Bins();
  const rowsPerSecond = new Bins();
  let startedAt = 0;
  let gatheredAt = 0;
  let gatherCalls = 0;
  let moneyAt = 0;
  let resultsAt = 0;
  let answersAt = 0;
  let batches = 0;
  let statements = 0;
  let rows = 0;
  let longestBatch = 0;
  let perInvocation = 0;

  /** One batch to D1 and back; `then` runs when its reply arrives. */
  const batch = (statementCount: number, rowCount: number, then: (writerMs: number) => void) => {
    sim.after(draw(s.d1Latency), () => {
      const writerMs = statementCount * c.d1StatementMs + rowCount * c.d1RowMs;
      const { start } = writer.run(writerMs, (end) => sim.at(end + draw(s.d1Latency), () => then(writerMs)));
      statementsPerSecond.add(start, statementCount);
      rowsPerSecond.add(start, rowCount);
      batches++;
      statements += statementCount;
      rows += rowCount;
      longestBatch = Math.max(longestBatch, writerMs);
    });
  };

  /** One shard writes its chunks of one kind, paced; `done` when the last reply is in. */
  const writeChunks = (k: number, perChunk: number, statementsPerChunk: number, rowsPerPlayer: number, done: () => void) => {
    const chunks = Math.ceil(counts[k]! / perChunk);
    perInvocation = Math.max(perInvocation, chunks * statementsPerChunk);
    const next = (chunk: number) => {
      if (chunk === chunks) return done();
      const players = Math.min(perChunk, counts[k]! - chunk * perChunk);
      const sentAt = sim.now;
      // The chunk's marker is one more row.
      batch(statementsPerChunk, players * rowsPerPlayer + 1, (writerMs) => {
        const paceUntil = sentAt + (writerMs * plan.concurrentShards) / plan.writerShare;
        sim.at(Math.max(sim.now, paceUntil), () => next(chunk + 1));
      });
    };
    // The shard's thread first finishes what it has queued (its rows are prepared there).
    shardCpu[k]!.run(c.rpcMs, () => next(0));
  };

  /** Grants the phase to the shards, a few at a time, each told by the coordinator and reporting back. */
  const phase = (perChunk: number, statementsPerChunk: number, rowsPerPlayer: number, done: () => void) => {
    let granted = 0;
    let finished = 0;
    const grant = () => {
      const k = granted++;
      coordinator.run(c.rpcMs, (sent) =>
        sim.at(sent + draw(s.rpcLatency), () =>
          writeChunks(k, perChunk, statementsPerChunk, rowsPerPlayer, () =>
            sim.after(draw(s.rpcLatency), () =>
              coordinator.run(c.rpcMs, () => {
                if (++finished === n) done();
                else if (granted < n) grant();
              }),
            ),
          ),
        ),
      );
    };
    for (let i = 0; i < Math.min(plan.concurrentShards, n); i++) grant();
  };

  /** The totals of shard k from `from` on: the coordinator asks, the shard answers, the coordinator stores; then the next. */
  const gather = (k: number, from: number, done: () => void) => {
    if (k === n) return done();
    if (from >= counts[k]!) return gather(k + 1, 0, done);
    const players = Math.min(plan.totalsPerCall, counts[k]! - from);
    const bytes = kb(players * plan.totalBytesPerPlayer) * c.perKbMs;
    gatherCalls++;
    coordinator.run(c.rpcMs, (sent) =>
      sim.at(sent + draw(s.rpcLatency), () =>
        shardCpu[k]!.run(c.rpcMs + bytes, (replied) =>
          sim.at(replied + draw(s.rpcLatency), () => coordinator.run(c.rpcMs + bytes, () => gather(k, from + players, done))),
        ),
      ),
    );
  };

  return {
    start(at: number) {
      startedAt = at;
      sim.at(at, () =>
        gather(0, 0, () =>
          // The order: every player's rank and prize from their totals, as the board ranks.
          coordinator.run(s.players * c.boardPerPlayerMs, () => {
            gatheredAt = sim.now;
            phase(plan.resultsPerChunk, plan.resultsStatements, c.resultRowsPerPlayer, () => {
              resultsAt = sim.now;
              phase(plan.answersPerChunk, plan.answersStatements, c.responseRowsPerPlayer, () => {
                answersAt = sim.now;
                batch(plan.claimStatements, plan.claimRows, () => (moneyAt = sim.now));
              });
            });
          }),
        ),
      );
    },
    result(): SettlementResult {
      const span = moneyAt - startedAt;
      return {
        gatherMs: gatheredAt - startedAt,
        resultsMs: resultsAt - startedAt,
        answersMs: answersAt - startedAt,
        moneyMs: span,
        gatherCalls,
        batches,
        statements,
        rowsWritten: rows,
        peakStatementsPerSecond: statementsPerSecond.max(),
        peakRowsPerSecond: rowsPerSecond.max(),
        writerBusiestSecond: writer.busy.max() / 1000,
        writerMean: span > 0 ? writer.busyMs / span : 0,
        largestStatementBytes: Math.max(plan.resultsPerChunk * plan.resultBytesPerPlayer, plan.answersPerChunk * plan.answerBytesPerPlayer),
        statementsPerInvocation: perInvocation,
        longestBatchMs: longestBatch,
      };
    },
  };
}
