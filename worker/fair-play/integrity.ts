// Cheat attempts and flagged results for the operators: the integrity reports of a tournament or
// a player, and the console's fair-play screen with its filters. Each prize's fate comes along.
import { and, desc, eq, type SQL } from "drizzle-orm";
import type { CheatAttemptRow, FlaggedParticipant, IntegrityReport } from "../../common/api/fair-play";
import { centsToDollars } from "../../common/domain/money";
import type { Db } from "../db/client";
import { iso } from "../db/present";
import { isFlagged, parseFlags, prizeReferenceOf, prizeStatusOf } from "../db/present-fair-play";
import { cheatAttempts, tournamentParticipants, tournaments, transactions, users } from "../db/schema";

const LIST_LIMIT = 500;

export const cheatAttemptColumns = {
  id: cheatAttempts.id,
  userId: cheatAttempts.userId,
  username: users.username,
  tournamentId: cheatAttempts.tournamentId,
  tournamentTitle: tournaments.title,
  reason: cheatAttempts.reason,
  timestamp: cheatAttempts.timestamp,
  reviewed: cheatAttempts.reviewed,
  resolution: cheatAttempts.resolution,
  suppressed: cheatAttempts.suppressed,
};

/** Cheat attempts with their player and tournament; `where` picks them. */
export const cheatAttemptRows = (db: Db, where: SQL | undefined) =>
  db
    .select(cheatAttemptColumns)
    .from(cheatAttempts)
    .innerJoin(users, eq(users.id, cheatAttempts.userId))
    .innerJoin(tournaments, eq(tournaments.id, cheatAttempts.tournamentId))
    .where(where);

export const presentCheatAttempt = ({ timestamp, ...a }: Awaited<ReturnType<typeof cheatAttemptRows>>[number]): CheatAttemptRow => ({
  ...a,
  timestamp: iso(timestamp),
});

/** Cheat attempts newest first and flagged participants in `flaggedOrder`, each picked by its condition. */
export async function integrityReport(
  db: Db,
  attemptsOf: SQL | undefined,
  flaggedOf: SQL | undefined,
  flaggedOrder: SQL[],
): Promise<IntegrityReport> {
  const [attempts, flagged] = await db.batch([
    cheatAttemptRows(db, attemptsOf).orderBy(desc(cheatAttempts.timestamp), desc(cheatAttempts.id)).limit(LIST_LIMIT),
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
    cheatAttempts: attempts.map(presentCheatAttempt),
    flagged: flagged.map(({ prizeCents, flags, prizeRow, ...p }): FlaggedParticipant => ({
      ...p,
      prize: centsToDollars(prizeCents),
      prizeStatus: prizeStatusOf(prizeRow),
      flags: parseFlags(flags),
    })),
  };
}
