// The per-operation costs the simulation runs on. Measured ones come from the bench's last run
// (bench/results/latest.json, this machine); each has a fallback here, used when the file or the
// figure is missing. What the bench does not measure is an assumption, stated here with its
// reason. The run prints every figure with where it came from.
import { readFileSync } from "node:fs";
import { QUESTIONS_PER_TOURNAMENT } from "../../common/spec";

export interface Figure {
  value: number;
  /** Where the value came from: the bench figure it was derived from, a fallback, or an assumption. */
  source: string;
  kind: "measured" | "fallback" | "assumed";
}

export interface Costs {
  /** A shard's thread time per live-show answer (one frame in, its reply out, the stored play). */
  answerMs: Figure;
  /** A shard's thread time per socket for one push (a question, a reveal or a board). */
  pushPerSocketMs: Figure;
  /** A shard's thread time per player to prepare its settlement rows (standings, flags, JSON). */
  settlePerPlayerMs: Figure;
  /** D1's writer time for one statement, before the rows it writes. */
  d1StatementMs: Figure;
  /** D1's writer time per row written (index entries count as rows, as D1 counts them). */
  d1RowMs: Figure;
  /** Rows written per player at a live show's settlement: results, XP, notification. */
  resultRowsPerPlayer: Figure;
  /** Rows written per player for the answers (user_responses and its two indexes). */
  responseRowsPerPlayer: Figure;
  /** Thread time on each side for one message between Durable Objects (RPC). */
  rpcMs: Figure;
  /** Thread time per KB to serialise or parse a message. */
  perKbMs: Figure;
  /** A shard's thread time per player to rebuild its board and score histogram at a reveal. */
  boardPerPlayerMs: Figure;
  /** The coordinator's thread time per histogram entry merged. */
  mergePerEntryMs: Figure;
}

/**
 * Fallbacks for the measured figures: the values of the bench run of 2026-11-23 on this machine
 * (README, Performance), used only when latest.json lacks the figure.
 */
const FALLBACK = {
  answerMs: 0.4,
  pushPerSocketMs: 0.075,
  settlePerPlayerMs: 0.14,
  d1StatementMs: 0.66,
  d1RowMs: 0.034,
  rowsPerPlayer: 36,
} as const;

/** user_responses rows per player: one per question, each with its two index entries (worker/db/schema.ts). */
const RESPONSE_ROWS_PER_ANSWER = 3;

const ASSUMED: Pick<Costs, "rpcMs" | "perKbMs" | "boardPerPlayerMs" | "mergePerEntryMs"> = {
  rpcMs: {
    value: 0.35,
    kind: "assumed",
    source: "the bench's probe of one message into a hibernatable socket and its reply (README); RPC between objects is not measured",
  },
  perKbMs: { value: 0.01, kind: "assumed", source: "JSON or structured clone at about 100 MB/s" },
  boardPerPlayerMs: { value: 0.005, kind: "assumed", source: "standings of 1,000 players rebuilt in 5 ms" },
  mergePerEntryMs: { value: 0.0001, kind: "assumed", source: "one addition into an array of counts, 100 ns" },
};

interface BenchFile {
  timestamp?: string;
  liveShow?: {
    sockets?: number;
    pushToLastSocketMs?: number[];
    peakAnswersPerSecond?: number;
    answerLatencyMs?: { p50?: number; p95?: number; p99?: number };
  };
  settlement?: {
    players?: number;
    settleRequestMs?: number;
    d1Settlement?: { room?: { statements?: number; rowsWritten?: number } };
  }[];
  serverCpu?: Record<string, { perOperationMs?: number }>;
  socketPlay?: {
    players?: number;
    targetAnswersPerSecond?: number;
    answersPerSecond?: number;
    workerdCpu?: { playMsPerAnswer?: number; openMsPerSocket?: number } | null;
  }[];
  shardedShow?: {
    sockets?: number;
    shards?: number;
    pushOverall?: { firstMs?: number; lastMs?: number }[];
    boardAfterCloseMs?: { medianMs?: number; lastMs?: number }[];
    answerLatencyMs?: { p99?: number };
  } | null;
  cost?: { perCompletion?: { room?: { rowsWritten?: number } } };
}

const positive = (n: unknown): n is number => typeof n === "number" && Number.isFinite(n) && n > 0;

/** What the bench measured of its live show (one room, every socket on this machine), to compare the model with. */
export interface LiveShowReference {
  sockets: number;
  pushToLastSocketMs: number;
  answerLatencyP50Ms: number;
  answerLatencyP99Ms: number;
}

/** What the bench measured of its sharded live show (a coordinator and N shards in one workerd process), to compare the model with. */
export interface ShardedShowReference {
  sockets: number;
  shards: number;
  /** The fastest question's push, from its open time to the last socket of every shard. */
  pushToLastSocketMs: number;
  /** From the close to the merged board on the last player socket, the faster of the questions. */
  boardToLastSocketMs: number;
  answerLatencyP99Ms: number;
}

/** Reads the bench's results; every figure it cannot derive falls back to the constants above. */
export function loadCosts(path: string): {
  costs: Costs;
  benchTimestamp: string | null;
  liveShow: LiveShowReference | null;
  shardedShow: ShardedShowReference | null;
} {
  let bench: BenchFile = {};
  try {
    bench = JSON.parse(readFileSync(path, "utf8")) as BenchFile;
  } catch {
    // No results yet: every measured figure falls back.
  }
  const measured = (value: unknown, source: string, fallback: number): Figure =>
    positive(value)
      ? { value, source, kind: "measured" }
      : { value: fallback, source: `fallback (the ${path} figure is missing): ${source}`, kind: "fallback" };

  const live = bench.liveShow;
  // Each candidate below bounds a thread's time from above (a wall-clock rate or spread, which the
  // machine's other work can only stretch, or CPU that includes more than the one operation), so
  // the smallest measured one is taken; the others are named in its source.
  const smallest = (candidates: { value: number | undefined; source: string }[], fallback: number): Figure => {
    const found = candidates.filter((c): c is { value: number; source: string } => positive(c.value)).sort((a, b) => a.value - b.value);
    if (found.length === 0) return measured(undefined, candidates.map((c) => c.source).join("; "), fallback);
    const [best, ...others] = found;
    const also = others.map((c) => `${+c.value.toPrecision(3)} ms from ${c.source}`).join("; ");
    return measured(best!.value, also ? `${best!.source} (the smallest of: ${also})` : best!.source, fallback);
  };
  // An answer: the workerd CPU per answer while 1,000 players answer over their sockets at the room's
  // target rate (the socket row at 1,500/s, opening the sockets not counted; a self-paced answer,
  // whose reply also carries the next question), and the live show's peak reply rate, reached while
  // its answers queued.
  const row = bench.socketPlay?.find((r) => r.players === 1000 && r.targetAnswersPerSecond === 1500);
  const peak = live?.peakAnswersPerSecond;
  const answerMs = smallest(
    [
      {
        value: row?.workerdCpu?.playMsPerAnswer,
        source: `the Worker's workerd CPU per answer while ${row?.players ?? "?"} players answered over their sockets at ${row?.answersPerSecond ?? "?"}/s (the socket row at 1,500/s, opening the sockets not counted)`,
      },
      {
        value: positive(peak) ? 1000 / peak : undefined,
        source: `1,000 ms / the live show's peak of ${peak ?? "?"} answers/s, replied while answers queued (p95 ${live?.answerLatencyMs?.p95 ?? "?"} ms)`,
      },
    ],
    FALLBACK.answerMs,
  );
  // A push: the warm push (the smallest push-to-last-socket over the questions; the first includes a
  // cold start) divided by the sockets it reached, in the one-room live show and in the sharded show,
  // where workerd's one thread runs every shard, so the push to the last socket of all is every
  // shard's sends in turn.
  const sharded = bench.shardedShow ?? null;
  const shardedPushes = (sharded?.pushOverall ?? []).map((q) => q.lastMs).filter(positive);
  const toLast = live?.pushToLastSocketMs?.filter(positive) ?? [];
  const pushPerSocketMs = smallest(
    [
      {
        value: toLast.length > 0 && positive(live?.sockets) ? Math.min(...toLast) / live.sockets : undefined,
        source: `the live show's fastest question push to the last of ${live?.sockets ?? "?"} sockets (${toLast.length ? Math.min(...toLast) : "?"} ms)`,
      },
      {
        value: shardedPushes.length > 0 && positive(sharded?.sockets) ? Math.min(...shardedPushes) / sharded.sockets : undefined,
        source: `the sharded show's fastest question push to the last of ${sharded?.sockets ?? "?"} sockets over ${sharded?.shards ?? "?"} shards on one workerd thread (${shardedPushes.length ? Math.min(...shardedPushes) : "?"} ms)`,
      },
    ],
    FALLBACK.pushPerSocketMs,
  );

  const largest = [...(bench.settlement ?? [])]
    .filter((s) => positive(s.players) && positive(s.settleRequestMs))
    .sort((a, b) => b.players! - a.players!)[0];
  const settlePerPlayerMs = measured(
    largest ? largest.settleRequestMs! / largest.players! : undefined,
    `the settlement of ${largest?.players ?? "?"} players: ${largest?.settleRequestMs ?? "?"} ms (room and local D1 on one thread)`,
    FALLBACK.settlePerPlayerMs,
  );

  const health = bench.serverCpu?.["baseline health"]?.perOperationMs;
  const bare = bench.serverCpu?.["baseline 404"]?.perOperationMs;
  const d1StatementMs = measured(
    positive(health) && positive(bare) && health > bare ? health - bare : undefined,
    `GET /api/health (one D1 statement) ${health ?? "?"} ms - GET /api/<unknown> ${bare ?? "?"} ms of CPU per request`,
    FALLBACK.d1StatementMs,
  );

  const settleD1 = largest?.d1Settlement?.room;
  const rowsWritten = settleD1?.rowsWritten;
  const d1RowMs = measured(
    largest && positive(rowsWritten) && positive(settleD1?.statements)
      ? Math.max(0, largest.settleRequestMs! - settleD1.statements * d1StatementMs.value) / rowsWritten
      : undefined,
    `the same settlement: (${largest?.settleRequestMs ?? "?"} ms - ${settleD1?.statements ?? "?"} statements) / ${rowsWritten ?? "?"} rows written (an upper bound: the room's own work is in it)`,
    FALLBACK.d1RowMs,
  );

  // A live show writes each player's results and answers at settlement: what a completion writes
  // (results and the ten answers) plus what the settlement adds per player (XP, notification).
  const perCompletion = bench.cost?.perCompletion?.room?.rowsWritten;
  const rowsPerPlayer = measured(
    positive(perCompletion) && largest && positive(rowsWritten) ? perCompletion + rowsWritten / largest.players! : undefined,
    `rows written per completion (${perCompletion ?? "?"}) + per player at settlement (${rowsWritten ?? "?"} / ${largest?.players ?? "?"})`,
    FALLBACK.rowsPerPlayer,
  );
  const responseRows = QUESTIONS_PER_TOURNAMENT * RESPONSE_ROWS_PER_ANSWER;
  const costs: Costs = {
    answerMs,
    pushPerSocketMs,
    settlePerPlayerMs,
    d1StatementMs,
    d1RowMs,
    resultRowsPerPlayer: {
      ...rowsPerPlayer,
      value: Math.max(1, rowsPerPlayer.value - responseRows),
      source: `${rowsPerPlayer.source}, less the answers' ${responseRows}`,
    },
    responseRowsPerPlayer: {
      value: responseRows,
      kind: "assumed",
      source: `${QUESTIONS_PER_TOURNAMENT} answers x (row + 2 index entries), from the schema`,
    },
    ...ASSUMED,
  };
  const latency = live?.answerLatencyMs;
  const liveShow =
    positive(live?.sockets) && toLast.length > 0 && positive(latency?.p50) && positive(latency?.p99)
      ? { sockets: live.sockets, pushToLastSocketMs: Math.min(...toLast), answerLatencyP50Ms: latency.p50, answerLatencyP99Ms: latency.p99 }
      : null;
  const boards = (sharded?.boardAfterCloseMs ?? []).map((b) => b.lastMs).filter(positive);
  const shardedShow =
    sharded && positive(sharded.sockets) && positive(sharded.shards) && shardedPushes.length > 0 && boards.length > 0
      ? {
          sockets: sharded.sockets,
          shards: sharded.shards,
          pushToLastSocketMs: Math.min(...shardedPushes),
          boardToLastSocketMs: Math.min(...boards),
          answerLatencyP99Ms: sharded.answerLatencyMs?.p99 ?? 0,
        }
      : null;
  return { costs, benchTimestamp: bench.timestamp ?? null, liveShow, shardedShow };
}
