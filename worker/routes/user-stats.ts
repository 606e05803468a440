// GET /api/user/stats: the signed-in player's statistics, computed from their real answers and results.
import { Hono } from "hono";
import { and, asc, count, desc, eq, gt, isNotNull, isNull, min, or, sql } from "drizzle-orm";
import type { CategoryStat, UserStats } from "../../common/api/tournaments";
import { centsToDollars } from "../../common/domain/money";
import { winRate } from "../../common/domain/levels";
import { categories, questions, tournaments, transactions, userResponses, users } from "../db/schema";
import { iso } from "../db/present";
import { paidPrize, prizeTotals, total } from "../db/totals";
import { currentUser, requireUser } from "../http/middleware";
import type { AppEnv } from "../http/app-env";

/** Milliseconds to seconds with one decimal. */
const seconds = (ms: number | null) => (ms === null ? null : Math.round(ms / 100) / 10);

export const userStatsRoutes = new Hono<AppEnv>().use(requireUser).get("/", async (c) => {
  const me = currentUser(c);
  const db = c.get("db");
  // Timed-out questions are stored with a null answer: they were not answered. A standard
  // tournament's answers count once it has ended: before that they would tell right from wrong.
  const resultsShown = sql`(SELECT ${tournaments.kind} <> 'standard' OR ${tournaments.status} = 'completed' FROM ${tournaments} WHERE ${tournaments.id} = ${userResponses.tournamentId})`;
  const answered = and(eq(userResponses.userId, me.id), isNotNull(userResponses.answer), resultsShown);
  const correct = total(userResponses.isCorrect);
  const myPrizes = db
    .select({ total: total(transactions.amountCents) })
    .from(transactions)
    .where(and(eq(transactions.userId, me.id), paidPrize));
  // The global leaderboard's order: total prize, then wins; ties share a rank.
  const others = prizeTotals(db);
  const prize = sql<number>`coalesce(${others.total}, 0)`;
  const [[totals], perCategory, [earnings], [ahead]] = await db.batch([
    db
      .select({
        answered: count(),
        correct,
        avgMs: sql<number | null>`avg(${userResponses.responseTime})`,
        minMs: min(userResponses.responseTime),
      })
      .from(userResponses)
      .where(answered),
    db
      .select({ categoryId: categories.id, category: categories.name, answered: count(), correct })
      .from(userResponses)
      .innerJoin(questions, eq(questions.id, userResponses.questionId))
      .innerJoin(categories, eq(categories.id, questions.categoryId))
      .where(answered)
      .groupBy(categories.id)
      .orderBy(desc(count()), desc(correct), asc(categories.name)),
    myPrizes,
    db
      .select({ n: count() })
      .from(users)
      .leftJoin(others, eq(others.userId, users.id))
      .where(
        and(
          gt(users.tournamentsPlayed, 0),
          isNull(users.deletedAt),
          or(gt(prize, sql`${myPrizes}`), and(eq(prize, sql`${myPrizes}`), gt(users.tournamentsWon, me.tournamentsWon))),
        ),
      ),
  ]);
  const categoryStats: CategoryStat[] = perCategory.map((r) => ({
    ...r,
    accuracy: r.answered > 0 ? Math.round((r.correct / r.answered) * 100) : 0,
  }));
  const stats: UserStats = {
    questionsAnswered: totals?.answered ?? 0,
    correctAnswers: totals?.correct ?? 0,
    averageResponseTime: seconds(totals?.avgMs ?? null),
    fastestResponseTime: seconds(totals?.minMs ?? null),
    favoriteCategory: perCategory[0]?.category ?? null,
    joinedDate: iso(me.createdAt),
    totalEarnings: centsToDollars(earnings?.total ?? 0),
    // Only players who have played are ranked.
    rank: me.tournamentsPlayed > 0 ? 1 + (ahead?.n ?? 0) : null,
    winRate: winRate(me.tournamentsWon, me.tournamentsPlayed),
    categoryStats,
  };
  return c.json(stats);
});
