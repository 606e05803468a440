import { formatDollars } from "@common/domain/money";
import { Link } from "react-router";
import type { LeaderboardRow } from "@common/api/tournaments";
import { cn } from "@/lib/cn";
import { PLAYER_LEVEL } from "@common/messages";

/** A tournament's standings: rank, player, level, score, answered, and prizes once awarded. */
export function StandingsTable({ rows, userId, showPrizes }: { rows: LeaderboardRow[]; userId: number | undefined; showPrizes: boolean }) {
  return (
    <div className="overflow-x-auto rounded-xl border border-border">
      <table className="w-full text-sm">
        <thead className="bg-muted/50 text-left text-xs uppercase text-muted-foreground">
          <tr>
            <th scope="col" className="px-4 py-3">
              Rank
            </th>
            <th scope="col" className="px-4 py-3">
              Player
            </th>
            <th scope="col" className="hidden px-4 py-3 sm:table-cell">
              Level
            </th>
            <th scope="col" className="px-4 py-3 text-right">
              Score
            </th>
            <th scope="col" className="hidden px-4 py-3 text-right sm:table-cell">
              Answered
            </th>
            {showPrizes && (
              <th scope="col" className="px-4 py-3 text-right">
                Prize
              </th>
            )}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.userId} className={cn("border-t border-border", row.userId === userId && "bg-primary/10")}>
              <td className="px-4 py-3 font-semibold tabular-nums">{row.rank}</td>
              <td className="px-4 py-3">
                <Link to={`/players/${encodeURIComponent(row.username)}`} className="hover:underline">
                  {row.username}
                </Link>
                {row.userId === userId && <span className="ml-2 text-xs text-muted-foreground">(you)</span>}
              </td>
              <td className="hidden px-4 py-3 sm:table-cell" title={row.level === null ? PLAYER_LEVEL.hidden : undefined}>
                {PLAYER_LEVEL.cell(row.level)}
              </td>
              <td className="px-4 py-3 text-right tabular-nums">{row.score}</td>
              <td className="hidden px-4 py-3 text-right tabular-nums sm:table-cell">{row.questionsAnswered}</td>
              {showPrizes && <td className="px-4 py-3 text-right tabular-nums">{row.prize > 0 ? formatDollars(row.prize) : "—"}</td>}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
