// The console's tournaments API (docs/operating.md, "Tournaments"): the list with its filters,
// one tournament with its questions, cancelling with a reason, and the live view of a room.
import { z } from "zod";
import { TOURNAMENT_FORMATS, TOURNAMENT_PAGE_SIZE_MAX } from "../spec";
import { ADMIN_TOURNAMENTS, HOST_TOOLS } from "../console-messages";
import type { Tournament } from "./types";
import type { FairPlayFlag } from "./fair-play";

const blankToUndefined = (v: unknown) => (v === "" ? undefined : v);

const wholeQuery = (name: string, min: number, max: number) =>
  z.preprocess(
    blankToUndefined,
    z
      .string()
      .regex(/^\d+$/, `${name} must be a whole number`)
      .transform(Number)
      .pipe(z.number().min(min, `${name} must be at least ${min}`).max(max, `${name} must be at most ${max}`))
      .optional(),
  );

export const ADMIN_TOURNAMENT_STATUSES = ["upcoming", "live", "completed", "cancelled"] as const;
/** The list shows the operators' and the schedule's tournaments; practice ones only when asked for. */
export const ADMIN_TOURNAMENT_KINDS = ["standard", "practice", "practice_run", "all"] as const;

/** GET /api/admin/tournaments */
export const adminTournamentListQuerySchema = z.object({
  status: z.preprocess(
    blankToUndefined,
    z.enum(ADMIN_TOURNAMENT_STATUSES, { error: `status must be one of: ${ADMIN_TOURNAMENT_STATUSES.join(", ")}` }).optional(),
  ),
  format: z.preprocess(
    blankToUndefined,
    z.enum(TOURNAMENT_FORMATS, { error: `format must be one of: ${TOURNAMENT_FORMATS.join(", ")}` }).optional(),
  ),
  kind: z.preprocess(
    blankToUndefined,
    z.enum(ADMIN_TOURNAMENT_KINDS, { error: `kind must be one of: ${ADMIN_TOURNAMENT_KINDS.join(", ")}` }).default("standard"),
  ),
  /** Part of the title, any case. */
  q: z.preprocess(blankToUndefined, z.string().trim().max(100, "q must be at most 100 characters").optional()),
  page: wholeQuery("page", 1, 999_999),
  pageSize: wholeQuery("pageSize", 1, TOURNAMENT_PAGE_SIZE_MAX),
});
export type AdminTournamentListQuery = z.input<typeof adminTournamentListQuerySchema>;

/** A tournament as operators see it in the list. */
export interface AdminTournament extends Tournament {
  /** A free tournament whose prize pool the house pays. */
  houseFunded: boolean;
  /** When it was announced as a featured event; null when it is not featured. */
  featuredAt: string | null;
  /** A featured event's registration for everyone (the default, 72 h before the start, when not set); null when not featured. */
  registrationOpensAt: string | null;
}

export interface AdminTournamentPage {
  items: AdminTournament[];
  total: number;
  page: number;
  pageSize: number;
  nextPage: number | null;
}

/** GET /api/admin/tournaments/:id: what the edit form starts from. */
export interface AdminTournamentDetail extends AdminTournament {
  durationMinutes: number;
  /** Candidates per question slot: 1 when every player gets the same questions. */
  questionDraw: number;
  /** In the order they are asked (slot-major when players draw). */
  questions: { id: number; question: string; difficulty: number }[];
  /** Nobody joined yet: it can still be edited. */
  editable: boolean;
}

/** POST /api/admin/tournaments/:id/cancel */
export const cancelTournamentSchema = z.object({
  reason: z
    .string({ error: ADMIN_TOURNAMENTS.cancelReason })
    .trim()
    .min(3, ADMIN_TOURNAMENTS.cancelReason)
    .max(300, ADMIN_TOURNAMENTS.cancelReason),
});

// ---- The host's tools (docs/operating.md, "Host tools") ----

const hostReason = (label: string) => z.string({ error: label }).trim().min(3, label).max(300, label);

/** POST /api/admin/tournaments/:id/pause and /resume: an optional note for the audit log. */
export const hostPauseSchema = z.object({ note: z.string().trim().max(300).optional() });

/** POST /api/admin/tournaments/:id/void-question: the question's index (0-based) and why. */
export const voidQuestionSchema = z.object({
  index: z.number().int().min(0).max(999),
  reason: hostReason(HOST_TOOLS.reasonLabel),
});

/** POST /api/admin/tournaments/:id/disqualify: the player and why (shown to them). */
export const disqualifySchema = z.object({
  userId: z.number().int().positive(),
  reason: hostReason(HOST_TOOLS.disqualifyReasonLabel),
});

/** What a host action did: `changed` false when it had been done already (a double click changes nothing). */
export interface HostActionResult {
  tournamentId: number;
  changed: boolean;
  message: string;
}

/** A disqualification in a tournament with money in it waits for a second operator (202). */
export interface DisqualificationRequested {
  approvalId: number;
  message: string;
}

export interface CancelTournamentResult {
  tournamentId: number;
  /** False when it was cancelled already: nothing was refunded again. */
  cancelled: boolean;
  playersRefunded: number;
  refundedCents: number;
}

/** POST /api/admin/tournaments answers 202 with this when the house pool waits for a second operator. */
export interface PendingTournamentApproval {
  approvalId: number;
  message: string;
}

/** The room's own view of itself (GET /api/admin/tournaments/:id/live), refreshed every 2 s on the screen. */
export interface RoomLiveStats {
  status: "upcoming" | "live" | "settling" | "completed" | "cancelled";
  format: (typeof TOURNAMENT_FORMATS)[number];
  participants: number;
  /** Open sockets to the room, and how many players they belong to. */
  sockets: number;
  connectedPlayers: number;
  /** Answers stored over the last 10 s, per second. */
  answersPerSecond: number;
  /** Live show: where the show is. */
  show: { index: number; total: number; stage: string; closesAt: string | null } | null;
  /** Self-paced: questions issued to players and answered so far. */
  progress: { issued: number; answered: number; finishedPlayers: number } | null;
  /** What the fair-play checks would flag if the tournament settled now. */
  flags: { userId: number; username: string; flags: FairPlayFlag[] }[];
  /** Live show: whether the host paused it (no next question until resumed). */
  paused: boolean;
  /** Live show: the questions that went out, in order, with the host's void (null when it counts). */
  questions: { index: number; questionId: number; question: string; voidReason: string | null }[];
  /** The players by rank (the disqualified last, with the reason); at most LIVE_PLAYERS_SHOWN. */
  players: { userId: number; username: string; rank: number | null; score: number; disqualifiedReason: string | null }[];
}

/** Players listed in the live view at most (the host acts on the top of the board, or on flagged players). */
export const LIVE_PLAYERS_SHOWN = 200;

export interface AdminTournamentLive extends RoomLiveStats {
  tournamentId: number;
  /** Refused answers (before the start, not issued, twice) so far, newest first, at most 20. */
  cheatAttempts: { userId: number; username: string; reason: string; at: string }[];
  /** Every refused answer, those counted past a player's cap of stored rows included. */
  cheatAttemptCount: number;
}
