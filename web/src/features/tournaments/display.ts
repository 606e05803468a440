// How a tournament reads on screen: money, prize pool, status. Amounts arrive as USD numbers.
import type { Tournament, TournamentStatus } from "@common/api/types";
import type { TournamentDetail } from "@common/api/tournaments";
import { CANCELLATION } from "@common/messages";
import { dollarsToCents, formatDollars } from "@common/domain/money";
import type { Cents } from "@common/domain/money";
import { displayedPrizePool, splitPrizePool } from "@common/domain/prizes";
import { isPracticeKind, minPlayersFor } from "@common/domain/tournaments";
import { DIFFICULTY_RAMP, PRIZE_SHARES_BPS } from "@common/spec";

type PoolSource = Pick<Tournament, "kind" | "isFree" | "entryFee" | "prizePool" | "currentParticipants">;

/** The displayed pool: participants x fee x 0.85 for paid tournaments, the stored pool for free ones. */
export function displayedPoolCents(t: PoolSource): Cents {
  if (isPracticeKind(t.kind)) return 0;
  return t.isFree ? dollarsToCents(t.prizePool) : displayedPrizePool(t.currentParticipants, dollarsToCents(t.entryFee));
}

/** 1st/2nd/3rd prizes of the displayed pool (65/25/10, remainder to 1st). */
export const poolSplitCents = (t: PoolSource): Cents[] => splitPrizePool(displayedPoolCents(t), PRIZE_SHARES_BPS.length);

export const feeLabel = (t: Pick<Tournament, "isFree" | "entryFee">) =>
  t.isFree || t.entryFee <= 0 ? "FREE Entry" : formatDollars(t.entryFee);

/** Players still needed before a paid tournament can start (0 when none). */
export const playersMissing = (t: Pick<Tournament, "entryFee" | "currentParticipants">) =>
  Math.max(0, minPlayersFor({ entryFeeCents: dollarsToCents(t.entryFee) }) - t.currentParticipants);

/**
 * The status to show. Locally an upcoming tournament counts as live once its start has passed,
 * unless it is a paid one still short of players: the server holds those back.
 */
export function shownStatus(t: Pick<Tournament, "status" | "entryFee" | "currentParticipants">, startPassed: boolean): TournamentStatus {
  if (t.status === "upcoming" && startPassed && playersMissing(t) === 0) return "live";
  return t.status;
}

export const STATUS_LABEL: Record<TournamentStatus, string> = {
  live: "LIVE",
  upcoming: "Upcoming",
  completed: "Completed",
  cancelled: "Cancelled",
};

/** Live with no end time or an end time still ahead. */
export const isOpenForPlay = (status: TournamentStatus, endTime: string | null, now = Date.now()) =>
  status === "live" && (endTime == null || new Date(endTime).getTime() > now);

// One formatter for every card, made on first use: toLocaleString builds a new one on each call,
// and building one when the module loads would hold up every page's start.
let startFormat: Intl.DateTimeFormat | null = null;

export const formatStart = (iso: string) =>
  (startFormat ??= new Intl.DateTimeFormat(undefined, {
    weekday: "short",
    month: "short",
    day: "numeric",
    hour: "numeric",
    minute: "2-digit",
  })).format(new Date(iso));

const DIFFICULTY_NAMES: Record<number, string> = { 1: "Easy", 2: "Medium", 3: "Hard" };

/** "Easy Q1-3, Medium Q4-7, Hard Q8-10", from the difficulty ramp. */
export function difficultyText(): string {
  const runs: { level: number; from: number; to: number }[] = [];
  DIFFICULTY_RAMP.forEach((level, i) => {
    const last = runs.at(-1);
    if (last && last.level === level) last.to = i + 1;
    else runs.push({ level, from: i + 1, to: i + 1 });
  });
  return runs.map((r) => `${DIFFICULTY_NAMES[r.level] ?? `Level ${r.level}`} Q${r.from}${r.to > r.from ? `-${r.to}` : ""}`).join(", ");
}

/** Why a cancelled tournament was cancelled, in the player's words: too few players or the operator's reason; refunds only where there were fees. */
export function cancellationText(t: Pick<TournamentDetail, "cancellation" | "entryFee">): string {
  const c = t.cancellation ?? { cause: "too_few_players", reason: null, refunded: t.entryFee > 0 };
  if (c.cause === "creator") return CANCELLATION.byCreator;
  return c.cause === "operator" ? CANCELLATION.byOperator(c.reason, c.refunded) : CANCELLATION.tooFewPlayers(c.refunded);
}
