// One tournament's page as the API shows it, for its id (routes/tournaments.ts) and for an invite
// code (routes/custom-tournaments.ts).
import { and, count, eq } from "drizzle-orm";
import type { TournamentDetail } from "../../common/api/tournaments";
import { PRIZE_SHARES_BPS } from "../../common/spec";
import { centsToDollars } from "../../common/domain/money";
import { splitPrizePool } from "../../common/domain/prizes";
import { minPlayersFor } from "../../common/domain/tournaments";
import { invitePath } from "../../common/domain/custom-tournaments";
import type { Db } from "../db/client";
import { tournamentParticipants, tournamentQuestions, type tournaments } from "../db/schema";
import { presentTournament } from "../db/present-tournament";
import { hasReminder, registrationFor } from "./featured";

/** One tournament's page: the summary, its prize split, minimum, whether the caller joined, its commitment, and a featured event's registration for the caller, and whether it is private (its invite for its creator). */
export async function tournamentDetail(
  db: Db,
  t: typeof tournaments.$inferSelect,
  categoryName: string,
  viewer: { id: number; level: number } | null | undefined,
): Promise<TournamentDetail> {
  const userId = viewer?.id;
  const [mine, questions, reminded] = await Promise.all([
    userId !== undefined
      ? db
          .select({ id: tournamentParticipants.id })
          .from(tournamentParticipants)
          .where(and(eq(tournamentParticipants.tournamentId, t.id), eq(tournamentParticipants.userId, userId)))
          .get()
      : undefined,
    db.select({ n: count() }).from(tournamentQuestions).where(eq(tournamentQuestions.tournamentId, t.id)).get(),
    viewer && t.featuredAt !== null ? hasReminder(db, viewer.id, t.id) : false,
  ]);
  const split = splitPrizePool(t.prizePoolCents, PRIZE_SHARES_BPS.length);
  return {
    ...presentTournament(t, categoryName),
    prizeSplit: PRIZE_SHARES_BPS.map((_, i) => centsToDollars(split[i] ?? 0)),
    minPlayers: minPlayersFor({ entryFeeCents: t.entryFeeCents }),
    joined: mine !== undefined,
    // A player's own ten, whatever the size of the pool they are drawn from.
    questionCount: Math.floor((questions?.n ?? 0) / t.questionDraw),
    fairnessCommitment: t.fairnessCommitment,
    featured: registrationFor(t, viewer ?? null, reminded, Date.now()),
    cancellation:
      t.status === "cancelled"
        ? {
            cause: t.cancelCause ?? "too_few_players",
            reason: t.cancelCause === "operator" ? t.cancelReason : null,
            // A creator cancels only before anyone joined: nobody paid.
            refunded: t.entryFeeCents > 0 && t.cancelCause !== "creator",
          }
        : null,
    // What to share is the creator's to see: a player who joined came with the code already.
    invitation:
      t.inviteCode === null
        ? null
        : viewer != null && t.creatorUserId === viewer.id
          ? { inviteCode: t.inviteCode, invitePath: invitePath(t.inviteCode) }
          : { inviteCode: null, invitePath: null },
  };
}
