import type { LeaderboardRow } from "@common/api/tournaments";
import { LEADERBOARD_PUSH_SIZE } from "@common/spec";
import { cn } from "@/lib/cn";

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
      {top.length === 0 ? (
        <p className="text-sm text-muted-foreground">No scores yet.</p>
      ) : (
        <ol className="space-y-1.5">
          {top.map((row) => (
            <li
              key={row.userId}
              className={cn(
                "flex items-center gap-3 rounded-md px-2 py-1.5 text-sm",
                row.userId === userId && "bg-primary/10 font-semibold",
              )}
            >
              <span className="w-6 shrink-0 text-right tabular-nums text-muted-foreground">{row.rank}</span>
              <span className="min-w-0 flex-1 truncate">
                {row.username}
                {row.userId === userId && <span className="ml-1 text-xs font-normal text-muted-foreground">(you)</span>}
              </span>
              <span className="shrink-0 tabular-nums">{row.score}</span>
            </li>
          ))}
        </ol>
      )}
      {own && !inTop && (
        <p className="mt-3 border-t border-border pt-3 text-sm">
          You: <span className="font-semibold">#{own.rank}</span> · {own.score} points
        </p>
      )}
    </section>
  );
}
