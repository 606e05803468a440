// GET /api/user/data-export: everything the account holds about its player, as a JSON file
// (docs/player-data.md). Only the signed-in player's own rows; never a password hash, a two-factor
// secret or recovery code, a session token (or its hash), a sealed or full bank account number, a
// W-9's TIN beyond its last 4 digits, an identity's keyed hash, a keyed device/network hash or an
// email link's token. Results of a prize tournament not yet ended
// stay withheld exactly as on the player's pages (no right/wrong, no points), so an export never
// tells more than playing does. Rate limited per player; no step-up: the same data is on the
// signed-in pages (wallet, tournaments, receipts, profile) already.
import { Hono } from "hono";
import { asc, eq } from "drizzle-orm";
import { LEGAL } from "../../common/legal-messages";
import { centsToDollars } from "../../common/domain/money";
import {
  depositIntents,
  exclusions,
  identityNameMismatches,
  identityVerifications,
  notifications,
  payouts,
  playLimits,
  questionFeedback,
  questions,
  sessions,
  taxForms,
  tournamentParticipants,
  tournaments,
  transactions,
  userResponses,
} from "../db/schema";
import { iso, presentTransaction } from "../db/present";
import { signReceipt } from "../fair-play/receipts";
import { hit } from "../http/rate-limit";
import { HttpError } from "../http/errors";
import { currentSession, currentUser, requireUser } from "../http/middleware";
import type { AppEnv } from "../http/app-env";
import { acceptancesOf } from "../legal/terms";
import { presentTaxForm } from "../tax/forms";
import { resultsShown } from "./user-tournaments";
import { presentSignedIn } from "./session";

/** Exports per player per hour: enough to retry a failed download, not a way to hammer the database. */
const EXPORTS_PER_HOUR = 5;

const isoOrNull = (ms: number | null) => (ms === null ? null : iso(ms));

export const userDataExportRoutes = new Hono<AppEnv>().use(requireUser).get("/", async (c) => {
  const me = currentUser(c);
  const db = c.get("db");
  await hit(db, `data-export:user:${me.id}`, { max: EXPORTS_PER_HOUR, windowMs: 60 * 60_000 }).catch((e: unknown) => {
    throw e instanceof HttpError && e.code === "rate_limited" ? new HttpError(429, "rate_limited", LEGAL.exportLimited) : e;
  });
  const mine = <T extends { userId: unknown }>(table: T) => eq(table.userId as never, me.id);
  const [ledger, withdrawals, deposits, entries, answers, signIns, notes, limits, breaks, reports] = await db.batch([
    db.select().from(transactions).where(mine(transactions)).orderBy(asc(transactions.createdAt), asc(transactions.id)),
    db
      .select({
        id: payouts.id,
        amountCents: payouts.amountCents,
        method: payouts.method,
        accountHolderName: payouts.accountHolderName,
        accountLast4: payouts.accountLast4,
        routingNumber: payouts.routingNumber,
        accountType: payouts.accountType,
        status: payouts.status,
        failureReason: payouts.failureReason,
        createdAt: payouts.createdAt,
        processedAt: payouts.processedAt,
      })
      .from(payouts)
      .where(mine(payouts))
      .orderBy(asc(payouts.id)),
    db
      .select({
        id: depositIntents.id,
        amountCents: depositIntents.amountCents,
        status: depositIntents.status,
        refundReason: depositIntents.refundReason,
        refundedAt: depositIntents.refundedAt,
        createdAt: depositIntents.createdAt,
      })
      .from(depositIntents)
      .where(mine(depositIntents))
      .orderBy(asc(depositIntents.createdAt)),
    db
      .select({
        tournamentId: tournaments.id,
        title: tournaments.title,
        kind: tournaments.kind,
        status: tournaments.status,
        startTime: tournaments.startTime,
        endTime: tournaments.endTime,
        entryFeeCents: tournaments.entryFeeCents,
        joinedAt: tournamentParticipants.joinedAt,
        finishedAt: tournamentParticipants.finishedAt,
        score: tournamentParticipants.score,
        rank: tournamentParticipants.rank,
        prizeCents: tournamentParticipants.prizeCents,
        questionsAnswered: tournamentParticipants.questionsAnswered,
        correctAnswers: tournamentParticipants.correctAnswers,
        totalResponseMs: tournamentParticipants.totalResponseMs,
        xpEarned: tournamentParticipants.xpEarned,
      })
      .from(tournamentParticipants)
      .innerJoin(tournaments, eq(tournaments.id, tournamentParticipants.tournamentId))
      .where(eq(tournamentParticipants.userId, me.id))
      .orderBy(asc(tournamentParticipants.joinedAt)),
    db
      .select({
        tournamentId: userResponses.tournamentId,
        kind: tournaments.kind,
        status: tournaments.status,
        questionId: userResponses.questionId,
        question: questions.question,
        answer: userResponses.answer,
        answeredAt: userResponses.answeredAt,
        responseMs: userResponses.responseTime,
        isCorrect: userResponses.isCorrect,
        points: userResponses.pointsEarned,
      })
      .from(userResponses)
      .innerJoin(tournaments, eq(tournaments.id, userResponses.tournamentId))
      .innerJoin(questions, eq(questions.id, userResponses.questionId))
      .where(eq(userResponses.userId, me.id))
      .orderBy(asc(userResponses.tournamentId), asc(userResponses.id)),
    db
      .select({
        id: sessions.id,
        createdAt: sessions.createdAt,
        lastSeenAt: sessions.lastSeenAt,
        expiresAt: sessions.expiresAt,
        stepUpAt: sessions.stepUpAt,
      })
      .from(sessions)
      .where(mine(sessions))
      .orderBy(asc(sessions.createdAt)),
    db.select().from(notifications).where(mine(notifications)).orderBy(asc(notifications.createdAt)),
    db.select().from(playLimits).where(mine(playLimits)),
    db.select().from(exclusions).where(mine(exclusions)).orderBy(asc(exclusions.createdAt)),
    db
      .select({
        id: questionFeedback.id,
        questionId: questionFeedback.questionId,
        tournamentId: questionFeedback.tournamentId,
        feedbackType: questionFeedback.feedbackType,
        rating: questionFeedback.rating,
        comment: questionFeedback.comment,
        resolution: questionFeedback.resolution,
        createdAt: questionFeedback.createdAt,
        resolvedAt: questionFeedback.resolvedAt,
      })
      .from(questionFeedback)
      .where(mine(questionFeedback))
      .orderBy(asc(questionFeedback.createdAt)),
  ]);
  const [accepted, identity, nameMismatches, w9s] = await db.batch([
    acceptancesOf(db, me.id),
    db.select().from(identityVerifications).where(mine(identityVerifications)),
    db.select().from(identityNameMismatches).where(mine(identityNameMismatches)).orderBy(asc(identityNameMismatches.createdAt)),
    db.select().from(taxForms).where(mine(taxForms)).orderBy(asc(taxForms.id)),
  ]);
  const thisSession = currentSession(c).id;
  const now = new Date();

  const body = {
    exportedAt: now.toISOString(),
    about: "Everything Trivia Arena holds about your account (docs/player-data.md). Amounts are US dollars; times are ISO 8601 (UTC).",
    profile: { ...(await presentSignedIn(db, me)), dateOfBirth: me.dateOfBirth, emailVerifiedAt: isoOrNull(me.emailVerifiedAt) },
    ledger: ledger.map(presentTransaction),
    withdrawals: withdrawals.map(({ amountCents, createdAt, processedAt, ...w }) => ({
      ...w,
      amount: centsToDollars(amountCents),
      createdAt: iso(createdAt),
      processedAt: isoOrNull(processedAt),
    })),
    deposits: deposits.map(({ amountCents, createdAt, refundedAt, ...d }) => ({
      ...d,
      amount: centsToDollars(amountCents),
      createdAt: iso(createdAt),
      refundedAt: isoOrNull(refundedAt),
    })),
    tournaments: entries.map(({ entryFeeCents, prizeCents, startTime, endTime, joinedAt, finishedAt, ...t }) => {
      // A prize tournament's score, rank and right answers stay hidden until it has ended, as on the player's pages.
      const shown = resultsShown(t.kind, t.status);
      return {
        ...t,
        score: shown ? t.score : null,
        rank: shown ? t.rank : null,
        correctAnswers: shown ? t.correctAnswers : null,
        entryFee: centsToDollars(entryFeeCents),
        prize: centsToDollars(prizeCents),
        startTime: iso(startTime),
        endTime: isoOrNull(endTime),
        joinedAt: iso(joinedAt),
        finishedAt: isoOrNull(finishedAt),
      };
    }),
    answers: answers.map((a) => {
      const shown = resultsShown(a.kind, a.status);
      const answered = a.answer !== null && a.answeredAt !== null;
      return {
        tournamentId: a.tournamentId,
        questionId: a.questionId,
        question: a.question,
        answer: a.answer,
        answeredAt: isoOrNull(a.answeredAt),
        responseMs: a.responseMs,
        isCorrect: shown ? a.isCorrect : null,
        points: shown ? a.points : null,
        // Signed now from what is stored, as GET /api/user/tournaments/{id}/receipts does; none for a timed-out question.
        receipt: answered
          ? signReceipt(c.env, {
              tournamentId: a.tournamentId,
              userId: me.id,
              questionId: a.questionId,
              answer: a.answer!,
              receivedAt: iso(a.answeredAt!),
              responseMs: a.responseMs,
              points: shown ? a.points : null,
            })
          : null,
      };
    }),
    // Never the session's id: it is the hash of the cookie's token.
    sessions: signIns.map(({ id, createdAt, lastSeenAt, expiresAt, stepUpAt }) => ({
      current: id === thisSession,
      createdAt: iso(createdAt),
      lastSeenAt: iso(lastSeenAt),
      expiresAt: iso(expiresAt),
      stepUpAt: isoOrNull(stepUpAt),
    })),
    notifications: notes.map(({ userId: _userId, createdAt, ...n }) => ({ ...n, createdAt: iso(createdAt) })),
    responsiblePlay: {
      limits: limits.map(({ userId: _userId, amountCents, pendingAmountCents, pendingFrom, updatedAt, kind }) => ({
        kind,
        amount: amountCents === null ? null : centsToDollars(amountCents),
        pendingAmount: pendingAmountCents === null ? null : centsToDollars(pendingAmountCents),
        pendingFrom: isoOrNull(pendingFrom),
        updatedAt: iso(updatedAt),
      })),
      breaks: breaks.map(({ kind, startsAt, endsAt, createdAt }) => ({
        kind,
        startsAt: iso(startsAt),
        endsAt: isoOrNull(endsAt),
        createdAt: iso(createdAt),
      })),
    },
    questionReports: reports.map(({ createdAt, resolvedAt, ...r }) => ({
      ...r,
      createdAt: iso(createdAt),
      resolvedAt: isoOrNull(resolvedAt),
    })),
    termsAcceptances: accepted.map((a) => ({ document: a.document, version: a.version, acceptedAt: iso(a.acceptedAt) })),
    // What the provider verified (docs/identity-and-tax.md); never the keyed hash of the document.
    identityVerification:
      identity.map(({ userId: _userId, identityHash: _hash, verifiedAt, reverifyRequestedAt, updatedAt, ...v }) => ({
        ...v,
        verifiedAt: isoOrNull(verifiedAt),
        reverifyRequestedAt: isoOrNull(reverifyRequestedAt),
        updatedAt: iso(updatedAt),
      }))[0] ?? null,
    identityNameMismatches: nameMismatches.map(({ holderName, legalName, amountCents, createdAt }) => ({
      holderName,
      legalName,
      amount: centsToDollars(amountCents),
      createdAt: iso(createdAt),
    })),
    // Every W-9 filed, the newest last (the one in force); the TIN only by its last 4 digits.
    taxForms: w9s.map((f) => ({ ...presentTaxForm(f), filedAt: iso(f.createdAt) })),
  };
  c.header("Content-Disposition", `attachment; filename="trivia-arena-data-${now.toISOString().slice(0, 10)}.json"`);
  c.header("Cache-Control", "no-store");
  return c.json(body);
});
