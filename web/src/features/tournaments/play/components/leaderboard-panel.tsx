import { Radio } from "lucide-react";
import type { LeaderboardRow } from "@common/api/tournaments";
import { PLAY } from "@common/messages";
import { LEADERBOARD_PANEL_SIZE, LEADERBOARD_POLL_MS } from "@common/spec";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { Spinner } from "@/components/ui/spinner";
import { cn } from "@/lib/cn";
import type { LiveLeaderboard } from "../api";
import { OwnRank, StandingsList } from "./standings-list";

/**
 * The top LEADERBOARD_PANEL_SIZE of the live standings, and the player's own rank. `progress`: a
 * self-paced prize tournament before its end, whose board shows questions answered, not scores.
 */
export function LeaderboardPanel({
  board,
  userId,
  id,
  progress = false,
}: {
  board: LiveLeaderboard;
  userId: number | undefined;
  id?: string;
  progress?: boolean;
}) {
  const top: LeaderboardRow[] = board.rows.slice(0, LEADERBOARD_PANEL_SIZE);
  return (
    <Card id={id}>
      <CardHeader className="flex-row items-center justify-between pb-3">
        <CardTitle className="text-base">Leaderboard</CardTitle>
        <span className="flex items-center gap-1 text-xs text-muted-foreground">
          <Radio className={cn("h-3.5 w-3.5", board.connected && "text-success")} aria-hidden />
          {board.connected ? "Live" : `Updates every ${LEADERBOARD_POLL_MS / 1000}s`}
        </span>
      </CardHeader>
      <CardContent>
        {board.isLoading ? <Spinner className="mx-auto h-6 w-6" /> : <StandingsList rows={top} userId={userId} progress={progress} />}
        {progress ? (
          <p className="mt-3 border-t border-border pt-3 text-xs text-muted-foreground">{PLAY.verdictAtEnd}</p>
        ) : (
          board.me && <OwnRank rank={board.me.rank} score={board.me.score} />
        )}
      </CardContent>
    </Card>
  );
}
