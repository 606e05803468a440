// 2. Fan-out. (a) N sockets on one tournament's WebSocket; a player answers (the leaderboard
// changes: a self-paced prize tournament's board shows the player's answered count, every score
// 0 until the end); the time from sending that answer to each socket receiving the leaderboard
// frame that shows it. The answers are only locked in; once the player has finished (which ends
// the tournament) the settled score must be the sum of the points of its right answers. The
// room coalesces pushes (leaderboardPushInterval: 500 ms, longer in a large room) by design,
// so that window is inside every figure; `spread` (first to last socket) is the fan-out alone.
// (b) N signed-in sockets on /ws; a tournament whose N participants are those users starts; the
// time from its start to each socket receiving `tournament_started` (see hubFanout).
import { answerPoints } from "../../common/domain/scoring";
import { QUESTIONS_PER_TOURNAMENT } from "../../common/spec";
import type { HttpClient } from "../lib/http";
import { lockedReplyProblem, type BenchTournament, type Fixtures, type Player } from "../lib/fixtures";
import { settledScores } from "./answer";
import { openSockets, type SocketTarget } from "../lib/sockets";
import { watchLoadGenerator, type LoadGenReport } from "../lib/loadgen";
import { now, round, Samples, type LatencySummary } from "../lib/stats";

/** How long before its start the hub scenario's tournament is made: room of time for seating and the room's first load. */
const START_LEAD_MS = 12_000;

export interface FanoutRun {
  sockets: number;
  users: number;
  connectSeconds: number;
  connectFailures: number;
  rounds: number;
  latencyMs: LatencySummary;
  spreadMs: number[];
  missed: number;
  closedEarly: number;
  triggerMs: number[];
  errors: number;
  errorSamples: string[];
}

const waitAll = (count: () => number, target: number, timeoutMs: number) =>
  new Promise<boolean>((resolve) => {
    const deadline = now() + timeoutMs;
    const tick = () => {
      if (count() >= target) return resolve(true);
      if (now() > deadline) return resolve(false);
      setTimeout(tick, 5);
    };
    tick();
  });

export async function tournamentFanout(
  http: HttpClient,
  target: SocketTarget,
  t: BenchTournament,
  player: Player,
  viewers: Player[],
  o: { sockets: number; rounds: number },
): Promise<FanoutRun> {
  const errorSamples: string[] = [];
  let errors = 0;
  const fail = (m: string) => {
    errors++;
    if (errorSamples.length < 10) errorSamples.push(m);
  };
  const synced = new Uint8Array(o.sockets);
  let syncedCount = 0;
  const got = new Float64Array(o.sockets);
  let gotCount = 0;
  /** While a round runs: a frame showing the player with more answers than this carries the change. */
  let expectAbove = -1;
  /** Frames that showed a score before the end. */
  let scoresShown = 0;
  const onFrame = (i: number, data: string, at: number) => {
    if (!data.startsWith('{"type":"leaderboard"')) return;
    if (!synced[i]) {
      synced[i] = 1;
      syncedCount++;
    }
    const frame = JSON.parse(data) as { top: { userId: number; score: number; questionsAnswered: number }[] };
    const row = frame.top.find((r) => r.userId === player.id);
    if (row && row.score !== 0) scoresShown++;
    if (expectAbove < 0 || got[i]) return;
    if (row && row.questionsAnswered > expectAbove) {
      got[i] = at;
      gotCount++;
    }
  };
  const open = await openSockets(target, `/api/tournaments/${t.id}/ws`, o.sockets, (i) => viewers[i % viewers.length]!.cookie, onFrame);
  for (const f of open.failures.slice(0, 5)) fail(f);
  errors += Math.max(0, open.failures.length - 5);
  const opened = open.sockets.length;
  // Each socket gets the board on connect: that is how we know the room holds it.
  if (!(await waitAll(() => syncedCount, opened, 30_000))) fail(`only ${syncedCount} of ${opened} sockets got the initial board`);

  const latency = new Samples();
  const spread: number[] = [];
  const triggerMs: number[] = [];
  let missed = 0;
  /** The player's points as the harness expects them: every answer right, each worth what its response time gives. */
  let score = 0;
  let answered = 0;
  const rounds = Math.min(o.rounds, QUESTIONS_PER_TOURNAMENT);
  try {
    for (let r = 0; r < rounds; r++) {
      got.fill(0);
      gotCount = 0;
      const q = await http.post(`/api/tournaments/${t.id}/next`, {}, player.cookie);
      if (q.status !== 200) {
        fail(`next: ${q.status} ${q.text.slice(0, 120)}`);
        break;
      }
      const answer = t.questions.get(q.json.id)!.correct;
      expectAbove = answered;
      const t0 = now();
      const a = await http.post(`/api/tournaments/${t.id}/answer`, { questionId: q.json.id, answer }, player.cookie);
      const problem = a.status === 200 ? lockedReplyProblem(a.json, t, { userId: player.id, questionId: q.json.id, answer }) : "refused";
      if (problem) {
        fail(`answer: ${problem}: ${a.status} ${a.text.slice(0, 120)}`);
        break;
      }
      triggerMs.push(round(a.ms, 1));
      answered++;
      score += answerPoints(true, a.json.responseTime);
      const all = await waitAll(() => gotCount, opened, 60_000);
      if (!all) {
        missed += opened - gotCount;
        fail(`round ${r}: ${opened - gotCount} of ${opened} sockets never got the change`);
      }
      let first = Infinity;
      let last = 0;
      for (let i = 0; i < o.sockets; i++) {
        if (!got[i]) continue;
        latency.add(got[i]! - t0);
        first = Math.min(first, got[i]!);
        last = Math.max(last, got[i]!);
      }
      spread.push(round(last - first, 1));
      expectAbove = -1;
    }
  } finally {
    const closedEarly = open.closedEarly;
    if (closedEarly) fail(`${closedEarly} sockets closed by the server`);
    await open.closeAll();
  }
  if (scoresShown > 0) fail(`${scoresShown} leaderboard frames showed the player's score before the end`);
  // The player, its only participant, finishes: that ends the tournament, and the settled score is the sum.
  const done = await http.post(`/api/tournaments/${t.id}/complete`, {}, player.cookie);
  if (done.status !== 200) fail(`complete: ${done.status} ${done.text.slice(0, 120)}`);
  const settled = await settledScores(http, t, [{ player, issued: answered, done: answered, points: score }]);
  for (const m of settled.samples) fail(m);
  return {
    sockets: opened,
    users: Math.min(viewers.length, o.sockets),
    connectSeconds: round(open.openMs / 1000, 2),
    connectFailures: open.failures.length,
    rounds,
    latencyMs: latency.summary(),
    spreadMs: spread,
    missed,
    closedEarly: open.closedEarly,
    triggerMs,
    errors,
    errorSamples,
  };
}

export interface HubFanoutRun extends FanoutRun {
  notificationsStored: number;
  /** The room's first load (its N players from D1), by the request that woke it before the start: not in the fan-out figures. */
  coldRoomLoadMs: number;
  loadGenerator: LoadGenReport;
}

/**
 * (b) N signed-in sockets on /ws, then a tournament whose N participants are those users starts
 * by its alarm. The room is woken (and its players loaded) by a request seconds before the start,
 * so its cold load is measured on its own and the figures run from the start time, the moment
 * the alarm is due, to each socket receiving `tournament_started`.
 */
export async function hubFanout(
  http: HttpClient,
  fx: Fixtures,
  target: SocketTarget,
  users: Player[],
  o: { sockets: number; title: string },
): Promise<HubFanoutRun> {
  const errorSamples: string[] = [];
  let errors = 0;
  const fail = (m: string) => {
    errors++;
    if (errorSamples.length < 10) errorSamples.push(m);
  };
  const participants = users.slice(0, Math.min(users.length, o.sockets));
  const watch = watchLoadGenerator();

  const got = new Float64Array(o.sockets);
  let gotCount = 0;
  let marker = "";
  const onFrame = (i: number, data: string, at: number) => {
    if (got[i] || !marker || !data.includes(marker) || !data.includes("tournament_started")) return;
    got[i] = at;
    gotCount++;
  };
  const open = await openSockets(target, "/ws", o.sockets, (i) => participants[i % participants.length]!.cookie, onFrame);
  for (const f of open.failures.slice(0, 5)) fail(f);
  errors += Math.max(0, open.failures.length - 5);
  const opened = open.sockets.length;

  const latency = new Samples();
  let missed = 0;
  let spread: number;
  let coldMs: number;
  let stored: number;
  try {
    // Free, with its players seated in D1 and its room not yet used; it starts by its alarm.
    const startAt = Date.now() + START_LEAD_MS;
    const t = await fx.tournament({ title: o.title, status: "upcoming", startTime: startAt });
    marker = `"tournamentId":${t.id}`;
    await fx.seat(t.id, participants);
    const warm = await http.getWithRetries(`/api/tournaments/${t.id}/leaderboard`);
    coldMs = warm.ms;
    if (warm.status !== 200) fail(`first load: ${warm.status} ${warm.text.slice(0, 120)}`);
    // The start time on this process's monotonic clock, which stamps every frame.
    const t0 = now() + (startAt - Date.now());
    if (t0 - now() < 1000) fail(`the room's first load ended ${Math.round(now() - t0 + 1000)} ms too late: the start may include it`);
    if (!(await waitAll(() => gotCount, opened, Math.max(0, t0 - now()) + 60_000))) {
      missed = opened - gotCount;
      fail(`${missed} of ${opened} sockets never got tournament_started`);
    }
    let first = Infinity;
    let last = 0;
    for (let i = 0; i < o.sockets; i++) {
      if (!got[i]) continue;
      latency.add(got[i]! - t0);
      first = Math.min(first, got[i]!);
      last = Math.max(last, got[i]!);
    }
    spread = round(last - first, 1);
    const row = await fx.one<{ n: number; users: number }>(
      "SELECT count(*) AS n, count(DISTINCT user_id) AS users FROM notifications WHERE tournament_id = ? AND action = 'tournament_started'",
      t.id,
    );
    stored = row.n;
    if (row.n !== participants.length || row.users !== participants.length)
      fail(`stored ${row.n} notifications for ${row.users} users, expected ${participants.length}`);
  } finally {
    if (open.closedEarly) fail(`${open.closedEarly} sockets closed by the server`);
    await open.closeAll();
  }
  return {
    sockets: opened,
    users: participants.length,
    connectSeconds: round(open.openMs / 1000, 2),
    connectFailures: open.failures.length,
    rounds: 1,
    latencyMs: latency.summary(),
    spreadMs: [spread],
    missed,
    closedEarly: open.closedEarly,
    triggerMs: [],
    errors,
    errorSamples,
    notificationsStored: stored,
    coldRoomLoadMs: round(coldMs, 1),
    loadGenerator: watch.stop(),
  };
}
