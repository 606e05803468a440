// The answer path over the tournament socket, open loop: P players in one live self-paced room
// play their ten questions as frames (next, then answer), with every answer given a fixed send
// time on a schedule of `rate` answers per second across the players. An answer's latency runs
// from its scheduled time to its result, so a server that falls behind shows as latency instead
// of quietly slowing the schedule. Players connect in waves of at most `wave` sockets (the
// machine's descriptor limit). Every result is checked against the known answer and the scoring
// rule, and each player's completed frame must carry the sum of the points they were given.
import { answerPoints } from "../../common/domain/scoring";
import { QUESTIONS_PER_TOURNAMENT } from "../../common/spec";
import { diffCounters, perOp, shownOrWithheld, type BenchTournament, type D1Counters, type Fixtures, type Player } from "../lib/fixtures";
import { watchLoadGenerator, type LoadGenReport } from "../lib/loadgen";
import { openSockets, type SocketTarget } from "../lib/sockets";
import { now, round, Samples, type LatencySummary } from "../lib/stats";
import type { PlayState } from "./answer";

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
  scoreMismatches: number;
  timeCapped: boolean;
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
  /** Scheduled times of answers waiting for their question, oldest first. */
  due: number[];
  sentAt: Map<string, number>;
  points: number;
  completed: { score: number } | null;
}

export async function socketPlay(
  target: SocketTarget,
  fx: Fixtures,
  t: BenchTournament,
  players: Player[],
  o: { rate: number; wave: number; capMs: number; complete: boolean },
): Promise<{ run: SocketPlayRun; states: PlayState[] }> {
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
    const states: State[] = group.map((player, socket) => ({
      player,
      socket,
      round: 0,
      question: null,
      due: [],
      sentAt: new Map(),
      points: 0,
      completed: null,
    }));
    let sockets: WebSocket[] = [];
    const sendFrame = (s: State, frame: Record<string, unknown>) => {
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
      s.sentAt.set(id, dueAt);
      s.question = null;
      sendFrame(s, {
        type: "answer",
        id,
        questionId: q.id,
        answer: right ? question.correct : question.options.find((x) => x !== question.correct)!,
      });
    };
    const onFrame = (i: number, data: string, at: number) => {
      const s = states[i]!;
      const f = JSON.parse(data) as any;
      switch (f.type) {
        case "question":
          if (f.id === undefined) return;
          s.question = { id: f.question.id, index: f.question.index };
          if (s.due.length > 0) {
            sentLate++;
            sendAnswer(s, s.due.shift()!);
          }
          return;
        case "result": {
          const due = s.sentAt.get(f.id);
          if (due === undefined) return fail(`${s.player.username}: a result for ${f.id} it never sent`);
          latency.add(at - due);
          answers++;
          lastResultAt = Math.max(lastResultAt, at);
          const question = [...t.questions.values()].find((q) => q.ord === s.round)!;
          const right = answersRight(s.player.id, question.id);
          const r = f.result;
          if (r.isCorrect !== right || !shownOrWithheld(r, question.correct) || r.pointsEarned !== answerPoints(right, r.responseTime))
            fail(`${s.player.username} q${question.id}: ${JSON.stringify(r).slice(0, 160)} (expected right=${right})`);
          s.points += r.pointsEarned;
          s.round++;
          if (s.round < QUESTIONS_PER_TOURNAMENT) sendFrame(s, { type: "next", id: `n${s.round}` });
          return;
        }
        case "completed":
          s.completed = { score: f.score };
          completions++;
          if (f.score !== s.points || f.questionsAnswered !== s.round) {
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
    const open = await openSockets(target, `/api/tournaments/${t.id}/ws`, group.length, (i) => group[i]!.cookie, onFrame, { inFlight: 64 });
    connectMs += open.openMs;
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
    d1Total = sumCounters(d1Total, diffCounters(before, await fx.d1()));

    for (const s of states) played.push({ player: s.player, issued: s.round, done: s.round, points: s.points });
    // Completing over the socket too, or left to the settlement scenario (which completes over HTTP).
    if (o.complete) {
      for (const s of states) {
        if (s.round < QUESTIONS_PER_TOURNAMENT) continue;
        completesSent++;
        sendFrame(s, { type: "complete", id: "done" });
      }
      await until(() => states.every((s) => s.completed !== null || s.round < QUESTIONS_PER_TOURNAMENT), 120_000);
    }
    if (open.closedEarly) fail(`${open.closedEarly} sockets closed by the server`);
    await open.closeAll();
  }

  const loadGenerator = watch.stop();
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
    // A player the time cap stopped mid-game never completes: only those sent `complete` must answer it.
    scoreMismatches: mismatches + (completesSent - completions),
    timeCapped: capped,
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
