// Rules about a tournament as a whole: practice, minimum players, premium.
import { LEADERBOARD_PUSH_MS, LEADERBOARD_PUSH_SOCKETS_PER_INTERVAL, MIN_PLAYERS_PAID, PREMIUM_MIN_FEE_CENTS } from "../spec";
import type { TournamentFormat, TournamentKind } from "../api/types";
import type { LifecyclePhase } from "./lifecycle";
import type { Cents } from "./money";

/**
 * Practice (the always-open entry of a category, or one player's run started from it) is free:
 * no minimum, capacity, level gate or prizes.
 */
export const isPracticeKind = (kind: TournamentKind) => kind !== "standard";

/**
 * Prize play: a standard tournament with an entry fee, or with a prize pool (a free one whose pool
 * the house funds). Staff and accounts linked to staff may not play it (docs/fair-play.md).
 */
export const isPrizePlay = (t: { practice: boolean; entryFeeCents: Cents; prizePoolCents: Cents }) =>
  !t.practice && (t.entryFeeCents > 0 || t.prizePoolCents > 0);

/** Players needed to start: the minimum applies to paid tournaments only. */
export const minPlayersFor = (t: { entryFeeCents: Cents }) => (t.entryFeeCents > 0 ? MIN_PLAYERS_PAID : 0);

export const isPremiumFee = (entryFeeCents: Cents) => entryFeeCents >= PREMIUM_MIN_FEE_CENTS;

/** How often a room pushes its leaderboard: every LEADERBOARD_PUSH_MS, one interval more per LEADERBOARD_PUSH_SOCKETS_PER_INTERVAL sockets. */
export const leaderboardPushInterval = (sockets: number) =>
  LEADERBOARD_PUSH_MS * Math.max(1, Math.ceil(sockets / LEADERBOARD_PUSH_SOCKETS_PER_INTERVAL));

/**
 * Whether a self-paced prize tournament still keeps every verdict to itself: right or wrong,
 * points, scores, the correct answer. Every standard tournament counts, free ones included; only
 * practice scores at once. Shown once the tournament has ended (completed). A live show keeps each
 * answer locked until its question's reveal instead (live-show.ts).
 */
export const isVerdictWithheld = (t: { format: TournamentFormat; practice: boolean; phase: LifecyclePhase }) =>
  t.format === "self_paced" && !t.practice && t.phase !== "completed";
