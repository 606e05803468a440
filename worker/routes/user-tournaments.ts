// GET /api/user/tournaments: the signed-in player's tournaments, newest first, with their results.
import { Hono } from "hono";
import { desc, eq } from "drizzle-orm";
import type { UserTournamentEntry } from "../../common/api/tournaments";
import { centsToDollars } from "../../common/domain/money";
import { tournamentParticipants, tournaments } from "../db/schema";
import { iso } from "../db/present";
import { currentUser, requireUser } from "../http/middleware";
import type { AppEnv } from "../http/app-env";

export const userTournamentRoutes = new Hono<AppEnv>().use(requireUser).get("/", async (c) => {
  const rows = await c
    .get("db")
    .select({
      id: tournaments.id,
      title: tournaments.title,
      kind: tournaments.kind,
      finished: tournamentParticipants.hasCompleted,
      status: tournaments.status,
      startTime: tournaments.startTime,
      endTime: tournaments.endTime,
      rank: tournamentParticipants.rank,
      score: tournamentParticipants.score,
      prizeCents: tournamentParticipants.prizeCents,
    })
    .from(tournamentParticipants)
    .innerJoin(tournaments, eq(tournaments.id, tournamentParticipants.tournamentId))
    .where(eq(tournamentParticipants.userId, currentUser(c).id))
    .orderBy(desc(tournaments.startTime), desc(tournaments.id))
    .all();
  const entries: UserTournamentEntry[] = rows.map(({ prizeCents, ...r }) => ({
    ...r,
    startTime: iso(r.startTime),
    endTime: r.endTime === null ? null : iso(r.endTime),
    prize: centsToDollars(prizeCents),
  }));
  return c.json(entries);
});
