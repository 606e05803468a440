import { useEffect, type ReactNode } from "react";
import { Link } from "react-router";
import { useQueryClient } from "@tanstack/react-query";
import { Ban, CheckCircle2, CircleHelp, Flag, Hourglass, UserPlus } from "lucide-react";
import type { TournamentDetail } from "@common/api/tournaments";
import { CANCELLATION, PLAY } from "@common/messages";
import { EmptyState } from "@/components/empty-state";
import { Button } from "@/components/ui/button";
import { PageSpinner } from "@/components/ui/spinner";
import { useUser } from "@/lib/session";
import { tournamentKeys, useParticipants } from "@/features/tournaments/api";
import { JoinButton } from "@/features/tournaments/components/join-button";
import { cancellationText, formatStart, isOpenForPlay, playersMissing } from "@/features/tournaments/display";
import { isPractice } from "@/features/tournaments/join-checks";
import { useCountdown } from "@/hooks/use-countdown";
import type { TournamentSocket } from "../use-tournament-socket";
import { LiveShow } from "./live-show";
import { PlaySession } from "./play-session";

export function NoQuestions({ onBack }: { onBack(): void }) {
  return (
    <EmptyState icon={CircleHelp} title="No Questions Available" description="There are no questions available for this tournament.">
      <Button variant="outline" onClick={onBack}>
        Back to Tournament
      </Button>
    </EmptyState>
  );
}

interface PlayGateProps {
  tournament: TournamentDetail;
  /** The page's tournament socket. */
  socket: TournamentSocket;
  onBack(): void;
  toolbar?: ReactNode;
}

/**
 * Whether this player can play this tournament now, and the session when they can: joined, not
 * yet finished, and the tournament live. Otherwise the reason, with the way forward. A live show
 * has its own screen from the waiting room to the final standings, for players and spectators.
 */
export function PlayGate({ tournament: t, socket, onBack, toolbar }: PlayGateProps) {
  const { user } = useUser();
  const qc = useQueryClient();
  const participants = useParticipants(t.id, { enabled: t.joined });
  const countdown = useCountdown(t.status === "upcoming" ? t.startTime : null);
  const practice = isPractice(t);

  // At the start time, ask the server whether the tournament has started.
  useEffect(() => {
    if (countdown.isDue && t.status === "upcoming") void qc.invalidateQueries({ queryKey: tournamentKeys.detail(t.id) });
  }, [countdown.isDue, t.status, t.id, qc]);

  const back = (
    <Button variant="outline" onClick={onBack}>
      Back to Tournament
    </Button>
  );

  const cancelled = (
    <EmptyState icon={Ban} title={CANCELLATION.title} description={cancellationText(t)}>
      {back}
    </EmptyState>
  );

  if (t.questionCount === 0) return <NoQuestions onBack={onBack} />;
  if (t.format === "live_show") {
    return t.status === "cancelled" ? cancelled : <LiveShow tournament={t} socket={socket} onBack={onBack} toolbar={toolbar} />;
  }
  if (!t.joined) {
    return (
      <EmptyState icon={UserPlus} title="Join to Play" description="You haven't joined this tournament yet.">
        {practice ? (
          <JoinButton tournament={t} />
        ) : (
          <Button asChild>
            <Link to={`/tournaments/${t.id}`}>Go to Tournament to Join</Link>
          </Button>
        )}
      </EmptyState>
    );
  }
  if (participants.isLoading) return <PageSpinner />;
  if (participants.data?.some((p) => p.userId === user?.id && p.hasCompleted)) {
    // Prize play: nothing to see before the end but when the results come.
    if (!practice && t.status !== "completed" && t.endTime !== null) {
      return (
        <EmptyState icon={CheckCircle2} title="You've Finished" description={PLAY.resultsAtEnd(formatStart(t.endTime))}>
          <Button asChild>
            <Link to="/dashboard?tab=tournaments">My Tournaments</Link>
          </Button>
          {back}
        </EmptyState>
      );
    }
    return (
      <EmptyState
        icon={CheckCircle2}
        title="You've Finished"
        description="You have answered this tournament's questions. See how you placed on its leaderboard."
      >
        <Button asChild>
          <Link to={`/tournaments/${t.id}?tab=leaderboard`}>View Leaderboard</Link>
        </Button>
        <Button variant="outline" asChild>
          <Link to="/dashboard?tab=tournaments">My Tournaments</Link>
        </Button>
      </EmptyState>
    );
  }
  if (t.status === "upcoming") {
    const missing = playersMissing(t);
    return (
      <EmptyState
        icon={Hourglass}
        title="Tournament Not Live Yet"
        description={
          <>
            <p>
              Starts {formatStart(t.startTime)} · <span className="font-medium text-foreground">{countdown.label}</span>
            </p>
            {missing > 0 && <p className="mt-1">Waiting for {missing} more players to start</p>}
            {!practice && <p className="mt-1">{PLAY.verdictAtEnd}</p>}
          </>
        }
      >
        {back}
      </EmptyState>
    );
  }
  if (t.status === "cancelled") return cancelled;
  if (!isOpenForPlay(t.status, t.endTime)) {
    return (
      <EmptyState icon={Flag} title="Tournament Ended" description="This tournament is over. The final standings are on its leaderboard.">
        <Button asChild>
          <Link to={`/tournaments/${t.id}?tab=leaderboard`}>View Leaderboard</Link>
        </Button>
        {back}
      </EmptyState>
    );
  }
  return <PlaySession tournamentId={t.id} socket={socket} practice={practice} endTime={t.endTime} onBack={onBack} toolbar={toolbar} />;
}
