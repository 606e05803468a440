// The console's view of a question: its row with usage (tournaments holding it, answers and the
// real correct rate from user_responses) and the commitments that freeze it.
import { inArray, sql } from "drizzle-orm";
import type { AdminQuestion } from "../../common/api/admin";
import { correctRate, suggestDifficulty } from "../../common/domain/question-calibration";
import { supplyState } from "../../common/domain/question-supply";
import type { Db } from "../db/client";
import { iso } from "../db/present";
import { questions, tournamentQuestions, userResponses } from "../db/schema";

type QuestionRow = typeof questions.$inferSelect;

export interface QuestionUsage {
  tournaments: number;
  answers: number;
  correct: number;
}

/** Usage of these questions, two grouped reads whatever the page's size. */
export async function usageOf(db: Db, ids: number[]): Promise<Map<number, QuestionUsage>> {
  const usage = new Map(ids.map((id) => [id, { tournaments: 0, answers: 0, correct: 0 }]));
  if (ids.length === 0) return usage;
  const [held, answered] = await Promise.all([
    db
      .select({ id: tournamentQuestions.questionId, n: sql<number>`count(DISTINCT ${tournamentQuestions.tournamentId})` })
      .from(tournamentQuestions)
      .where(inArray(tournamentQuestions.questionId, ids))
      .groupBy(tournamentQuestions.questionId)
      .all(),
    db
      .select({ id: userResponses.questionId, n: sql<number>`count(*)`, correct: sql<number>`sum(${userResponses.isCorrect})` })
      .from(userResponses)
      .where(inArray(userResponses.questionId, ids))
      .groupBy(userResponses.questionId)
      .all(),
  ]);
  for (const h of held) usage.get(h.id)!.tournaments = h.n;
  for (const a of answered) Object.assign(usage.get(a.id)!, { answers: a.n, correct: a.correct });
  return usage;
}

export function presentAdminQuestion(q: QuestionRow, usage: QuestionUsage): AdminQuestion {
  return {
    id: q.id,
    categoryId: q.categoryId,
    question: q.question,
    options: JSON.parse(q.options) as string[],
    correctAnswer: q.correctAnswer,
    difficulty: q.difficultyLevel,
    explanation: q.explanation,
    source: q.generatedBy,
    paidUses: q.paidUses,
    state: supplyState(q),
    practiceOnly: q.practiceOnly,
    answerShownAt: q.answerShownAt === null ? null : iso(q.answerShownAt),
    retiredAt: q.retiredAt === null ? null : iso(q.retiredAt),
    tournaments: usage.tournaments,
    answers: usage.answers,
    correctRate: correctRate(usage.correct, usage.answers),
    suggestedDifficulty: suggestDifficulty({ difficulty: q.difficultyLevel, ...usage }),
  };
}

/**
 * Prize-play tournaments (kind standard) not finished yet that hold this question. Their room
 * copied the questions and published a commitment to them when it was set up, so an edit would
 * not reach them and what operators see would differ from what is played. Practice commits to
 * nothing and has nothing to win.
 */
export async function unfinishedTournamentsHolding(d1: D1Database, questionId: number): Promise<number[]> {
  const { results } = await d1
    .prepare(
      `SELECT DISTINCT t.id FROM tournament_questions tq JOIN tournaments t ON t.id = tq.tournament_id
       WHERE tq.question_id = ? AND t.status IN ('upcoming', 'live') AND t.kind = 'standard' ORDER BY t.id`,
    )
    .bind(questionId)
    .all<{ id: number }>();
  return results.map((r) => r.id);
}

/** The same for many questions in one read: question id to its unfinished tournaments (only those held). */
export async function unfinishedTournamentsHoldingAny(d1: D1Database, questionIds: number[]): Promise<Map<number, number[]>> {
  const held = new Map<number, number[]>();
  if (questionIds.length === 0) return held;
  const { results } = await d1
    .prepare(
      `SELECT DISTINCT tq.question_id AS q, t.id AS t FROM tournament_questions tq JOIN tournaments t ON t.id = tq.tournament_id
       WHERE tq.question_id IN (SELECT value FROM json_each(?)) AND t.status IN ('upcoming', 'live') AND t.kind = 'standard'
       ORDER BY t.id`,
    )
    .bind(JSON.stringify(questionIds))
    .all<{ q: number; t: number }>();
  for (const r of results) held.set(r.q, [...(held.get(r.q) ?? []), r.t]);
  return held;
}

/** The audit log's picture of a question: what an edit can change, and its retirement. */
export const auditView = (q: QuestionRow) => ({
  categoryId: q.categoryId,
  question: q.question,
  options: JSON.parse(q.options) as string[],
  correctAnswer: q.correctAnswer,
  difficulty: q.difficultyLevel,
  explanation: q.explanation,
  retiredAt: q.retiredAt,
});
