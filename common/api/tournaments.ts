// The tournaments API: request schemas (zod, used by the Worker to validate and by the web app
// to build requests), response types, and the frames of both WebSockets. USD amounts are numbers
// with 2 decimals, times ISO strings.
import { z } from "zod";
import type { Tournament, TournamentStatus } from "./types";

/** An empty query value (`?level=`) means the filter is off. */
const optionalParam = <S extends z.ZodType>(schema: S) =>
  z.preprocess((v) => (v === "" ? undefined : v), schema.optional());

export const tournamentListQuerySchema = z.object({
  /** A category id or slug. */
  category: optionalParam(z.string().trim().max(64).regex(/^[a-z0-9-]+$/i, "Invalid category")),
  /** Level requirement: 1-4 exactly, 5 means "5 and above" (the list's Advanced bucket). */
  level: optionalParam(z.string().regex(/^[1-5]$/, "Level must be 1 to 5").transform(Number)),
  /** premium: entry fee of $20 or more. */
  price: optionalParam(z.enum(["free", "paid", "premium"], { error: "Price must be free, paid or premium" })),
  status: optionalParam(z.enum(["upcoming", "live", "completed"], { error: "Status must be upcoming, live or completed" })),
  /** Case-insensitive match on title or description. */
  search: optionalParam(z.string().trim().max(100, "Search must be at most 100 characters")),
});
export type TournamentListQuery = z.input<typeof tournamentListQuerySchema>;

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

export const usernameParamSchema = z.string().min(1).max(30).regex(/^[A-Za-z0-9_.-]+$/, "Invalid username");

// ---- Responses ----

export interface TournamentDetail extends Tournament {
  /** 1st/2nd/3rd prizes (USD) of the displayed pool, 65/25/10. */
  prizeSplit: number[];
  /** 10 for paid tournaments, 0 for free and practice ones. */
  minPlayers: number;
  /** Whether the signed-in caller has joined (false when signed out). */
  joined: boolean;
  questionCount: number;
}

export interface ParticipantRow {
  userId: number;
  username: string;
  level: number;
  hasCompleted: boolean;
}

export interface JoinResult {
  joined: true;
  /** The caller's balance after the entry fee (USD). */
  balance: number;
  tournament: Tournament;
}

export interface AnswerResult {
  isCorrect: boolean;
  pointsEarned: number;
  xpEarned: number;
  correctAnswer: string;
  explanation: string | null;
  /** Milliseconds from when the server issued the question. */
  responseTime: number;
}

/** A question as a player sees it: never the correct answer until `result` is set. */
export interface PlayerQuestion {
  id: number;
  question: string;
  /** Shuffled per player, the same order on every request. */
  options: string[];
  /** 0-based. */
  index: number;
  total: number;
  issuedAt: string;
  /** issuedAt + 30 s. */
  deadline: string;
  /** Server-computed time left, 0 once the deadline passed. */
  remainingMs: number;
  result: AnswerResult | null;
}

export interface CompleteResult {
  finished: true;
  score: number;
  questionsAnswered: number;
}

export interface UserTournamentEntry {
  id: number;
  title: string;
  status: TournamentStatus;
  startTime: string;
  endTime: string | null;
  rank: number | null;
  score: number;
  prize: number;
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

export interface GlobalLeaderboardEntry {
  id: number;
  username: string;
  avatar: string | null;
  region: string;
  /** Null when the player hides it (preferences.showLevel = false). */
  level: number | null;
  tournamentsPlayed: number;
  /** Null when the player hides it (preferences.showWins = false). */
  tournamentsWon: number | null;
  totalPrize: number;
}

export interface PublicProfile {
  id: number;
  username: string;
  avatar: string | null;
  bio: string | null;
  location: string | null;
  level: number | null;
  tournamentsPlayed: number;
  tournamentsWon: number | null;
  socialLinks: Record<string, string> | null;
  createdAt: string;
}

export const notificationActions = ["tournament_started", "tournament_ended", "payout_failed"] as const;
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
  level: z.number(),
  score: z.number(),
  questionsAnswered: z.number(),
  rank: z.number(),
  /** USD; 0 until the tournament is settled. */
  prize: z.number(),
});
export type LeaderboardRow = z.infer<typeof leaderboardRowSchema>;

/** Frames a client may send on /api/tournaments/{id}/ws ("ping" as plain text is answered "pong"). */
export const tournamentClientFrameSchema = z.discriminatedUnion("type", [
  /** Ask for the current status and leaderboard again (after a reconnect, say). */
  z.object({ type: z.literal("sync") }),
]);
export type TournamentClientFrame = z.infer<typeof tournamentClientFrameSchema>;

/** Frames the server sends on /api/tournaments/{id}/ws. */
export const tournamentServerFrameSchema = z.discriminatedUnion("type", [
  z.object({
    type: z.literal("leaderboard"),
    top: z.array(leaderboardRowSchema),
    me: z.object({ rank: z.number(), score: z.number() }).nullable(),
  }),
  z.object({ type: z.literal("status"), status: statusSchema }),
  z.object({ type: z.literal("error"), message: z.string() }),
]);
export type TournamentServerFrame = z.infer<typeof tournamentServerFrameSchema>;

/** Frames a client may send on /ws. The user always comes from the session cookie. */
export const hubClientFrameSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("auth"), userId: z.union([z.number(), z.string()]) }),
]);
export type HubClientFrame = z.infer<typeof hubClientFrameSchema>;

/** Frames the server sends on /ws (SPEC.md's notification message). */
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
