// The signed-in player's tournaments and statistics, computed from their real answers and results.
import { Hono } from "hono";
import type { CategoryStat, UserStats, UserTournamentEntry } from "../../common/api/tournaments";
import { centsToDollars } from "../../common/domain/money";
import { winRate } from "../../common/domain/levels";
import { iso } from "../db/present";
import { currentUser, requireUser } from "../http/middleware";
import type { AppEnv } from "../http/app-env";

type EntryRecord = {
  id: number;
  title: string;
  kind: UserTournamentEntry["kind"];
  finished: number;
  status: UserTournamentEntry["status"];
  start_time: number;
  end_time: number | null;
  rank: number | null;
  score: number;
  prize_cents: number;
};
type TotalsRecord = { answered: number; correct: number; avg_ms: number | null; min_ms: number | null };
type CategoryRecord = { category_id: number; category: string; answered: number; correct: number };

/** Milliseconds to seconds with one decimal. */
const seconds = (ms: number | null) => (ms === null ? null : Math.round(ms / 100) / 10);

export const userPlayRoutes = new Hono<AppEnv>()
  .use(requireUser)
  .get("/tournaments", async (c) => {
    const { results } = await c.env.DB.prepare(
      `SELECT t.id, t.title, t.kind, p.has_completed AS finished, t.status, t.start_time, t.end_time, p.rank, p.score, p.prize_cents
       FROM tournament_participants p JOIN tournaments t ON t.id = p.tournament_id
       WHERE p.user_id = ? ORDER BY t.start_time DESC, t.id DESC`,
    )
      .bind(currentUser(c).id)
      .all<EntryRecord>();
    const entries: UserTournamentEntry[] = results.map((r) => ({
      id: r.id,
      title: r.title,
      kind: r.kind,
      finished: r.finished === 1,
      status: r.status,
      startTime: iso(r.start_time),
      endTime: r.end_time === null ? null : iso(r.end_time),
      rank: r.rank,
      score: r.score,
      prize: centsToDollars(r.prize_cents),
    }));
    return c.json(entries);
  })

  .get("/stats", async (c) => {
    const me = currentUser(c);
    const db = c.env.DB;
    // Timed-out questions are stored with a null answer: they were not answered.
    const [totals, perCategory, earnings, rank] = await db.batch([
      db
        .prepare(
          `SELECT count(*) AS answered, coalesce(sum(is_correct), 0) AS correct, avg(response_time) AS avg_ms, min(response_time) AS min_ms
           FROM user_responses WHERE user_id = ? AND answer IS NOT NULL`,
        )
        .bind(me.id),
      db
        .prepare(
          `SELECT c.id AS category_id, c.name AS category, count(*) AS answered, coalesce(sum(r.is_correct), 0) AS correct
           FROM user_responses r JOIN questions q ON q.id = r.question_id JOIN categories c ON c.id = q.category_id
           WHERE r.user_id = ? AND r.answer IS NOT NULL
           GROUP BY c.id ORDER BY answered DESC, correct DESC, c.name`,
        )
        .bind(me.id),
      db
        .prepare("SELECT coalesce(sum(amount_cents), 0) AS total FROM transactions WHERE user_id = ? AND type = 'prize' AND status <> 'failed'")
        .bind(me.id),
      // The global leaderboard's order: total prize, then wins; ties share a rank.
      db
        .prepare(
          `WITH totals AS (
             SELECT u.id, u.tournaments_won AS won,
                    coalesce((SELECT sum(t.amount_cents) FROM transactions t
                              WHERE t.user_id = u.id AND t.type = 'prize' AND t.status <> 'failed'), 0) AS prize
             FROM users u WHERE u.tournaments_played > 0 AND u.deleted_at IS NULL)
           SELECT 1 + (SELECT count(*) FROM totals o WHERE o.prize > me.prize OR (o.prize = me.prize AND o.won > me.won)) AS rank
           FROM totals me WHERE me.id = ?`,
        )
        .bind(me.id),
    ]);
    const t = (totals!.results[0] as TotalsRecord | undefined) ?? { answered: 0, correct: 0, avg_ms: null, min_ms: null };
    const categories = perCategory!.results as CategoryRecord[];
    const categoryStats: CategoryStat[] = categories.map((r) => ({
      categoryId: r.category_id,
      category: r.category,
      answered: r.answered,
      correct: r.correct,
      accuracy: r.answered > 0 ? Math.round((r.correct / r.answered) * 100) : 0,
    }));
    const stats: UserStats = {
      questionsAnswered: t.answered,
      correctAnswers: t.correct,
      averageResponseTime: seconds(t.avg_ms),
      fastestResponseTime: seconds(t.min_ms),
      favoriteCategory: categories[0]?.category ?? null,
      joinedDate: iso(me.createdAt),
      totalEarnings: centsToDollars((earnings!.results[0] as { total: number }).total),
      rank: (rank!.results[0] as { rank: number } | undefined)?.rank ?? null,
      winRate: winRate(me.tournamentsWon, me.tournamentsPlayed),
      categoryStats,
    };
    return c.json(stats);
  });
