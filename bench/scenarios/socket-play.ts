// The answer path over the tournament socket, open loop: P players in one live self-paced room
// play their ten questions as frames (one `next` for the first question, then one `answer` frame
// per question whose reply carries the next question: `next: true`), with every answer given a fixed send
// time on a schedule of `rate` answers per second across the players. An answer's latency runs
// from its scheduled time to its result, so a server that falls behind shows as latency instead
// of quietly slowing the schedule. Players connect in waves of at most `wave` sockets (the
// machine's descriptor limit). The room is self-paced prize play (a standard tournament), so each
// `result` is only locked in until the tournament ends (docs/fair-play.md): every one is checked
// to be the player's answer with its response time, revealAt and a receipt without points, and
// nothing of the verdict; the harness sums the points the scoring rule gives each answer it knows
// right or wrong. After each wave's play the live board must show every player's answered count
// with a score of 0. With `complete`, every player of the wave then completes over the socket
// (`score: null` until the end); the last completion ends the tournament, and each settled score
// must equal the harness's sum. Without it, the room stays live for a later settlement, which
// compares the scores (bench/scenarios/settle.ts).
import { answerPoints } from "../../common/domain/scoring";
import { QUESTIONS_PER_TOURNAMENT } from "../../common/spec";
import {
  diffCounters,
  lockedReplyProblem,
  perOp,
  type BenchTournament,
  type D1Counters,
  type Fixtures,
  type Player,
} from "../lib/fixtures";
import { watchLoadGenerator, type LoadGenReport } from "../lib/loadgen";
import { openSockets, type SocketTarget } from "../lib/sockets";
import { now, parallel, round, Samples, type LatencySummary } from "../lib/stats";
import { liveBoardMismatches, settledScores, type PlayState } from "./answer";

export interface SocketPlayRun {
  players: number;
  wave: number;
  tournamentId: number;
  targetAnswersPerSecond: number;
  answers: number;
  answersPlanned: number;
  seconds: number;
  answersPerSecond: number;
  /** From each answer's scheduled send time to its result. */
  answerLatencyMs: LatencySummary;
  /** Answers that could not go at their scheduled time because the question had not arrived yet. */
  sentLate: number;
  connectSeconds: number;
  completions: number;
  errors: number;
  errorSamples: string[];
  /** Players whose live board row, after their wave's play, was not their answered count with a withheld score (0). */
  boardMismatches: number;
  /** Players whose live board row was checked (those of the waves played). */
  boardChecked: number;
  /** Players whose settled score differs from the harness's sum: once the tournament has ended (with `complete`, here; otherwise by its settlement). */
  scoreMismatches: number;
  /** Whether the settled scores were compared (the tournament ended). */
  scoresChecked: boolean;
  timeCapped: boolean;
  /**
   * The Worker's workerd CPU while the answers are played (from the schedule's start to the last
   * reply of each wave) per answer, and for opening the sockets per socket (the upgrade's session
   * and tournament reads, the room's accept and first frames): the scenario's own CPU per answer
   * counts both, and one socket is opened per ten answers. Null without `cpuSeconds`.
   */
  workerdCpu: { playMsPerAnswer: number; openMsPerSocket: number } | null;
  d1PerAnswer: D1Counters;
  loadGenerator: LoadGenReport;
}

/** Deterministic choice: about 70% right. */
const answersRight = (userId: number, questionId: number) => (userId * 31 + questionId * 17) % 10 < 7;

interface State {
  player: Player;
  socket: number;
  round: number;
  question: { id: number; index: number } | null;
  /** Questions the room has issued to the player (the first `next`'s, then those the results carry), and whether a `next` awaits its question. */
  issued: number;
  asked: boolean;
  /** Scheduled times of answers waiting for their question, oldest first. */
  due: number[];
  sentAt: Map<string, number>;
  /** The answer sent and waiting for its result: its question and whether the harness picked the right option. */
  pending: { id: string; questionId: number; answer: string; right: boolean } | null;
  points: number;
  completed: { score: number | null } | null;
}

export async function socketPlay(
  target: SocketTarget,
  fx: Fixtures,
  t: BenchTournament,
  players: Player[],
  o: { rate: number; wave: number; capMs: number; complete: boolean; cpuSeconds?: () => number },
): Promise<{ run: SocketPlayRun; states: PlayState[] }> {
  const cpu = o.cpuSeconds ?? (() => 0);
  let playCpu = 0;
  let openCpu = 0;
  let opened = 0;
  const played: PlayState[] = [];
  const latency = new Samples();
  const errorSamples: string[] = [];
  let errors = 0;
  const fail = (m: string) => {
    errors++;
    if (errorSamples.length < 10) errorSamples.push(m);
  };
  let answers = 0;
  let sentLate = 0;
  let mismatches = 0;
  let boardMismatches = 0;
  let boardChecked = 0;
  let completions = 0;
  let completesSent = 0;
  let connectMs = 0;
  let capped = false;
  const started = now();
  const stopAt = started + o.capMs;
  let timedMs = 0;
  let lastResultAt = 0;
  let d1Total: D1Counters = {};
  const watch = watchLoadGenerator();

  for (let from = 0; from < players.length && !capped; from += o.wave) {
    const group = players.slice(from, from + o.wave);
    /** Only the last wave's completions can end the tournament (everyone has finished) and show a score. */
    const finalWave = from + o.wave >= players.length;
    const states: State[] = group.map((player, socket) => ({
      player,
      socket,
      round: 0,
      question: null,
      issued: 0,
      asked: false,
      due: [],
      sentAt: new Map(),
      pending: null,
      points: 0,
      completed: null,
    }));
    let sockets: WebSocket[] = [];
    const sendFrame = (s: State, frame: Record<string, unknown>) => {
      if (frame.type === "next") s.asked = true;
      try {
        sockets[s.socket]!.send(JSON.stringify(frame));
      } catch (e) {
        fail(`send ${s.player.username}: ${String(e)}`);
      }
    };
    const sendAnswer = (s: State, dueAt: number) => {
      const q = s.question!;
      const question = t.questions.get(q.id);
      if (!question || question.ord !== s.round) {
        fail(`${s.player.username}: question ${q.id} at index ${q.index}, expected index ${s.round}`);
        return;
      }
      const right = answersRight(s.player.id, q.id);
      const id = `a${s.round}`;
      const answer = right ? question.correct : question.options.find((x) => x !== question.correct)!;
      s.sentAt.set(id, dueAt);
      s.pending = { id, questionId: q.id, answer, right };
      s.question = null;
      // Past the time cap nothing more is asked for: the reply then carries no question.
      sendFrame(
        s,
        capped ? { type: "answer", id, questionId: q.id, answer } : { type: "answer", id, questionId: q.id, answer, next: true },
      );
    };
    /** A question the room issued: answered at once when its answer's time has already come. */
    const received = (s: State, q: { id: number; index: number }) => {
      s.question = { id: q.id, index: q.index };
      s.issued++;
      s.asked = false;
      if (s.due.length > 0) {
        sentLate++;
        sendAnswer(s, s.due.shift()!);
      }
    };
    const onFrame = (i: number, data: string, at: number) => {
      const s = states[i]!;
      const f = JSON.parse(data) as any;
      switch (f.type) {
        case "question":
          if (f.id === undefined) return;
          return received(s, f.question);
        case "result": {
          const due = s.sentAt.get(f.id);
          const sent = s.pending;
          if (due === undefined || !sent || sent.id !== f.id) return fail(`${s.player.username}: a result for ${f.id} it never sent`);
          s.pending = null;
          latency.add(at - due);
          answers++;
          lastResultAt = Math.max(lastResultAt, at);
          const r = f.result;
          const problem = lockedReplyProblem(r, t, { userId: s.player.id, questionId: sent.questionId, answer: sent.answer });
          if (problem) fail(`${s.player.username} q${sent.questionId}: ${problem}: ${JSON.stringify(r).slice(0, 160)}`);
          s.points += answerPoints(sent.right, r.responseTime);
          s.round++;
          // The reply carries the next question (null after the last); absent when none was asked for (the time cap).
          if (f.next === null && s.round < QUESTIONS_PER_TOURNAMENT) fail(`${s.player.username}: the run ended after ${s.round} answers`);
          if (f.next != null) {
            if (s.round >= QUESTIONS_PER_TOURNAMENT) return fail(`${s.player.username}: a question after the last answer`);
            if (f.next.result !== null) return fail(`${s.player.username}: question ${f.next.id} came answered`);
            received(s, f.next);
          }
          return;
        }
        case "completed":
          s.completed = { score: f.score };
          completions++;
          // The score is withheld until the tournament has ended: only the last wave's completions
          // (the one that ends it, and any the room answers after that) may show it.
          if ((f.score !== null && (!finalWave || f.score !== s.points)) || f.questionsAnswered !== s.round) {
            mismatches++;
            if (errorSamples.length < 10)
              errorSamples.push(`${s.player.username}: completed ${JSON.stringify(f)} vs harness ${s.points}/${s.round}`);
          }
          return;
        case "error":
          fail(`${s.player.username}: ${data.slice(0, 160)}`);
          return;
      }
    };
    const openCpuBefore = cpu();
    const open = await openSockets(target, `/api/tournaments/${t.id}/ws`, group.length, (i) => group[i]!.cookie, onFrame, { inFlight: 64 });
    connectMs += open.openMs;
    openCpu += cpu() - openCpuBefore;
    opened += open.sockets.length;
    sockets = open.sockets;
    for (const f of open.failures.slice(0, 5)) fail(f);
    if (open.sockets.length < group.length) {
      fail(`only ${open.sockets.length} of ${group.length} sockets opened`);
      await open.closeAll();
      break;
    }
    // Everyone holds their first question before the clock starts.
    for (const s of states) sendFrame(s, { type: "next", id: "n0" });
    await until(() => states.every((s) => s.question !== null), 60_000);

    const before = await fx.d1();
    const total = group.length * QUESTIONS_PER_TOURNAMENT;
    const clockStart = now();
    const playCpuBefore = cpu();
    const interval = 1000 / o.rate;
    let slot = 0;
    await new Promise<void>((resolve) => {
      const tick = () => {
        const at = now();
        if (at > stopAt) {
          capped = true;
          return resolve();
        }
        while (slot < total && clockStart + slot * interval <= at) {
          const s = states[slot % group.length]!;
          const dueAt = clockStart + slot * interval;
          slot++;
          if (s.question && s.due.length === 0) sendAnswer(s, dueAt);
          else s.due.push(dueAt);
        }
        if (slot >= total) return resolve();
        // A timer, not setImmediate: a spinning generator would take a core from the server.
        setTimeout(tick, 1);
      };
      tick();
    });
    const waveDone = await until(() => states.every((s) => s.round >= QUESTIONS_PER_TOURNAMENT), Math.max(1000, stopAt - now()));
    if (!waveDone) capped = true;
    // Sustained rate: the schedule's start to the wave's last result.
    timedMs += Math.max(lastResultAt, clockStart) - clockStart;
    // Stopped by the time cap: no answer waits for its question any more, and the answers and
    // questions already asked for arrive (untimed) before anything is compared.
    for (const s of states) s.due = [];
    if (!(await until(() => states.every((s) => s.pending === null && !s.asked), 60_000)))
      fail(`${states.filter((s) => s.pending !== null || s.asked).length} answers or questions never arrived`);
    playCpu += cpu() - playCpuBefore;
    d1Total = sumCounters(d1Total, diffCounters(before, await fx.d1()));

    const wavePlayed = states.map((s) => ({ player: s.player, issued: s.issued, done: s.round, points: s.points }));
    played.push(...wavePlayed);
    // Every answer counted on the live board, no score shown before the end.
    const board = await liveBoardMismatches(fx.http, t, wavePlayed);
    boardMismatches += board.mismatches;
    boardChecked += wavePlayed.length;
    for (const m of board.samples) if (errorSamples.length < 10) errorSamples.push(m);
    // Completing over the socket too (every player of the wave, a time-capped one mid-game as well:
    // finishing early is a player's right), or left to the settlement scenario (which completes over HTTP).
    if (o.complete) {
      for (const s of states) {
        completesSent++;
        sendFrame(s, { type: "complete", id: "done" });
      }
      await until(() => states.every((s) => s.completed !== null), 120_000);
    }
    if (open.closedEarly) fail(`${open.closedEarly} sockets closed by the server`);
    await open.closeAll();
  }

  const loadGenerator = watch.stop();
  let scoresChecked = false;
  if (o.complete) {
    // Players of waves the time cap never reached finish without playing (over HTTP), so that everyone has finished.
    const unplayed = players.slice(played.length);
    const queue = [...unplayed];
    await parallel(16, async () => {
      for (let p = queue.shift(); p; p = queue.shift()) {
        const r = await fx.http.post(`/api/tournaments/${t.id}/complete`, {}, p.cookie);
        if (r.status !== 200) fail(`complete ${p.username} (unplayed): ${r.status} ${r.text.slice(0, 120)}`);
      }
    });
    played.push(...unplayed.map((player) => ({ player, issued: 0, done: 0, points: 0 })));
    // Everyone has finished: the last completion ended the tournament, and the settled scores can be compared.
    const settled = await settledScores(fx.http, t, played);
    scoresChecked = settled.ended;
    mismatches += settled.mismatches;
    for (const m of settled.samples) if (errorSamples.length < 10) errorSamples.push(m);
  }
  const run: SocketPlayRun = {
    players: players.length,
    wave: o.wave,
    tournamentId: t.id,
    targetAnswersPerSecond: o.rate,
    answers,
    answersPlanned: players.length * QUESTIONS_PER_TOURNAMENT,
    seconds: round(timedMs / 1000, 2),
    answersPerSecond: round(answers / Math.max(timedMs / 1000, 0.001), 0),
    answerLatencyMs: latency.summary(),
    sentLate,
    connectSeconds: round(connectMs / 1000, 1),
    completions,
    errors,
    errorSamples,
    boardMismatches,
    boardChecked,
    // Every player sent `complete` must answer it.
    scoreMismatches: mismatches + (completesSent - completions),
    scoresChecked,
    timeCapped: capped,
    workerdCpu: o.cpuSeconds
      ? {
          playMsPerAnswer: round((playCpu * 1000) / Math.max(1, answers), 2),
          openMsPerSocket: round((openCpu * 1000) / Math.max(1, opened), 2),
        }
      : null,
    d1PerAnswer: perOp(d1Total, Math.max(1, answers)),
    loadGenerator,
  };
  return { run, states: played };
}

function sumCounters(a: D1Counters, b: D1Counters): D1Counters {
  const out: D1Counters = { ...a };
  for (const [tag, c] of Object.entries(b)) {
    const x = out[tag];
    out[tag] = x
      ? {
          statements: x.statements + c.statements,
          reads: x.reads + c.reads,
          writes: x.writes + c.writes,
          batches: x.batches + c.batches,
          rowsRead: x.rowsRead + c.rowsRead,
          rowsWritten: x.rowsWritten + c.rowsWritten,
        }
      : c;
  }
  return out;
}

/** Waits until `done()` holds (true) or the time runs out (false). */
export async function until(done: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = now() + timeoutMs;
  while (!done()) {
    if (now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 10));
  }
  return true;
}
