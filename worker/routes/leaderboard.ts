// Public player data: the global leaderboard and profiles, honouring each player's visibility switches.
import { Hono } from "hono";
import { and, isNull, sql } from "drizzle-orm";
import { usernameParamSchema, type GlobalLeaderboardEntry, type PublicProfile } from "../../common/api/tournaments";
import { GLOBAL_LEADERBOARD_SIZE } from "../../common/spec";
import { centsToDollars } from "../../common/domain/money";
import { users } from "../db/schema";
import { iso, parseJsonObject } from "../db/present";
import { visibility } from "../db/present-tournament";
import { notFound } from "../http/errors";
import { parse } from "../http/validate";
import type { AppEnv } from "../http/app-env";

type LeaderboardRecord = {
  id: number;
  username: string;
  avatar: string | null;
  level: number;
  tournaments_played: number;
  tournaments_won: number;
  preferences: string | null;
  total_prize: number;
};

export const leaderboardRoutes = new Hono<AppEnv>()
  .get("/leaderboard", async (c) => {
    // Prizes are counted from the ledger, the same figure as a player's total earnings.
    const { results } = await c.env.DB.prepare(
      `SELECT u.id, u.username, u.avatar, u.level, u.tournaments_played, u.tournaments_won, u.preferences,
              coalesce(p.total, 0) AS total_prize
       FROM users u
       LEFT JOIN (SELECT user_id, sum(amount_cents) AS total FROM transactions
                  WHERE type = 'prize' AND status <> 'failed' GROUP BY user_id) p ON p.user_id = u.id
       WHERE u.tournaments_played > 0 AND u.deleted_at IS NULL
       ORDER BY total_prize DESC, u.tournaments_won DESC, u.id
       LIMIT ?`,
    )
      .bind(GLOBAL_LEADERBOARD_SIZE)
      .all<LeaderboardRecord>();
    const entries: GlobalLeaderboardEntry[] = results.map((r) => {
      const show = visibility(r.preferences);
      return {
        id: r.id,
        username: r.username,
        avatar: r.avatar,
        region: "Global",
        level: show.showLevel ? r.level : null,
        tournamentsPlayed: r.tournaments_played,
        tournamentsWon: show.showWins ? r.tournaments_won : null,
        totalPrize: centsToDollars(r.total_prize),
      };
    });
    return c.json(entries);
  })

  .get("/users/:username", async (c) => {
    const name = parse(usernameParamSchema, c.req.param("username"));
    const u = await c
      .get("db")
      .select()
      .from(users)
      .where(and(sql`lower(${users.username}) = lower(${name})`, isNull(users.deletedAt)))
      .get();
    if (!u) throw notFound("Player not found");
    const show = visibility(u.preferences);
    const profile: PublicProfile = {
      id: u.id,
      username: u.username,
      avatar: u.avatar,
      bio: u.bio,
      location: u.location,
      level: show.showLevel ? u.level : null,
      tournamentsPlayed: u.tournamentsPlayed,
      tournamentsWon: show.showWins ? u.tournamentsWon : null,
      socialLinks: show.showSocial ? parseJsonObject<Record<string, string>>(u.socialLinks) : null,
      createdAt: iso(u.createdAt),
    };
    return c.json(profile);
  });
