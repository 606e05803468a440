// The public leaderboard: all time or this week, worldwide or one country, honouring each
// player's visibility switches.
import { Hono } from "hono";
import { and, asc, desc, eq, gt, isNull, sql } from "drizzle-orm";
import { leaderboardQuerySchema, type GlobalLeaderboardEntry } from "../../common/api/tournaments";
import { GLOBAL_LEADERBOARD_SIZE, LEADERBOARD_WEEK_MS } from "../../common/spec";
import { centsToDollars } from "../../common/domain/money";
import { users } from "../db/schema";
import { prizeTotals } from "../db/totals";
import { avatarUrl } from "../db/present";
import { visibility } from "../db/present-tournament";
import { validate } from "../http/validate";
import type { AppEnv } from "../http/app-env";

export const leaderboardRoutes = new Hono<AppEnv>().get("/", validate("query", leaderboardQuerySchema), async (c) => {
  const q = c.req.valid("query");
  const db = c.get("db");
  // Prizes are counted from the ledger, the same figure as a player's total earnings.
  const prizes = prizeTotals(db, q.period === "week" ? Date.now() - LEADERBOARD_WEEK_MS : null);
  const since = q.period === "week";
  const totalPrize = sql<number>`coalesce(${prizes.total}, 0)`;
  const players = db
    .select({
      id: users.id,
      username: users.username,
      hasAvatar: sql<number>`${users.avatar} IS NOT NULL`,
      avatarVersion: users.avatarVersion,
      country: users.country,
      level: users.level,
      tournamentsPlayed: users.tournamentsPlayed,
      tournamentsWon: users.tournamentsWon,
      preferences: users.preferences,
      totalPrize,
    })
    .from(users);
  // This week ranks only players who won something this week; all time ranks everyone who played.
  const joined = !since ? players.leftJoin(prizes, eq(prizes.userId, users.id)) : players.innerJoin(prizes, eq(prizes.userId, users.id));
  const rows = await joined
    .where(and(gt(users.tournamentsPlayed, 0), isNull(users.deletedAt), q.region === undefined ? undefined : eq(users.country, q.region)))
    .orderBy(desc(totalPrize), desc(users.tournamentsWon), asc(users.id))
    .limit(GLOBAL_LEADERBOARD_SIZE)
    .all();
  const entries: GlobalLeaderboardEntry[] = rows.map((r) => {
    const show = visibility(r.preferences);
    return {
      id: r.id,
      username: r.username,
      avatar: r.hasAvatar ? avatarUrl(r.username, r.avatarVersion) : null,
      region: r.country ?? "Global",
      level: show.showLevel ? r.level : null,
      tournamentsPlayed: r.tournamentsPlayed,
      tournamentsWon: show.showWins ? r.tournamentsWon : null,
      totalPrize: centsToDollars(r.totalPrize),
    };
  });
  return c.json(entries satisfies GlobalLeaderboardEntry[]);
});
