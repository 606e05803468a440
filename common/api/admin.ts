// The operators' tournament API: POST /api/admin/tournaments creates a one-off tournament (a
// special event, a house-funded free tournament) beside the ones the cron schedules; the
// fair-play review of held prizes (its response types are in ./fair-play).
import { z } from "zod";
import { FAIR_PLAY } from "../messages";
import { QUESTION_BANK } from "../console-messages";
import { dollarsToCentsExact, type Cents } from "../domain/money";
import {
  DIFFICULTY_RAMP,
  MAX_AMOUNT_CENTS,
  MIN_PLAYERS_PAID,
  PRACTICE_MARKER,
  TOURNAMENT_DURATION_MS,
  TOURNAMENT_FORMATS,
  TOURNAMENT_PAGE_SIZE_MAX,
} from "../spec";
import { LIVE_SHOW_DURATION_MS } from "../domain/live-show";
import type { TournamentFormat } from "./types";
import { QUESTION_SUPPLY_STATES, type QuestionSupplyState } from "../domain/question-supply";

export const ADMIN_TOURNAMENT = {
  titleLength: "Title must be 3-100 characters",
  titlePractice: `Titles containing "${PRACTICE_MARKER}" are reserved for the always-open practice tournaments`,
  descriptionLength: "Description must be 1-2000 characters",
  categoryId: "categoryId must be a positive whole number",
  categoryNotFound: "Category not found",
  categoryTooFewQuestions:
    "This category has too few fresh questions for a prize tournament (10 for a live show, 20 for a self-paced one): a question whose answer was ever shown, or that another prize tournament holds, is never used again. Import or write new ones.",
  amount: (field: string) => `${field} must be a non-negative USD amount with at most 2 decimals`,
  freeWithFee: "A free tournament has an entry fee of 0",
  paidWithoutFee: "A paid tournament needs an entry fee above 0",
  prizePoolPaid: "prizePool is for free tournaments only: a paid tournament's pool is 85% of its entry fees",
  maxParticipants: "maxParticipants must be a whole number from 2, or null for unlimited",
  maxBelowMinimum: `A paid tournament needs room for at least ${MIN_PLAYERS_PAID} players (maxParticipants)`,
  minLevel: "minLevel must be a whole number from 1 to 100",
  startTime: "startTime must be an ISO date-time",
  startInPast: "startTime must be in the future",
  duration: "durationMinutes must be a whole number from 1 to 240",
  isFree: "isFree must be true or false",
  format: `format must be one of: ${TOURNAMENT_FORMATS.join(", ")}`,
  liveShowTooShort: `A live show needs at least ${Math.ceil(LIVE_SHOW_DURATION_MS / 60_000)} minutes (durationMinutes)`,
  questionIds: `questionIds must be ${DIFFICULTY_RAMP.length} different question ids (the tournament's questions, in the order they are asked), or absent to pick them at random`,
} as const;

/** A USD amount of 0 or more with at most 2 decimals, to cents. */
const usdAmount = (field: string) =>
  z.number({ error: ADMIN_TOURNAMENT.amount(field) }).transform((usd, ctx): Cents => {
    const cents = dollarsToCentsExact(usd);
    if (cents === null || cents < 0 || cents > MAX_AMOUNT_CENTS) {
      ctx.addIssue({ code: "custom", message: ADMIN_TOURNAMENT.amount(field) });
      return z.NEVER;
    }
    return cents;
  });

export const createTournamentSchema = z
  .object({
    title: z
      .string({ error: ADMIN_TOURNAMENT.titleLength })
      .trim()
      .min(3, ADMIN_TOURNAMENT.titleLength)
      .max(100, ADMIN_TOURNAMENT.titleLength)
      .refine((t) => !t.includes(PRACTICE_MARKER), ADMIN_TOURNAMENT.titlePractice),
    description: z
      .string({ error: ADMIN_TOURNAMENT.descriptionLength })
      .trim()
      .min(1, ADMIN_TOURNAMENT.descriptionLength)
      .max(2000, ADMIN_TOURNAMENT.descriptionLength),
    categoryId: z.number({ error: ADMIN_TOURNAMENT.categoryId }).int(ADMIN_TOURNAMENT.categoryId).positive(ADMIN_TOURNAMENT.categoryId),
    entryFee: usdAmount("entryFee"),
    maxParticipants: z
      .number({ error: ADMIN_TOURNAMENT.maxParticipants })
      .int(ADMIN_TOURNAMENT.maxParticipants)
      .min(2, ADMIN_TOURNAMENT.maxParticipants)
      .max(100_000, ADMIN_TOURNAMENT.maxParticipants)
      .nullable(),
    minLevel: z
      .number({ error: ADMIN_TOURNAMENT.minLevel })
      .int(ADMIN_TOURNAMENT.minLevel)
      .min(1, ADMIN_TOURNAMENT.minLevel)
      .max(100, ADMIN_TOURNAMENT.minLevel),
    startTime: z.iso.datetime({ offset: true, error: ADMIN_TOURNAMENT.startTime }).transform((s) => Date.parse(s)),
    durationMinutes: z
      .number({ error: ADMIN_TOURNAMENT.duration })
      .int(ADMIN_TOURNAMENT.duration)
      .min(1, ADMIN_TOURNAMENT.duration)
      .max(240, ADMIN_TOURNAMENT.duration)
      .default(TOURNAMENT_DURATION_MS / 60_000),
    isFree: z.boolean({ error: ADMIN_TOURNAMENT.isFree }),
    /** House-funded pool of a free tournament (USD), split 65/25/10 at the end. */
    prizePool: usdAmount("prizePool").optional(),
    /** Absent: a live show when there is an entry fee (nobody can pass answers on), otherwise self-paced. */
    format: z.enum(TOURNAMENT_FORMATS, { error: ADMIN_TOURNAMENT.format }).optional(),
    /**
     * The operator's own pick from the bank, asked in this order to every player; absent: drawn
     * at random from the category (a self-paced one then gives each player their own draw).
     */
    questionIds: z
      .array(z.number({ error: ADMIN_TOURNAMENT.questionIds }).int(ADMIN_TOURNAMENT.questionIds).positive(ADMIN_TOURNAMENT.questionIds), {
        error: ADMIN_TOURNAMENT.questionIds,
      })
      .length(DIFFICULTY_RAMP.length, ADMIN_TOURNAMENT.questionIds)
      .refine((ids) => new Set(ids).size === ids.length, ADMIN_TOURNAMENT.questionIds)
      .optional(),
    /** Create it as a featured event (docs/featured-events.md): only with a start at least 7 days away. */
    featured: z.boolean({ error: "featured must be true or false" }).optional(),
    /** A featured event's registration for everyone (ISO time); absent: 72 hours before the start. */
    registrationOpensAt: z.iso
      .datetime({ offset: true, error: "registrationOpensAt must be an ISO date and time" })
      .transform((s) => Date.parse(s))
      .optional(),
  })
  .superRefine((t, ctx) => {
    const issue = (message: string, path: string) => ctx.addIssue({ code: "custom", message, path: [path] });
    if (t.isFree && t.entryFee !== 0) issue(ADMIN_TOURNAMENT.freeWithFee, "entryFee");
    if (!t.isFree && t.entryFee === 0) issue(ADMIN_TOURNAMENT.paidWithoutFee, "entryFee");
    if (!t.isFree && (t.prizePool ?? 0) > 0) issue(ADMIN_TOURNAMENT.prizePoolPaid, "prizePool");
    if (!t.isFree && t.maxParticipants !== null && t.maxParticipants < MIN_PLAYERS_PAID)
      issue(ADMIN_TOURNAMENT.maxBelowMinimum, "maxParticipants");
    if (defaultFormat(t) === "live_show" && t.durationMinutes * 60_000 < LIVE_SHOW_DURATION_MS)
      issue(ADMIN_TOURNAMENT.liveShowTooShort, "durationMinutes");
  });

/** The format a new tournament gets: the operator's choice, else a live show for paid entry. */
export const defaultFormat = (t: { format?: TournamentFormat | undefined; entryFee: number }): TournamentFormat =>
  t.format ?? (t.entryFee > 0 ? "live_show" : "self_paced");

export type CreateTournamentInput = z.input<typeof createTournamentSchema>;
/** A create (or edit) request as validated: cents and epoch ms. */
export type TournamentDraft = z.output<typeof createTournamentSchema>;

/** A row of the house ledger: money that stayed with the house instead of going to a player. */
export interface HouseLedgerEntry {
  id: number;
  /** USD. */
  amount: number;
  type: "unclaimed_prize" | "forfeited_prize";
  tournamentId: number | null;
  reference: string;
  description: string;
  createdAt: string;
}

/** GET /api/admin/frozen-accounts: one account a card refund or dispute left owing money. */
export interface FrozenAccount {
  userId: number;
  username: string;
  email: string;
  balance: number;
  /** USD still owed to the house. */
  owed: number;
  reason: string | null;
  since: string;
  /** Newest first. */
  reversals: {
    /** The provider's event id: each is applied once. */
    eventId: string;
    kind: "refund" | "dispute_opened" | "dispute_won" | "dispute_lost";
    /** ch_… (refund) or dp_… (dispute). */
    objectId: string;
    paymentIntentId: string | null;
    amount: number;
    /** Taken from the balance (returned to it, for a won dispute). */
    fromBalance: number;
    /** Left owed (negative: debt a won dispute cancelled). */
    owed: number;
    createdAt: string;
  }[];
}

/** POST /api/admin/questions/import: an operator's question file, as text (up to the API's body limit). */
export const questionImportSchema = z.object({
  format: z.enum(["csv", "json"], { error: 'format must be "csv" or "json"' }),
  content: z.string({ error: "content must be the file's text" }).min(1, "content is empty"),
});

export type QuestionImportInput = z.input<typeof questionImportSchema>;

/** What an import did: new questions, existing ones (same text in the category) updated, and the rows refused. */
export interface QuestionImportReport {
  imported: number;
  updated: number;
  /** `row`: the CSV line the record starts on (header = 1) or the JSON item's 1-based position; 0 for the file as a whole. */
  rejected: { row: number; reasons: string[] }[];
}

const wholeQuery = (name: string, min: number, max: number) =>
  z.preprocess(
    (v) => (v === "" ? undefined : v),
    z
      .string()
      .regex(/^\d+$/, `${name} must be a whole number`)
      .transform(Number)
      .pipe(z.number().min(min, `${name} must be at least ${min}`).max(max, `${name} must be at most ${max}`))
      .optional(),
  );

/** GET /api/admin/questions: the bank, searched and filtered, a page at a time. */
export const adminQuestionListQuerySchema = z.object({
  /** Part of the question's text, ignoring case. */
  q: z.preprocess((v) => (v === "" ? undefined : v), z.string().trim().max(100, QUESTION_BANK.searchLength).optional()),
  categoryId: wholeQuery("categoryId", 1, Number.MAX_SAFE_INTEGER),
  difficulty: z.preprocess(
    (v) => (v === "" ? undefined : v),
    z.enum(["1", "2", "3"], { error: QUESTION_BANK.difficultyFilter }).transform(Number).optional(),
  ),
  /** A question's place in the supply (common/domain/question-supply.ts, docs/questions.md). */
  status: z.preprocess((v) => (v === "" ? undefined : v), z.enum(QUESTION_SUPPLY_STATES, { error: QUESTION_BANK.statusFilter }).optional()),
  page: wholeQuery("page", 1, 999_999),
  pageSize: wholeQuery("pageSize", 1, TOURNAMENT_PAGE_SIZE_MAX),
});
export type AdminQuestionStatus = QuestionSupplyState;

/** POST /api/admin/questions/:id/practice-only: keep it for practice (never in prize play), or give it back. */
export const practiceOnlySchema = z.object({
  practiceOnly: z.boolean({ error: QUESTION_BANK.practiceOnlyFlag }),
  note: z.string().trim().max(500, QUESTION_BANK.noteLength).optional(),
});
export type PracticeOnlyInput = z.infer<typeof practiceOnlySchema>;

/** A question as operators see it, answer included, with its usage and how players really answered it. */
export interface AdminQuestion {
  id: number;
  categoryId: number;
  question: string;
  options: string[];
  correctAnswer: string;
  difficulty: number;
  explanation: string | null;
  /** seed (the public demo bank), import, or console (made in the console's form). */
  source: string | null;
  /** Prize tournaments that hold it (0 or 1 under the once-only rule; more where the demo bank is reused). */
  paidUses: number;
  /**
   * fresh: may enter prize play; held: in a prize tournament that has not ended; burned: its answer
   * was shown, never in prize play again (practice draws it); practice_only: kept for practice by an
   * operator; retired: in no draw.
   */
  state: QuestionSupplyState;
  /** Marked for practice by an operator (state says practice_only once no prize tournament holds it). */
  practiceOnly: boolean;
  /** When it was burned; null while its answer has been shown to operators only. */
  answerShownAt: string | null;
  /** When an operator retired it from every draw; null while it is in play. */
  retiredAt: string | null;
  /** Tournaments of any kind (practice runs too) that hold it. */
  tournaments: number;
  /** Answers recorded for it, timed-out ones included. */
  answers: number;
  /** Correct answers over all answers; null before any. */
  correctRate: number | null;
  /** The difficulty the correct rate reads as, when enough players answered and it disagrees with the set one. */
  suggestedDifficulty: 1 | 2 | 3 | null;
}

/** One page of the operators' question list, paged like the tournament list. */
export interface AdminQuestionPage {
  items: AdminQuestion[];
  total: number;
  page: number;
  pageSize: number;
  nextPage: number | null;
}
/** GET /api/admin/held-prizes?status=…: held (the review queue, the default) or all (also those released or forfeited). */
export const heldPrizeListQuerySchema = z.object({
  status: z.enum(["held", "all"], { error: FAIR_PLAY.heldPrizeStatus }).default("held"),
});

/** POST /api/admin/held-prizes/:id/forfeit */
export const forfeitPrizeSchema = z.object({
  reason: z
    .string({ error: FAIR_PLAY.forfeitReasonLength })
    .trim()
    .min(3, FAIR_PLAY.forfeitReasonLength)
    .max(500, FAIR_PLAY.forfeitReasonLength),
});

/** One category's question supply, on the console's Questions screen (docs/questions.md). */
export interface CategorySupply {
  categoryId: number;
  name: string;
  /** Questions that may still enter prize play. */
  fresh: number;
  /** Fresh ones per difficulty (1 easy, 2 medium, 3 hard). */
  freshByDifficulty: { 1: number; 2: number; 3: number };
  /** In prize tournaments that have not ended yet. */
  held: number;
  /** Burned in the last SUPPLY_BURN_WINDOW_DAYS days. */
  burnedRecently: number;
  /** What practice can draw: burned and practice-only questions an operator has not retired. */
  practicePool: number;
  /** Days of the current schedule the fresh questions last (a live show burns ten); null when none is scheduled. */
  daysLeft: number | null;
  /** Under SUPPLY_WARN_DAYS days left, or a refused slot. */
  low: boolean;
  /** The scheduler's latest refusal in this category: a paid slot it could not fill. Null once it fills one again. */
  shortfall: { slotStart: string; needed: number; available: number; notedAt: string } | null;
}

/** GET /api/admin/questions/supply. */
export interface QuestionSupply {
  generatedAt: string;
  /** Whether this deployment reuses the demo bank (DEMO_QUESTION_REUSE, local runs only): the limits above are lifted. */
  demoReuse: boolean;
  burnWindowDays: number;
  warnBelowDays: number;
  categories: CategorySupply[];
}
