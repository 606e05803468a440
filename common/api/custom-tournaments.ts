// Private custom tournaments (docs/custom-tournaments.md): POST /api/tournaments/custom creates
// one for an Elite player, GET /api/tournaments/custom lists the caller's own,
// POST /api/tournaments/custom/:id/cancel cancels one nobody joined, and
// GET /api/tournaments/invite/:code shows one to a player who holds its invite code.
import { z } from "zod";
import { CUSTOM } from "../messages";
import { CUSTOM_ENTRY_FEES_CENTS, CUSTOM_SEATS_MAX, CUSTOM_SEATS_MIN, MIN_PLAYERS_PAID, TOURNAMENT_FORMATS } from "../spec";
import { inviteCodeSchema } from "./params";
import { formatCents } from "../domain/money";
import type { Tournament } from "./types";
import type { TournamentDetail } from "./tournaments";

const FEES_TEXT = CUSTOM_ENTRY_FEES_CENTS.map((c) => (c === 0 ? "free" : `$${formatCents(c)}`)).join(", ");

export const createCustomTournamentSchema = z
  .object({
    title: z.string({ error: CUSTOM.titleLength }).trim().min(3, CUSTOM.titleLength).max(80, CUSTOM.titleLength),
    categoryId: z.number({ error: CUSTOM.categoryId }).int(CUSTOM.categoryId).positive(CUSTOM.categoryId),
    startTime: z.iso.datetime({ offset: true, error: CUSTOM.startTime }).transform((s) => Date.parse(s)),
    seats: z
      .number({ error: CUSTOM.seats(CUSTOM_SEATS_MIN, CUSTOM_SEATS_MAX) })
      .int(CUSTOM.seats(CUSTOM_SEATS_MIN, CUSTOM_SEATS_MAX))
      .min(CUSTOM_SEATS_MIN, CUSTOM.seats(CUSTOM_SEATS_MIN, CUSTOM_SEATS_MAX))
      .max(CUSTOM_SEATS_MAX, CUSTOM.seats(CUSTOM_SEATS_MIN, CUSTOM_SEATS_MAX)),
    /** Cents: 0 (free, no prizes) or one of the fee tiers. */
    entryFeeCents: z
      .number({ error: CUSTOM.entryFee(FEES_TEXT) })
      .refine((c) => (CUSTOM_ENTRY_FEES_CENTS as readonly number[]).includes(c), CUSTOM.entryFee(FEES_TEXT)),
    format: z.enum(TOURNAMENT_FORMATS, { error: CUSTOM.format }),
  })
  .superRefine((t, ctx) => {
    if (t.entryFeeCents > 0 && t.seats < MIN_PLAYERS_PAID)
      ctx.addIssue({ code: "custom", message: CUSTOM.paidSeats(MIN_PLAYERS_PAID), path: ["seats"] });
  });
export type CreateCustomTournamentInput = z.input<typeof createCustomTournamentSchema>;
export type CustomTournamentDraft = z.output<typeof createCustomTournamentSchema>;

export const inviteParamSchema = z.object({ code: inviteCodeSchema });

/** One of the caller's custom tournaments, with what they share and whether they may still cancel it. */
export interface CustomTournament extends Tournament {
  inviteCode: string;
  /** The invite link's path on the site: /t/<code>. */
  invitePath: string;
  cancellable: boolean;
}

/** A private tournament as its invite code shows it: the detail any tournament's page shows. */
export interface InvitedTournament extends TournamentDetail {
  inviteCode: string;
}

export interface CancelCustomResult {
  tournamentId: number;
  cancelled: true;
}
