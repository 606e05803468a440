import type { LeaderboardRow } from "@common/api/tournaments";
import { cn } from "@/lib/cn";

/**
 * Ranked rows with the player's own row highlighted (and marked "(you)" when asked). `progress`:
 * how many questions each has answered instead of the score (a self-paced prize tournament's
 * board before its end, where every score is 0 until then).
 */
export function StandingsList({
  rows,
  userId,
  markYou = false,
  progress = false,
}: {
  rows: LeaderboardRow[];
  userId: number | undefined;
  markYou?: boolean;
  progress?: boolean;
}) {
  if (rows.length === 0) return <p className="text-sm text-muted-foreground">No scores yet.</p>;
  return (
    <ol className="space-y-1.5">
      {rows.map((row) => (
        <li
          key={row.userId}
          className={cn("flex items-center gap-3 rounded-md px-2 py-1.5 text-sm", row.userId === userId && "bg-primary/10 font-semibold")}
        >
          <span className="w-6 shrink-0 text-right tabular-nums text-muted-foreground">{row.rank}</span>
          <span className="min-w-0 flex-1 truncate">
            {row.username}
            {markYou && row.userId === userId && <span className="ml-1 text-xs font-normal text-muted-foreground">(you)</span>}
          </span>
          <span className="shrink-0 tabular-nums">{progress ? `${row.questionsAnswered} answered` : row.score}</span>
        </li>
      ))}
    </ol>
  );
}

/** "You: #12 · 340 points", under a list the player is not in. */
export function OwnRank({ rank, score }: { rank: number; score: number }) {
  return (
    <p className="mt-3 border-t border-border pt-3 text-sm">
      You: <span className="font-semibold">#{rank}</span> · {score} points
    </p>
  );
}
