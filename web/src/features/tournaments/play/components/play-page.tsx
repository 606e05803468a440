import { useState } from "react";
import { Link, useNavigate, useParams } from "react-router";
import { LogIn, Trophy } from "lucide-react";
import { EmptyState } from "@/components/empty-state";
import { Button } from "@/components/ui/button";
import { PageSpinner } from "@/components/ui/spinner";
import { useUser } from "@/lib/session";
import { useTournament } from "@/features/tournaments/api";
import { ApiError } from "@/lib/api";
import { useLiveLeaderboard } from "../api";
import { useTournamentSocket } from "../use-tournament-socket";
import { HostNotice } from "./host-notice";
import { LeaderboardPanel } from "./leaderboard-panel";
import { NoQuestions, PlayGate } from "./play-gate";

/** /tournaments/{id}/play: full screen, outside the sign-in wrapper, so it makes its own checks. */
export default function PlayPage() {
  const id = Number(useParams().id);
  const navigate = useNavigate();
  const { user, isLoading: userLoading } = useUser();
  const tournament = useTournament(id, { enabled: user !== null });
  const t = tournament.data;
  // One socket for the page: play, the live show and the leaderboard panel all read it. A live
  // show is open to spectators too; self-paced play only to those who joined.
  const active = t !== undefined && (t.status === "live" || t.status === "upcoming");
  const socket = useTournamentSocket(id, {
    enabled: active && (t.joined || t.format === "live_show"),
    untilShowEnds: t?.format === "live_show",
  });
  const board = useLiveLeaderboard(id, socket, { enabled: active && t.joined });
  const [showBoard, setShowBoard] = useState(false);
  const back = () => navigate(`/tournaments/${id}`);

  let body;
  if (userLoading || (user && tournament.isLoading)) body = <PageSpinner />;
  else if (!user) {
    body = (
      <EmptyState icon={LogIn} title="Sign in to play" description="You need an account and a place in this tournament to play.">
        <Button asChild>
          <Link to="/auth">Sign In</Link>
        </Button>
        <Button variant="outline" onClick={back}>
          Back to Tournament
        </Button>
      </EmptyState>
    );
  } else if (!t) {
    body =
      tournament.error instanceof ApiError && tournament.error.status === 404 ? (
        <NoQuestions onBack={back} />
      ) : (
        <EmptyState title="The tournament could not be loaded" description={tournament.error?.message}>
          <Button variant="outline" onClick={() => tournament.refetch()}>
            Try again
          </Button>
        </EmptyState>
      );
  } else {
    const toolbar = (
      <Button
        variant="outline"
        size="sm"
        aria-expanded={showBoard}
        aria-controls="play-leaderboard"
        onClick={() => setShowBoard(!showBoard)}
      >
        <Trophy className="h-4 w-4" aria-hidden /> {showBoard ? "Hide Leaderboard" : "Show Leaderboard"}
      </Button>
    );
    body = (
      <div className={showBoard ? "grid gap-6 lg:grid-cols-[1fr_18rem]" : undefined}>
        <div className="min-w-0">
          <h1 className="mb-4 text-lg font-semibold text-muted-foreground">{t.title}</h1>
          <HostNotice host={socket.host} live={(socket.status ?? t.status) === "live"} />
          <PlayGate tournament={t} socket={socket} onBack={back} toolbar={toolbar} />
        </div>
        {showBoard && (
          <LeaderboardPanel
            id="play-leaderboard"
            board={board}
            userId={user.id}
            // Prize play's board shows progress until the end: scores come with the results.
            progress={t.format === "self_paced" && t.kind === "standard" && t.status !== "completed"}
          />
        )}
      </div>
    );
  }

  return (
    <div className="fixed inset-0 z-50 overflow-y-auto bg-background">
      <div className="mx-auto max-w-5xl px-4 py-6 sm:py-10">{body}</div>
    </div>
  );
}
