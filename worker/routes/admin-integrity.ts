// The operators' integrity reports, of a tournament or of a player: the cheat attempts recorded
// during play (newest first) and the participants the room flagged at settlement, each with what
// became of their prize.
import { Hono } from "hono";
import { and, asc, desc, eq, sql, type SQL } from "drizzle-orm";
import type { CheatAttemptRow, FlaggedParticipant, IntegrityReport } from "../../common/api/fair-play";
import { PLAY, PLAYER } from "../../common/messages";
import { centsToDollars } from "../../common/domain/money";
import type { Db } from "../db/client";
import { iso } from "../db/present";
import { isFlagged, parseFlags, prizeReferenceOf, prizeStatusOf } from "../db/present-fair-play";
import { cheatAttempts, tournamentParticipants, tournaments, transactions, users } from "../db/schema";
import { notFound } from "../http/errors";
import { requireAdmin, requireUser } from "../http/middleware";
import { idParam } from "../http/validate";
import type { AppEnv } from "../http/app-env";

const LIST_LIMIT = 500;

async function report(db: Db, attemptsOf: SQL, flaggedOf: SQL, flaggedOrder: SQL[]): Promise<IntegrityReport> {
  const [attempts, flagged] = await db.batch([
    db
      .select({
        id: cheatAttempts.id,
        userId: cheatAttempts.userId,
        username: users.username,
        tournamentId: cheatAttempts.tournamentId,
        tournamentTitle: tournaments.title,
        reason: cheatAttempts.reason,
        timestamp: cheatAttempts.timestamp,
      })
      .from(cheatAttempts)
      .innerJoin(users, eq(users.id, cheatAttempts.userId))
      .innerJoin(tournaments, eq(tournaments.id, cheatAttempts.tournamentId))
      .where(attemptsOf)
      .orderBy(desc(cheatAttempts.timestamp), desc(cheatAttempts.id))
      .limit(LIST_LIMIT),
    db
      .select({
        userId: tournamentParticipants.userId,
        username: users.username,
        tournamentId: tournaments.id,
        tournamentTitle: tournaments.title,
        rank: tournamentParticipants.rank,
        prizeCents: tournamentParticipants.prizeCents,
        flags: tournamentParticipants.flags,
        prizeRow: transactions.status,
      })
      .from(tournamentParticipants)
      .innerJoin(users, eq(users.id, tournamentParticipants.userId))
      .innerJoin(tournaments, eq(tournaments.id, tournamentParticipants.tournamentId))
      .leftJoin(transactions, and(eq(transactions.userId, tournamentParticipants.userId), eq(transactions.reference, prizeReferenceOf)))
      .where(and(flaggedOf, isFlagged))
      .orderBy(...flaggedOrder)
      .limit(LIST_LIMIT),
  ]);
  return {
    cheatAttempts: attempts.map(({ timestamp, ...a }): CheatAttemptRow => ({ ...a, timestamp: iso(timestamp) })),
    flagged: flagged.map(({ prizeCents, flags, prizeRow, ...p }): FlaggedParticipant => ({
      ...p,
      prize: centsToDollars(prizeCents),
      prizeStatus: prizeStatusOf(prizeRow),
      flags: parseFlags(flags),
    })),
  };
}

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
