// GET /api/user/tournaments: the signed-in player's tournaments, newest first, with their results;
// GET /api/user/tournaments/{id}/receipts: the signed receipts of their answers in one of them.
// A standard tournament's score and points show once it has ended (docs/fair-play.md): a finished
// player's results are in D1 before then, and would tell right from wrong to someone still playing.
import { Hono } from "hono";
import { and, asc, desc, eq } from "drizzle-orm";
import type { UserTournamentEntry } from "../../common/api/tournaments";
import { REVIEW_REASON, reviewReasonOf, type TournamentReceipts } from "../../common/api/fair-play";
import { centsToDollars } from "../../common/domain/money";
import { questions, tournamentParticipants, tournamentQuestions, tournaments, transactions, userResponses } from "../db/schema";
import { signReceipt } from "../fair-play/receipts";
import { idParam } from "../http/validate";
import { notFound } from "../http/errors";
import { PLAY } from "../../common/messages";
import { privateVisibleTo, visibleTo } from "../tournaments/visibility";
import { iso } from "../db/present";
import { parseFlags, prizeReferenceOf, prizeStatusOf } from "../db/present-fair-play";
import { currentUser, requireUser } from "../http/middleware";
import type { TournamentKind, TournamentStatus } from "../../common/api/types";

/** Whether the player's results in this tournament may be shown: practice at once, prize play (every standard one) once it has ended. */
export const resultsShown = (kind: TournamentKind, status: TournamentStatus) => kind !== "standard" || status === "completed";
import type { AppEnv } from "../http/app-env";

export const userTournamentRoutes = new Hono<AppEnv>()
  .use(requireUser)
  .get("/", async (c) => {
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
        score: resultsShown(r.kind, r.status) ? r.score : null,
        startTime: iso(r.startTime),
        endTime: r.endTime === null ? null : iso(r.endTime),
        prize: centsToDollars(prizeCents),
        prizeStatus,
        reviewReason: reason === null ? null : REVIEW_REASON[reason],
      };
    });
    return c.json(entries);
  })

  /**
   * Receipts are signed from the recorded answers when asked: the signature covers exactly what
   * is stored, so a receipt kept from the game that differs from one issued now would show a change.
   */
  .get("/:id/receipts", idParam, async (c) => {
    const { id } = c.req.valid("param");
    const userId = currentUser(c).id;
    const db = c.get("db");
    // One round trip: the tournament (an unknown id, or another player's practice run, is a 404
    // as on every tournament route) and the player's answers in it.
    const [[tournament], rows] = await db.batch([
      db
        .select({
          id: tournaments.id,
          kind: tournaments.kind,
          status: tournaments.status,
          ownerUserId: tournaments.ownerUserId,
          inviteCode: tournaments.inviteCode,
          creatorUserId: tournaments.creatorUserId,
        })
        .from(tournaments)
        .where(eq(tournaments.id, id)),
      db
        .select({
          questionId: userResponses.questionId,
          question: questions.question,
          answer: userResponses.answer,
          answeredAt: userResponses.answeredAt,
          responseMs: userResponses.responseTime,
          points: userResponses.pointsEarned,
        })
        .from(userResponses)
        .innerJoin(questions, eq(questions.id, userResponses.questionId))
        .leftJoin(
          tournamentQuestions,
          and(eq(tournamentQuestions.tournamentId, id), eq(tournamentQuestions.questionId, userResponses.questionId)),
        )
        .where(and(eq(userResponses.tournamentId, id), eq(userResponses.userId, userId)))
        .orderBy(asc(tournamentQuestions.order), asc(userResponses.id)),
    ]);
    if (!tournament || !visibleTo(tournament, userId) || !(await privateVisibleTo(c.env.DB, tournament, userId)))
      throw notFound(PLAY.notFound, "tournament_not_found");
    // Before the end a receipt carries no points, as the one the answer's reply gave.
    const shown = resultsShown(tournament.kind, tournament.status);
    const receipts = rows
      .filter((r) => r.answer !== null && r.answeredAt !== null)
      .map((r) => ({
        ...signReceipt(c.env, {
          tournamentId: id,
          userId,
          questionId: r.questionId,
          answer: r.answer!,
          receivedAt: iso(r.answeredAt!),
          responseMs: r.responseMs,
          points: shown ? r.points : null,
        }),
        question: r.question,
      }));
    return c.json({ tournamentId: id, receipts } satisfies TournamentReceipts);
  });
