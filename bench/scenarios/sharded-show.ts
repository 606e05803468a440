// A live show past one room (docs/decisions/011-one-tournament-past-one-durable-object.md, "Built"):
// a coordinator and N play shards, every player's socket on their own shard (stored on the seat, as
// the join stores it), one spectator's socket on the coordinator. Each shard opens every question
// at the coordinator's announced time and pushes it to its own sockets; after each close the
// shards report to the coordinator, which merges their boards and sends the merged board back.
//
// Measured: per question, the push on each shard (from the announced issuedAt to its first and
// last socket) and over all sockets; answer latency; the merged board after each close (when the
// last player's socket got it, minus the close). Checked: every question reaches every socket with
// the same issuedAt on every shard; no reveal before the close; each reveal's result matches the
// player's choice and the scoring rule; once the show has settled, every score and rank equals a
// single-room re-rank of the acknowledged answers by the product's rules, and the house prize pool
// is paid to the cent to the re-ranked top three.
import { LIVE_SHOW_WINDOW_MS } from "../../common/domain/live-show";
import { answerPoints } from "../../common/domain/scoring";
import { REVEAL_PAUSE_MS } from "../../common/spec";
import type { BenchTournament, Fixtures, Player } from "../lib/fixtures";
import { checkAgainstReRank, type Ack } from "../lib/rerank";
import { watchLoadGenerator, type LoadGenReport } from "../lib/loadgen";
import { openSockets, type SocketTarget } from "../lib/sockets";
import { now, round, Samples, type LatencySummary } from "../lib/stats";
import { answersRight, thinkMs } from "./live-show";
import { until } from "./socket-play";

export interface ShardedShowRun {
  sockets: number;
  shards: number;
  /** Sockets per shard. */
  socketsPerShard: number[];
  questions: number;
  tournamentId: number;
  connectSeconds: number;
  /** Push (issuedAt to a socket receiving the question) over every socket and question. */
  pushLatencyMs: LatencySummary;
  /** Per question: issuedAt to the first and the last socket of all. */
  pushOverall: { firstMs: number; lastMs: number }[];
  /** Per question, per shard: issuedAt to the shard's first and last socket. */
  pushPerShard: { firstMs: number; lastMs: number }[][];
  /** Questions whose issuedAt differed between sockets (every shard must open at the announced time). */
  issuedAtDisagreements: number;
  answerLatencyMs: LatencySummary;
  answers: number;
  /** Per question: from the close (issuedAt + window) to the complete merged board (not a provisional one) on the median and the last player socket. */
  boardAfterCloseMs: { medianMs: number; lastMs: number; missing: number }[];
  reveals: number;
  revealsEarly: number;
  missedQuestions: number;
  ended: boolean;
  scoreMismatches: number;
  rankMismatches: number;
  prizePoolCents: number;
  prizesToTheCent: boolean;
  errorCodes: Record<string, number>;
  errors: number;
  errorSamples: string[];
  loadGenerator: LoadGenReport;
}

const percentile = (xs: number[], p: number) => {
  const v = [...xs].sort((a, b) => a - b);
  return v.length === 0 ? 0 : v[Math.min(v.length - 1, Math.max(0, Math.ceil((p / 100) * v.length) - 1))]!;
};

export async function shardedShow(
  target: SocketTarget,
  fx: Fixtures,
  t: BenchTournament,
  players: Player[],
  o: {
    /** The shard each player's seat is on. */
    shardOf: (p: Player) => number;
    shards: number;
    /** A player without a seat: their socket is a spectator's, on the coordinator (and wakes it, as a join would). */
    spectator: Player;
    startAt: number;
    questions: number;
    prizePoolCents: number;
    /** Where a player's socket goes when not to `target` (the two-process row: an odd shard's players to the second process). */
    playerTarget?: (p: Player) => SocketTarget;
  },
): Promise<ShardedShowRun> {
  const errorSamples: string[] = [];
  let errors = 0;
  const fail = (m: string) => {
    errors++;
    if (errorSamples.length < 10) errorSamples.push(m);
  };
  const errorCodes: Record<string, number> = {};
  const n = players.length;
  const shardOfI = players.map((p) => o.shardOf(p));
  const byId = new Map([...t.questions.values()].map((q) => [q.id, q]));
  const pushLatency = new Samples();
  const answerLatency = new Samples();
  const received = Array.from({ length: o.questions }, () => new Float64Array(n));
  const boardAt = Array.from({ length: o.questions }, () => new Float64Array(n));
  const issuedAt = new Array<number>(o.questions).fill(0);
  let issuedAtDisagreements = 0;
  const sentAt = new Float64Array(n);
  const acks: (Ack | undefined)[][] = Array.from({ length: n }, () => new Array<Ack | undefined>(o.questions));
  const choice = new Array<{ k: number; questionId: number; right: boolean } | null>(n).fill(null);
  /** The question whose reveal the player saw last and whose merged board has not come yet (-1: none). */
  const awaitingBoard = new Array<number>(n).fill(-1);
  let reveals = 0;
  let revealsEarly = 0;
  let answers = 0;
  let completed = 0;
  let sockets: WebSocket[] = [];
  const send = (i: number, frame: unknown) => {
    if (sockets.length === 0) return;
    try {
      sockets[i]!.send(JSON.stringify(frame));
    } catch (e) {
      fail(`send ${i}: ${String(e)}`);
    }
  };
  const offset = Date.now() - now();
  const wall = (at: number) => at + offset;

  const onFrame = (i: number, data: string, at: number) => {
    const f = JSON.parse(data) as any;
    switch (f.type) {
      case "ping":
        send(i, { type: "pong", nonce: f.nonce });
        return;
      case "question": {
        const k = f.question.index as number;
        if (received[k]![i]) return;
        received[k]![i] = at;
        const pushed = Date.parse(f.question.issuedAt);
        if (issuedAt[k] && issuedAt[k] !== pushed) {
          issuedAtDisagreements++;
          if (issuedAtDisagreements === 1)
            fail(
              `question ${k}: issuedAt ${f.question.issuedAt} on shard ${shardOfI[i]}, ${new Date(issuedAt[k]!).toISOString()} elsewhere`,
            );
        }
        issuedAt[k] ||= pushed;
        pushLatency.add(Math.max(0, wall(at) - pushed));
        const q = byId.get(f.question.id)!;
        const right = answersRight(players[i]!.id, q.id);
        setTimeout(
          () => {
            choice[i] = { k, questionId: q.id, right };
            sentAt[i] = now();
            send(i, { type: "answer", id: `a${k}`, questionId: q.id, answer: right ? q.correct : q.options.find((x) => x !== q.correct)! });
          },
          thinkMs(i + k * 31),
        );
        return;
      }
      case "result": {
        answers++;
        answerLatency.add(at - sentAt[i]!);
        const k = Number(String(f.id).slice(1));
        if (!f.result?.locked) fail(`player ${i}: an unlocked result before the reveal: ${data.slice(0, 120)}`);
        else acks[i]![k] ??= { answer: f.result.answer, responseTime: f.result.responseTime };
        return;
      }
      case "reveal": {
        reveals++;
        const k = f.index as number;
        if (issuedAt[k] && wall(at) < issuedAt[k]! + LIVE_SHOW_WINDOW_MS) revealsEarly++;
        const mine = choice[i];
        if (mine && mine.questionId === f.questionId && acks[i]![k]) {
          const you = f.you;
          if (!you || you.isCorrect !== mine.right || you.pointsEarned !== answerPoints(mine.right, you.responseTime))
            fail(`player ${i} q${f.questionId}: reveal ${JSON.stringify(you)} (expected right=${mine.right})`);
        }
        choice[i] = null;
        awaitingBoard[i] = k;
        return;
      }
      case "leaderboard": {
        const k = awaitingBoard[i]!;
        // Merged at the deadline without some shard's report: the row times the complete board.
        if (k < 0 || f.provisional) return;
        boardAt[k]![i] = at;
        awaitingBoard[i] = -1;
        return;
      }
      case "status":
        if (f.status === "completed") completed++;
        return;
      case "error": {
        const code = String(f.code);
        errorCodes[code] = (errorCodes[code] ?? 0) + 1;
        errors++;
        if (errorCodes[code] === 1 && errorSamples.length < 10) errorSamples.push(`player ${i}: ${data.slice(0, 160)}`);
        if (typeof f.id === "string" && f.id.startsWith("a")) choice[i] = null;
        return;
      }
    }
  };

  // The spectator first: the coordinator runs the show's clock (the players' sockets are on the shards).
  const spectator = await openSockets(
    target,
    `/api/tournaments/${t.id}/ws`,
    1,
    () => o.spectator.cookie,
    () => {},
    { inFlight: 1 },
  );
  for (const f of spectator.failures) fail(`spectator: ${f}`);
  const playerTarget = o.playerTarget;
  const to = playerTarget ? (i: number) => playerTarget(players[i]!) : target;
  const open = await openSockets(to, `/api/tournaments/${t.id}/ws`, n, (i) => players[i]!.cookie, onFrame, { inFlight: 64 });
  sockets = open.sockets;
  for (const f of open.failures.slice(0, 5)) fail(f);
  if (sockets.length < n) fail(`${n - sockets.length} sockets did not open`);
  if (Date.now() > o.startAt) fail(`the sockets took until ${Math.round((Date.now() - o.startAt) / 1000)} s after the show's start`);
  const watch = watchLoadGenerator();
  const showMs = o.questions * (LIVE_SHOW_WINDOW_MS + REVEAL_PAUSE_MS) + 90_000;
  await until(() => completed >= sockets.length, Math.max(0, o.startAt - Date.now()) + showMs);
  const loadGenerator = watch.stop();

  // The figures, per question.
  let missed = 0;
  const pushOverall: { firstMs: number; lastMs: number }[] = [];
  const pushPerShard: { firstMs: number; lastMs: number }[][] = [];
  const boardAfterCloseMs: { medianMs: number; lastMs: number; missing: number }[] = [];
  for (let k = 0; k < o.questions; k++) {
    const perShard = Array.from({ length: o.shards }, () => ({ first: Infinity, last: 0 }));
    let first = Infinity;
    let last = 0;
    const boards: number[] = [];
    let boardMissing = 0;
    const closes = issuedAt[k]! + LIVE_SHOW_WINDOW_MS;
    for (let i = 0; i < sockets.length; i++) {
      const at = received[k]![i]!;
      if (!at) {
        missed++;
        continue;
      }
      const ms = wall(at) - issuedAt[k]!;
      const s = perShard[shardOfI[i]!]!;
      s.first = Math.min(s.first, ms);
      s.last = Math.max(s.last, ms);
      first = Math.min(first, ms);
      last = Math.max(last, ms);
      if (boardAt[k]![i]) boards.push(wall(boardAt[k]![i]!) - closes);
      else boardMissing++;
    }
    pushOverall.push({ firstMs: round(first === Infinity ? 0 : first), lastMs: round(last) });
    pushPerShard.push(perShard.map((s) => ({ firstMs: round(s.first === Infinity ? 0 : s.first), lastMs: round(s.last) })));
    boardAfterCloseMs.push({ medianMs: round(percentile(boards, 50)), lastMs: round(Math.max(0, ...boards)), missing: boardMissing });
    if (boardMissing) fail(`question ${k + 1}: ${boardMissing} sockets got no merged board after its reveal`);
  }

  // The settlement, against a single-room re-rank of the acknowledged answers.
  const settleBy = Date.now() + 60_000;
  let state: { status: string; settled: number };
  do {
    state = await fx.one<{ status: string; settled: number }>(
      "SELECT status, settled_at IS NOT NULL AS settled FROM tournaments WHERE id = ?",
      t.id,
    );
    if (state.status === "completed" && state.settled === 1) break;
    await new Promise((r) => setTimeout(r, 500));
  } while (Date.now() < settleBy);
  const ended = state.status === "completed" && state.settled === 1;
  if (!ended) fail(`the show had not settled a minute after its sockets saw it end (${state.status})`);
  const reRank = await checkAgainstReRank(fx, t, players, acks, o);
  errorSamples.push(...reRank.samples.slice(0, Math.max(0, 10 - errorSamples.length)));
  const { scoreMismatches, rankMismatches } = reRank;
  const prizesToTheCent = ended && reRank.prizesToTheCent;

  if (completed < sockets.length) fail(`${sockets.length - completed} sockets never saw the show complete`);
  if (open.closedEarly) fail(`${open.closedEarly} sockets closed by the server`);
  await open.closeAll();
  await spectator.closeAll();
  const socketsPerShard = Array.from({ length: o.shards }, (_, k) => shardOfI.filter((s) => s === k).length);
  return {
    sockets: sockets.length,
    shards: o.shards,
    socketsPerShard,
    questions: o.questions,
    tournamentId: t.id,
    connectSeconds: round(open.openMs / 1000, 1),
    pushLatencyMs: pushLatency.summary(),
    pushOverall,
    pushPerShard,
    issuedAtDisagreements,
    answerLatencyMs: answerLatency.summary(),
    answers,
    boardAfterCloseMs,
    reveals,
    revealsEarly,
    missedQuestions: missed,
    ended,
    scoreMismatches,
    rankMismatches,
    prizePoolCents: o.prizePoolCents,
    prizesToTheCent,
    errorCodes,
    errors,
    errorSamples,
    loadGenerator,
  };
}
