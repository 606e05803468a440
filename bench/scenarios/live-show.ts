// A live show with as many connected players as the machine holds: one socket per player, the
// room pushes each question to all of them at once. Measured: from the push (the question's
// issuedAt, the room's clock) to each socket receiving it; the burst of answers as the window
// opens (most players answer in its first seconds); answer latency. Checked: every question
// reaches every socket, no reveal arrives before the window has closed, each reveal's result
// matches the player's choice and the scoring rule, and the settled scores equal the sums of the
// revealed points once the show has ended (settled). Players answer the room's pings, echoing
// each ping's nonce, so the latency allowance is in play.
import { answerPoints } from "../../common/domain/scoring";
import { LIVE_SHOW_WINDOW_MS } from "../../common/domain/live-show";
import { REVEAL_PAUSE_MS } from "../../common/spec";
import type { BenchTournament, Fixtures, Player } from "../lib/fixtures";
import { watchLoadGenerator, type LoadGenReport } from "../lib/loadgen";
import { openSockets, type SocketTarget } from "../lib/sockets";
import { now, round, Samples, type LatencySummary } from "../lib/stats";
import { until } from "./socket-play";

export interface LiveShowRun {
  sockets: number;
  questions: number;
  tournamentId: number;
  connectSeconds: number;
  /** Push to each socket receiving the question (ms), over every question. */
  pushLatencyMs: LatencySummary;
  /** Per question: push to the last socket (ms). */
  pushToLastSocketMs: number[];
  /** Answers in the window's first second, per question, and the highest per-second rate seen. */
  answersFirstSecond: number[];
  peakAnswersPerSecond: number;
  answerLatencyMs: LatencySummary;
  answers: number;
  revealsEarly: number;
  missedQuestions: number;
  /** Whether the show ended (settled) inside the wait, so that its settled scores could be compared. */
  ended: boolean;
  scoreMismatches: number;
  /** Error frames by code (a room too far behind refuses answers that arrive after the window). */
  errorCodes: Record<string, number>;
  errors: number;
  errorSamples: string[];
  loadGenerator: LoadGenReport;
}

/** When player i answers after the push: 70% in the first 2 s (the burst), the rest over 12 s (the live-show rows share it). */
export const thinkMs = (i: number) => (i % 10 < 7 ? (i * 7919) % 2000 : 2000 + ((i * 104729) % 10_000));
/** Which players answer a question right: about 60%, the same in every live-show row. */
export const answersRight = (userId: number, questionId: number) => (userId * 13 + questionId * 7) % 10 < 6;

export async function liveShow(
  target: SocketTarget,
  fx: Fixtures,
  t: BenchTournament,
  players: Player[],
  o: { startAt: number; questions: number },
): Promise<LiveShowRun> {
  const errorSamples: string[] = [];
  let errors = 0;
  const fail = (m: string) => {
    errors++;
    if (errorSamples.length < 10) errorSamples.push(m);
  };
  const errorCodes: Record<string, number> = {};
  const n = players.length;
  const pushLatency = new Samples();
  const answerLatency = new Samples();
  const received = Array.from({ length: o.questions }, () => new Float64Array(n));
  const issuedAt = new Array<number>(o.questions).fill(0);
  const answerTimes: number[] = [];
  const points = new Float64Array(n);
  const sentAt = new Float64Array(n);
  const choice = new Array<{ questionId: number; right: boolean } | null>(n).fill(null);
  let revealsEarly = 0;
  let answers = 0;
  let completed = 0;
  let sockets: WebSocket[] = [];
  const send = (i: number, frame: unknown) => {
    // While the sockets are still opening (the room pings each as it opens) there is no handle yet.
    if (sockets.length === 0) return;
    try {
      sockets[i]!.send(JSON.stringify(frame));
    } catch (e) {
      fail(`send ${i}: ${String(e)}`);
    }
  };
  // Wall-clock receive time, to compare with the room's issuedAt (ms since the epoch).
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
        issuedAt[k] = pushed;
        pushLatency.add(Math.max(0, wall(at) - pushed));
        const q = t.questions.get(f.question.id)!;
        const right = answersRight(players[i]!.id, q.id);
        setTimeout(
          () => {
            choice[i] = { questionId: q.id, right };
            sentAt[i] = now();
            send(i, { type: "answer", id: `a${k}`, questionId: q.id, answer: right ? q.correct : q.options.find((x) => x !== q.correct)! });
          },
          thinkMs(i + k * 31),
        );
        return;
      }
      case "result":
        answers++;
        answerTimes.push(wall(at));
        answerLatency.add(at - sentAt[i]!);
        if (!f.result.locked) fail(`player ${i}: an unlocked result before the reveal: ${data.slice(0, 120)}`);
        return;
      case "reveal": {
        const k = f.index as number;
        if (issuedAt[k] && wall(at) < issuedAt[k]! + LIVE_SHOW_WINDOW_MS) revealsEarly++;
        const mine = choice[i];
        if (mine && mine.questionId === f.questionId) {
          const you = f.you;
          if (!you || you.isCorrect !== mine.right || you.pointsEarned !== answerPoints(mine.right, you.responseTime))
            fail(`player ${i} q${f.questionId}: reveal ${JSON.stringify(you)} (expected right=${mine.right})`);
          else points[i]! += you.pointsEarned;
        }
        choice[i] = null;
        return;
      }
      case "status":
        if (f.status === "completed") completed++;
        return;
      case "error": {
        // One sample per code: thousands of the same refusal would hide any other.
        const code = String(f.code);
        errorCodes[code] = (errorCodes[code] ?? 0) + 1;
        errors++;
        if (errorCodes[code] === 1 && errorSamples.length < 10) errorSamples.push(`player ${i}: ${data.slice(0, 160)}`);
        // A refused answer is not in the reveal's result either.
        if (typeof f.id === "string" && f.id.startsWith("a")) choice[i] = null;
        return;
      }
    }
  };

  const open = await openSockets(target, `/api/tournaments/${t.id}/ws`, n, (i) => players[i]!.cookie, onFrame, { inFlight: 64 });
  sockets = open.sockets;
  for (const f of open.failures.slice(0, 5)) fail(f);
  if (Date.now() > o.startAt) fail(`the sockets took until ${Math.round((Date.now() - o.startAt) / 1000)} s after the show's start`);
  const watch = watchLoadGenerator();
  // The show's own length, and time for a room that has fallen behind to reveal and settle late.
  const showMs = o.questions * (LIVE_SHOW_WINDOW_MS + REVEAL_PAUSE_MS) + 90_000;
  await until(() => completed >= sockets.length, Math.max(0, o.startAt - Date.now()) + showMs);
  const loadGenerator = watch.stop();

  let missed = 0;
  const toLast: number[] = [];
  for (let k = 0; k < o.questions; k++) {
    let last = 0;
    for (let i = 0; i < sockets.length; i++) {
      const at = received[k]![i]!;
      if (!at) missed++;
      else last = Math.max(last, wall(at) - issuedAt[k]!);
    }
    toLast.push(round(last, 1));
  }
  const firstSecond = issuedAt.map((p) => answerTimes.filter((x) => x >= p && x < p + 1000).length);
  const perSecond = new Map<number, number>();
  for (const x of answerTimes) perSecond.set(Math.floor(x / 1000), (perSecond.get(Math.floor(x / 1000)) ?? 0) + 1);

  // The settled scores against the sums of the revealed points, once the show has ended.
  const state = await fx.one<{ status: string; settled: number }>(
    "SELECT status, settled_at IS NOT NULL AS settled FROM tournaments WHERE id = ?",
    t.id,
  );
  const ended = state.status === "completed" && state.settled === 1;
  let mismatches = 0;
  if (!ended) {
    fail(`the show had not ended ${Math.round(showMs / 1000)} s after its start (${state.status}): its settled scores were not compared`);
  } else {
    const rows = await fx.all<{ user_id: number; score: number }>(
      "SELECT user_id, score FROM tournament_participants WHERE tournament_id = ?",
      t.id,
    );
    const byUser = new Map(rows.map((r) => [r.user_id, r.score]));
    for (let i = 0; i < sockets.length; i++) {
      if (byUser.get(players[i]!.id) !== points[i]) {
        mismatches++;
        if (errorSamples.length < 10) errorSamples.push(`player ${i}: settled ${byUser.get(players[i]!.id)} vs revealed ${points[i]}`);
      }
    }
  }
  if (completed < sockets.length) fail(`${sockets.length - completed} sockets never saw the show complete`);
  if (open.closedEarly) fail(`${open.closedEarly} sockets closed by the server`);
  await open.closeAll();
  return {
    sockets: sockets.length,
    questions: o.questions,
    tournamentId: t.id,
    connectSeconds: round(open.openMs / 1000, 1),
    pushLatencyMs: pushLatency.summary(),
    pushToLastSocketMs: toLast,
    answersFirstSecond: firstSecond,
    peakAnswersPerSecond: Math.max(0, ...perSecond.values()),
    answerLatencyMs: answerLatency.summary(),
    answers,
    revealsEarly,
    missedQuestions: missed,
    ended,
    scoreMismatches: mismatches,
    errorCodes,
    errors,
    errorSamples,
    loadGenerator,
  };
}
