// GET /api/admin/fair-play: the console's fair-play screen, cheat attempts (newest first) and
// flagged results (latest tournaments first), narrowed to a tournament, a player, or both, and
// the attempts to those still open or already reviewed.
import { Hono } from "hono";
import { and, asc, desc, eq, sql } from "drizzle-orm";
import { fairPlayQuerySchema, type FairPlayOverview } from "../../common/api/console-players";
import { integrityReport } from "../fair-play/integrity";
import { cheatAttempts, tournamentParticipants, tournaments } from "../db/schema";
import { requireAdmin, requireUser } from "../http/middleware";
import { validate } from "../http/validate";
import type { AppEnv } from "../http/app-env";

export const adminFairPlayRoutes = new Hono<AppEnv>()
  .use(requireUser, requireAdmin)
  .get("/", validate("query", fairPlayQuerySchema), async (c) => {
    const { tournamentId, userId, review } = c.req.valid("query");
    const attempts = and(
      tournamentId === undefined ? undefined : eq(cheatAttempts.tournamentId, tournamentId),
      userId === undefined ? undefined : eq(cheatAttempts.userId, userId),
      review === "all" ? undefined : eq(cheatAttempts.reviewed, review === "reviewed"),
    );
    const flagged = and(
      tournamentId === undefined ? undefined : eq(tournamentParticipants.tournamentId, tournamentId),
      userId === undefined ? undefined : eq(tournamentParticipants.userId, userId),
    );
    const report: FairPlayOverview = await integrityReport(c.get("db"), attempts, flagged, [
      desc(tournaments.startTime),
      desc(tournaments.id),
      sql`${tournamentParticipants.rank} IS NULL`,
      asc(tournamentParticipants.rank),
    ]);
    return c.json(report);
  });
