// The tournaments API: request schemas (zod, used by the Worker to validate and by the web app
// to build requests), response types, and the frames of both WebSockets. USD amounts are numbers
// with 2 decimals, times ISO strings.
import { z } from "zod";
import { TOURNAMENT_PAGE_SIZE_MAX, USERNAME_MAX } from "../spec";
import { ERROR_CODES } from "./errors";
import { answerReceiptSchema, type PrizeStatus } from "./fair-play";
import { inviteCodeSchema, turnstileTokenSchema } from "./params";
import type { Tournament, TournamentKind, TournamentStatus } from "./types";
import type { FeaturedRegistration } from "./featured";

/** An empty query value (`?price=`) means the filter is off. */
const optionalParam = <S extends z.ZodType>(schema: S) => z.preprocess((v) => (v === "" ? undefined : v), schema.optional());

/** A whole number from a query string, within bounds. */
const wholeParam = (name: string, min: number, max: number) =>
  optionalParam(
    z
      .string()
      .regex(/^\d+$/, `${name} must be a whole number`)
      .transform(Number)
      .pipe(z.number().min(min, `${name} must be at least ${min}`).max(max, `${name} must be at most ${max}`)),
  );

/** One status, `active` (upcoming or live) or `all`. */
export const tournamentListStatuses = ["upcoming", "live", "completed", "cancelled", "active", "all"] as const;
/** premium: an entry fee of $20 or more. */
export const tournamentListPrices = ["all", "free", "paid", "premium"] as const;
/** The kinds a public list may ask for; a player's own practice runs are never listed. */
export const listedTournamentKinds = ["standard", "practice"] as const;

export const tournamentListQuerySchema = z
  .object({
    /** Case-insensitive substring of the title or description. */
    q: optionalParam(z.string().trim().max(100, "Search must be at most 100 characters")),
    categoryId: wholeParam("categoryId", 1, 999_999),
    /** A category slug, as the site's category links carry it. */
    category: optionalParam(
      z
        .string()
        .trim()
        .max(64)
        .regex(/^[a-z0-9-]+$/i, "Invalid category"),
    ),
    /** Bounds (inclusive) on the level a tournament requires: a tier of the level filter. */
    minLevel: wholeParam("minLevel", 1, 999_999),
    maxLevel: wholeParam("maxLevel", 1, 999_999),
    price: optionalParam(z.enum(tournamentListPrices, { error: "Price must be all, free, paid or premium" })),
    status: optionalParam(z.enum(tournamentListStatuses, { error: "Status must be upcoming, live, completed, cancelled, active or all" })),
    kind: optionalParam(z.enum(listedTournamentKinds, { error: "Kind must be standard or practice" })),
    /** 1-based. */
    page: wholeParam("page", 1, 999_999),
    pageSize: wholeParam("pageSize", 1, TOURNAMENT_PAGE_SIZE_MAX),
  })
  .refine((q) => q.minLevel === undefined || q.maxLevel === undefined || q.minLevel <= q.maxLevel, {
    message: "minLevel must not be above maxLevel",
  });

/** A list request as the Worker reads it; absent means "all" (and page 1 of the default size). */
export type TournamentListParams = z.output<typeof tournamentListQuerySchema>;

/** POST /api/tournaments/:id/join: no fields, but the bot check's token when the fee is not zero and the check is on. */
export const joinBodySchema = z.object({
  turnstileToken: turnstileTokenSchema,
  /** A private (custom) tournament's invite code: without it such a tournament answers as an unknown id. */
  inviteCode: inviteCodeSchema.optional(),
});
export type JoinInput = z.infer<typeof joinBodySchema>;

export const answerBodySchema = z.object({
  questionId: z.number({ error: "questionId must be a number" }).int().positive(),
  answer: z.string({ error: "answer must be a string" }).min(1, "Answer is required").max(500),
});
export type AnswerInput = z.infer<typeof answerBodySchema>;

export const notificationsReadSchema = z.object({
  /** Absent: mark all of the caller's notifications read. */
  ids: z.array(z.number().int().positive()).max(100).optional(),
});
export type NotificationsReadInput = z.infer<typeof notificationsReadSchema>;

export const usernameParamSchema = z
  .string()
  .min(1)
  .max(USERNAME_MAX)
  .regex(/^[A-Za-z0-9_.-]+$/, "Invalid username");

// ---- Responses ----

/** One page of the tournament list. */
export interface TournamentPage {
  items: Tournament[];
  /** Tournaments matching the filters, over every page. */
  total: number;
  page: number;
  pageSize: number;
  /** The next page's number; null on the last page. */
  nextPage: number | null;
}

/** Why a tournament was cancelled, for its page (docs/product.md, Lifecycle). */
export interface TournamentCancellation {
  /**
   * too_few_players: a paid tournament short of its minimum when its wait ran out; operator: cancelled
   * from the console; creator: a custom tournament its creator cancelled before anyone joined.
   */
  cause: "too_few_players" | "operator" | "creator";
  /** The operator's reason as given; null for too_few_players. */
  reason: string | null;
  /** Entry fees were given back (a paid tournament); a free one had none. */
  refunded: boolean;
}

export interface TournamentDetail extends Tournament {
  /** 1st/2nd/3rd prizes (USD) of the displayed pool, 65/25/10. */
  prizeSplit: number[];
  /** 10 for paid tournaments, 0 for free and practice ones. */
  minPlayers: number;
  /** Whether the signed-in caller has joined (false when signed out). */
  joined: boolean;
  questionCount: number;
  /**
   * SHA-256 commitment to the questions and their answers (the root of a Merkle tree with one
   * leaf per question, docs/decisions/015), published before the start;
   * GET /api/tournaments/{id}/fairness opens it for the questions issued, after settlement. Null for practice.
   */
  fairnessCommitment: string | null;
  /** A featured event's registration as the viewer sees it (docs/featured-events.md); null when not featured. */
  featured: FeaturedRegistration | null;
  /** Null unless the tournament is cancelled. */
  cancellation: TournamentCancellation | null;
  /**
   * A private custom tournament (docs/custom-tournaments.md): only players with its invite code can
   * find and join it. Its code and link only for its creator (null for anyone else). Null for every
   * other tournament.
   */
  invitation: { inviteCode: string | null; invitePath: string | null } | null;
}

export interface ParticipantRow {
  userId: number;
  username: string;
  /** Null when the player hides it (preferences.showLevel = false). */
  level: number | null;
  hasCompleted: boolean;
}

export interface JoinResult {
  joined: true;
  /** The caller's balance after the entry fee (USD). */
  balance: number;
  tournament: Tournament;
}

export interface LeaveResult {
  /** What happened, for the toast: the refund, when there was a fee. */
  message: string;
  /** The caller's balance after the refund (USD). */
  balance: number;
  tournament: Tournament;
}

export const answerResultSchema = z.object({
  isCorrect: z.boolean(),
  pointsEarned: z.number(),
  xpEarned: z.number(),
  /** Null while withheld: a self-paced prize tournament shows it once the tournament has ended. */
  correctAnswer: z.string().nullable(),
  explanation: z.string().nullable(),
  /** When a withheld correct answer will be shown (the tournament's end); null when it is shown. */
  withheldUntil: z.string().nullable(),
  /** Milliseconds counted for the answer: from when the server issued the question (a live show: less the latency allowance). */
  responseTime: z.number(),
  /** The server's signed record of the answer; null for a question that timed out unanswered. */
  receipt: answerReceiptSchema.nullable(),
});
export type AnswerResult = z.infer<typeof answerResultSchema>;

/**
 * An answer accepted and locked in, with nothing that tells whether it was right: a live show's
 * until the question's window has closed for everyone (the reveal frame says that to everyone at
 * once), a self-paced prize tournament's (every standard one) until the tournament has ended.
 */
export const answerLockedSchema = z.object({
  locked: z.literal(true),
  questionId: z.number(),
  answer: z.string(),
  responseTime: z.number(),
  /** When the answer is revealed: a live show's window closes, a self-paced prize tournament ends. */
  revealAt: z.string(),
  /** Signed proof the answer was received in time; its points are null until the reveal. */
  receipt: answerReceiptSchema,
});
export type AnswerLocked = z.infer<typeof answerLockedSchema>;

/** What answering returns: the scored result (practice), or the locked answer until the reveal (prize play). */
export const answerReplySchema = z.union([answerResultSchema, answerLockedSchema]);
export type AnswerReply = z.infer<typeof answerReplySchema>;
export const isLocked = (r: AnswerReply): r is AnswerLocked => "locked" in r;

/** A question as a player sees it: never the correct answer until `result` is a revealed one. */
export const playerQuestionSchema = z.object({
  id: z.number(),
  question: z.string(),
  /** Shuffled per player, the same order on every request. */
  options: z.array(z.string()),
  /** 0-based. */
  index: z.number(),
  total: z.number(),
  /** When the server issued the question (a live show: when it went out to everyone). */
  issuedAt: z.string(),
  /** issuedAt + 30 s. */
  deadline: z.string(),
  /** Server-computed time left, 0 once the deadline passed. */
  remainingMs: z.number(),
  result: answerReplySchema.nullable(),
});
export type PlayerQuestion = z.infer<typeof playerQuestionSchema>;

/** Where a live show is: waiting for its start, a question open, a question revealed, over. */
export const liveShowStateSchema = z.object({
  stage: z.enum(["waiting", "question", "reveal", "over"]),
  /** The current (or last) question, 0-based; -1 before the first. */
  index: z.number(),
  total: z.number(),
  /** When the stage ends: the start, the window's close, or the next question. Null when not known (or held by the host). */
  nextAt: z.string().nullable(),
  /** The host paused the show: no next question until they resume. */
  paused: z.boolean().optional(),
});
export type LiveShowState = z.infer<typeof liveShowStateSchema>;

export interface CompleteResult {
  finished: true;
  /** Null while the tournament withholds verdicts (a standard self-paced one until it has ended). */
  score: number | null;
  questionsAnswered: number;
}

export interface UserTournamentEntry {
  id: number;
  title: string;
  kind: TournamentKind;
  /** The player has played to the end (or their time ran out): nothing left to play. */
  finished: boolean;
  status: TournamentStatus;
  startTime: string;
  endTime: string | null;
  rank: number | null;
  /** Null until a standard tournament has ended: a score before then would tell right from wrong. */
  score: number | null;
  prize: number;
  /** held: the prize is under fair-play review (not in the balance yet); forfeited: it went to the house. */
  prizeStatus: PrizeStatus;
  /** Shown with a held or forfeited prize: the category, never the rule. */
  reviewReason: string | null;
}

export interface CategoryStat {
  categoryId: number;
  category: string;
  answered: number;
  correct: number;
  /** Percent, 0-100. */
  accuracy: number;
}

export interface UserStats {
  questionsAnswered: number;
  correctAnswers: number;
  /** Seconds, 1 decimal; null before the first answer. */
  averageResponseTime: number | null;
  fastestResponseTime: number | null;
  favoriteCategory: string | null;
  joinedDate: string;
  /** Sum of prizes won (USD). */
  totalEarnings: number;
  /** Global rank by total prize then wins; null if never played. */
  rank: number | null;
  winRate: number;
  categoryStats: CategoryStat[];
}

export const leaderboardQuerySchema = z.object({
  /** week: prizes won in the last LEADERBOARD_WEEK_MS; all (default): all time. */
  period: optionalParam(z.enum(["week", "all"], { error: "Period must be week or all" })),
  /** Only players of this country. */
  region: optionalParam(
    z
      .string()
      .trim()
      .toUpperCase()
      .regex(/^[A-Z]{2}$/, "Region must be a two-letter country code"),
  ),
});
export type LeaderboardQuery = z.input<typeof leaderboardQuerySchema>;

export interface GlobalLeaderboardEntry {
  id: number;
  username: string;
  /** The avatar's own cacheable URL, or null when the player has none. */
  avatar: string | null;
  /** The player's country code, or "Global" when it is not known. */
  region: string;
  /** Null when the player hides it (preferences.showLevel = false). */
  level: number | null;
  tournamentsPlayed: number;
  /** Null when the player hides it (preferences.showWins = false). */
  tournamentsWon: number | null;
  /** Prizes (USD) in the period asked for. */
  totalPrize: number;
}

export interface PublicProfile {
  id: number;
  username: string;
  /** The avatar's own cacheable URL, or null. */
  avatar: string | null;
  bio: string | null;
  location: string | null;
  level: number | null;
  tournamentsPlayed: number;
  tournamentsWon: number | null;
  socialLinks: Record<string, string> | null;
  createdAt: string;
}

export const notificationActions = [
  "tournament_started",
  "tournament_ended",
  "payout_failed",
  "prize_released",
  "prize_forfeited",
  "question_report_resolved",
  /** An operator's manual adjustment of the balance, after a second operator approved it. */
  "balance_adjusted",
  /** "Remind me" on a featured event: a day before and ten minutes before its start. */
  "event_reminder",
  /** The host disqualified the player from a tournament, with the reason. */
  "player_disqualified",
] as const;
export type NotificationAction = (typeof notificationActions)[number];

export interface NotificationData {
  action: NotificationAction | null;
  tournamentId: number | null;
  status: string | null;
}

export interface NotificationItem {
  id: number;
  message: string;
  data: NotificationData;
  read: boolean;
  createdAt: string;
}

export interface NotificationList {
  unread: number;
  items: NotificationItem[];
}

// ---- WebSocket frames ----

const statusSchema = z.enum(["upcoming", "live", "completed", "cancelled"]);

export const leaderboardRowSchema = z.object({
  userId: z.number(),
  username: z.string(),
  /** Null when the player hides it (preferences.showLevel = false). */
  level: z.number().nullable(),
  /** 0 for everyone in a self-paced prize tournament until it has ended: its board shows progress only. */
  score: z.number(),
  questionsAnswered: z.number(),
  rank: z.number(),
  /** USD; 0 until the tournament is settled. */
  prize: z.number(),
});
export type LeaderboardRow = z.infer<typeof leaderboardRowSchema>;

/** A client's name for one frame, echoed in the reply: resending the same id returns the same reply. */
const frameIdSchema = z.string().min(1).max(64);
/** The room's name for one ping it sent: random, and measured once (docs/decisions/008-live-show-timing.md). */
const pingNonceSchema = z.string().min(1).max(64);

/**
 * Frames a client may send on /api/tournaments/{id}/ws ("ping" as plain text is answered "pong").
 * The play frames do what POST /next, /answer and /complete do, without a request each.
 */
export const tournamentClientFrameSchema = z.discriminatedUnion("type", [
  /** Ask for the status, the leaderboard and (to a player) the open question again, after a reconnect say. */
  z.object({ type: z.literal("sync"), id: frameIdSchema.optional() }),
  /** The open question, or the next one (its clock starts now); after a reconnect, the open one with its original deadline. */
  z.object({ type: z.literal("next"), id: frameIdSchema }),
  z.object({
    type: z.literal("answer"),
    id: frameIdSchema,
    ...answerBodySchema.shape,
    /**
     * Self-paced: the reply also carries the next question (its clock starting with that reply),
     * so a player needs one frame per answer instead of `next` then `answer`. Ignored in a live
     * show, whose questions are pushed to everyone.
     */
    next: z.boolean().optional(),
  }),
  z.object({ type: z.literal("complete"), id: frameIdSchema }),
  /**
   * The reply to the server's ping frame, echoing its nonce: the room measures the round trip from
   * when it sent that ping, once per nonce. A nonce it did not send (or already measured) counts for nothing.
   */
  z.object({ type: z.literal("pong"), nonce: pingNonceSchema }),
]);
export type TournamentClientFrame = z.infer<typeof tournamentClientFrameSchema>;

/** Frames the server sends on /api/tournaments/{id}/ws. */
export const tournamentServerFrameSchema = z.discriminatedUnion("type", [
  z.object({
    type: z.literal("leaderboard"),
    top: z.array(leaderboardRowSchema),
    me: z.object({ rank: z.number(), score: z.number() }).nullable(),
    /** Grows with every change of the standings. */
    version: z.number(),
    /** A sharded show's board merged at the deadline without some play shard's report: a newer one follows. */
    provisional: z.literal(true).optional(),
  }),
  /** The show is present in a live show only. */
  z.object({ type: z.literal("status"), status: statusSchema, show: liveShowStateSchema.nullable() }),
  /** A question: the reply to `next` (with its id), or a live show's question pushed to every player. */
  z.object({ type: z.literal("question"), id: frameIdSchema.optional(), question: playerQuestionSchema }),
  z.object({
    type: z.literal("result"),
    id: frameIdSchema,
    result: answerReplySchema,
    /**
     * Present when the answer frame asked for it (`next: true`, self-paced): the next question,
     * issued when this reply was made (its deadline counts from then), or null when the answer
     * was the player's last (nothing left but `complete`). A resent answer frame gets the same
     * question with its original deadline.
     */
    next: playerQuestionSchema.nullable().optional(),
  }),
  z.object({
    type: z.literal("completed"),
    id: frameIdSchema,
    finished: z.literal(true),
    /** Null while withheld, as in POST /complete. */
    score: z.number().nullable(),
    questionsAnswered: z.number(),
  }),
  /** A live show's question after its window closed for everyone. */
  z.object({
    type: z.literal("reveal"),
    questionId: z.number(),
    index: z.number(),
    correctAnswer: z.string(),
    explanation: z.string().nullable(),
    /** How many players chose each option (every option listed, in the question's own order). */
    distribution: z.array(z.object({ option: z.string(), count: z.number() })),
    /**
     * A sharded show: `distribution` does not count every player yet (the play shards' counts are
     * still being merged); a `distribution` frame with everyone's follows.
     */
    partial: z.literal(true).optional(),
    /** The player's own scored answer; null for a spectator or a player who did not answer. */
    you: answerResultSchema.nullable(),
    /** When the next question goes out; null after the last, and while the host holds the show. */
    nextAt: z.string().nullable(),
    /** The host voided this question: it counts for nobody. */
    voided: z.boolean().optional(),
  }),
  /**
   * A sharded show: how everyone answered the revealed question, merged over every play shard;
   * replaces the reveal's `distribution`. `partial`: merged at the deadline without some shard's
   * counts (a later frame completes it).
   */
  z.object({
    type: z.literal("distribution"),
    questionId: z.number(),
    index: z.number(),
    distribution: z.array(z.object({ option: z.string(), count: z.number() })),
    partial: z.literal(true).optional(),
  }),
  /**
   * The host's tools as they touch this player (docs/decisions/017-host-tools.md): the show paused
   * before its next question, the questions voided so far (0-based), and the player's own
   * disqualification with its reason. Sent on every (re)connection and whenever one changes.
   */
  z.object({
    type: z.literal("host"),
    paused: z.boolean(),
    voided: z.array(z.number()),
    disqualified: z.string().nullable(),
  }),
  /** The room measures the round trip: answer with {type:"pong", nonce} at once. */
  z.object({ type: z.literal("ping"), nonce: pingNonceSchema }),
  /** A refusal: the same status, code and message as the HTTP endpoint would give. */
  z.object({ type: z.literal("error"), id: frameIdSchema.optional(), status: z.number(), code: z.enum(ERROR_CODES), message: z.string() }),
]);
export type TournamentServerFrame = z.infer<typeof tournamentServerFrameSchema>;

/** Frames a client may send on /ws. The user always comes from the session cookie. */
export const hubClientFrameSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("auth"), userId: z.union([z.number(), z.string()]) }),
]);
export type HubClientFrame = z.infer<typeof hubClientFrameSchema>;

/** Frames the server sends on /ws: a notification as the bar shows it. */
export const hubServerFrameSchema = z.discriminatedUnion("type", [
  z.object({
    type: z.literal("notification"),
    message: z.string(),
    /** tournamentId is null for notifications about something else (a failed payout). */
    data: z.object({ action: z.enum(notificationActions), tournamentId: z.number().nullable(), status: z.string() }),
  }),
]);
export type HubServerFrame = z.infer<typeof hubServerFrameSchema>;
export type NotificationFrame = Extract<HubServerFrame, { type: "notification" }>;
