import { Link } from "react-router";
import { Clock, Coins, Radio, Trophy, Users } from "lucide-react";
import type { Tournament } from "@common/api/types";
import { formatCents, formatDollars } from "@common/domain/money";
import { FORMAT_LABEL } from "@common/messages";
import { minLevelLabel } from "@common/domain/levels";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { useCountdown } from "@/hooks/use-countdown";
import { displayedPoolCents, feeLabel, formatStart, playersMissing, shownStatus } from "../display";
import { isPractice } from "../join-checks";
import { JoinButton } from "./join-button";
import { StatusBadge } from "./status-badge";
import { TournamentImage } from "./tournament-image";

export function TournamentCard({ tournament: t }: { tournament: Tournament }) {
  const countdown = useCountdown(t.status === "upcoming" ? t.startTime : null);
  const status = shownStatus(t, countdown.isDue);
  // Past its end time a live tournament takes no more play or joins (the server settles it soon after):
  // the card stops offering Play Now then, not when the list is next fetched.
  const timeUp = useCountdown(status === "live" ? t.endTime : null).isDue;
  const practice = isPractice(t);
  const pool = displayedPoolCents(t);
  const missing = playersMissing(t);

  return (
    <Card className="flex flex-col overflow-hidden">
      <div className="relative">
        <TournamentImage tournament={t} className="h-36 w-full" />
        <div className="absolute inset-x-3 top-3 flex items-start justify-between gap-2">
          <StatusBadge status={status} />
          <Badge variant={t.isFree ? "success" : "default"}>{feeLabel(t)}</Badge>
        </div>
      </div>
      <div className="flex flex-1 flex-col gap-3 p-4">
        <div>
          <h3 className="text-lg font-semibold leading-tight">
            <Link to={`/tournaments/${t.id}`} className="hover:underline">
              {t.title}
            </Link>
          </h3>
          <p className="mt-1 text-xs text-muted-foreground">
            {t.categoryName} · {minLevelLabel(practice ? 1 : t.minLevel)}
          </p>
          <p className="mt-2 line-clamp-2 text-sm text-muted-foreground">{t.description}</p>
          {t.format === "live_show" ? (
            <p className="mt-2 flex items-start gap-1.5 text-xs font-medium">
              <Radio className="mt-px h-3.5 w-3.5 shrink-0 text-destructive" aria-hidden />
              <span className="min-w-0">{FORMAT_LABEL.live_show.description}</span>
            </p>
          ) : (
            <p className="mt-2 text-xs text-muted-foreground">{FORMAT_LABEL.self_paced.title}</p>
          )}
        </div>
        <dl className="grid grid-cols-3 gap-2 text-sm">
          <div>
            <dt className="flex items-center gap-1 text-xs text-muted-foreground">
              <Trophy className="h-3.5 w-3.5" aria-hidden /> Prize pool
            </dt>
            <dd className="font-semibold">{practice ? "None" : `$${formatCents(pool)}`}</dd>
          </div>
          <div>
            <dt className="flex items-center gap-1 text-xs text-muted-foreground">
              <Users className="h-3.5 w-3.5" aria-hidden /> Players
            </dt>
            <dd className="font-semibold">
              {t.currentParticipants}
              {t.maxParticipants != null && <span className="font-normal text-muted-foreground">/{t.maxParticipants}</span>}
            </dd>
          </div>
          <div>
            <dt className="flex items-center gap-1 text-xs text-muted-foreground">
              <Coins className="h-3.5 w-3.5" aria-hidden /> Entry
            </dt>
            <dd className="font-semibold">{t.isFree ? "Free" : formatDollars(t.entryFee)}</dd>
          </div>
        </dl>
        <div className="flex items-center gap-1.5 text-sm" aria-live="polite">
          <Clock className="h-4 w-4 text-muted-foreground" aria-hidden />
          {timeUp ? (
            <span className="text-muted-foreground">Time is up · results coming</span>
          ) : status === "live" ? (
            <span className="font-semibold text-destructive">Live Now</span>
          ) : t.status === "upcoming" ? (
            <span>
              {countdown.label}
              {countdown.isDue && missing > 0 && <span className="text-muted-foreground"> · waiting for {missing} more players</span>}
            </span>
          ) : (
            <span className="text-muted-foreground">
              {status === "cancelled" ? "Cancelled" : "Ended"} · started {formatStart(t.startTime)}
            </span>
          )}
        </div>
        {t.status === "upcoming" && !countdown.isDue && <p className="-mt-2 text-xs text-muted-foreground">{formatStart(t.startTime)}</p>}
        <div className="mt-auto flex gap-2 pt-1">
          <Button variant="outline" asChild className="flex-1">
            <Link to={`/tournaments/${t.id}`}>Details</Link>
          </Button>
          {status === "live" && !timeUp && !practice ? (
            <Button asChild className="flex-1">
              <Link to={`/tournaments/${t.id}/play`}>Play Now</Link>
            </Button>
          ) : (
            <JoinButton tournament={{ ...t, status: timeUp ? "completed" : status }} className="flex-1" />
          )}
        </div>
      </div>
    </Card>
  );
}
