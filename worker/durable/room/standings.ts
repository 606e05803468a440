// Standings of a room from its own storage: scores, the tiebreak total, ranks.
import { QUESTION_TIME_MS } from "../../../common/spec";
import { rankStandings, totalResponseMs, type Standing } from "../../../common/domain/scoring";
import type { ParticipantRow, PlayRow } from "./tables";
import { isOpen } from "./tables";

export interface PlayerStanding extends Standing {
  username: string;
  level: number;
  showLevel: boolean;
  questionsAnswered: number;
  correctAnswers: number;
  /** XP from answers (placement XP is added at settlement). */
  answerXp: number;
  /** 1-based. */
  rank: number;
  prizeCents: number;
}

/** A played question as D1's user_responses stores it: unanswered ones are timed out. */
export interface ResponseRecord {
  u: number;
  q: number;
  a: string | null;
  c: 0 | 1;
  ms: number;
  p: number;
  at: number;
  /** When the server received the answer; null when the question timed out. */
  ra: number | null;
}

/**
 * Ranks every participant. `final` (a finished player, or settlement) counts every question the
 * player did not answer as timed out; otherwise only issued questions whose time ran out count.
 */
export function computeStandings(
  participants: readonly ParticipantRow[],
  plays: readonly PlayRow[],
  questionCount: number,
  now: number,
  final: boolean,
): PlayerStanding[] {
  const byUser = new Map<number, PlayRow[]>();
  for (const play of plays) {
    const mine = byUser.get(play.user_id);
    if (mine) mine.push(play);
    else byUser.set(play.user_id, [play]);
  }
  const rows = participants.map((p) => {
    const mine = byUser.get(p.user_id) ?? [];
    const answered = mine.filter((x) => x.answer !== null);
    const finished = final || p.finished_at !== null;
    const timedOut = finished ? questionCount - answered.length : mine.filter((x) => x.answer === null && !isOpen(x, now)).length;
    return { ...standingOf(p, answered, timedOut), rank: 0 };
  });
  return rankStandings(rows).map((row, i) => ({ ...row, rank: i + 1 }));
}

/**
 * A live show's standings after `revealed` questions have been revealed: only revealed answers
 * count (the board must not tell anyone whether an answer was right before the reveal), and a
 * revealed question a player did not answer counts as timed out.
 */
export function showStandings(
  participants: readonly ParticipantRow[],
  playsOf: (userId: number) => readonly PlayRow[],
  revealed: number,
): Omit<PlayerStanding, "rank">[] {
  return participants.map((p) => {
    const answered = playsOf(p.user_id).filter((x) => x.ord < revealed && x.answer !== null);
    return standingOf(p, answered, revealed - answered.length);
  });
}

/** A player's totals from their answered plays and how many questions timed out. */
function standingOf(p: ParticipantRow, answered: readonly PlayRow[], timedOut: number): Omit<PlayerStanding, "rank"> {
  return {
    userId: p.user_id,
    username: p.username,
    level: p.level,
    showLevel: p.show_level !== 0,
    score: answered.reduce((s, x) => s + (x.points ?? 0), 0),
    totalResponseMs: totalResponseMs(
      answered.map((x) => x.response_ms ?? 0),
      timedOut,
    ),
    finishedAt: p.finished_at,
    questionsAnswered: answered.length,
    correctAnswers: answered.filter((x) => x.is_correct === 1).length,
    answerXp: answered.reduce((s, x) => s + (x.xp ?? 0), 0),
    prizeCents: p.prize_cents,
  };
}

/** The user_responses rows for these players: every question issued to them, answered or timed out. */
export function responseRecords(plays: readonly PlayRow[], questionIdByOrd: Map<number, number>, userIds: Set<number>): ResponseRecord[] {
  return plays
    .filter((p) => userIds.has(p.user_id))
    .map((p) => ({
      u: p.user_id,
      q: questionIdByOrd.get(p.ord)!,
      a: p.answer,
      c: p.is_correct === 1 ? 1 : 0,
      ms: p.response_ms ?? QUESTION_TIME_MS,
      p: p.points ?? 0,
      at: p.answered_at ?? p.issued_at + QUESTION_TIME_MS,
      ra: p.answered_at,
    }));
}
