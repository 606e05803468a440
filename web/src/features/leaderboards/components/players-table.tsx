import { formatDollars } from "@common/domain/money";
import { Link } from "react-router";
import type { GlobalLeaderboardEntry } from "@common/api/tournaments";
import { UserAvatar } from "@/components/user-avatar";
import { cn } from "@/lib/cn";
import { PLAYER_LEVEL } from "@common/messages";

/** Global ranking rows; hidden levels and wins (the player's privacy choice) show as a dash. */
export function PlayersTable({ entries, userId }: { entries: GlobalLeaderboardEntry[]; userId?: number }) {
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
            <th scope="col" className="hidden px-4 py-3 text-right sm:table-cell">
              Level
            </th>
            <th scope="col" className="hidden px-4 py-3 text-right md:table-cell">
              Played
            </th>
            <th scope="col" className="hidden px-4 py-3 text-right sm:table-cell">
              Wins
            </th>
            <th scope="col" className="px-4 py-3 text-right">
              Winnings
            </th>
          </tr>
        </thead>
        <tbody>
          {entries.map((e, i) => (
            <tr key={e.id} className={cn("border-t border-border", e.id === userId && "bg-primary/10")}>
              <td className="px-4 py-3 font-semibold tabular-nums">{i + 1}</td>
              <td className="px-4 py-3">
                <Link to={`/players/${encodeURIComponent(e.username)}`} className="flex items-center gap-2 hover:underline">
                  <UserAvatar user={e} className="h-8 w-8 text-xs" />
                  <span className="truncate">{e.username}</span>
                </Link>
              </td>
              <td className="hidden px-4 py-3 text-right tabular-nums sm:table-cell">{PLAYER_LEVEL.cell(e.level)}</td>
              <td className="hidden px-4 py-3 text-right tabular-nums md:table-cell">{e.tournamentsPlayed}</td>
              <td className="hidden px-4 py-3 text-right tabular-nums sm:table-cell">{e.tournamentsWon ?? "—"}</td>
              <td className="px-4 py-3 text-right font-semibold tabular-nums">{formatDollars(e.totalPrize)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
