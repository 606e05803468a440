// The console's players and fair-play screens over the API: search, a player's file, sessions,
// suspensions and bans, manual balance adjustments, and the review of cheat attempts.
import { z } from "zod";
import { MODERATION } from "../messages";
import { dollarsToCentsExact, type Cents } from "../domain/money";
import { MAX_AMOUNT_CENTS } from "../spec";
import type { CheatAttemptRow, FlaggedParticipant } from "./fair-play";
import type { ResponsiblePlayState } from "./responsible-play";
import type { Transaction } from "./types";
import type { LegalDocumentId } from "../legal/legal-catalog";

export const ADMIN_LEDGER_PAGE_SIZE = 25;
export const ADMIN_PLAYER_SEARCH_LIMIT = 50;

/** GET /api/admin/users?q=: part of a username or email; empty lists the newest accounts. */
export const playerSearchSchema = z.object({ q: z.string().trim().max(254, "q must be at most 254 characters").default("") });

/** GET /api/admin/users/{id}/ledger. */
export const ledgerPageSchema = z.object({
  page: z.coerce.number().int().min(1, "page must be a whole number from 1").default(1),
  pageSize: z.coerce.number().int().min(1).max(100, "pageSize must be 1-100").default(ADMIN_LEDGER_PAGE_SIZE),
});

/** The body of suspend, unsuspend, ban and unban: why, for the other operators (never shown to the player). */
export const moderationNoteSchema = z.object({
  note: z.string({ error: MODERATION.noteLength }).trim().min(1, MODERATION.noteLength).max(500, MODERATION.noteLength),
});
export type ModerationNoteInput = z.infer<typeof moderationNoteSchema>;
export const MODERATION_ACTIONS = ["suspend", "unsuspend", "ban", "unban"] as const;
export type ModerationAction = (typeof MODERATION_ACTIONS)[number];

/** POST /api/admin/users/{id}/adjustments: a signed USD amount (negative debits) and the reason the player will read. */
export const adjustmentSchema = z.object({
  amount: z.number({ error: MODERATION.adjustmentAmount }).transform((usd, ctx): Cents => {
    const cents = dollarsToCentsExact(usd);
    if (cents === null || cents === 0 || Math.abs(cents) > MAX_AMOUNT_CENTS) {
      ctx.addIssue({ code: "custom", message: MODERATION.adjustmentAmount });
      return z.NEVER;
    }
    return cents;
  }),
  reason: z.string({ error: MODERATION.adjustmentReason }).trim().min(3, MODERATION.adjustmentReason).max(200, MODERATION.adjustmentReason),
});
export type AdjustmentInput = z.input<typeof adjustmentSchema>;

/** What an approved adjustment carries out (the approval's payload). */
export const adjustmentPayloadSchema = z.object({
  userId: z.number().int().positive(),
  amountCents: z.number().int(),
  reason: z.string(),
});
export type AdjustmentPayload = z.infer<typeof adjustmentPayloadSchema>;

export interface AdjustmentRequested {
  approvalId: number;
  status: "pending";
  summary: string;
}

/** GET /api/admin/fair-play: which cheat attempts to list by their review. */
export const FAIR_PLAY_REVIEW_FILTERS = ["open", "reviewed", "all"] as const;
export const fairPlayQuerySchema = z.object({
  tournamentId: z.coerce.number().int().positive().optional(),
  userId: z.coerce.number().int().positive().optional(),
  review: z.enum(FAIR_PLAY_REVIEW_FILTERS, { error: MODERATION.reviewFilter }).default("all"),
});
export type FairPlayQuery = z.input<typeof fairPlayQuerySchema>;

/** POST /api/admin/cheat-attempts/{id}/review. */
export const cheatReviewSchema = z.object({
  resolution: z
    .string({ error: MODERATION.resolutionLength })
    .trim()
    .min(1, MODERATION.resolutionLength)
    .max(500, MODERATION.resolutionLength),
});

/** GET /api/admin/fair-play. */
export interface FairPlayOverview {
  cheatAttempts: CheatAttemptRow[];
  flagged: FlaggedParticipant[];
}

export interface PlayerSummary {
  id: number;
  username: string;
  email: string;
  role: "player" | "admin";
  /** USD. */
  balance: number;
  createdAt: string;
  frozen: boolean;
  suspended: boolean;
  banned: boolean;
}

/** The operators' moderation state of an account; the note is for operators only. */
/** Banning an operator waits for a second operator (the two-person rule): 202. */
export interface ModerationRequested {
  approvalId: number;
  message: string;
}

export interface PlayerModeration {
  userId: number;
  suspendedAt: string | null;
  bannedAt: string | null;
  note: string | null;
}

/** GET /api/admin/users/{id}: the player's file (read only but for the moderation routes). */
export interface PlayerDetail extends Omit<PlayerModeration, "userId"> {
  id: number;
  username: string;
  email: string;
  emailVerified: boolean;
  role: "player" | "admin";
  twoFactorEnabled: boolean;
  country: string | null;
  level: number;
  tournamentsPlayed: number;
  tournamentsWon: number;
  createdAt: string;
  deleted: boolean;
  /** USD. */
  balance: number;
  /** USD owed to the house after a card refund or dispute. */
  owed: number;
  frozen: { since: string; reason: string | null } | null;
  /** The player's own limits and exclusion, as they see them. */
  responsiblePlay: ResponsiblePlayState;
}

/**
 * GET /api/admin/users/:id/terms: which versions of the terms, official rules and privacy policy
 * the player accepted and when (terms_acceptances), against the versions in force.
 */
export interface PlayerTermsRecord {
  documents: {
    id: LegalDocumentId;
    title: string;
    /** The version in force now. */
    version: string;
    /** The player's latest acceptance of this document, in whatever version; null if none is kept. */
    lastAccepted: { version: string; acceptedAt: string } | null;
    /** False: money actions are refused until the version in force is accepted. */
    acceptedInForce: boolean;
  }[];
  /** Every acceptance kept, newest first. */
  history: { document: LegalDocumentId; title: string; version: string; acceptedAt: string }[];
}

export interface PlayerLedgerPage {
  entries: Transaction[];
  page: number;
  pageSize: number;
  total: number;
}

/** A session as operators see it: never its token, nor the token's hash; `id` is a handle for revoking it. */
export interface AdminSessionView {
  id: string;
  createdAt: string;
  lastSeenAt: string;
  expiresAt: string;
}
