// A live show through a restart of the server (docs/decisions/008-live-show-timing.md, "A restart
// mid-show"): a few hundred players on sockets, and at a seeded random moment inside a question's
// window the whole server (wrangler dev and its workerd) is SIGKILLed and started again on the same
// state, as a deploy restarts every Durable Object and drops every socket. The players come back
// as the web client does: after a random wait below a ceiling that doubles per failed attempt
// (common/domain/reconnect.ts), resending an answer whose reply the drop lost, and answering a
// question whose moment to answer came while they were away as soon as they are back.
//
// Measured: how long the server was down and when each socket was back (first, median, last).
// Checked, from the frames and then D1 once the show has ended: every acknowledged answer is in
// the final results (answers lost); no player who was connected between their moment to answer a
// question and its close lacks an answer to it; every settled score and rank equals a re-rank of the acknowledged answers by the
// product's scoring and ranking rules; the house prize pool is paid to the cent to the re-ranked
// top three; no reveal arrives before its window has closed.
import { reconnectDelayMs } from "../../common/domain/reconnect";
import { LIVE_SHOW_WINDOW_MS } from "../../common/domain/live-show";
import { REVEAL_PAUSE_MS } from "../../common/spec";
import { seeded } from "../sim/random";
import type { BenchTournament, Fixtures, Player } from "../lib/fixtures";
import { checkAgainstReRank, type Ack } from "../lib/rerank";
import { now, round } from "../lib/stats";
import type { SocketTarget } from "../lib/sockets";
import { answersRight } from "./live-show";
import { until } from "./socket-play";

export interface RestartRun {
  sockets: number;
  questions: number;
  tournamentId: number;
  seed: number;
  /** The question (0-based) whose window the kill fell in, and how far into that window. */
  killedInQuestion: number;
  killedAtMsIntoWindow: number;
  /** From the kill to the restarted server's health check passing (polled every 500 ms: the first socket may be back before). */
  downMs: number;
  /** From the kill to each socket open again: first, median, last. */
  reconnectFromKillMs: { first: number; median: number; last: number };
  /** Failed attempts (refused while the server was down) over every socket, and the most by one socket. */
  failedAttempts: number;
  mostAttemptsBySocket: number;
  socketsBack: number;
  answersAcknowledged: number;
  /** Acknowledged answers (a locked result) missing from the final results, or stored differently. */
  answersLost: number;
  /** Answer frames sent again after the reconnect because the drop lost their reply. */
  answersResent: number;
  /** (player, question) pairs where the player was connected between their moment to answer and the close, and has no stored answer. */
  questionsMissedByPresentPlayers: number;
  reveals: number;
  revealsEarly: number;
  ended: boolean;
  scoreMismatches: number;
  rankMismatches: number;
  prizePoolCents: number;
  prizesToTheCent: boolean;
  errorCodes: Record<string, number>;
  errors: number;
  errorSamples: string[];
}

/** The server under test, which the scenario may kill and start again. */
export interface RestartableServer {
  /** SIGKILL of the server's whole process group; resolves once no process of it is left. */
  kill(): Promise<void>;
  /** Starts it again on the same state and port; resolves once it answers. */
  start(): Promise<void>;
}

const spread = (xs: number[]) => {
  const v = [...xs].sort((a, b) => a - b);
  return { first: round(v[0] ?? 0), median: round(v[Math.floor((v.length - 1) / 2)] ?? 0), last: round(v[v.length - 1] ?? 0) };
};

export async function restartShow(
  target: SocketTarget,
  fx: Fixtures,
  server: RestartableServer,
  t: BenchTournament,
  players: Player[],
  o: { startAt: number; questions: number; seed: number; prizePoolCents: number; log: (m: string) => void },
): Promise<RestartRun> {
  const errorSamples: string[] = [];
  let errors = 0;
  const fail = (m: string) => {
    errors++;
    if (errorSamples.length < 10) errorSamples.push(m);
  };
  const errorCodes: Record<string, number> = {};
  const random = seeded(o.seed);
  const n = players.length;
  const byId = new Map([...t.questions.values()].map((q) => [q.id, q]));
  // The kill: in a random question's window, early enough that a player can still answer after
  // the server and its clients are back (the restart takes a few seconds, the backoff at most 10).
  const killedInQuestion = Math.floor(random() * o.questions);
  const killedAtMsIntoWindow = Math.round(1_000 + random() * 14_000);
  // Each player's moment to answer each question: spread over the window's first 20 s, so some
  // answers are locked before the kill and some fall while the server is down.
  const thinkMs = Array.from({ length: n }, () => Array.from({ length: o.questions }, () => Math.round(300 + random() * 19_700)));

  const pushedAt = new Array<number>(o.questions).fill(0);
  const acks: (Ack | undefined)[][] = Array.from({ length: n }, () => new Array<Ack | undefined>(o.questions));
  /**
   * The answer frame not yet answered, per player, and the socket it went out on (null: its moment
   * came while the player was away): sent again once a new socket holds the question.
   */
  const pending: ({ k: number; frame: string; on: WebSocket | null } | null)[] = new Array(n).fill(null);
  /** Per player, when a socket of theirs was open: [from, to) on the wall clock. */
  const online: [number, number][][] = Array.from({ length: n }, () => []);
  const openSince = new Array<number>(n).fill(0);
  const sawEnd = new Array<boolean>(n).fill(false);
  const attempts = new Array<number>(n).fill(0);
  const mostAttempts = new Array<number>(n).fill(0);
  let failedAttempts = 0;
  const backAt = new Array<number>(n).fill(0);
  let killedAt = 0;
  let reveals = 0;
  let revealsEarly = 0;
  let answersResent = 0;
  let completed = 0;
  let stopping = false;
  const sockets: (WebSocket | null)[] = new Array(n).fill(null);
  // Wall-clock times, to compare with the room's issuedAt (ms since the epoch).
  const offset = Date.now() - now();
  const wall = () => now() + offset;

  const send = (i: number, frame: string) => {
    const ws = sockets[i];
    if (!ws || ws.readyState !== WebSocket.OPEN) return false;
    ws.send(frame);
    return true;
  };
  const answer = (i: number, k: number, questionId: number) => {
    if (acks[i]![k] || pending[i]?.k === k) return;
    const q = byId.get(questionId)!;
    const right = answersRight(players[i]!.id, q.id);
    const frame = JSON.stringify({
      type: "answer",
      id: `a${k}`,
      questionId: q.id,
      answer: right ? q.correct : q.options.find((x) => x !== q.correct)!,
    });
    pending[i] = { k, frame, on: send(i, frame) ? sockets[i]! : null };
  };

  const onFrame = (i: number, data: string) => {
    const f = JSON.parse(data) as any;
    switch (f.type) {
      case "ping":
        send(i, JSON.stringify({ type: "pong", nonce: f.nonce }));
        return;
      case "question": {
        const k = f.question.index as number;
        const issued = Date.parse(f.question.issuedAt);
        if (pushedAt[k] && pushedAt[k] !== issued)
          fail(`question ${k}: issuedAt ${f.question.issuedAt} after the restart, ${new Date(pushedAt[k]!).toISOString()} before`);
        pushedAt[k] ||= issued;
        const result = f.question.result;
        // After a reconnect the room sends the open question with this player's locked answer.
        if (result?.locked && !acks[i]![k]) {
          acks[i]![k] = { answer: result.answer, responseTime: result.responseTime };
          if (pending[i]?.k === k) pending[i] = null;
        }
        if (acks[i]![k]) return;
        const p = pending[i];
        if (p?.k === k) {
          if (p.on === sockets[i]) return;
          // Sent before the drop and its reply lost (the same frame again gets the same reply),
          // or its moment came while the player was away: sent now.
          if (p.on) answersResent++;
          if (send(i, p.frame)) p.on = sockets[i]!;
          return;
        }
        // A reconnect's copy of a question already scheduled: answer() sends it once.
        const wait = issued + thinkMs[i]![k]! - wall();
        setTimeout(() => answer(i, k, f.question.id), Math.max(0, wait));
        return;
      }
      case "result": {
        const k = Number(String(f.id).slice(1));
        if (!f.result?.locked) fail(`player ${i}: an unlocked result before the reveal: ${data.slice(0, 120)}`);
        else acks[i]![k] ??= { answer: f.result.answer, responseTime: f.result.responseTime };
        if (pending[i]?.k === k) pending[i] = null;
        return;
      }
      case "reveal": {
        reveals++;
        const k = f.index as number;
        if (pushedAt[k] && wall() < pushedAt[k]! + LIVE_SHOW_WINDOW_MS) revealsEarly++;
        return;
      }
      case "status":
        if (f.status === "completed" && !sawEnd[i]) {
          sawEnd[i] = true;
          completed++;
        }
        return;
      case "error": {
        const code = String(f.code);
        errorCodes[code] = (errorCodes[code] ?? 0) + 1;
        errors++;
        if (errorCodes[code] === 1 && errorSamples.length < 10) errorSamples.push(`player ${i}: ${data.slice(0, 160)}`);
        if (typeof f.id === "string" && pending[i] && `a${pending[i]!.k}` === f.id) pending[i] = null;
        return;
      }
    }
  };

  // One player's socket, reconnecting after a close as the web client does (common/domain/reconnect.ts).
  const connect = (i: number) => {
    if (stopping) return;
    const ws = new WebSocket(`${target.base}/api/tournaments/${t.id}/ws`, {
      headers: { cookie: players[i]!.cookie, origin: target.origin },
    } as any);
    sockets[i] = ws;
    let opened = false;
    ws.addEventListener("open", () => {
      opened = true;
      openSince[i] = wall();
      attempts[i] = 0;
      if (killedAt && !backAt[i]) backAt[i] = openSince[i]!;
      // A frame whose reply the drop lost goes again once the room has said where the show is
      // (on the "question" frame), so it is not sent here.
    });
    ws.addEventListener("message", (e) => {
      if (typeof e.data === "string") onFrame(i, e.data);
    });
    // Node's WebSocket (undici) reports a refused or failed handshake with "error" and no "close",
    // so either event ends this socket, once.
    let gone = false;
    const lost = () => {
      if (gone) return;
      gone = true;
      if (stopping || sockets[i] !== ws) return;
      if (opened) {
        online[i]!.push([openSince[i]!, wall()]);
        openSince[i] = 0;
      } else failedAttempts++;
      // The show is over: nothing left to come back for.
      if (sawEnd[i]) return;
      const delay = reconnectDelayMs(attempts[i]!, random);
      attempts[i]!++;
      mostAttempts[i] = Math.max(mostAttempts[i]!, attempts[i]!);
      setTimeout(() => connect(i), delay);
    };
    ws.addEventListener("error", lost);
    ws.addEventListener("close", lost);
  };

  // Sockets open before the start, 32 handshakes at a time.
  for (let from = 0; from < n; from += 32) {
    for (let i = from; i < Math.min(n, from + 32); i++) connect(i);
    await until(() => sockets.slice(from, from + 32).every((ws) => ws?.readyState === WebSocket.OPEN), 30_000);
  }
  if (Date.now() > o.startAt) fail(`the sockets took until ${Math.round((Date.now() - o.startAt) / 1000)} s after the show's start`);

  // The kill, at its moment inside the chosen question's window.
  await until(
    () => pushedAt[killedInQuestion]! > 0,
    o.startAt - Date.now() + (killedInQuestion + 1) * (LIVE_SHOW_WINDOW_MS + REVEAL_PAUSE_MS) + 30_000,
  );
  if (!pushedAt[killedInQuestion]) throw new Error(`question ${killedInQuestion + 1} never reached the players`);
  await new Promise((r) => setTimeout(r, Math.max(0, pushedAt[killedInQuestion]! + killedAtMsIntoWindow - wall())));
  const lockedBefore = acks.reduce((s, a) => s + a.filter(Boolean).length, 0);
  killedAt = wall();
  await server.kill();
  o.log(
    `  killed ${round((killedAt - pushedAt[killedInQuestion]!) / 1000, 1)} s into question ${killedInQuestion + 1}'s window (seed ${o.seed}); ${lockedBefore} answers locked before`,
  );
  await server.start();
  const upAt = wall();
  o.log(`  back after ${round((upAt - killedAt) / 1000, 1)} s`);

  // The rest of the show, and time for the settlement.
  const showEnd = pushedAt[0]! + o.questions * (LIVE_SHOW_WINDOW_MS + REVEAL_PAUSE_MS);
  await until(() => completed >= n, showEnd - wall() + 60_000);
  stopping = true;
  for (let i = 0; i < n; i++) {
    if (openSince[i]) online[i]!.push([openSince[i]!, wall()]);
    sockets[i]?.close(1000, "bench done");
  }

  // What the players saw, against what D1 holds after the settlement.
  const state = await fx.one<{ status: string; settled: number }>(
    "SELECT status, settled_at IS NOT NULL AS settled FROM tournaments WHERE id = ?",
    t.id,
  );
  const ended = state.status === "completed" && state.settled === 1;
  if (!ended) fail(`the show had not ended a minute after its clock said (${state.status})`);
  const ord = new Map([...t.questions.values()].map((q) => [q.id, q.ord]));
  const stored = await fx.all<{
    user_id: number;
    question_id: number;
    answer: string | null;
    response_time: number;
    points_earned: number;
  }>("SELECT user_id, question_id, answer, response_time, points_earned FROM user_responses WHERE tournament_id = ?", t.id);
  const storedBy = new Map(stored.map((r) => [`${r.user_id}:${ord.get(r.question_id)}`, r]));
  let answersLost = 0;
  let missed = 0;
  let acknowledged = 0;
  for (let i = 0; i < n; i++) {
    for (let k = 0; k < o.questions; k++) {
      const a = acks[i]![k];
      const row = storedBy.get(`${players[i]!.id}:${k}`);
      if (a) {
        acknowledged++;
        if (!row || row.answer !== a.answer || row.response_time !== a.responseTime) {
          answersLost++;
          if (errorSamples.length < 10)
            errorSamples.push(`player ${i} q${k}: acknowledged ${JSON.stringify(a)}, stored ${JSON.stringify(row ?? null)}`);
        }
      }
      const closes = pushedAt[k]! + LIVE_SHOW_WINDOW_MS;
      // Present: connected at some moment between the player's moment to answer and the close
      // (one cut off from then until the close was away when it mattered).
      const moment = pushedAt[k]! + thinkMs[i]![k]!;
      const present = online[i]!.some(([from, to]) => from < closes && to > moment);
      if (present && (!row || row.answer === null)) missed++;
    }
  }

  // The re-rank: the acknowledged answers scored and ranked by the product's rules.
  const reRank = await checkAgainstReRank(fx, t, players, acks, o);
  errorSamples.push(...reRank.samples.slice(0, Math.max(0, 10 - errorSamples.length)));
  const { scoreMismatches, rankMismatches } = reRank;
  const prizesToTheCent = reRank.prizesToTheCent;

  const back = backAt.filter(Boolean);
  if (back.length < n) fail(`${n - back.length} sockets never came back`);
  if (completed < n) fail(`${n - completed} sockets never saw the show complete`);
  return {
    sockets: n,
    questions: o.questions,
    tournamentId: t.id,
    seed: o.seed,
    killedInQuestion,
    killedAtMsIntoWindow,
    downMs: round(upAt - killedAt, 0),
    reconnectFromKillMs: spread(back.map((x) => x - killedAt)),
    failedAttempts,
    mostAttemptsBySocket: Math.max(0, ...mostAttempts),
    socketsBack: back.length,
    answersAcknowledged: acknowledged,
    answersLost,
    answersResent,
    questionsMissedByPresentPlayers: missed,
    reveals,
    revealsEarly,
    ended,
    scoreMismatches,
    rankMismatches,
    prizePoolCents: o.prizePoolCents,
    prizesToTheCent,
    errorCodes,
    errors,
    errorSamples,
  };
}
