// `npm run bench`: how many players one tournament holds and how fast it answers them.
//
// Starts the real Worker and Durable Objects with `wrangler dev` (workerd) on a fresh local D1
// under .wrangler/bench, drives it from this process over loopback only, checks every result,
// prints a table and writes bench/results/latest.json. The whole run stays under 22 minutes on
// a 2-core machine: every scenario is bounded in count and time and stops by itself. See
// README.md (Performance) for what each figure means.
import { cpus, loadavg, totalmem } from "node:os";
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { ensureDevVars, startDevServer, type DevServer } from "../scripts/dev-server";
import { run } from "../scripts/run";
import { leaderboardPushInterval } from "../common/domain/tournaments";
import { HttpClient } from "./lib/http";
import { Fixtures, directPlayers, registerPlayers, type D1Counters, type Player } from "./lib/fixtures";
import { alive, connectionHeadroom, cpuSeconds, findServerProcesses, openFds, type ServerProcesses } from "./lib/direct";
import { watchLoadGenerator, type LoadGenReport } from "./lib/loadgen";
import { waitForQuiet, type QuietReport } from "./lib/quiet";
import type { SocketTarget } from "./lib/sockets";
import { now, round } from "./lib/stats";
import { answerPath, type AnswerRun, type PlayState } from "./scenarios/answer";
import { completeAndSettle, settleLarge, type LargeSettleRun, type SettleRun } from "./scenarios/settle";
import {
  deposit,
  fundDirectly,
  joinStorm,
  joinStream,
  roomJoinStorm,
  type JoinRun,
  type JoinStreamRun,
  type RoomStormRun,
} from "./scenarios/join";
import { hubFanout, tournamentFanout, type FanoutRun, type HubFanoutRun } from "./scenarios/fanout";
import { signIn, type SignInRun } from "./scenarios/sign-in";
import { readPath, type ReadRun } from "./scenarios/reads";
import { homePageScripts, type BundleRun } from "./scenarios/bundle";
import { lighthousePages, type LighthousePage } from "./scenarios/lighthouse";
import { socketPlay, type SocketPlayRun } from "./scenarios/socket-play";
import { liveShow, type LiveShowRun } from "./scenarios/live-show";
import { restartShow, type RestartRun } from "./scenarios/restart";
import { shardedShow, type ShardedShowRun } from "./scenarios/sharded-show";
import { shardCount, shardOf } from "../common/domain/shards";

const PORT = Number(process.env.BENCH_PORT ?? 8798);
const PERSIST = ".wrangler/bench";
/** A snapshot of the Worker, the web app and the wrangler config taken at the start: wrangler dev
 *  watches what it serves, and an edit to the checkout while the bench runs would reload it
 *  (a reload restarts workerd and drops every socket and Durable Object in memory). */
const BUILD = ".wrangler/bench-build";
const RESULTS = "bench/results/latest.json";
/** The whole run, server start included, must end inside 14 minutes (a live show alone takes two). */
const BUDGET_MS = 16 * 60_000;
const LANES = 64;
/** Players who sign up through the API; the rest of PLAYERS are written to D1 directly. */
const USERS = 5000;
const PLAYERS = 10_000;
/** The HTTP answer path, for comparison with the socket: its players and time cap. */
const HTTP_ANSWER_PLAYERS = 100;
const HTTP_ANSWER_CAP_MS = 30_000;
/**
 * The socket answer path: 1,000 players in one room at 1,500 answers/s (what one room is meant
 * to sustain) and at a rate past it (each in its own room), and a 10,000-player room in waves of 5,000 sockets at 1,000
 * answers/s, run last: a room that falls behind takes a minute to drain, which would spill into
 * the next scenario. The first room stays live for the read path and is settled after it; the
 * others complete over the socket, which ends them: their scores are withheld until then.
 */
const SOCKET_ROOMS = [
  { players: 1000, wave: 1000, rate: 1500, capMs: 60_000, complete: false },
  { players: 1000, wave: 1000, rate: 3000, capMs: 60_000, complete: true },
  { players: 10_000, wave: 5000, rate: 1000, capMs: 150_000, complete: true },
] as const;
/** The live show: as many sockets as the machine holds, two questions (about 75 s of show). */
const LIVE_SHOW_SOCKETS = 10_000;
/** BENCH_LIVE_SHOW_SOCKETS=2000: a smaller show, to check its results on a machine too busy for the full one (reported under limits). */
const LIVE_SHOW_SOCKETS_WANTED = Math.max(1, Number(process.env.BENCH_LIVE_SHOW_SOCKETS ?? LIVE_SHOW_SOCKETS));
const LIVE_SHOW_QUESTIONS = 2;
const HOUSE_PRIZE_CENTS = 10_000;
/** The large settlement: players with seeded answers (bench/lib/seeded-room.ts), its pool, and the issue's target. */
const LARGE_SETTLEMENT = { players: 10_000, prizePoolCents: 1_234_567, targetMs: 3_000 } as const;
const FANOUT_SOCKETS = [1000] as const;
const HUB_SOCKETS = [1000, 10_000] as const;
/** Sign-in at production scrypt strength: this many logins, this many at once. */
const SIGN_IN_LOGINS = 48;
const SIGN_IN_LANES = 16;
const FANOUT_ROUNDS = 3;
const STORMS = [
  { players: 100, capacity: 50, title: "Bench Join Storm standard tier" },
  { players: 1000, capacity: 500, title: "Bench Join Storm large" },
] as const;
/** Every fifth storm player has no money: the room must refuse them without failing the others' seats. */
const POOR_EVERY = 5;
/** The large storm again, its presses sent to the room from inside the Worker: the room's own share. */
const ROOM_STORM = { players: 1000, capacity: 500, title: "Bench Join Storm, the room alone" } as const;
/** Joins arriving at a steady rate on one room, every one a paid seat. */
const JOIN_STREAM = { players: 5000, rate: 500, title: "Bench Join Stream" } as const;
const ENTRY_FEE_CENTS = 500;
const DEPOSIT_DOLLARS = 20;
const READ_MS = 10_000;
const PROXY_READ_MS = 5_000;
const BASELINE_MS = 3_000;
/** The page scenarios' own server: the same build with the demo seed (as `npm start` serves it); 8799 is the e2e tests' port. */
const PAGE_PORT = Number(process.env.BENCH_PAGE_PORT ?? PORT - 1);
const PAGE_PERSIST = ".wrangler/bench-page";
const PAGE_STEPS = ["bundle: home page scripts in Chromium", "lighthouse: home, /auth, /tournaments, /how-it-works"] as const;
const LIGHTHOUSE_PATHS = ["/", "/auth", "/tournaments", "/how-it-works"] as const;
/** Lighthouse runs per page (the median by performance score is reported): BENCH_LIGHTHOUSE_RUNS=3 for steadier scores. */
const LIGHTHOUSE_RUNS = Math.max(1, Number(process.env.BENCH_LIGHTHOUSE_RUNS ?? 1));
/**
 * A live show through a restart: its own server (it is SIGKILLed and started again mid-window, which
 * would end the load scenarios' server), a few hundred players over wrangler's public port (the
 * address a client keeps across the restart), two questions, a house prize pool with odd cents.
 * BENCH_RESTART_SEED repeats a run's moment of the kill and its players' timings.
 */
const RESTART = {
  step: "restart: a live show, the server killed and started again inside a window",
  sockets: Math.max(1, Number(process.env.BENCH_RESTART_SOCKETS ?? 400)),
  questions: 2,
  prizePoolCents: 12_345,
  seed: Number(process.env.BENCH_RESTART_SEED ?? Date.now() % 2 ** 31),
  port: Number(process.env.BENCH_RESTART_PORT ?? PORT - 2),
  persist: ".wrangler/bench-restart",
} as const;
/**
 * A live show past one room (decision 011): its own server, whose TOURNAMENT_SHARD_SIZE makes the
 * show's seats exactly `shards` play shards; as many sockets as the machine holds in reasonable
 * time (BENCH_SHARD_SOCKETS, bounded by the Worker's open-files limit), two questions, a house
 * prize pool with odd cents. Seats are spread over every shard by the hash of the user id (the
 * placement for a continent with no shard near it), as the join would store them.
 */
const SHARDED = {
  step: "sharded show: a live show on a coordinator and 8 play shards",
  sockets: Math.max(8, Number(process.env.BENCH_SHARD_SOCKETS ?? 4000)),
  shards: 8,
  questions: 2,
  prizePoolCents: 23_457,
  port: Number(process.env.BENCH_SHARD_PORT ?? PORT - 3),
  persist: ".wrangler/bench-shards",
} as const;
/**
 * The sharded show again with the same sockets, shards and checks, its rooms split over two
 * `wrangler dev` sessions on one local D1 (bench/worker/split-rooms.ts): session A (this port)
 * holds the coordinator and the even shards, session B (the port below it) the odd shards, each
 * binding the other's TournamentRoom through a dev registry of their own. An odd shard's players
 * connect to B's workerd. BENCH_ONLY=twoproc.
 */
const TWOPROC = {
  step: "twoproc: the sharded show over two workerd processes (odd shards in the second)",
  port: Number(process.env.BENCH_TWOPROC_PORT ?? PORT - 4),
  persist: ".wrangler/bench-twoproc",
  registry: ".wrangler/bench-twoproc-registry",
  names: ["trivia-bench-twoproc-a", "trivia-bench-twoproc-b"],
} as const;
/**
 * The measured servers run without wrangler dev's local trace collector (scripts/dev-server.ts,
 * `localTraces`): a development artefact that cost about half of workerd's CPU per socket answer.
 * BENCH_LOCAL_TRACES=1 keeps it, to compare with runs before it was left out.
 */
const LOCAL_TRACES = process.env.BENCH_LOCAL_TRACES === "1";
/** Scenarios on a server of their own, before the load scenarios' server starts. */
const OWN_SERVER_STEPS = [...PAGE_STEPS, RESTART.step, SHARDED.step, TWOPROC.step];
const VARS = {
  // Registration is rate limited per address and every bench player comes from 127.0.0.1.
  REGISTER_LIMIT_PER_IP: "1000000",
  LOGIN_LIMIT_PER_IP: "1000000",
  // Password hashing is not what is measured: scrypt N=2^4 instead of 2^14 for the 5,000 sign-ups.
  SCRYPT_N: "16",
};

const startedAt = new Date();
/** This process's own CPU and event-loop lag over the whole run (each socket scenario also reports its own). */
const wholeRun = watchLoadGenerator();
const t0 = now();
const elapsed = () => now() - t0;
/** The page and restart scenarios run first on their own servers; their time is not charged to the budget of the rest. */
let pageMs = 0;
const remaining = () => BUDGET_MS + pageMs - elapsed();
const log = (msg: string) => console.log(`[bench ${(elapsed() / 1000).toFixed(0).padStart(3)}s] ${msg}`);

let server: DevServer | null = null;
const cleanups: (() => Promise<void> | void)[] = [];
let cleaning: Promise<void> | null = null;
function cleanup(): Promise<void> {
  cleaning ??= (async () => {
    for (const fn of cleanups.reverse()) {
      try {
        await fn();
      } catch {
        // best effort
      }
    }
    if (server) await server.stop();
  })();
  return cleaning;
}
for (const sig of ["SIGINT", "SIGTERM"] as const) {
  process.on(sig, () => {
    log(`${sig}: stopping`);
    results.failures.push(`interrupted by ${sig}`);
    void finish();
  });
}
// A hard stop in case something hangs past the budget: what was measured is still written.
const hardStop = setTimeout(() => {
  log("over budget: stopping");
  results.failures.push("stopped by the harness's time limit");
  void finish();
}, BUDGET_MS + 45_000).unref();

interface Results {
  timestamp: string;
  machine: {
    cpus: number;
    cpuModel: string;
    memoryGiB: number;
    node: string;
    platform: string;
    loadavgAtStart: number[];
    loadavgAtEnd: number[];
    /** This Node process (the load generator) over the whole run. */
    loadGenerator: LoadGenReport | null;
  };
  setup: Record<string, unknown>;
  method: Record<string, string>;
  answerPath: AnswerRun[];
  socketPlay: SocketPlayRun[];
  liveShow: LiveShowRun | null;
  restart: RestartRun | null;
  shardedShow: ShardedShowRun | null;
  twoProcess: TwoProcessRun | null;
  settlement: SettleRun[];
  largeSettlement: LargeSettleRun | null;
  joinStorm: JoinRun[];
  roomStorm: RoomStormRun | null;
  joinStream: JoinStreamRun | null;
  readPath: (ReadRun & { label: string })[];
  baseline: (ReadRun & { label: string })[];
  tournamentSocketFanout: FanoutRun[];
  serverCpu: Record<string, { workerdSeconds: number; perOperationMs?: number; operations?: number }>;
  hubFanout: HubFanoutRun[];
  signIn: SignInRun | null;
  /** Sockets the Worker's process can hold here, measured from its open-files limit at the start. */
  socketCeiling: { openFilesLimit: number; openAtStart: number; sockets: number } | null;
  /** After each scenario: the wait until the Worker's descriptors and CPU had settled. */
  quiet: Record<string, QuietReport>;
  /** Scenarios that threw: each reported here and in the table, the others still run. */
  failedScenarios: { name: string; error: string }[];
  cost: { perAnswer: D1Counters | null; perCompletion: D1Counters | null; perSettlement: { players: number; d1: D1Counters }[] };
  bundle: BundleRun | null;
  lighthouse: LighthousePage[];
  skipped: string[];
  /** Bounds the run applied (time caps reached), reported rather than hidden. */
  limits: string[];
  failures: string[];
  ok: boolean;
  seconds: number;
  table: string;
}

const results: Results = {
  timestamp: startedAt.toISOString(),
  machine: {
    cpus: cpus().length,
    cpuModel: cpus()[0]?.model ?? "unknown",
    memoryGiB: round(totalmem() / 2 ** 30, 1),
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
    loadavgAtStart: loadavg().map((n) => round(n, 2)),
    loadavgAtEnd: [],
    loadGenerator: null,
  },
  setup: {},
  method: {
    server:
      "wrangler dev (workerd, local D1 and Durable Objects) on 127.0.0.1 with fresh state in .wrangler/bench, serving a bundle built at the start from bench/worker/entry.ts: the production Worker (worker/app.ts, the same Durable Object classes) with its D1 binding wrapped to count statements",
    load: `this Node process (separate from wrangler's and workerd's), HTTP/1.1 keep-alive over loopback, ${LANES} connections unless stated; WebSockets with Node's built-in client. Its own CPU and event-loop lag are reported with each socket scenario`,
    openLoop:
      "socket answer paths are open loop: every answer has a scheduled send time (a fixed rate across the players) and its latency runs from that time to its result, so a server that falls behind shows as latency, not as a slower schedule",
    address:
      "requests and sockets go to the loopback port of the workerd process that runs the Worker, the address wrangler dev's own proxy forwards to: the proxy (a second workerd that logs every request through wrangler's Node process) is a development artefact, and every socket through it would also cost descriptors in the proxy. One read-path row goes through the proxy for comparison",
    socketLimit:
      "workerd holds two file descriptors per TCP connection and this container's hard limit is 20,000 open files (not raisable, even as root), so the 10,000-socket runs are bounded to what the Worker's process can still open (reported under limits)",
    cpu: "server CPU: user+system time of the Worker's workerd process from /proc, before and after each phase",
    localTraces:
      "the measured servers run without wrangler dev's local trace collector (X_LOCAL_OBSERVABILITY=false; BENCH_LOCAL_TRACES=1 keeps it): a streaming tail worker that wrangler attaches to the Worker in the same workerd process, turning every invocation (each socket message is one) into trace events in JavaScript. Production has no such worker in the Worker's process; with it, a socket answer cost about twice the CPU here (docs/decisions/004-tournament-room.md, Measured). Locally the WebSockets still negotiate permessage-deflate: miniflare's own entry worker, in front of the Worker, accepts it whatever the Worker's no_web_socket_compression flag says (docs/decisions/014-websocket-compression-off.md), so each frame here also pays for zlib",
    d1Cost:
      "every D1 statement executed through the Worker's DB binding is counted by a wrapper in the bench entry, per caller (worker = HTTP handlers, room = TournamentRoom, hub, cron); read = SELECT/WITH, write = anything else; counters read before and after each phase with no other traffic",
    scrypt:
      "SCRYPT_N=16 for the bench's sign-ups (production 2^14): hashing is not what they measure. The sign-in row is at production strength: its players are written with an N=2^14, r=8, p=5 hash made by the harness, and the Worker verifies with the parameters stored in each hash",
    hubFanout:
      "the tournament is made 12 s ahead of its start and its room woken by one request before it (that first load is its own row); the figures run from the start time, when the room's alarm is due, to each socket's tournament_started, and include the D1 batch that stores the status and every notification row before the push",
    betweenPhases:
      "after every scenario the harness waits (up to 60 s, measured, under quiet in latest.json) until the Worker's process holds no more than 200 descriptors above what it held before the scenario and used under 5% of a core for a second, so one phase's socket closes neither lower the next one's socket count nor land in its CPU figures",
    failures:
      "a scenario that throws is reported (a FAILED row in the table, a failure line) and the run continues with the next; the run exits non-zero if any scenario failed or was skipped. The harness's own reads (SQL checks, counters) are tried up to three times",
    page: `the page scenarios run first, before the load scenarios, on their own wrangler dev (127.0.0.1:${PAGE_PORT}, fresh state in ${PAGE_PERSIST}) serving the same build with the demo seed as \`npm start\` loads it; nothing else runs on the bench's side meanwhile`,
    bundle:
      "every script Debian's Chromium (playwright-core) fetches for / as a visitor at a phone's viewport until no request for 1.5 s after the network went idle, each body gzipped here at level 9; KB = 1,000 bytes; 'initial' = named by index.html (entry or modulepreload), the rest are lazy chunks",
    lighthouse: `Lighthouse's default run (mobile: simulated slow 4G and 4x CPU slowdown) in Debian's Chromium launched by chrome-launcher with --headless=new --no-sandbox, as a visitor, ${LIGHTHOUSE_RUNS} run(s) per page, the median by performance score reported; simulated figures, sensitive to the machine's load`,
    restart:
      "a live show on a server of its own (BENCH_RESTART_PORT, fresh state in .wrangler/bench-restart): at a seeded random moment 1 to 15 s into one window, SIGKILL of wrangler dev's process group (workerd included), then wrangler dev started again on the same state and port; the players reconnect through wrangler's public port with the web client's backoff (common/domain/reconnect.ts); answers lost, missed questions, scores, ranks and prizes checked from D1 against a re-rank of the acknowledged answers",
    shardedShow:
      "a live show on a server of its own (BENCH_SHARD_PORT, fresh state in .wrangler/bench-shards, TOURNAMENT_SHARD_SIZE = seats / 8) over a coordinator and 8 play shards; seats written to D1 on the shard the join would give a player of a continent with no shard near it (hash of the user id mod 8); one spectator socket on the coordinator; player sockets to the Worker's workerd port, each routed to its shard. Push per shard and overall from the announced issuedAt; the merged board from the close (issuedAt + window) to the first leaderboard frame after the reveal on each socket; scores, ranks and prizes checked from D1 against a single-room re-rank of the acknowledged answers",
    twoProcess:
      "the sharded show's row (same sockets, shards, questions, checks) on two wrangler dev sessions serving the same bench build on one local D1 (same database_id, same --persist-to): session A holds the coordinator and the even shards, session B the odd shards; each wraps env.TOURNAMENT_ROOM so a room's name picks the session that holds it (bench/worker/split-rooms.ts) and binds the other's TournamentRoom class through wrangler's dev registry (script_name; a registry directory of their own). Odd shards' players connect to B's workerd port, everyone else to A's. CPU per process: user+system time of each session's Worker workerd from /proc over the show; sockets per process: the most descriptors each held during the show",
    rateLimits: "REGISTER_LIMIT_PER_IP and LOGIN_LIMIT_PER_IP raised: every bench player signs up from 127.0.0.1",
    fixtures:
      "5,000 players sign up through the API and the other 5,000 are written to D1 with a session each (the 10,000-player room); players deposit through the API; join-storm seats go through POST /join. Tournaments, and the seats of the free answer-path, fan-out and hub tournaments, are written to D1 by the harness as the scheduler and the Worker tests do: POST /api/admin/tournaments only makes tournaments that start in the future, and seating 5,000 players through POST /join (serialised, one D1 batch each) and then waiting for the start alarm would spend minutes of the 10-minute budget on setup",
  },
  answerPath: [],
  socketPlay: [],
  liveShow: null,
  restart: null,
  shardedShow: null,
  twoProcess: null,
  settlement: [],
  largeSettlement: null,
  joinStorm: [],
  roomStorm: null,
  joinStream: null,
  readPath: [],
  baseline: [],
  tournamentSocketFanout: [],
  serverCpu: {},
  hubFanout: [],
  signIn: null,
  socketCeiling: null,
  quiet: {},
  failedScenarios: [],
  cost: { perAnswer: null, perCompletion: null, perSettlement: [] },
  bundle: null,
  lighthouse: [],
  skipped: [],
  limits: [],
  failures: [],
  ok: false,
  seconds: 0,
  table: "",
};

function noteFailures(name: string, run: { errors: number; errorSamples: string[] }) {
  if (run.errors > 0) results.failures.push(`${name}: ${run.errors} errors, e.g. ${run.errorSamples.slice(0, 3).join(" | ")}`);
}

/** BENCH_ONLY=socket,live runs only the scenarios whose names contain one of the words (a partial run is reported NOT OK). */
const only = (process.env.BENCH_ONLY ?? "").split(",").filter(Boolean);
/** A scenario on a server of its own that BENCH_ONLY leaves out: recorded as skipped. */
function skippedByOnly(step: string): boolean {
  if (only.length === 0 || only.some((w) => step.includes(w))) return false;
  results.skipped.push(`${step}: not selected (BENCH_ONLY)`);
  return true;
}

/**
 * Runs a scenario only when the budget has room for it. `required`: it runs whatever BENCH_ONLY
 * selects (the settlement that ends a tournament whose scores a selected scenario compares).
 */
async function step<T>(name: string, needsMs: number, fn: () => Promise<T>, required = false): Promise<T | null> {
  if (!required && only.length > 0 && !only.some((w) => name.includes(w))) {
    results.skipped.push(`${name}: not selected (BENCH_ONLY)`);
    return null;
  }
  if (remaining() < needsMs) {
    results.skipped.push(
      `${name}: skipped, ${Math.round(remaining() / 1000)} s of the budget left (needs ~${Math.round(needsMs / 1000)} s)`,
    );
    log(`skip ${name}`);
    return null;
  }
  log(name);
  const fdsBefore = procs.worker ? openFds(procs.worker.pid) : 0;
  let out: T | null = null;
  try {
    out = await fn();
  } catch (e) {
    // Reported, and the run goes on: one broken scenario must not hide the others' figures.
    results.failures.push(`${name}: ${(e as Error).stack ?? e}`);
    results.failedScenarios.push({ name, error: (e as Error).message ?? String(e) });
    log(`${name} FAILED: ${(e as Error).message}`);
  }
  // A restarted workerd would make every later figure meaningless: stop here.
  if (procs.worker && !alive(procs.worker.pid)) throw new Error(`the Worker's workerd process ended during "${name}"`);
  if (procs.worker) {
    // The sockets this scenario closed are released, and their close handlers have run, before the next one starts.
    const q = await waitForQuiet(procs.worker.pid, fdsBefore);
    results.quiet[name] = q;
    if (q.seconds > 2)
      log(`  settled in ${q.seconds} s: descriptors ${q.fdsBefore} -> ${q.fdsAfter} (before the scenario ${q.fdsBaseline})`);
    if (!q.settled)
      results.limits.push(
        `after "${name}": the Worker still held ${q.fdsAfter} descriptors (${q.fdsBaseline} before it) and used ${q.cpuShareAtEnd} of a core after ${q.seconds} s`,
      );
  }
  return out;
}

let procs: ServerProcesses = { worker: null, proxyPid: null };

/** Runs `fn` and books the Worker's workerd CPU time under `key` (per operation when given). */
async function metered<T>(key: string, fn: () => Promise<T>, operations?: (r: T) => number): Promise<T> {
  const before = cpuSeconds(procs.worker?.pid);
  const r = await fn();
  const used = cpuSeconds(procs.worker?.pid) - before;
  const ops = operations?.(r);
  results.serverCpu[key] = {
    workerdSeconds: round(used, 2),
    ...(ops ? { operations: ops, perOperationMs: round((used * 1000) / ops, 2) } : {}),
  };
  return r;
}

/** The page as a visitor's browser gets it: its scripts, then Lighthouse, on a demo-seeded server of the build. */
async function pageScenarios() {
  if (!PAGE_STEPS.some((name) => only.length === 0 || only.some((w) => name.includes(w)))) {
    for (const name of PAGE_STEPS) results.skipped.push(`${name}: not selected (BENCH_ONLY)`);
    return;
  }
  const started = now();
  rmSync(PAGE_PERSIST, { recursive: true, force: true });
  log(`starting the page scenarios' wrangler dev on 127.0.0.1:${PAGE_PORT} (demo seed, fresh ${PAGE_PERSIST})`);
  const pageServer = await startDevServer({
    port: PAGE_PORT,
    persistTo: PAGE_PERSIST,
    demo: true,
    build: false,
    quiet: process.env.BENCH_VERBOSE !== "1",
    devArgs: ["--config", `${BUILD}/wrangler.toml`, `${BUILD}/worker/entry.js`, "--no-bundle", "--assets", `${BUILD}/web`],
  });
  cleanups.push(() => pageServer.stop());
  const base = `http://localhost:${PAGE_PORT}`;
  try {
    await step(PAGE_STEPS[0], 30_000, async () => {
      const run = await homePageScripts(base);
      results.bundle = run;
      if (run.consoleErrors.length) results.failures.push(`home page: console errors: ${run.consoleErrors.slice(0, 3).join(" | ")}`);
      log(`  ${kb(run.jsGzipBytes)} KB gzip in ${run.scripts.length} scripts; CSS ${kb(run.cssGzipBytes)} KB gzip`);
    });
    await step(PAGE_STEPS[1], 60_000 * LIGHTHOUSE_RUNS, async () => {
      results.lighthouse = await lighthousePages(base, LIGHTHOUSE_PATHS, LIGHTHOUSE_RUNS);
      for (const p of results.lighthouse)
        log(
          `  ${p.path}: ${p.scores.performance}/${p.scores.accessibility}/${p.scores.bestPractices}/${p.scores.seo}, LCP ${p.metrics.lcpMs} ms, TBT ${p.metrics.tbtMs} ms, CLS ${p.metrics.cls}${p.failing.length ? `; failing ${p.failing.join(", ")}` : ""}`,
        );
    });
  } finally {
    await pageServer.stop();
    pageMs += now() - started;
    hardStop.refresh();
  }
}

/** A live show through a SIGKILL of its server and a restart on the same state (bench/scenarios/restart.ts). */
async function restartScenario() {
  if (skippedByOnly(RESTART.step)) return;
  const started = now();
  rmSync(RESTART.persist, { recursive: true, force: true });
  log(`starting the restart scenario's wrangler dev on 127.0.0.1:${RESTART.port} (fresh ${RESTART.persist}, its own process group)`);
  const options = {
    port: RESTART.port,
    persistTo: RESTART.persist,
    demo: false,
    build: false,
    quiet: process.env.BENCH_VERBOSE !== "1",
    vars: VARS,
    devArgs: ["--config", `${BUILD}/wrangler.toml`, `${BUILD}/worker/entry.js`, "--no-bundle", "--assets", `${BUILD}/web`],
    ownProcessGroup: true,
    localTraces: LOCAL_TRACES,
  };
  let restartServer = await startDevServer(options);
  cleanups.push(() => restartServer.kill());
  const http = new HttpClient(RESTART.port, 16);
  const fx = new Fixtures(http);
  try {
    await step(RESTART.step, 150_000, async () => {
      const players = await directPlayers(fx, RESTART.sockets, "r");
      // Time to open every socket before the start.
      const startAt = Date.now() + 15_000;
      const t = await fx.tournament({
        title: `Bench Restart Show ${RESTART.sockets}`,
        status: "upcoming",
        format: "live_show",
        questions: RESTART.questions,
        startTime: startAt,
        prizePoolCents: RESTART.prizePoolCents,
      });
      await fx.seat(t.id, players);
      log(
        `  ${RESTART.sockets} players, ${RESTART.questions} questions, seed ${RESTART.seed} (BENCH_RESTART_SEED=${RESTART.seed} repeats it)`,
      );
      const run = await restartShow(
        { base: `ws://127.0.0.1:${RESTART.port}`, origin: `http://127.0.0.1:${RESTART.port}` },
        fx,
        {
          kill: () => restartServer.kill(),
          start: async () => {
            restartServer = await startDevServer({ ...options, prepared: true });
          },
        },
        t,
        players,
        { startAt, questions: RESTART.questions, seed: RESTART.seed, prizePoolCents: RESTART.prizePoolCents, log },
      );
      results.restart = run;
      noteFailures("restart", run);
      if (run.answersLost) results.failures.push(`restart: ${run.answersLost} acknowledged answers are not in the final results`);
      if (run.questionsMissedByPresentPlayers)
        results.failures.push(
          `restart: ${run.questionsMissedByPresentPlayers} questions missed by players who were connected between their moment to answer and the close`,
        );
      if (run.revealsEarly) results.failures.push(`restart: ${run.revealsEarly} reveals arrived before the window closed`);
      if (run.scoreMismatches || run.rankMismatches)
        results.failures.push(
          `restart: ${run.scoreMismatches} scores and ${run.rankMismatches} ranks differ from a re-rank of the acknowledged answers`,
        );
      if (!run.prizesToTheCent) results.failures.push("restart: the prizes are not the re-ranked top three's shares to the cent");
      log(
        `  down ${run.downMs} ms; sockets back ${run.reconnectFromKillMs.first} / ${run.reconnectFromKillMs.median} / ${run.reconnectFromKillMs.last} ms after the kill (${run.socketsBack}/${run.sockets}; ${run.failedAttempts} refused attempts, at most ${run.mostAttemptsBySocket} by one socket); ${run.answersAcknowledged} answers acknowledged, ${run.answersLost} lost, ${run.answersResent} resent; missed by present players ${run.questionsMissedByPresentPlayers}; reveals early ${run.revealsEarly}; scores off ${run.scoreMismatches}, ranks off ${run.rankMismatches}; prizes to the cent ${run.prizesToTheCent}; errors ${run.errors}`,
      );
    });
  } finally {
    await restartServer.kill();
    http.close();
    pageMs += now() - started;
    hardStop.refresh();
  }
}

/** A live show on a coordinator and 8 play shards (bench/scenarios/sharded-show.ts). */
async function shardedScenario() {
  if (skippedByOnly(SHARDED.step)) return;
  const started = now();
  rmSync(SHARDED.persist, { recursive: true, force: true });
  const shardSize = Math.ceil(SHARDED.sockets / SHARDED.shards);
  log(
    `starting the sharded show's wrangler dev on 127.0.0.1:${SHARDED.port} (fresh ${SHARDED.persist}, TOURNAMENT_SHARD_SIZE ${shardSize})`,
  );
  const shardServer = await startDevServer({
    port: SHARDED.port,
    persistTo: SHARDED.persist,
    demo: false,
    build: false,
    quiet: process.env.BENCH_VERBOSE !== "1",
    vars: { ...VARS, TOURNAMENT_SHARD_SIZE: String(shardSize) },
    localTraces: LOCAL_TRACES,
    devArgs: ["--config", `${BUILD}/wrangler.toml`, `${BUILD}/worker/entry.js`, "--no-bundle", "--assets", `${BUILD}/web`],
  });
  cleanups.push(() => shardServer.stop());
  const shardProcs = await findServerProcesses(shardServer.process.pid!, SHARDED.port);
  if (!shardProcs.worker) throw new Error("could not find the workerd process that runs the sharded show's Worker");
  const port = shardProcs.worker.port;
  const http = new HttpClient(port, 16);
  const fx = new Fixtures(http);
  try {
    const ceiling = connectionHeadroom(shardProcs.worker.pid).connections - 10;
    const sockets = Math.min(SHARDED.sockets, ceiling);
    if (sockets < SHARDED.sockets)
      results.limits.push(`sharded show: ${sockets} of ${SHARDED.sockets} sockets (the Worker's open-files limit)`);
    if (process.env.BENCH_SHARD_SOCKETS)
      results.limits.push(`sharded show: ${SHARDED.sockets} sockets asked for by BENCH_SHARD_SOCKETS (4,000 by default)`);
    await step(SHARDED.step, 180_000, async () => {
      const [spectator, ...players] = (await directPlayers(fx, sockets + 1, "s")) as [Player, ...Player[]];
      const n = shardCount("live_show", sockets, shardSize);
      if (n !== SHARDED.shards) throw new Error(`${sockets} seats at ${shardSize} a shard make ${n} shards, not ${SHARDED.shards}`);
      const placeOf = (p: Player) => shardOf(p.id, null, n);
      // Time to open every socket before the start (about 100 handshakes/s on this machine, with room to spare).
      const startAt = Date.now() + Math.round((sockets / 70) * 1000) + 10_000;
      const t = await fx.tournament({
        title: `Bench Sharded Show ${sockets}`,
        status: "upcoming",
        format: "live_show",
        questions: SHARDED.questions,
        startTime: startAt,
        maxParticipants: sockets,
        prizePoolCents: SHARDED.prizePoolCents,
        shardCount: n,
      });
      await fx.seat(t.id, players, placeOf);
      log(`  ${sockets} players over ${n} shards, ${SHARDED.questions} questions`);
      const cpu0 = cpuSeconds(shardProcs.worker!.pid);
      const run = await shardedShow({ base: `ws://127.0.0.1:${port}`, origin: `http://127.0.0.1:${port}` }, fx, t, players, {
        shardOf: placeOf,
        shards: n,
        spectator,
        startAt,
        questions: SHARDED.questions,
        prizePoolCents: SHARDED.prizePoolCents,
      });
      // The one process's CPU over the show, beside the two-process row's per process.
      results.serverCpu["sharded show"] = { workerdSeconds: round(cpuSeconds(shardProcs.worker!.pid) - cpu0, 2) };
      results.shardedShow = run;
      noteShardedFailures("sharded show", run);
      log(
        `  ${run.sockets} sockets (${run.socketsPerShard.join("/")} a shard) in ${run.connectSeconds} s; workerd CPU over the show ${results.serverCpu["sharded show"].workerdSeconds} s; push p50 ${run.pushLatencyMs.p50} p99 ${run.pushLatencyMs.p99} ms, to the last socket ${run.pushOverall.map((x) => x.lastMs).join("/")} ms; per shard first-last ${run.pushPerShard.map((q) => q.map((x) => `${x.firstMs}-${x.lastMs}`).join(" ")).join(" | ")} ms; answer p99 ${run.answerLatencyMs.p99} ms; merged board after the close median/last ${run.boardAfterCloseMs.map((b) => `${b.medianMs}/${b.lastMs}`).join(", ")} ms; reveals early ${run.revealsEarly}; scores off ${run.scoreMismatches}, ranks off ${run.rankMismatches}; prizes to the cent ${run.prizesToTheCent}; errors ${run.errors}`,
      );
    });
  } finally {
    await shardServer.stop();
    http.close();
    pageMs += now() - started;
    hardStop.refresh();
  }
}

/** The sharded show's checks, as failures of the run (the one-process and the two-process rows). */
function noteShardedFailures(label: string, run: ShardedShowRun) {
  noteFailures(label, run);
  if (run.missedQuestions) results.failures.push(`${label}: ${run.missedQuestions} question pushes never arrived`);
  if (run.issuedAtDisagreements)
    results.failures.push(`${label}: ${run.issuedAtDisagreements} pushes with another issuedAt than other shards'`);
  if (run.revealsEarly) results.failures.push(`${label}: ${run.revealsEarly} reveals arrived before the window closed`);
  if (!run.ended || run.scoreMismatches || run.rankMismatches)
    results.failures.push(
      `${label}: ${run.ended ? `${run.scoreMismatches} scores and ${run.rankMismatches} ranks differ from a single-room re-rank of the answers` : "the show did not settle"}`,
    );
  if (!run.prizesToTheCent) results.failures.push(`${label}: the prizes are not the re-ranked top three's shares to the cent`);
}

/** The sharded show over two workerd processes: the show's figures and what each process carried. */
interface TwoProcessRun extends ShardedShowRun {
  /** Per session (A: coordinator and even shards; B: odd shards): its Worker workerd's pid, CPU over the show, most descriptors, player sockets. */
  processes: { session: "A" | "B"; pid: number; cpuSeconds: number; maxFds: number; fdsBefore: number; playerSockets: number }[];
  showSeconds: number;
  /** The name an odd shard of an unused tournament sees when session A makes it through the dev registry (null: the registry carries no name). */
  nameThroughRegistry: string | null;
}

/**
 * Writes the two sessions' configs: the build's wrangler.toml with a name of its own (the dev
 * registry finds a session by its Worker's name, and every other local session is "trivia-arena")
 * and the other session's TournamentRoom bound as BENCH_OTHER_ROOMS.
 */
function twoProcessConfigs(): [string, string] {
  const base = readFileSync(`${BUILD}/wrangler.toml`, "utf8");
  const [a, b] = TWOPROC.names;
  const config = (name: string, other: string) => {
    const path = `${BUILD}/wrangler.${name}.toml`;
    const named = base.replace(/^name = ".*"$/m, `name = "${name}"`);
    if (named === base) throw new Error("wrangler.toml has no top-level name line to replace");
    writeFileSync(
      path,
      `${named}\n# The other session's rooms (bench/worker/split-rooms.ts).\n[[durable_objects.bindings]]\nname = "BENCH_OTHER_ROOMS"\nclass_name = "TournamentRoom"\nscript_name = "${other}"\n`,
    );
    return path;
  };
  return [config(a, b), config(b, a)];
}

/** The sharded show with its odd shards in a second workerd process (bench/worker/split-rooms.ts). */
async function twoProcessScenario() {
  if (skippedByOnly(TWOPROC.step)) return;
  const started = now();
  rmSync(TWOPROC.persist, { recursive: true, force: true });
  rmSync(TWOPROC.registry, { recursive: true, force: true });
  const shardSize = Math.ceil(SHARDED.sockets / SHARDED.shards);
  const [configA, configB] = twoProcessConfigs();
  const portB = TWOPROC.port - 1;
  const common = {
    persistTo: TWOPROC.persist,
    demo: false,
    build: false,
    quiet: process.env.BENCH_VERBOSE !== "1",
    env: { WRANGLER_REGISTRY_PATH: resolve(TWOPROC.registry) },
    localTraces: LOCAL_TRACES,
  };
  const devArgs = (config: string) => ["--config", config, `${BUILD}/worker/entry.js`, "--no-bundle", "--assets", `${BUILD}/web`];
  log(`starting the two-process show's sessions on 127.0.0.1:${TWOPROC.port} (A) and ${portB} (B) (fresh ${TWOPROC.persist})`);
  const serverA = await startDevServer({
    ...common,
    port: TWOPROC.port,
    vars: { ...VARS, TOURNAMENT_SHARD_SIZE: String(shardSize), BENCH_ODD_SHARDS_HERE: "0" },
    devArgs: devArgs(configA),
  });
  cleanups.push(() => serverA.stop());
  // B opens the database A migrated and seeded; the cron is A's alone.
  const serverB = await startDevServer({
    ...common,
    port: portB,
    prepared: true,
    schedule: false,
    vars: { ...VARS, TOURNAMENT_SHARD_SIZE: String(shardSize), BENCH_ODD_SHARDS_HERE: "1" },
    devArgs: devArgs(configB),
  });
  cleanups.push(() => serverB.stop());
  const procsA = await findServerProcesses(serverA.process.pid!, TWOPROC.port);
  const procsB = await findServerProcesses(serverB.process.pid!, portB);
  if (!procsA.worker || !procsB.worker) throw new Error("could not find the workerd processes that run the two sessions' Worker");
  const a = procsA.worker;
  const b = procsB.worker;
  const http = new HttpClient(a.port, 16);
  const httpB = new HttpClient(b.port, 4);
  const fx = new Fixtures(http);
  let sampler: NodeJS.Timeout | undefined;
  try {
    const ceiling = 2 * Math.min(connectionHeadroom(a.pid).connections, connectionHeadroom(b.pid).connections) - 10;
    const sockets = Math.min(SHARDED.sockets, ceiling);
    if (sockets < SHARDED.sockets) results.limits.push(`two processes: ${sockets} of ${SHARDED.sockets} sockets (the open-files limit)`);
    await step(TWOPROC.step, 180_000, async () => {
      const [spectator, ...players] = (await directPlayers(fx, sockets + 1, "w")) as [Player, ...Player[]];
      const n = shardCount("live_show", sockets, shardSize);
      if (n !== SHARDED.shards) throw new Error(`${sockets} seats at ${shardSize} a shard make ${n} shards, not ${SHARDED.shards}`);
      const placeOf = (p: Player) => shardOf(p.id, null, n);
      const startAt = Date.now() + Math.round((sockets / 70) * 1000) + 10_000;
      const t = await fx.tournament({
        title: `Bench Two-Process Show ${sockets}`,
        status: "upcoming",
        format: "live_show",
        questions: SHARDED.questions,
        startTime: startAt,
        maxParticipants: sockets,
        prizePoolCents: SHARDED.prizePoolCents,
        shardCount: n,
      });
      // What a shard that A's coordinator reaches first through the registry knows of itself (an
      // unused tournament's shard 1, so that this show's shards are not made that way).
      const probe = await http.request<{ names: (string | null)[] }>("POST", "/api/__bench/wake-shards", {
        body: { tournamentId: t.id + 1_000_000, shards: n, only: 1 },
      });
      if (probe.status !== 200) throw new Error(`the registry probe answered ${probe.status} ${probe.text.slice(0, 200)}`);
      const nameThroughRegistry = probe.json.names[0] ?? null;
      log(`  a shard made through the dev registry sees its name as ${JSON.stringify(nameThroughRegistry)}`);
      // B's shards made by name before the coordinator reaches them through the registry (by id alone).
      const woke = await httpB.request<{ names: (string | null)[] }>("POST", "/api/__bench/wake-shards", {
        body: { tournamentId: t.id, shards: n },
      });
      const expected = Array.from({ length: n }, (_, k) => k)
        .filter((k) => k % 2 === 1)
        .map((k) => `${t.id}:shard:${k}`);
      if (woke.status !== 200 || JSON.stringify(woke.json.names) !== JSON.stringify(expected))
        throw new Error(`session B woke its shards as ${woke.status} ${woke.text.slice(0, 200)}, not ${expected.join(", ")}`);
      await fx.seat(t.id, players, placeOf);
      const inB = (p: Player) => placeOf(p) % 2 === 1;
      log(`  ${sockets} players over ${n} shards (${players.filter(inB).length} on B's odd shards), ${SHARDED.questions} questions`);
      const at = (port: number): SocketTarget => ({ base: `ws://127.0.0.1:${port}`, origin: `http://127.0.0.1:${port}` });
      const fdsBefore = [openFds(a.pid), openFds(b.pid)];
      const maxFds = [...fdsBefore];
      sampler = setInterval(() => {
        maxFds[0] = Math.max(maxFds[0]!, openFds(a.pid));
        maxFds[1] = Math.max(maxFds[1]!, openFds(b.pid));
      }, 1000);
      const cpu0 = [cpuSeconds(a.pid), cpuSeconds(b.pid)];
      const showStarted = now();
      const run = await shardedShow(at(a.port), fx, t, players, {
        shardOf: placeOf,
        shards: n,
        spectator,
        startAt,
        questions: SHARDED.questions,
        prizePoolCents: SHARDED.prizePoolCents,
        playerTarget: (p) => at(inB(p) ? b.port : a.port),
      });
      clearInterval(sampler);
      const cpu = [cpuSeconds(a.pid) - cpu0[0]!, cpuSeconds(b.pid) - cpu0[1]!];
      const playerSockets = [players.filter((p) => !inB(p)).length, players.length - players.filter((p) => !inB(p)).length];
      const two: TwoProcessRun = {
        ...run,
        showSeconds: round((now() - showStarted) / 1000, 1),
        nameThroughRegistry,
        processes: (["A", "B"] as const).map((session, i) => ({
          session,
          pid: [a.pid, b.pid][i]!,
          cpuSeconds: round(cpu[i]!, 2),
          maxFds: maxFds[i]!,
          fdsBefore: fdsBefore[i]!,
          playerSockets: playerSockets[i]!,
        })),
      };
      results.twoProcess = two;
      noteShardedFailures("two processes", two);
      // Both processes must have carried their players' sockets (two descriptors each in workerd).
      for (const p of two.processes)
        if (p.maxFds - p.fdsBefore < p.playerSockets)
          results.failures.push(
            `two processes: session ${p.session} held at most ${p.maxFds - p.fdsBefore} more descriptors, fewer than its ${p.playerSockets} player sockets`,
          );
      log(
        `  ${two.sockets} sockets in ${two.connectSeconds} s; ${two.processes.map((p) => `${p.session}: ${p.playerSockets} players, +${p.maxFds - p.fdsBefore} fds, ${p.cpuSeconds} s CPU`).join("; ")}; push p50 ${two.pushLatencyMs.p50} p99 ${two.pushLatencyMs.p99} ms, to the last socket ${two.pushOverall.map((x) => x.lastMs).join("/")} ms; per shard first-last ${two.pushPerShard.map((q) => q.map((x) => `${x.firstMs}-${x.lastMs}`).join(" ")).join(" | ")} ms; answer p99 ${two.answerLatencyMs.p99} ms; merged board after the close median/last ${two.boardAfterCloseMs.map((x) => `${x.medianMs}/${x.lastMs}`).join(", ")} ms; reveals early ${two.revealsEarly}; scores off ${two.scoreMismatches}, ranks off ${two.rankMismatches}; prizes to the cent ${two.prizesToTheCent}; errors ${two.errors}`,
      );
    });
  } finally {
    if (sampler) clearInterval(sampler);
    await Promise.all([serverB.stop(), serverA.stop()]);
    http.close();
    httpB.close();
    pageMs += now() - started;
    hardStop.refresh();
  }
}

async function main() {
  rmSync(PERSIST, { recursive: true, force: true });
  rmSync(BUILD, { recursive: true, force: true });
  log(`building the Worker (bench/worker/entry.ts) and the web app into ${BUILD}`);
  // vite's root is web/, so the output directory is given absolute.
  run("vite", ["build", "--outDir", resolve(BUILD, "web"), "--emptyOutDir", "--logLevel", "warn"]);
  run("wrangler", ["deploy", "bench/worker/entry.ts", "--dry-run", "--outdir", `${BUILD}/worker`, "--assets", `${BUILD}/web`], {
    quiet: true,
  });
  ensureDevVars();
  copyFileSync("wrangler.toml", `${BUILD}/wrangler.toml`);
  copyFileSync(".dev.vars", `${BUILD}/.dev.vars`);
  await pageScenarios();
  await restartScenario();
  await shardedScenario();
  await twoProcessScenario();
  // Only scenarios on servers of their own selected: the load scenarios' server (and its 10,000 players) is not needed.
  if (only.length > 0 && only.every((w) => OWN_SERVER_STEPS.some((name) => name.includes(w)))) {
    results.skipped.push("the load scenarios: not selected (BENCH_ONLY)");
    return;
  }
  log(`starting wrangler dev on 127.0.0.1:${PORT} (fresh ${PERSIST})`);
  server = await startDevServer({
    port: PORT,
    persistTo: PERSIST,
    demo: false,
    build: false,
    // BENCH_VERBOSE=1 shows wrangler's own output (errors logged by the Worker among them).
    quiet: process.env.BENCH_VERBOSE !== "1",
    vars: VARS,
    localTraces: LOCAL_TRACES,
    devArgs: ["--config", `${BUILD}/wrangler.toml`, `${BUILD}/worker/entry.js`, "--no-bundle", "--assets", `${BUILD}/web`],
  });
  results.setup.serverStartSeconds = round(elapsed() / 1000, 1);
  results.setup.commit = run("git", ["rev-parse", "--short", "HEAD"], { quiet: true }).trim();
  results.setup.localTraces = LOCAL_TRACES;
  results.setup.uncommittedFilesInCheckout = run("git", ["status", "--porcelain"], { quiet: true }).split("\n").filter(Boolean).length;

  procs = await findServerProcesses(server.process.pid!, PORT);
  if (!procs.worker) throw new Error("could not find the workerd process that runs the Worker");
  const port = procs.worker.port;
  results.setup.address = `127.0.0.1:${port} (the Worker's workerd; wrangler's proxy listens on ${PORT})`;
  const http = new HttpClient(port, LANES);
  cleanups.push(() => http.close());
  const fx = new Fixtures(http);
  const target: SocketTarget = { base: `ws://127.0.0.1:${port}`, origin: `http://127.0.0.1:${port}` };

  log(`registering ${USERS} players through POST /api/register`);
  const reg = await metered(
    "register",
    () => registerPlayers(http, USERS, LANES, "p"),
    (r) => r.players.length,
  );
  results.setup.players = reg.players.length;
  results.setup.registerSeconds = round(reg.ms / 1000, 1);
  results.setup.registerPerSecond = round(reg.players.length / (reg.ms / 1000), 0);
  if (reg.errors.length) results.failures.push(`register: ${reg.errors.length} errors, e.g. ${reg.errors.slice(0, 3).join(" | ")}`);
  if (reg.players.length < USERS) throw new Error(`only ${reg.players.length} of ${USERS} players registered`);
  log(`writing ${PLAYERS - USERS} more players with sessions to D1`);
  const players: Player[] = [...reg.players, ...(await directPlayers(fx, PLAYERS - USERS, "d"))];

  // The Worker's fixed cost per request in local workerd, to read the figures below against:
  // a 404 under /api (routing, middleware, no D1) and /api/health (one D1 statement).
  await step("baseline", 10_000, async () => {
    for (const [key, path, status, label] of [
      ["baseline 404", "/api/bench-no-such-route", 404, "GET /api/<unknown> (404: routing and middleware only)"],
      ["baseline health", "/api/health", 200, "GET /api/health (one D1 statement)"],
    ] as const) {
      const r = await metered(
        key,
        () => readPath(http, fx, path, { lanes: LANES, durationMs: BASELINE_MS, label, status, check: () => true }),
        (x) => x.requests,
      );
      results.baseline.push(r);
      noteFailures(key, r);
      log(`  ${label}: ${r.requestsPerSecond} req/s, ${results.serverCpu[key]?.perOperationMs} ms CPU each`);
    }
  });

  // 3. Join storms (paid): deposits first, through the sandbox card flow.
  await step("join storm", 60_000, async () => {
    // Each storm has its own players, each with the same fresh deposit.
    const stormers = players.slice(
      0,
      STORMS.reduce((n, s) => n + s.players, 0),
    );
    const poor = new Set(stormers.filter((_, i) => i % POOR_EVERY === POOR_EVERY - 1).map((p) => p.id));
    const payers = stormers.filter((p) => !poor.has(p.id));
    const dep = await deposit(http, payers, DEPOSIT_DOLLARS, LANES);
    results.setup.depositedPlayers = payers.length;
    results.setup.stormPlayersWithoutMoney = poor.size;
    results.setup.depositSeconds = round(dep.ms / 1000, 1);
    if (dep.errors.length) results.failures.push(`deposit: ${dep.errors.length} errors, e.g. ${dep.errors.slice(0, 3).join(" | ")}`);
    let offset = 0;
    for (const s of STORMS) {
      const group = stormers.slice(offset, (offset += s.players));
      const run = await metered(
        `join storm ${s.players}`,
        () =>
          joinStorm(port, fx, group, {
            capacity: s.capacity,
            feeCents: ENTRY_FEE_CENTS,
            balanceCents: DEPOSIT_DOLLARS * 100,
            title: s.title,
            poor: new Set(group.filter((p) => poor.has(p.id)).map((p) => p.id)),
          }),
        (r) => r.seated,
      );
      results.joinStorm.push(run);
      noteFailures(`join storm ${s.players}`, run);
      log(
        `  ${s.players} players (${run.poor} without money) x2 presses, capacity ${s.capacity}: ${run.seated} seated in ${run.secondsToSeatAll} s, ${run.charged} charged, p99 ${run.joinLatencyMs.p99} ms, errors ${run.errors}; the same presses to GET /api/session: ${run.floor.seconds} s, p99 ${run.floor.latencyMs.p99} ms`,
      );
    }
  });

  await step("join storm, the room alone", 30_000, async () => {
    // Players of their own, after the storms' and the stream's.
    const first = STORMS.reduce((n, s) => n + s.players, 0) + JOIN_STREAM.players;
    const group = players.slice(first, first + ROOM_STORM.players);
    const poor = new Set(group.filter((_, i) => i % POOR_EVERY === POOR_EVERY - 1).map((p) => p.id));
    await fundDirectly(
      fx,
      group.filter((p) => !poor.has(p.id)),
      DEPOSIT_DOLLARS * 100,
      "room-storm",
    );
    const run = await metered(
      "room storm",
      () =>
        roomJoinStorm(fx, group, {
          capacity: ROOM_STORM.capacity,
          feeCents: ENTRY_FEE_CENTS,
          balanceCents: DEPOSIT_DOLLARS * 100,
          title: ROOM_STORM.title,
          poor,
        }),
      (r) => r.seated,
    );
    results.roomStorm = run;
    noteFailures("room storm", run);
    log(
      `  ${run.players} players x2 presses straight to the room: ${run.seated} seated, all answered in ${run.secondsToAnswerAll} s, p99 ${run.latencyMs.p99} ms, errors ${run.errors}`,
    );
  });

  await step("join stream", 60_000, async () => {
    // Players of their own: none of them took part in a storm.
    const streamers = players.slice(STORMS.reduce((n, s) => n + s.players, 0)).slice(0, JOIN_STREAM.players);
    await fundDirectly(fx, streamers, DEPOSIT_DOLLARS * 100, "stream");
    const run = await metered(
      "join stream",
      () => joinStream(port, fx, streamers, { ratePerSecond: JOIN_STREAM.rate, feeCents: ENTRY_FEE_CENTS, title: JOIN_STREAM.title }),
      (r) => r.seated,
    );
    results.joinStream = run;
    noteFailures("join stream", run);
    log(
      `  ${run.players} joins at ${run.ratePerSecond}/s: ${run.seated} seated, ${run.charged} charged, p50 ${run.joinLatencyMs.p50} p99 ${run.joinLatencyMs.p99} ms, errors ${run.errors}; the same schedule to GET /api/session: p50 ${run.floor.latencyMs.p50} p99 ${run.floor.latencyMs.p99} ms`,
    );
  });

  // workerd holds two descriptors per connection and the hard limit of open files here is 20,000
  // (not raisable in this container), so socket counts are bounded by what it can still open.
  // A measured property of this machine, not a target missed: stated once, with the figure.
  const ceiling = connectionHeadroom(procs.worker.pid);
  results.socketCeiling = { openFilesLimit: ceiling.limit, openAtStart: ceiling.open, sockets: ceiling.connections };
  results.limits.push(
    `socket ceiling (measured): the Worker's workerd may open ${ceiling.limit} files (hard limit, not raisable here), held ${ceiling.open} at the start and holds two per connection, so about ${n0(ceiling.connections)} sockets at once; the 10,000-socket scenarios run at what is left of it`,
  );
  const bounded = (wanted: number, what: string) => {
    const room = connectionHeadroom(procs.worker!.pid);
    if (wanted <= room.connections) return wanted;
    const n = Math.floor(room.connections / 100) * 100;
    results.limits.push(`${what}: ${n} sockets (the ceiling above; ${room.open} descriptors open at its start)`);
    return n;
  };

  await step(`sign-in, ${SIGN_IN_LANES} concurrent`, 90_000, async () => {
    const run = await metered(
      "sign-in",
      () => signIn(http, fx, { logins: SIGN_IN_LOGINS, lanes: SIGN_IN_LANES }),
      (r) => r.logins,
    );
    results.signIn = run;
    noteFailures("sign-in", run);
    if (run.succeeded !== run.logins) results.failures.push(`sign-in: ${run.logins - run.succeeded} of ${run.logins} logins failed`);
    log(
      `  ${run.logins} logins (${run.scrypt}) in ${run.seconds} s = ${run.loginsPerSecond}/s; p50 ${run.latencyMs.p50} p99 ${run.latencyMs.p99} ms; ${run.succeeded} succeeded`,
    );
  });

  // 1. The HTTP answer path (100 players, for comparison), and its settlement.
  const answerStates = new Map<number, { t: Awaited<ReturnType<Fixtures["tournament"]>>; states: PlayState[] }>();
  await step(`HTTP answer path, ${HTTP_ANSWER_PLAYERS} players`, 30_000, async () => {
    const p = HTTP_ANSWER_PLAYERS;
    const t = await fx.tournament({ title: `Bench Answer Path ${p}`, status: "live", prizePoolCents: HOUSE_PRIZE_CENTS });
    await fx.seat(t.id, players.slice(0, p));
    const { run, states } = await metered(
      `answer path ${p}`,
      () => answerPath(http, fx, t, players.slice(0, p), { lanes: LANES, capMs: HTTP_ANSWER_CAP_MS }),
      (r) => r.run.answers + r.run.questionsIssued,
    );
    results.answerPath.push(run);
    answerStates.set(p, { t, states });
    noteFailures(`answer path ${p}`, run);
    if (run.boardMismatches)
      results.failures.push(`answer path ${p}: ${run.boardMismatches} live board rows are not the answered count with the score withheld`);
    log(
      `  ${run.answers} answers in ${run.seconds} s = ${run.answersPerSecond}/s; live board rows off ${run.boardMismatches}; POST /answer p50 ${run.answerLatencyMs.p50} p99 ${run.answerLatencyMs.p99} ms`,
    );
  });
  // The answers were only locked in (self-paced prize play): their scores are compared once the
  // settlement has ended the tournament, so it runs whenever the answer path did.
  const answerRun = results.answerPath.find((a) => a.players === HTTP_ANSWER_PLAYERS);
  if (answerStates.has(HTTP_ANSWER_PLAYERS) && answerRun) {
    await step(
      `settlement, ${HTTP_ANSWER_PLAYERS} players`,
      15_000,
      async () => {
        const { t, states } = answerStates.get(HTTP_ANSWER_PLAYERS)!;
        const run = await completeAndSettle(http, fx, t, states, { lanes: LANES, prizePoolCents: HOUSE_PRIZE_CENTS });
        results.settlement.push(run);
        noteFailures(`settlement ${HTTP_ANSWER_PLAYERS}`, run);
        answerRun.scoreMismatches = run.scoreMismatches;
        answerRun.playersChecked = states.length;
        if (run.scoreMismatches)
          results.failures.push(`answer path ${HTTP_ANSWER_PLAYERS}: ${run.scoreMismatches} settled scores differ from the harness's sums`);
        log(`  settled; last completion ${run.settleRequestMs} ms; checks ${JSON.stringify(run.checks)}`);
      },
      true,
    );
  }

  // 2. The socket answer path, open loop: 1,000 players in one room at the target rate (kept
  // live for the read path, then settled), and later a 10,000-player room.
  const socketRoom = (o: (typeof SOCKET_ROOMS)[number]) =>
    step(`socket answer path, ${o.players} players at ${o.rate}/s`, o.capMs / 2, async () => {
      const t = await fx.tournament({ title: `Bench Socket Play ${o.players} at ${o.rate}/s`, status: "live" });
      await fx.seat(t.id, players.slice(0, o.players));
      const wave = Math.min(o.wave, bounded(o.wave, `socket answer path ${o.players}`));
      const { run, states } = await metered(
        `socket play ${o.players} at ${o.rate}`,
        () =>
          socketPlay(target, fx, t, players.slice(0, o.players), {
            rate: o.rate,
            wave,
            capMs: o.capMs,
            complete: o.complete,
            cpuSeconds: () => cpuSeconds(procs.worker?.pid),
          }),
        (r) => r.run.answers,
      );
      results.socketPlay.push(run);
      // The first 1,000-player room stays live for the read path, then is settled.
      if (!answerStates.has(o.players)) answerStates.set(o.players, { t, states });
      noteFailures(`socket answer path ${o.players}`, run);
      if (run.boardMismatches)
        results.failures.push(
          `socket answer path ${o.players} at ${o.rate}/s: ${run.boardMismatches} live board rows are not the answered count with the score withheld`,
        );
      if (run.scoreMismatches)
        results.failures.push(
          `socket answer path ${o.players} at ${o.rate}/s: ${run.scoreMismatches} scores differ from the harness's sums`,
        );
      if (o.complete && !run.scoresChecked)
        results.failures.push(`socket answer path ${o.players} at ${o.rate}/s: the tournament did not end, its scores were not compared`);
      if (run.timeCapped)
        results.limits.push(
          `socket answer path ${o.players}: stopped by its time cap after ${run.answers} of ${run.answersPlanned} answers`,
        );
      log(
        `  ${run.answers}/${run.answersPlanned} answers at ${run.answersPerSecond}/s (target ${run.targetAnswersPerSecond}); p50 ${run.answerLatencyMs.p50} p95 ${run.answerLatencyMs.p95} p99 ${run.answerLatencyMs.p99} ms; late sends ${run.sentLate}; errors ${run.errors}; workerd CPU while answering ${run.workerdCpu?.playMsPerAnswer} ms/answer, opening ${run.workerdCpu?.openMsPerSocket} ms/socket; live board rows off ${run.boardMismatches}; settled scores off ${run.scoresChecked ? run.scoreMismatches : "(compared at its settlement)"}; generator CPU ${run.loadGenerator.cpuShareOfOneCore} core, lag p99 ${run.loadGenerator.eventLoopLagMs.p99} ms`,
      );
    });
  await socketRoom(SOCKET_ROOMS[0]);
  await socketRoom(SOCKET_ROOMS[1]);
  const a1000 = answerStates.get(1000);

  // 4. Read path.
  await step("read path", 2 * READ_MS + PROXY_READ_MS + 10_000, async () => {
    const list = await metered(
      "read list",
      () =>
        readPath(http, fx, "/api/tournaments", {
          lanes: LANES,
          durationMs: READ_MS,
          label: "GET /api/tournaments",
          check: (j) => Array.isArray(j.items) && j.items.length > 0,
        }),
      (r) => r.requests,
    );
    results.readPath.push(list);
    noteFailures("read tournaments", list);
    log(`  list: ${list.requestsPerSecond} req/s, p99 ${list.latencyMs.p99} ms, errors ${list.errors}`);
    if (a1000) {
      const lb = await metered(
        "read leaderboard",
        () =>
          readPath(http, fx, `/api/tournaments/${a1000.t.id}/leaderboard`, {
            lanes: LANES,
            durationMs: READ_MS,
            label: "GET /api/tournaments/{id}/leaderboard (live, 1,000 players)",
            check: (j) => Array.isArray(j) && j.length === 1000,
          }),
        (r) => r.requests,
      );
      results.readPath.push(lb);
      noteFailures("read leaderboard", lb);
      log(`  leaderboard: ${lb.requestsPerSecond} req/s, p99 ${lb.latencyMs.p99} ms, errors ${lb.errors}`);
    }
    // The same list through wrangler's dev proxy on the public port, for comparison.
    const viaProxy = new HttpClient(PORT, LANES);
    try {
      const px = await readPath(viaProxy, fx, "/api/tournaments", {
        lanes: LANES,
        durationMs: PROXY_READ_MS,
        label: "GET /api/tournaments through wrangler's dev proxy",
        check: (j) => Array.isArray(j.items) && j.items.length > 0,
      });
      results.readPath.push(px);
      noteFailures("read tournaments via proxy", px);
      log(`  list via proxy: ${px.requestsPerSecond} req/s, p99 ${px.latencyMs.p99} ms, errors ${px.errors}`);
    } finally {
      viaProxy.close();
    }
  });

  // Ends the first 1,000-player room, whose answers were only locked in: its scores are compared here.
  const socketRun = results.socketPlay.find((r) => a1000 && r.tournamentId === a1000.t.id);
  if (a1000 && socketRun) {
    await step(
      "settlement, 1,000 players",
      25_000,
      async () => {
        const run = await completeAndSettle(http, fx, a1000.t, a1000.states, { lanes: LANES, prizePoolCents: 0 });
        results.settlement.push(run);
        noteFailures("settlement 1000", run);
        socketRun.scoreMismatches += run.scoreMismatches;
        socketRun.scoresChecked = true;
        if (run.scoreMismatches)
          results.failures.push(
            `socket answer path 1000 at ${socketRun.targetAnswersPerSecond}/s: ${run.scoreMismatches} settled scores differ from the harness's sums`,
          );
        log(`  settled; last completion ${run.settleRequestMs} ms; checks ${JSON.stringify(run.checks)}`);
      },
      true,
    );
  }

  // The settlement of a 10,000-player tournament, its room seeded with every answer (BENCH_ONLY="big settlement").
  await step(`big settlement, ${LARGE_SETTLEMENT.players} players`, 90_000, async () => {
    const run = await metered("big settlement", () =>
      settleLarge(http, fx, players.slice(0, LARGE_SETTLEMENT.players), {
        prizePoolCents: LARGE_SETTLEMENT.prizePoolCents,
        questions: 10,
        cpuSeconds: () => cpuSeconds(procs.worker?.pid),
      }),
    );
    results.largeSettlement = run;
    noteFailures(`big settlement ${run.players}`, run);
    log(
      `  settled ${run.players} players in ${run.settleRequestMs} ms (the completing request; workerd CPU ${run.settleCpuMs} ms); ${run.chunks} chunks; largest statement's bound values ${run.maxBoundBytes} bytes; checks ${JSON.stringify(run.checks)}`,
    );
  });

  // 2. Fan-out: a tournament's socket, then the /ws hub. workerd holds two descriptors per
  // connection and the hard limit of open files here is 20,000 (not raisable in this container),
  // so the socket count is bounded by what the Worker's process can still open.
  for (const wanted of FANOUT_SOCKETS) {
    const n = bounded(wanted, `tournament socket fan-out ${wanted}`);
    await step(`tournament socket fan-out, ${n} sockets`, n >= 5_000 ? 70_000 : 15_000, async () => {
      const t = await fx.tournament({ title: `Bench Fan-out ${n}`, status: "live" });
      await fx.seat(t.id, players.slice(0, 1));
      const run = await metered(`tournament fan-out ${n}`, () =>
        tournamentFanout(http, target, t, players[0]!, players, { sockets: n, rounds: FANOUT_ROUNDS }),
      );
      results.tournamentSocketFanout.push(run);
      noteFailures(`tournament fan-out ${n}`, run);
      log(
        `  ${run.sockets} sockets in ${run.connectSeconds} s; change to last socket p50 ${run.latencyMs.p50} p99 ${run.latencyMs.p99} max ${run.latencyMs.max} ms; spread ${run.spreadMs.join("/")} ms; errors ${run.errors}`,
      );
    });
  }
  // 5. A live show with as many sockets as the machine holds (before the hub's 10,000 sockets,
  // which take a while to give their descriptors back).
  if (LIVE_SHOW_SOCKETS_WANTED !== LIVE_SHOW_SOCKETS)
    results.limits.push(
      `live show: ${LIVE_SHOW_SOCKETS_WANTED} sockets asked for by BENCH_LIVE_SHOW_SOCKETS (${LIVE_SHOW_SOCKETS} by default)`,
    );
  const showSockets = bounded(LIVE_SHOW_SOCKETS_WANTED, "live show");
  await step(`live show, ${showSockets} sockets`, 150_000, async () => {
    // The start leaves time to connect every socket, at the rate the 1,000-socket fan-out measured.
    const fan = results.tournamentSocketFanout[0];
    const perSecond = fan && fan.connectSeconds > 0 ? fan.sockets / fan.connectSeconds : 200;
    const startAt = Date.now() + Math.round((showSockets / perSecond) * 1.4 * 1000) + 10_000;
    const t = await fx.tournament({
      title: `Bench Live Show ${showSockets}`,
      status: "upcoming",
      format: "live_show",
      questions: LIVE_SHOW_QUESTIONS,
      startTime: startAt,
    });
    await fx.seat(t.id, players.slice(0, showSockets));
    const run = await metered(`live show ${showSockets}`, () =>
      liveShow(target, fx, t, players.slice(0, showSockets), { startAt, questions: LIVE_SHOW_QUESTIONS }),
    );
    results.liveShow = run;
    noteFailures(`live show ${showSockets}`, run);
    if (run.revealsEarly) results.failures.push(`live show: ${run.revealsEarly} reveals arrived before the window closed`);
    if (run.scoreMismatches) results.failures.push(`live show: ${run.scoreMismatches} settled scores differ from the revealed points`);
    if (run.missedQuestions) results.failures.push(`live show: ${run.missedQuestions} question pushes never arrived`);
    log(
      `  ${run.sockets} sockets in ${run.connectSeconds} s; push to socket p50 ${run.pushLatencyMs.p50} p99 ${run.pushLatencyMs.p99} ms, to the last ${run.pushToLastSocketMs.join("/")} ms; first-second answers ${run.answersFirstSecond.join("/")}, peak ${run.peakAnswersPerSecond}/s; answer p99 ${run.answerLatencyMs.p99} ms; errors ${run.errors}`,
    );
  });

  for (const wanted of HUB_SOCKETS) {
    const n = bounded(wanted, `hub fan-out ${wanted}`);
    await step(`hub fan-out, ${n} sockets`, n >= 5_000 ? 70_000 : 15_000, async () => {
      const run = await metered(`hub fan-out ${n}`, () =>
        hubFanout(http, fx, target, players, { sockets: n, title: `Bench Hub Start ${n}` }),
      );
      results.hubFanout.push(run);
      noteFailures(`hub fan-out ${n}`, run);
      log(
        `  ${run.sockets} sockets for ${run.users} users in ${run.connectSeconds} s; room's first load ${run.coldRoomLoadMs} ms; start to socket p50 ${run.latencyMs.p50} p99 ${run.latencyMs.p99} max ${run.latencyMs.max} ms; generator CPU ${run.loadGenerator.cpuShareOfOneCore} core, lag p99 ${run.loadGenerator.eventLoopLagMs.p99} ms; errors ${run.errors}`,
      );
    });
  }

  // 6. Last: the 10,000-player self-paced room.
  await socketRoom(SOCKET_ROOMS[2]);

  results.setup.httpStaleConnectionRetries = http.staleRetries;

  results.cost.perAnswer = results.socketPlay[0]?.d1PerAnswer ?? null;
  results.cost.perCompletion = results.settlement[0]?.d1PerCompletion ?? null;
  results.cost.perSettlement = results.settlement.map((s) => ({ players: s.players, d1: s.d1Settlement }));
  for (const s of results.settlement)
    for (const [k, ok] of Object.entries(s.checks)) if (!ok) results.failures.push(`settlement ${s.players}: check ${k} failed`);
  if (results.largeSettlement)
    for (const [k, ok] of Object.entries(results.largeSettlement.checks))
      if (!ok) results.failures.push(`big settlement: check ${k} failed`);
  for (const j of results.joinStorm)
    for (const [k, ok] of Object.entries(j.checks)) if (!ok) results.failures.push(`join storm ${j.players}: check ${k} failed`);
  for (const [k, ok] of Object.entries(results.joinStream?.checks ?? {})) if (!ok) results.failures.push(`join stream: check ${k} failed`);
  for (const [k, ok] of Object.entries(results.roomStorm?.checks ?? {})) if (!ok) results.failures.push(`room storm: check ${k} failed`);
}

// ---- Output ----

const n0 = (n: number) => Math.round(n).toLocaleString("en-US");
const ms = (n: number) => (n >= 100 ? n0(n) : n.toFixed(1));
const lat = (l: { p50: number; p95?: number; p99: number; max?: number }, withMax = false) =>
  `p50 ${ms(l.p50)}${l.p95 !== undefined && !withMax ? ` / p95 ${ms(l.p95)}` : ""} / p99 ${ms(l.p99)}${withMax ? ` / max ${ms(l.max ?? 0)}` : ""} ms`;
/** Kilobytes of 1,000 bytes. */
const kb = (bytes: number, digits = 1) => (bytes / 1000).toFixed(digits);
const plural = (n: number, word: string) => `${n} ${n === 1 ? word : word.endsWith("ch") ? `${word}es` : `${word}s`}`;
const d1 = (c: D1Counters | null | undefined, tag: string) => {
  const b = c?.[tag];
  return b && b.statements > 0 ? `${plural(b.reads, "read")} + ${plural(b.writes, "write")}` : "0 statements";
};

const cpuNote = (r: Results, key: string, unit: string) => {
  const c = r.serverCpu[key];
  return c?.perOperationMs !== undefined ? `; Worker's workerd ${c.perOperationMs} ms CPU per ${unit}` : "";
};

function table(r: Results): string {
  const rows: string[][] = [];
  for (const a of r.socketPlay) {
    const g = a.loadGenerator;
    rows.push([
      `Socket answer path, ${n0(a.players)} players in one room x 10 questions${a.wave < a.players ? ` (waves of ${n0(a.wave)} sockets)` : ""}, open loop at ${n0(a.targetAnswersPerSecond)} answers/s`,
      `${n0(a.answersPerSecond)} answers/s sustained (${n0(a.answers)} of ${n0(a.answersPlanned)} in ${a.seconds} s${a.timeCapped ? ", time cap" : ""})${cpuNote(r, `socket play ${a.players} at ${a.targetAnswersPerSecond}`, "answer")}${a.workerdCpu ? ` (while answering ${a.workerdCpu.playMsPerAnswer} ms per answer; opening the sockets ${a.workerdCpu.openMsPerSocket} ms per socket)` : ""}; load generator ${g.cpuShareOfOneCore} of a core, event-loop lag p99 ${g.eventLoopLagMs.p99} ms`,
      `answer frame, from its scheduled time: ${lat(a.answerLatencyMs)}`,
      `${a.errors} errors; answers locked in, live board ${n0(a.boardChecked - a.boardMismatches)}/${n0(a.boardChecked)} answered counts with scores withheld; ${a.scoresChecked ? `${n0(a.players - a.scoreMismatches)}/${n0(a.players)} settled scores = sum of points` : "settled scores not compared"}${a.completions ? `; ${n0(a.completions)} completed over the socket` : ""}`,
    ]);
  }
  if (r.liveShow) {
    const l = r.liveShow;
    rows.push([
      `Live show, ${n0(l.sockets)} players connected, ${l.questions} questions`,
      `question push to every socket (to the last socket: ${l.pushToLastSocketMs.map(ms).join(", ")} ms); answers in each window's first second: ${l.answersFirstSecond.map(n0).join(", ")} (peak ${n0(l.peakAnswersPerSecond)}/s); load generator lag p99 ${l.loadGenerator.eventLoopLagMs.p99} ms`,
      `push to socket ${lat(l.pushLatencyMs)}; answer ${lat(l.answerLatencyMs)}`,
      `${l.errors} errors${
        Object.keys(l.errorCodes).length
          ? ` (${Object.entries(l.errorCodes)
              .map(([code, k]) => `${n0(k)} ${code}`)
              .join(", ")})`
          : ""
      }, ${l.missedQuestions} pushes missed, ${l.revealsEarly} reveals before the window closed; ${l.ended ? `${n0(l.sockets - l.scoreMismatches)}/${n0(l.sockets)} settled scores = revealed points` : "the show had not ended: settled scores not compared"}`,
    ]);
  }
  if (r.restart) {
    const x = r.restart;
    rows.push([
      `Live show through a restart: ${n0(x.sockets)} players connected, ${x.questions} questions, the server SIGKILLed ${ms(x.killedAtMsIntoWindow / 1000)} s into question ${x.killedInQuestion + 1}'s window (seed ${x.seed}) and started again`,
      `down ${n0(x.downMs)} ms (kill to the restarted server's health check passing, polled every 500 ms); ${n0(x.socketsBack)}/${n0(x.sockets)} sockets back with the product's backoff (${n0(x.failedAttempts)} attempts refused while down); ${n0(x.answersAcknowledged)} answers acknowledged, ${n0(x.answersResent)} resent after the drop`,
      `socket back, from the kill: first ${n0(x.reconnectFromKillMs.first)} / median ${n0(x.reconnectFromKillMs.median)} / last ${n0(x.reconnectFromKillMs.last)} ms`,
      `${x.answersLost} acknowledged answers lost, ${x.questionsMissedByPresentPlayers} questions missed by a connected player, ${x.revealsEarly} reveals before the window closed; ${x.ended ? `${n0(x.sockets - Math.max(x.scoreMismatches, x.rankMismatches))}/${n0(x.sockets)} settled scores and ranks = a re-rank of the acknowledged answers; prizes ${x.prizesToTheCent ? "to the cent" : "WRONG"} ($${(x.prizePoolCents / 100).toFixed(2)})` : "the show had not ended: scores not compared"}; ${x.errors} errors`,
    ]);
  }
  if (r.shardedShow) {
    const x = r.shardedShow;
    const perShardLast = x.pushPerShard.map((q) => Math.max(0, ...q.map((s) => s.lastMs)));
    const perShardSpread = x.pushPerShard.map((q) => Math.max(0, ...q.map((s) => s.lastMs - s.firstMs)));
    rows.push([
      `Sharded live show: ${n0(x.sockets)} players connected over a coordinator and ${x.shards} play shards (${n0(Math.min(...x.socketsPerShard))} to ${n0(Math.max(...x.socketsPerShard))} a shard), ${x.questions} questions`,
      `question push, first to last socket of a shard (the widest shard): ${perShardSpread.map(ms).join(", ")} ms; issuedAt to the last socket of all: ${x.pushOverall.map((q) => ms(q.lastMs)).join(", ")} ms (slowest shard's last ${perShardLast.map(ms).join(", ")}); merged board, close to the last socket: ${x.boardAfterCloseMs.map((b) => ms(b.lastMs)).join(", ")} ms (median ${x.boardAfterCloseMs.map((b) => ms(b.medianMs)).join(", ")})`,
      `push to socket ${lat(x.pushLatencyMs)}; answer ${lat(x.answerLatencyMs)}`,
      `${x.missedQuestions} pushes missed, ${x.issuedAtDisagreements} issuedAt disagreements between shards, ${x.revealsEarly} reveals before the window closed; ${x.ended ? `${n0(x.sockets - Math.max(x.scoreMismatches, x.rankMismatches))}/${n0(x.sockets)} settled scores and ranks = a single-room re-rank of the answers; prizes ${x.prizesToTheCent ? "to the cent" : "WRONG"} ($${(x.prizePoolCents / 100).toFixed(2)})` : "the show had not settled: scores not compared"}; ${x.errors} errors`,
    ]);
  }
  if (r.twoProcess) {
    const x = r.twoProcess;
    const perShardSpread = x.pushPerShard.map((q) => Math.max(0, ...q.map((s) => s.lastMs - s.firstMs)));
    rows.push([
      `Sharded live show over two workerd processes: ${n0(x.sockets)} players, coordinator and even shards in A, odd shards in B (${x.processes.map((p) => `${p.session} ${n0(p.playerSockets)} sockets`).join(", ")}), ${x.questions} questions`,
      `CPU over the show ${x.processes.map((p) => `${p.session} ${p.cpuSeconds} s`).join(", ")} (${x.showSeconds} s); question push, first to last socket of a shard (the widest): ${perShardSpread.map(ms).join(", ")} ms; issuedAt to the last socket of all: ${x.pushOverall.map((q) => ms(q.lastMs)).join(", ")} ms; merged board, close to the last socket: ${x.boardAfterCloseMs.map((b) => ms(b.lastMs)).join(", ")} ms (median ${x.boardAfterCloseMs.map((b) => ms(b.medianMs)).join(", ")})`,
      `push to socket ${lat(x.pushLatencyMs)}; answer ${lat(x.answerLatencyMs)}`,
      `${x.missedQuestions} pushes missed, ${x.issuedAtDisagreements} issuedAt disagreements, ${x.revealsEarly} early reveals; ${x.ended ? `${n0(x.sockets - Math.max(x.scoreMismatches, x.rankMismatches))}/${n0(x.sockets)} scores and ranks = a single-room re-rank; prizes ${x.prizesToTheCent ? "to the cent" : "WRONG"}` : "the show had not settled: scores not compared"}; ${x.errors} errors; a shard made through the dev registry sees ${x.nameThroughRegistry === null ? "no name (B's shards are woken by name first)" : "its name"}`,
    ]);
  }
  for (const a of r.answerPath) {
    rows.push([
      `HTTP answer path, ${n0(a.players)} players x 10 questions (POST /next + /answer, closed loop)`,
      `${n0(a.answersPerSecond)} answers/s (${n0(a.answers)} of ${n0(a.answersPlanned)} in ${a.seconds} s${a.timeCapped ? ", time cap" : ""})${cpuNote(r, `answer path ${a.players}`, "request")}`,
      `POST /answer ${lat(a.answerLatencyMs)}`,
      `${a.errors} errors; answers locked in, live board ${n0(a.players - a.boardMismatches)}/${n0(a.players)} answered counts with scores withheld; ${a.playersChecked ? `${n0(a.playersChecked - a.scoreMismatches)}/${n0(a.playersChecked)} settled scores = sum of points` : "settled scores not compared"}`,
    ]);
  }
  for (const f of r.tournamentSocketFanout) {
    rows.push([
      `Tournament socket, ${n0(f.sockets)} sockets`,
      `leaderboard change to every socket, ${f.rounds} changes (first to last socket ${f.spreadMs.map(ms).join(", ")} ms); sockets opened in ${f.connectSeconds} s`,
      lat(f.latencyMs, true),
      `${f.missed} missed, ${f.errors} errors; the room's ${n0(leaderboardPushInterval(f.sockets))} ms push coalescing included`,
    ]);
  }
  for (const h of r.hubFanout) {
    rows.push([
      `/ws hub, ${n0(h.sockets)} sockets (${n0(h.users)} users)`,
      `tournament start (its alarm) to every socket, with the ${n0(h.users)} rows stored before the push (first to last socket ${ms(h.spreadMs[0] ?? 0)} ms); load generator ${h.loadGenerator.cpuShareOfOneCore} of a core, event-loop lag p99 ${h.loadGenerator.eventLoopLagMs.p99} ms`,
      lat(h.latencyMs, true),
      `${h.missed} missed, ${h.errors} errors; ${n0(h.notificationsStored)} notifications stored`,
    ]);
    rows.push([
      `Room's first load, ${n0(h.users)} players (before the hub row's start; not in its figures)`,
      "the request that wakes a room which has not run yet: its players, questions and state from D1",
      `${ms(h.coldRoomLoadMs)} ms`,
      "",
    ]);
  }
  if (r.signIn) {
    const x = r.signIn;
    rows.push([
      `Sign-in, POST /api/login, ${x.lanes} at once (scrypt ${x.scrypt})`,
      `${x.loginsPerSecond} logins/s (${x.logins} in ${x.seconds} s)${cpuNote(r, "sign-in", "login")}`,
      `p50 ${ms(x.latencyMs.p50)} / p99 ${ms(x.latencyMs.p99)} ms`,
      `${x.succeeded}/${x.logins} signed in (200, their own user, a session cookie); ${x.errors} errors`,
    ]);
  }
  for (const f of r.failedScenarios)
    rows.push([f.name, `FAILED: ${f.error.replace(/\s+/g, " ").replaceAll("|", "/").slice(0, 200)}`, "", "see failures"]);
  for (const j of r.joinStorm) {
    rows.push([
      `Join storm, ${n0(j.players)} players x 2 presses (${n0(j.poor)} without the fee), capacity ${n0(j.capacity)}, $${(j.feeCents / 100).toFixed(2)}`,
      `all answered in ${j.secondsToSeatAll} s (${n0(j.seatsPerSecond)} seats/s)${cpuNote(r, `join storm ${j.players}`, "seat")}`,
      `POST /join ${lat(j.joinLatencyMs)}; the same presses to GET /api/session (one D1 read, the least a signed-in request does): all answered in ${j.floor.seconds} s, ${lat(j.floor.latencyMs)}`,
      `${j.seated} seated, ${j.charged} charged, ${j.chargedTwice} twice; ${n0(j.refusedBalance)} short-balance refusals; ${Object.values(j.checks).every(Boolean) ? "all checks pass" : "CHECKS FAIL"}`,
    ]);
  }
  const rs = r.roomStorm;
  if (rs) {
    rows.push([
      `Join storm, the room alone: ${n0(rs.players)} players x 2 presses (${n0(rs.poor)} without the fee), capacity ${n0(rs.capacity)}, sent to the room from inside the Worker (no HTTP, sessions or route checks)`,
      `all ${n0(rs.presses)} presses answered in ${rs.secondsToAnswerAll} s${cpuNote(r, "room storm", "seat")}`,
      `admission + join, from the storm's start: ${lat(rs.latencyMs)}`,
      `${rs.seated} seated, ${rs.charged} charged, ${rs.chargedTwice} twice; ${Object.values(rs.checks).every(Boolean) ? "all checks pass" : "CHECKS FAIL"}`,
    ]);
  }
  const js = r.joinStream;
  if (js) {
    rows.push([
      `Join stream, ${n0(js.players)} joins at ${n0(js.ratePerSecond)}/s on one room (open loop), $${(js.feeCents / 100).toFixed(2)}`,
      `${n0(js.joinsPerSecond)} joins/s answered (${n0(js.players)} in ${js.seconds} s)${cpuNote(r, "join stream", "seat")}`,
      `POST /join, from its scheduled time: ${lat(js.joinLatencyMs)}; the same schedule to GET /api/session: ${lat(js.floor.latencyMs)}`,
      `${n0(js.seated)} seated, ${n0(js.charged)} charged, ${js.chargedTwice} twice; ${Object.values(js.checks).every(Boolean) ? "all checks pass" : "CHECKS FAIL"}`,
    ]);
  }
  for (const x of r.baseline) {
    const key = x.label.includes("404") ? "baseline 404" : "baseline health";
    rows.push([
      `Baseline: ${x.label}`,
      `${n0(x.requestsPerSecond)} req/s${cpuNote(r, key, "request")}`,
      lat(x.latencyMs),
      `${x.errors} errors`,
    ]);
  }
  for (const x of r.readPath) {
    const key = x.label.includes("proxy") ? "" : x.label.includes("leaderboard") ? "read leaderboard" : "read list";
    rows.push([
      `Read: ${x.label}`,
      `${n0(x.requestsPerSecond)} req/s, ${x.lanes} connections, ${x.seconds} s${key ? cpuNote(r, key, "request") : ""}`,
      lat(x.latencyMs),
      `${x.errors} errors; ${n0(x.responseBytes)} bytes each`,
    ]);
  }
  const a = r.cost.perAnswer;
  if (a) {
    rows.push([
      "D1 per answer over the socket (one frame, carrying the next question)",
      `Worker: ${d1(a, "worker")}; TournamentRoom: ${d1(a, "room")}`,
      "",
      "the socket's user is known to the room; answers stay in its own SQLite",
    ]);
  }
  const storm = r.joinStorm[r.joinStorm.length - 1];
  if (storm) {
    rows.push([
      "D1 per join",
      `room: ${d1(storm.d1PerSeat, "room")} per seat (${plural(storm.d1PerSeat.room?.batches ?? 0, "batch")}); Worker: ${d1(storm.d1PerRequest, "worker")} per request`,
      "",
      "fee, seat, count and pool of the joins of a few milliseconds in one batch, each player's funds checked on their own row",
    ]);
  }
  if (r.cost.perCompletion) {
    const s100 = r.settlement[0];
    rows.push([
      "D1 per player completion",
      `room: ${d1(r.cost.perCompletion, "room")} in 1 batch; Worker: ${d1(r.cost.perCompletion, "worker")}`,
      r.settlement.map((x) => `${n0(x.completesPerSecond)} completions/s at ${n0(x.players)} players`).join(", "),
      s100 ? "the player's totals and responses" : "",
    ]);
  }
  for (const s of r.cost.perSettlement) {
    const room = s.d1.room;
    rows.push([
      `D1 per settlement, ${n0(s.players)} players`,
      `room: ${room ? `${room.statements} statements (${plural(room.reads, "read")} + ${plural(room.writes, "write")}), ${plural(room.batches, "batch")}; ${n0(room.rowsRead)} rows read, ${n0(room.rowsWritten)} written` : "0 statements"}`,
      `${ms(r.settlement.find((x) => x.players === s.players)?.settleRequestMs ?? 0)} ms (the completing request)`,
      Object.values(r.settlement.find((x) => x.players === s.players)?.checks ?? {}).every(Boolean)
        ? "ranks, prizes, XP, notifications checked"
        : "CHECKS FAIL",
    ]);
  }
  const big = r.largeSettlement;
  if (big) {
    const room = big.d1.room;
    rows.push([
      `Settlement of a ${n0(big.players)}-player tournament (answers seeded in the room; the last completion settles it)`,
      `${ms(big.settleRequestMs)} ms (target <= ${n0(LARGE_SETTLEMENT.targetMs)} ms: ${big.settleRequestMs <= LARGE_SETTLEMENT.targetMs ? "met" : "not met"}; Worker's workerd ${n0(big.settleCpuMs)} ms CPU in it); ${big.chunks} chunks; room: ${room ? `${n0(room.statements)} statements in ${plural(room.batches, "batch")}, ${n0(room.rowsWritten)} rows written` : "0 statements"}; largest statement's bound values ${(big.maxBoundBytes / 1000).toFixed(1)} KB (limit 100 KB)`,
      `${ms(big.settleRequestMs)} ms (the completing request)`,
      Object.values(big.checks).every(Boolean) ? "every score, rank and response; prizes to the cent; one notice each" : "CHECKS FAIL",
    ]);
  }
  if (r.bundle) {
    const b = r.bundle;
    const lazy = b.scripts.filter((s) => !s.initial).length;
    rows.push([
      "Home page JavaScript in Chromium (every script until the network is idle, a visitor)",
      `${kb(b.jsGzipBytes)} KB gzip in ${plural(b.scripts.length, "script")} (${lazy} of them lazy chunks; ${kb(b.jsBytes, 0)} KB raw); CSS ${kb(b.cssGzipBytes)} KB gzip in ${plural(b.stylesheets, "stylesheet")}`,
      `network idle ${ms(b.loadedMs)} ms after navigation (loopback, unthrottled)`,
      `gzip -9 of each script Chromium fetched; ${plural(b.consoleErrors.length, "console error")}`,
    ]);
    rows.push([
      "Home page scripts, per chunk (KB gzip)",
      [...b.scripts]
        .sort((x, y) => y.gzipBytes - x.gzipBytes)
        .map((s) => `${s.path.replace(/^\/assets\//, "")} ${kb(s.gzipBytes)}${s.initial ? "" : " (lazy)"}`)
        .join(", "),
      "",
      "",
    ]);
  }
  for (const p of r.lighthouse) {
    rows.push([
      `Lighthouse (mobile), ${p.path}${p.finalPath !== p.path ? ` (a visitor lands on ${p.finalPath})` : ""}`,
      `performance ${p.scores.performance} / accessibility ${p.scores.accessibility} / best practices ${p.scores.bestPractices} / SEO ${p.scores.seo}${p.runs > 1 ? ` (median of ${p.runs} runs: performance ${p.performanceScores.join(", ")})` : ""}`,
      `LCP ${n0(p.metrics.lcpMs)} ms, FCP ${n0(p.metrics.fcpMs)} ms, TBT ${n0(p.metrics.tbtMs)} ms, CLS ${p.metrics.cls}`,
      p.failing.length ? `failing: ${p.failing.join(", ")}` : "every accessibility, best-practice and SEO audit passes",
    ]);
  }
  const head = ["Scenario", "Result", "Latency", "Checked"];
  return [`| ${head.join(" | ")} |`, `|${head.map(() => "---").join("|")}|`, ...rows.map((row) => `| ${row.join(" | ")} |`)].join("\n");
}

let finishing: Promise<never> | null = null;
/** Stops everything, writes the results and exits (once, whoever calls first). */
function finish(): Promise<never> {
  finishing ??= (async () => {
    await cleanup();
    results.machine.loadavgAtEnd = loadavg().map((n) => round(n, 2));
    results.machine.loadGenerator = wholeRun.stop();
    results.seconds = round(elapsed() / 1000, 1);
    results.ok = results.failures.length === 0 && results.skipped.length === 0;
    results.table = table(results);
    mkdirSync("bench/results", { recursive: true });
    writeFileSync(RESULTS, `${JSON.stringify(results, null, 2)}\n`);
    console.log("");
    console.log(
      `Trivia Arena benchmark, ${results.timestamp}: ${results.machine.cpus} x ${results.machine.cpuModel}, Node ${results.machine.node}, ` +
        `load average ${results.machine.loadavgAtStart.join(" ")} at start, ${results.machine.loadavgAtEnd.join(" ")} at end; ` +
        `load generator ${results.machine.loadGenerator?.cpuShareOfOneCore} of a core over the run, event-loop lag p99 ${results.machine.loadGenerator?.eventLoopLagMs.p99} ms`,
    );
    console.log("");
    console.log(results.table);
    console.log("");
    for (const x of results.skipped) console.log(`SKIPPED ${x}`);
    for (const x of results.limits) console.log(`LIMIT ${x}`);
    for (const f of results.failures) console.log(`FAILURE ${f}`);
    console.log(`${results.ok ? "OK" : "NOT OK"} in ${results.seconds} s; details in ${RESULTS}`);
    process.exit(results.ok ? 0 : 1);
  })();
  return finishing;
}

try {
  await main();
} catch (e) {
  results.failures.push(`harness: ${(e as Error).stack ?? e}`);
  log(`FAILED: ${(e as Error).message}`);
}
await finish();
