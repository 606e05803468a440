// 1. The answer path: P players in one live tournament each play 10 questions as fast as the
// server allows (POST /next, then POST /answer at once), through `lanes` keep-alive connections.
// Players take turns round-robin, so all of them are mid-game together. Every reply is checked:
// the question is the player's next one, correctness matches the known answer, the points match
// the scoring rule for the measured response time; at the end every player's score on the
// room's leaderboard equals the sum of the points the harness was given.
import { answerPoints } from "../../common/domain/scoring";
import { QUESTIONS_PER_TOURNAMENT } from "../../common/spec";
import type { HttpClient } from "../lib/http";
import { diffCounters, perOp, shownOrWithheld, type BenchTournament, type D1Counters, type Fixtures, type Player } from "../lib/fixtures";
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
  scoreMismatches: number;
  playersChecked: number;
  timeCapped: boolean;
  d1PerAnswer: D1Counters;
  d1Total: D1Counters;
}

export interface PlayState {
  player: Player;
  /** Questions issued to the player (POST /next answered 200). */
  issued: number;
  /** Questions answered and scored. */
  done: number;
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
      const r = a.json as {
        isCorrect: boolean;
        pointsEarned: number;
        responseTime: number;
        correctAnswer: string | null;
        withheldUntil: string | null;
      };
      if (r.isCorrect !== right || !shownOrWithheld(r, question.correct) || r.pointsEarned !== answerPoints(right, r.responseTime)) {
        fail(`answer ${s.player.username} q${question.id}: ${JSON.stringify(r).slice(0, 160)} (expected right=${right})`);
      }
      s.done++;
      s.points += r.pointsEarned;
      if (s.done < QUESTIONS_PER_TOURNAMENT) queue.push(s);
    }
  });
  const seconds = (now() - started) / 1000;
  const after = await fx.d1();

  // Every answer scored: the room's leaderboard against the harness's own sums.
  const board = await http.get(`/api/tournaments/${t.id}/leaderboard`);
  let mismatches = 0;
  if (board.status !== 200) {
    fail(`leaderboard: ${board.status}`);
    mismatches = states.length;
  } else {
    const byUser = new Map((board.json as { userId: number; score: number; questionsAnswered: number }[]).map((r) => [r.userId, r]));
    for (const s of states) {
      const row = byUser.get(s.player.id);
      if (!row || row.score !== s.points || row.questionsAnswered !== s.done) {
        mismatches++;
        if (errorSamples.length < 10)
          errorSamples.push(`score ${s.player.username}: board ${JSON.stringify(row)} vs harness ${s.points}/${s.done}`);
      }
    }
  }

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
      scoreMismatches: mismatches,
      playersChecked: states.length,
      timeCapped: capped,
      d1PerAnswer: perOp(d1Total, Math.max(1, answers)),
      d1Total,
    },
  };
}
