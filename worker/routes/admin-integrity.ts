// The operators' integrity reports, of a tournament or of a player: the cheat attempts recorded
// during play (newest first) and the participants the room flagged at settlement, each with what
// became of their prize.
import { Hono } from "hono";
import { asc, desc, eq, sql } from "drizzle-orm";
import { PLAY, PLAYER } from "../../common/messages";
import { integrityReport as report } from "../fair-play/integrity";
import { cheatAttempts, tournamentParticipants, tournaments, users } from "../db/schema";
import { notFound } from "../http/errors";
import { requireAdmin, requireUser } from "../http/middleware";
import { idParam } from "../http/validate";
import type { AppEnv } from "../http/app-env";

/** Mounted at /admin: its two URLs share no longer prefix, so each route carries the operators' guard itself. */
export const adminIntegrityRoutes = new Hono<AppEnv>()
  .get("/tournaments/:id/integrity", requireUser, requireAdmin, idParam, async (c) => {
    const db = c.get("db");
    const { id } = c.req.valid("param");
    const exists = await db.select({ id: tournaments.id }).from(tournaments).where(eq(tournaments.id, id)).get();
    if (!exists) throw notFound(PLAY.notFound, "tournament_not_found");
    return c.json(
      await report(
        db,
        eq(cheatAttempts.tournamentId, id),
        eq(tournamentParticipants.tournamentId, id),
        // Standings order; unranked players (nothing answered) last.
        [sql`${tournamentParticipants.rank} IS NULL`, asc(tournamentParticipants.rank), asc(tournamentParticipants.userId)],
      ),
    );
  })
  .get("/users/:id/integrity", requireUser, requireAdmin, idParam, async (c) => {
    const db = c.get("db");
    const { id } = c.req.valid("param");
    const exists = await db.select({ id: users.id }).from(users).where(eq(users.id, id)).get();
    if (!exists) throw notFound(PLAYER.notFound, "player_not_found");
    return c.json(
      await report(db, eq(cheatAttempts.userId, id), eq(tournamentParticipants.userId, id), [
        desc(tournaments.startTime),
        desc(tournaments.id),
      ]),
    );
  });
