import type { LeaderboardRow } from "@common/api/tournaments";
import { LEADERBOARD_PUSH_SIZE } from "@common/spec";
import { OwnRank, StandingsList } from "./standings-list";

interface LiveStandingsProps {
  rows: LeaderboardRow[];
  /** The player's own place when the room sent it (a socket frame); else it is looked up in `rows`. */
  me: { rank: number; score: number } | null;
  userId: number | undefined;
  title: string;
}

/** The top LEADERBOARD_PUSH_SIZE, and the player's own rank below them when they are not among them. */
export function LiveStandings({ rows, me, userId, title }: LiveStandingsProps) {
  const top = rows.slice(0, LEADERBOARD_PUSH_SIZE);
  const own = me ?? rows.find((r) => r.userId === userId) ?? null;
  const inTop = top.some((r) => r.userId === userId);
  return (
    <section aria-label={title} className="min-w-0 rounded-xl border border-border p-4">
      <h3 className="mb-3 text-base font-semibold">{title}</h3>
      <StandingsList rows={top} userId={userId} markYou />
      {own && !inTop && <OwnRank rank={own.rank} score={own.score} />}
    </section>
  );
}
