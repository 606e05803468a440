// The host's tools for a live show (docs/operating.md, "Host tools"; docs/decisions/017-host-tools.md):
// pause before the next question, void a question, disqualify a player, and the results as CSV.
// Pure rules, so the room can apply them on its alarm and the tests can check them without a room.
import { REVEAL_PAUSE_MS } from "../spec";
import { nextShowStep, type ShowClock, type ShowStage, type ShowStep } from "./live-show";

/**
 * The live show's next step while the host may have paused it. A pause never cuts a question
 * short: an open window runs to its close and its reveal as usual. What it holds is the next
 * question (`hold`: nothing is scheduled until the host resumes). The end of the show after the
 * last reveal is not a question, so it goes ahead.
 */
export function showStepWhilePaused(c: ShowClock, now: number, paused: boolean): ShowStep | { kind: "hold" } {
  const step = nextShowStep(c, now);
  if (!paused) return step;
  // Only a reveal leads to a next question: its wait and its open are held, the last one's finish is not.
  if (c.stage === "reveal" && c.ord + 1 < c.total && (step.kind === "open" || step.kind === "wait")) return { kind: "hold" };
  return step;
}

/**
 * Where the show stands once the host resumes at `now`: a reveal whose pause was held starts its
 * pause again from now, so every player gets the same countdown to the next question, timed by
 * the server. A question still open keeps its own window.
 */
export function resumedClock(c: ShowClock, now: number): ShowClock {
  return c.stage === "reveal" ? { ...c, since: now } : c;
}

/** When the next question goes out after a resume at `now` (the reveal's pause, from now). */
export const nextQuestionAfterResume = (now: number) => now + REVEAL_PAUSE_MS;

/**
 * A paused show's end time moves by the pause: the lifecycle settles a live show at its end time,
 * which must not come while the host holds the next question.
 */
export const endTimeAfterPause = (endTime: number | null, pausedAt: number, resumedAt: number) =>
  endTime === null ? null : endTime + Math.max(0, resumedAt - pausedAt);

/** Which host actions a tournament takes, and why not. */
export type HostRefusal = "not_live_show" | "not_live" | "settled" | null;

/** Pause and resume: a live show, while it runs (before settlement). */
export function pauseRefusal(t: { format: "self_paced" | "live_show"; phase: string }): HostRefusal {
  if (t.format !== "live_show") return "not_live_show";
  if (t.phase !== "live") return t.phase === "settling" || t.phase === "completed" ? "settled" : "not_live";
  return null;
}

/**
 * Voiding: a question of a live show that has gone out (open or already revealed), while the show
 * runs; never once settlement has begun (the ranking and prizes are fixed from then on).
 */
export function voidRefusal(
  t: { format: "self_paced" | "live_show"; phase: string },
  question: { openedAt: number | null } | null,
): HostRefusal | "not_opened" | "unknown_question" {
  const refusal = pauseRefusal(t);
  if (refusal) return refusal;
  if (!question) return "unknown_question";
  if (question.openedAt === null) return "not_opened";
  return null;
}

/**
 * Disqualification moves money when the tournament has any (an entry fee or a prize pool): the
 * places the player would have taken go to the next players, so it needs a second operator. A free
 * tournament without a prize only changes the ranking.
 */
export const disqualificationMovesMoney = (t: { entryFeeCents: number; prizePoolCents: number }) =>
  t.entryFeeCents > 0 || t.prizePoolCents > 0;

/** Questions that count: the show's questions less the voided ones. Settlement's maximums use this. */
export const countedQuestions = (total: number, voided: number) => Math.max(0, total - voided);

/**
 * Plays with the voided questions taken out: a voided question counts for nobody, neither its
 * points, its response time (tiebreak) nor as a timed-out question.
 */
export function withoutVoided<P extends { ord: number }>(plays: readonly P[], voided: ReadonlySet<number>): P[] {
  return voided.size === 0 ? [...plays] : plays.filter((p) => !voided.has(p.ord));
}

/** How many of the first `revealed` questions (ords 0..revealed-1) count. */
export const countedRevealed = (revealed: number, voided: ReadonlySet<number>) =>
  revealed - [...voided].filter((ord) => ord < revealed).length;

/** Characters that make a spreadsheet read a cell as a formula (CSV injection). */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * One CSV cell (RFC 4180): quoted when it holds a comma, quote or line break, quotes doubled; a
 * text starting with = + - @ (or a tab or carriage return) gets a leading ' so a spreadsheet shows
 * it as text instead of running it. Numbers are written as they are (a negative number is not a
 * formula); null and undefined are empty.
 */
export function csvCell(value: string | number | boolean | null | undefined): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "number") return Number.isFinite(value) ? String(value) : "";
  if (typeof value === "boolean") return value ? "true" : "false";
  const text = FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** A CSV line, CRLF-terminated as RFC 4180 has it. */
export const csvRow = (cells: readonly (string | number | boolean | null | undefined)[]) => `${cells.map(csvCell).join(",")}\r\n`;

/** One answer of a player in the results export. */
export interface ResultsCsvAnswer {
  /** The question's place in the show, 0-based. */
  index: number;
  questionId: number;
  /** The option chosen; null when the question timed out. */
  choice: string | null;
  /** Null while the verdict is not known yet (before the reveal). */
  correct: boolean | null;
  responseMs: number | null;
  voided: boolean;
  /** The answer's signed receipt (docs/decisions/009-answer-receipts.md) as JSON; null without an answer. */
  receipt: string | null;
}

export interface ResultsCsvPlayer {
  /** Null for a disqualified player: out of the ranking. */
  rank: number | null;
  userId: number;
  username: string;
  score: number;
  correctAnswers: number;
  totalResponseMs: number;
  disqualifiedReason: string | null;
  answers: ResultsCsvAnswer[];
}

export const RESULTS_CSV_HEADER = [
  "rank",
  "user_id",
  "username",
  "score",
  "correct_answers",
  "total_response_ms",
  "disqualified",
  "disqualified_reason",
  "question_index",
  "question_id",
  "answer",
  "correct",
  "response_ms",
  "voided",
  "receipt",
] as const;

/**
 * A tournament's results as CSV: one line per answer (a player without any gets one line with the
 * answer's cells empty), the player's cells repeated so that any line stands on its own in a
 * spreadsheet's filter. Question index 1-based, as players see it.
 */
export function resultsCsv(players: readonly ResultsCsvPlayer[]): string {
  let out = csvRow(RESULTS_CSV_HEADER);
  for (const p of players) {
    const player = [
      p.rank,
      p.userId,
      p.username,
      p.score,
      p.correctAnswers,
      p.totalResponseMs,
      p.disqualifiedReason !== null,
      p.disqualifiedReason,
    ];
    if (p.answers.length === 0) out += csvRow([...player, null, null, null, null, null, null, null]);
    for (const a of p.answers)
      out += csvRow([...player, a.index + 1, a.questionId, a.choice, a.correct, a.responseMs, a.voided, a.receipt]);
  }
  return out;
}

/** Whether the host holds a live show: paused, live, and not over yet (a paused show does not end at its end time). */
export const isHeld = (t: { format: "self_paced" | "live_show"; phase: string; pausedAt: number | null; stage: ShowStage }) =>
  t.format === "live_show" && t.pausedAt !== null && t.phase === "live" && t.stage !== "over";
