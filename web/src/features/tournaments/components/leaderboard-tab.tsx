import { BarChart3 } from "lucide-react";
import type { TournamentDetail } from "@common/api/tournaments";
import { EmptyState } from "@/components/empty-state";
import { Spinner } from "@/components/ui/spinner";
import { useTournamentLeaderboard } from "../api";
import { isPractice } from "../join-checks";
import { useLiveLeaderboard } from "../play/api";
import type { TournamentSocket } from "../play/use-tournament-socket";
import { StandingsTable } from "./standings-table";

/** The tournament's standings: live from its room while it is played, the settled results after. */
export function LeaderboardTab({
  tournament: t,
  socket,
  userId,
}: {
  tournament: TournamentDetail;
  /** The page's tournament socket, open while this tab shows a live tournament. */
  socket: TournamentSocket;
  userId: number | undefined;
}) {
  return t.status === "live" ? (
    <LiveStandings id={t.id} socket={socket} userId={userId} />
  ) : (
    <FinalStandings id={t.id} userId={userId} showPrizes={t.status === "completed" && !isPractice(t)} />
  );
}

function LiveStandings({ id, socket, userId }: { id: number; socket: TournamentSocket; userId: number | undefined }) {
  const board = useLiveLeaderboard(id, socket);
  if (board.isLoading) return <Spinner className="mx-auto my-10" label="Loading leaderboard" />;
  if (board.rows.length === 0) return <NoStandings />;
  return <StandingsTable rows={board.rows} userId={userId} showPrizes={false} />;
}

function FinalStandings({ id, userId, showPrizes }: { id: number; userId: number | undefined; showPrizes: boolean }) {
  const { data, isLoading, error } = useTournamentLeaderboard(id);
  if (isLoading) return <Spinner className="mx-auto my-10" label="Loading leaderboard" />;
  if (error) return <p className="py-10 text-center text-sm text-destructive">{error.message}</p>;
  if (!data || data.length === 0) return <NoStandings />;
  return <StandingsTable rows={data} userId={userId} showPrizes={showPrizes} />;
}

const NoStandings = () => (
  <EmptyState icon={BarChart3} title="No Leaderboard Data" description="Scores appear here once players start answering." />
);
