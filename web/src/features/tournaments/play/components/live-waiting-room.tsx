import { useEffect, useRef } from "react";
import { Link } from "react-router";
import { useQueryClient } from "@tanstack/react-query";
import { Radio, Users } from "lucide-react";
import type { TournamentDetail } from "@common/api/tournaments";
import { FORMAT_LABEL, PLAY } from "@common/messages";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent } from "@/components/ui/card";
import { tournamentKeys, useParticipants } from "@/features/tournaments/api";
import { playersMissing } from "@/features/tournaments/display";
import { clockLabel } from "../live-show";
import { useQuestionTimer } from "../use-question-timer";

interface WaitingRoomProps {
  tournament: TournamentDetail;
  /** When the show starts, as the room last said (it may wait past the planned start for players). */
  startsAt: string;
  userId: number | undefined;
  /** Grows with every change of the standings: a new player is one, so the list is fetched again. */
  standingsVersion: number | undefined;
}

/** Before question 1: the countdown, who is here, and what kind of show this is. */
export function WaitingRoom({ tournament: t, startsAt, userId, standingsVersion }: WaitingRoomProps) {
  const qc = useQueryClient();
  const participants = useParticipants(t.id);
  const msLeft = useQuestionTimer(Date.parse(startsAt), true);
  const missing = playersMissing(t);
  const players = participants.data ?? [];

  // The list as first fetched stands until the standings move.
  const seenVersion = useRef(standingsVersion);
  useEffect(() => {
    if (standingsVersion === seenVersion.current) return;
    seenVersion.current = standingsVersion;
    void qc.invalidateQueries({ queryKey: tournamentKeys.participants(t.id) });
  }, [standingsVersion, t.id, qc]);

  return (
    <Card data-testid="live-waiting">
      <CardContent className="space-y-5 pt-6">
        <div className="flex flex-wrap items-center gap-2">
          <Badge variant="destructive" className="gap-1">
            <Radio className="h-3 w-3" aria-hidden /> {FORMAT_LABEL.live_show.title}
          </Badge>
          <p className="min-w-0 text-sm text-muted-foreground">{FORMAT_LABEL.live_show.description}</p>
        </div>

        <div className="text-center">
          {msLeft > 0 ? (
            <>
              <p className="text-sm text-muted-foreground">Starts in</p>
              <p role="timer" aria-label={`Starts in ${clockLabel(msLeft)}`} className="text-4xl font-bold tabular-nums">
                {clockLabel(msLeft)}
              </p>
            </>
          ) : (
            <>
              <p className="text-2xl font-bold">Waiting for players</p>
              {missing > 0 && <p className="mt-1 text-sm text-muted-foreground">{missing} more needed to start</p>}
            </>
          )}
          <p className="mt-3 text-sm text-muted-foreground">
            {t.joined ? PLAY.waitForQuestion : "You are watching: you will see the leaderboard and every answer as it is revealed."}
          </p>
        </div>

        <div>
          <h3 className="mb-2 flex items-center gap-2 text-sm font-semibold">
            <Users className="h-4 w-4" aria-hidden />
            {players.length === 1 ? "1 player here" : `${players.length} players here`}
          </h3>
          <ul aria-label="Players" className="flex max-h-48 flex-wrap gap-2 overflow-y-auto">
            {players.map((p) => (
              <li key={p.userId} className="max-w-full truncate rounded-full bg-muted px-3 py-1 text-xs">
                {p.username}
                {p.userId === userId && " (you)"}
              </li>
            ))}
          </ul>
        </div>

        {!t.joined && t.status === "upcoming" && (
          <Button asChild className="w-full">
            <Link to={`/tournaments/${t.id}`}>Go to Tournament to Join</Link>
          </Button>
        )}
      </CardContent>
    </Card>
  );
}
