// 1. The answer path: P players in one live tournament each play 10 questions as fast as the
// server allows (POST /next, then POST /answer at once), through `lanes` keep-alive connections.
// Players take turns round-robin, so all of them are mid-game together. The tournament is
// self-paced prize play (a standard one), so every answer is only locked in until it ends
// (docs/fair-play.md): each reply is checked to be the player's next question, locked in with
// its answer, response time, revealAt and a receipt without points, and nothing of the verdict.
// The harness knows which answers are right, so it sums the points the scoring rule gives each
// for its response time; the live board must show every player's answered count with a score of
// 0. The scores are compared once the tournament has ended (settledScores, after settlement).
import { answerPoints } from "../../common/domain/scoring";
import { QUESTIONS_PER_TOURNAMENT } from "../../common/spec";
import type { HttpClient } from "../lib/http";
import {
  diffCounters,
  lockedReplyProblem,
  perOp,
  type BenchTournament,
  type D1Counters,
  type Fixtures,
  type Player,
} from "../lib/fixtures";
import { now, parallel, round, Samples, type LatencySummary } from "../lib/stats";

export interface AnswerRun {
  players: number;
  lanes: number;
  tournamentId: number;
  answers: number;
  answersPlanned: number;
  questionsIssued: number;
  seconds: number;
  answersPerSecond: number;
  requestsPerSecond: number;
  answerLatencyMs: LatencySummary;
  nextLatencyMs: LatencySummary;
  errors: number;
  errorSamples: string[];
  /** Players whose live board row is not their answered count with a withheld score (0). */
  boardMismatches: number;
  /** Players whose settled score or answered count differs from the harness's: filled in once the tournament has ended (settlement). */
  scoreMismatches: number;
  /** Players whose settled scores were compared; 0 until the tournament has ended. */
  playersChecked: number;
  timeCapped: boolean;
  d1PerAnswer: D1Counters;
  d1Total: D1Counters;
}

export interface PlayState {
  player: Player;
  /** Questions issued to the player (POST /next answered 200). */
  issued: number;
  /** Questions answered (locked in). */
  done: number;
  /** What the scoring rule gives the answers: the harness knows which were right, the replies give each response time. */
  points: number;
}

/** Deterministic choice: about 70% right. */
const answersRight = (userId: number, questionId: number) => (userId * 31 + questionId * 17) % 10 < 7;

export async function answerPath(
  http: HttpClient,
  fx: Fixtures,
  t: BenchTournament,
  players: Player[],
  o: { lanes: number; capMs: number },
): Promise<{ run: AnswerRun; states: PlayState[] }> {
  const states: PlayState[] = players.map((player) => ({ player, issued: 0, done: 0, points: 0 }));
  const queue: PlayState[] = [...states];
  const answerMs = new Samples();
  const nextMs = new Samples();
  const errorSamples: string[] = [];
  let errors = 0;
  let issued = 0;
  let answered = 0;
  const fail = (msg: string) => {
    errors++;
    if (errorSamples.length < 10) errorSamples.push(msg);
  };

  // The room loads the tournament and its participants on first use; do that before timing.
  const warm = await http.get(`/api/tournaments/${t.id}/leaderboard`);
  if (warm.status !== 200 || warm.json.length !== players.length)
    throw new Error(`room warm-up: ${warm.status} ${warm.text.slice(0, 200)}`);

  const before = await fx.d1();
  const started = now();
  const stopAt = started + o.capMs;
  let capped = false;

  await parallel(o.lanes, async () => {
    for (;;) {
      const s = queue.shift();
      if (!s) return;
      if (now() > stopAt) {
        capped = true;
        return;
      }
      const path = `/api/tournaments/${t.id}`;
      const q = await http.post(`${path}/next`, {}, s.player.cookie);
      nextMs.add(q.ms);
      if (q.status !== 200) {
        fail(`next ${s.player.username}: ${q.status} ${q.text.slice(0, 120)}`);
        continue;
      }
      issued++;
      s.issued++;
      const question = t.questions.get(q.json.id);
      if (!question || q.json.index !== s.done || question.ord !== s.done) {
        fail(`next ${s.player.username}: got question ${q.json.id} at index ${q.json.index}, expected index ${s.done}`);
        continue;
      }
      const right = answersRight(s.player.id, question.id);
      const choice = right ? question.correct : question.options.find((x) => x !== question.correct)!;
      const a = await http.post(`${path}/answer`, { questionId: question.id, answer: choice }, s.player.cookie);
      answerMs.add(a.ms);
      if (a.status !== 200) {
        fail(`answer ${s.player.username}: ${a.status} ${a.text.slice(0, 120)}`);
        continue;
      }
      answered++;
      const problem = lockedReplyProblem(a.json, t, { userId: s.player.id, questionId: question.id, answer: choice });
      if (problem) fail(`answer ${s.player.username} q${question.id}: ${problem}: ${a.text.slice(0, 160)}`);
      s.done++;
      s.points += answerPoints(right, a.json.responseTime);
      if (s.done < QUESTIONS_PER_TOURNAMENT) queue.push(s);
    }
  });
  const seconds = (now() - started) / 1000;
  const after = await fx.d1();

  // Every answer counted on the live board, and no score shown before the end.
  const board = await liveBoardMismatches(http, t, states);
  for (const m of board.samples) if (errorSamples.length < 10) errorSamples.push(m);

  const answers = answered;
  const d1Total = diffCounters(before, after);
  return {
    states,
    run: {
      players: players.length,
      lanes: o.lanes,
      tournamentId: t.id,
      answers,
      answersPlanned: players.length * QUESTIONS_PER_TOURNAMENT,
      questionsIssued: issued,
      seconds: round(seconds, 2),
      answersPerSecond: round(answers / seconds, 0),
      requestsPerSecond: round((answerMs.count + nextMs.count) / seconds, 0),
      answerLatencyMs: answerMs.summary(),
      nextLatencyMs: nextMs.summary(),
      errors,
      errorSamples,
      boardMismatches: board.mismatches,
      scoreMismatches: 0,
      playersChecked: 0,
      timeCapped: capped,
      d1PerAnswer: perOp(d1Total, Math.max(1, answers)),
      d1Total,
    },
  };
}

/**
 * A self-paced prize tournament's board before its end (GET /leaderboard): every player's row
 * shows how many questions they have answered, and every score is 0 (withheld until settlement).
 */
export async function liveBoardMismatches(
  http: HttpClient,
  t: BenchTournament,
  states: PlayState[],
): Promise<{ mismatches: number; samples: string[] }> {
  const board = await http.get(`/api/tournaments/${t.id}/leaderboard`);
  if (board.status !== 200)
    return { mismatches: states.length, samples: [`live leaderboard: ${board.status} ${board.text.slice(0, 120)}`] };
  const rows = board.json as { userId: number; score: number; questionsAnswered: number }[];
  const byUser = new Map(rows.map((r) => [r.userId, r]));
  const samples: string[] = [];
  let mismatches = 0;
  for (const s of states) {
    const row = byUser.get(s.player.id);
    if (!row || row.score !== 0 || row.questionsAnswered !== s.done) {
      mismatches++;
      if (samples.length < 5)
        samples.push(`live board ${s.player.username}: ${JSON.stringify(row)} vs harness answered ${s.done}, score withheld`);
    }
  }
  return { mismatches, samples };
}

/** Waits (up to `timeoutMs`) until the tournament has ended: completed, its scores settled. */
export async function waitUntilEnded(http: HttpClient, t: BenchTournament, timeoutMs: number): Promise<boolean> {
  const deadline = now() + timeoutMs;
  for (;;) {
    const detail = await http.getWithRetries(`/api/tournaments/${t.id}`);
    if (detail.status === 200 && detail.json?.status === "completed") return true;
    if (now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 250));
  }
}

/**
 * Once the tournament has ended (completed, settled): every player's score on the board against
 * the sum of the points the harness expects from its own right/wrong and the locked replies'
 * response times, and the answered count.
 */
export async function settledScores(
  http: HttpClient,
  t: BenchTournament,
  states: PlayState[],
): Promise<{ ended: boolean; mismatches: number; samples: string[] }> {
  if (!(await waitUntilEnded(http, t, 60_000)))
    return { ended: false, mismatches: states.length, samples: [`tournament ${t.id} has not ended: its scores cannot be compared`] };
  const board = await http.getWithRetries(`/api/tournaments/${t.id}/leaderboard`);
  if (board.status !== 200)
    return { ended: true, mismatches: states.length, samples: [`settled leaderboard: ${board.status} ${board.text.slice(0, 120)}`] };
  const byUser = new Map((board.json as { userId: number; score: number; questionsAnswered: number }[]).map((r) => [r.userId, r]));
  const samples: string[] = [];
  let mismatches = 0;
  for (const s of states) {
    const row = byUser.get(s.player.id);
    if (!row || row.score !== s.points || row.questionsAnswered !== s.done) {
      mismatches++;
      if (samples.length < 5)
        samples.push(`settled score ${s.player.username}: board ${JSON.stringify(row)} vs harness ${s.points}/${s.done}`);
    }
  }
  return { ended: true, mismatches, samples };
}
