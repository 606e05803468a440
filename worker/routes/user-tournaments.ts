// GET /api/user/tournaments: the signed-in player's tournaments, newest first, with their results.
import { Hono } from "hono";
import { and, desc, eq } from "drizzle-orm";
import type { UserTournamentEntry } from "../../common/api/tournaments";
import { REVIEW_REASON, reviewReasonOf } from "../../common/api/fair-play";
import { centsToDollars } from "../../common/domain/money";
import { tournamentParticipants, tournaments, transactions } from "../db/schema";
import { iso } from "../db/present";
import { parseFlags, prizeReferenceOf, prizeStatusOf } from "../db/present-fair-play";
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
      flags: tournamentParticipants.flags,
      prizeRow: transactions.status,
    })
    .from(tournamentParticipants)
    .innerJoin(tournaments, eq(tournaments.id, tournamentParticipants.tournamentId))
    .leftJoin(transactions, and(eq(transactions.userId, tournamentParticipants.userId), eq(transactions.reference, prizeReferenceOf)))
    .where(eq(tournamentParticipants.userId, currentUser(c).id))
    .orderBy(desc(tournaments.startTime), desc(tournaments.id))
    .all();
  const entries: UserTournamentEntry[] = rows.map(({ prizeCents, flags, prizeRow, ...r }) => {
    const prizeStatus = prizeStatusOf(prizeRow);
    const reason = prizeStatus === "held" || prizeStatus === "forfeited" ? reviewReasonOf(parseFlags(flags)) : null;
    return {
      ...r,
      startTime: iso(r.startTime),
      endTime: r.endTime === null ? null : iso(r.endTime),
      prize: centsToDollars(prizeCents),
      prizeStatus,
      reviewReason: reason === null ? null : REVIEW_REASON[reason],
    };
  });
  return c.json(entries);
});
