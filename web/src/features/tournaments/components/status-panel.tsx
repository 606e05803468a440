import { Link } from "react-router";
import { CheckCircle2, Flag, Maximize2, Play, Radio } from "lucide-react";
import type { TournamentDetail } from "@common/api/tournaments";
import { formatDollars } from "@common/domain/money";
import { CANCELLATION, JOIN } from "@common/messages";
import { Button } from "@/components/ui/button";
import { Card, CardContent } from "@/components/ui/card";
import { useUser } from "@/lib/session";
import { toast } from "@/lib/toast";
import { cancellationText, formatStart } from "../display";
import { belowLevel } from "../join-checks";
import { JoinButton, registrationNotOpenText, useRegistrationNotOpen } from "./join-button";
import { LeaveButton } from "./leave-button";

interface StatusPanelProps {
  tournament: TournamentDetail;
  status: TournamentDetail["status"];
  joined: boolean;
  playable: boolean;
  countdownLabel: string;
  onPlayHere(): void;
}

/** What the player can do now: join, wait, play, or read the results. */
export function StatusPanel({ tournament: t, status, joined, playable, countdownLabel, onPlayHere }: StatusPanelProps) {
  const { user } = useUser();
  const notOpen = useRegistrationNotOpen(t.featured);
  if (status === "completed" || status === "cancelled") {
    return (
      <Card>
        <CardContent className="flex flex-col items-center gap-3 py-8 text-center">
          <Flag className="h-8 w-8 text-muted-foreground" aria-hidden />
          <h2 className="text-lg font-semibold">{status === "cancelled" ? CANCELLATION.title : "Tournament Ended"}</h2>
          <p className="text-sm text-muted-foreground">
            {status === "cancelled" ? cancellationText(t) : "The final standings are on the leaderboard."}
          </p>
        </CardContent>
      </Card>
    );
  }
  return (
    <Card>
      <CardContent className="flex flex-col gap-4 pt-6">
        {joined ? (
          <p className="flex items-center gap-2 text-sm font-medium text-success">
            <CheckCircle2 className="h-4 w-4" aria-hidden /> You're registered for this tournament
          </p>
        ) : (
          <div className="text-sm text-muted-foreground">
            <p>
              Entry: <span className="font-semibold text-foreground">{t.isFree ? "Free" : formatDollars(t.entryFee)}</span>
            </p>
            {user && !t.isFree && <p>Your balance: {formatDollars(user.balance)}</p>}
          </div>
        )}
        {status === "upcoming" && (
          <div>
            <h2 className="text-lg font-semibold">Waiting to Start</h2>
            <p className="text-sm text-muted-foreground">
              {formatStart(t.startTime)} · {countdownLabel}
            </p>
          </div>
        )}
        {t.format === "live_show" && ((status === "upcoming" && joined) || (status === "live" && !joined)) && (
          <Button variant="outline" asChild>
            <Link to={`/tournaments/${t.id}/play`}>
              <Radio className="h-4 w-4" aria-hidden /> {joined ? "Enter the waiting room" : "Watch the live show"}
            </Link>
          </Button>
        )}
        {playable ? (
          <div className="flex flex-wrap gap-2">
            <Button onClick={onPlayHere} className="flex-1">
              <Play className="h-4 w-4" aria-hidden /> Play Now
            </Button>
            <Button variant="outline" asChild>
              <Link to={`/tournaments/${t.id}/play`} aria-label="Play in full screen" onClick={() => toast.info(JOIN.entering)}>
                <Maximize2 className="h-4 w-4" aria-hidden />
              </Link>
            </Button>
          </div>
        ) : joined ? (
          // The server still has it upcoming (not started, or waiting for players): the entry can be withdrawn.
          t.status === "upcoming" && <LeaveButton tournament={t} />
        ) : (
          <>
            <JoinButton tournament={{ ...t, status }} className="w-full" stay />
            {user && belowLevel(user, t) ? (
              <p className="text-xs text-muted-foreground">{JOIN.levelDescription(t.minLevel)}</p>
            ) : (
              user && notOpen && <p className="text-xs text-muted-foreground">{registrationNotOpenText(notOpen)}</p>
            )}
          </>
        )}
      </CardContent>
    </Card>
  );
}
