import { formatDollars } from "@common/domain/money";
import { useState } from "react";
import { Link } from "react-router";
import { CalendarClock, CheckCircle2, Lock, Medal, ReceiptText } from "lucide-react";
import type { UserStats, UserTournamentEntry } from "@common/api/tournaments";
import type { Tournament, User } from "@common/api/types";
import { FAIR_PLAY, PLAY } from "@common/messages";
import { DASHBOARD_UPCOMING_LIMIT } from "@common/spec";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Spinner } from "@/components/ui/spinner";
import { useCountdown } from "@/hooks/use-countdown";
import { useTournaments } from "@/features/tournaments/api";
import { formatStart, shownStatus } from "@/features/tournaments/display";
import { StatusBadge } from "@/features/tournaments/components/status-badge";
import { AnswerReceipts } from "@/features/tournaments/fair-play/receipts-list";
import { cn } from "@/lib/cn";
import { achievementsFor } from "./achievements";

const RECENT_LIMIT = 5;

interface Props {
  user: User;
  entries: UserTournamentEntry[] | undefined;
  entriesLoading: boolean;
  entriesError: boolean;
  stats: UserStats | undefined;
}

export function MyTournamentsTab({ user, entries, entriesLoading, entriesError, stats }: Props) {
  return (
    <div className="grid gap-6 lg:grid-cols-3">
      <div className="space-y-6 lg:col-span-2">
        <RecentTournaments entries={entries} loading={entriesLoading} error={entriesError} />
        <UpcomingTournaments entries={entries} />
      </div>
      <Achievements user={user} stats={stats} entries={entries} />
    </div>
  );
}

function RecentTournaments({ entries, loading, error }: { entries: UserTournamentEntry[] | undefined; loading: boolean; error: boolean }) {
  const recent = [...(entries ?? [])].sort((a, b) => b.startTime.localeCompare(a.startTime)).slice(0, RECENT_LIMIT);
  return (
    <Card>
      <CardHeader>
        <CardTitle>Recent Tournaments</CardTitle>
        <CardDescription>Your latest tournaments and how you placed.</CardDescription>
      </CardHeader>
      <CardContent>
        {loading ? (
          <Spinner label="Loading your tournaments" />
        ) : error ? (
          <p role="alert" className="text-sm text-destructive">
            Your tournaments could not be loaded. Please try again later.
          </p>
        ) : recent.length === 0 ? (
          <div className="py-6 text-center">
            <p className="text-muted-foreground">You haven't joined any tournaments yet.</p>
            <Button asChild className="mt-3">
              <Link to="/tournaments">Browse Tournaments</Link>
            </Button>
          </div>
        ) : (
          <ul className="divide-y divide-border">
            {recent.map((t) => (
              <RecentRow key={t.id} entry={t} />
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}

function RecentRow({ entry: t }: { entry: UserTournamentEntry }) {
  const [showReceipts, setShowReceipts] = useState(false);
  const receiptsId = `receipts-${t.id}`;
  const underReview = t.prizeStatus === "held" || t.prizeStatus === "forfeited";
  return (
    <li className="space-y-3 py-3">
      <div className="flex flex-col gap-2 sm:flex-row sm:items-center sm:justify-between">
        <div className="min-w-0">
          <Link to={`/tournaments/${t.id}`} className="font-medium hover:underline">
            {t.title}
          </Link>
          <p className="text-xs text-muted-foreground">{formatStart(t.startTime)}</p>
        </div>
        <div className="flex flex-wrap items-center gap-3 text-sm">
          <StatusBadge status={t.status} />
          <span>
            <span className="text-muted-foreground">Rank </span>
            {t.rank ? `#${t.rank}` : "—"}
          </span>
          <span>
            <span className="text-muted-foreground">Score </span>
            {t.score === null ? PLAY.scoreAtEnd : t.score.toLocaleString()}
          </span>
          <PrizeBadge entry={t} />
          {t.status === "completed" && (
            <Button
              variant="outline"
              size="sm"
              aria-expanded={showReceipts}
              aria-controls={receiptsId}
              onClick={() => setShowReceipts(!showReceipts)}
            >
              <ReceiptText className="h-4 w-4" aria-hidden /> Answer receipts
            </Button>
          )}
        </div>
      </div>
      {underReview && t.reviewReason && <p className="text-xs text-muted-foreground">{t.reviewReason}</p>}
      {showReceipts && (
        <div id={receiptsId}>
          <AnswerReceipts tournamentId={t.id} title={t.title} />
        </div>
      )}
    </li>
  );
}

/** A prize under review or forfeited says so (with the category of the review, never the rule). */
function PrizeBadge({ entry: t }: { entry: UserTournamentEntry }) {
  if (t.prizeStatus === "held") return <Badge variant="secondary">{FAIR_PLAY.prizeUnderReview}</Badge>;
  if (t.prizeStatus === "forfeited") return <Badge variant="destructive">{FAIR_PLAY.prizeForfeited}</Badge>;
  return t.prize > 0 ? <Badge variant="success">Won {formatDollars(t.prize)}</Badge> : null;
}

interface UpcomingItem {
  id: number;
  title: string;
  startTime: string;
  /** Past it, no more play (the server settles soon after): Play Now goes. */
  endTime: string | null;
  joined: boolean;
  /** For the local "live once the start passed" rule; absent for joined tournaments already live. */
  tournament?: Tournament;
  live: boolean;
}

/** Joined tournaments the player can still play first, then open ones, by start time. */
function upcomingItems(entries: UserTournamentEntry[] | undefined, open: Tournament[] | undefined): UpcomingItem[] {
  const joinedIds = new Set((entries ?? []).map((e) => e.id));
  const joined: UpcomingItem[] = (entries ?? [])
    .filter((e) => (e.status === "upcoming" || e.status === "live") && !e.finished && e.kind !== "practice")
    .map((e) => ({
      id: e.id,
      title: e.title,
      startTime: e.startTime,
      endTime: e.endTime,
      joined: true,
      live: e.status === "live",
      tournament: open?.find((t) => t.id === e.id),
    }));
  const others: UpcomingItem[] = (open ?? [])
    .filter((t) => !joinedIds.has(t.id))
    .map((t) => ({ id: t.id, title: t.title, startTime: t.startTime, endTime: t.endTime, joined: false, live: false, tournament: t }));
  const byStart = (a: UpcomingItem, b: UpcomingItem) => a.startTime.localeCompare(b.startTime);
  return [...joined.sort(byStart), ...others.sort(byStart)].slice(0, DASHBOARD_UPCOMING_LIMIT);
}

function UpcomingTournaments({ entries }: { entries: UserTournamentEntry[] | undefined }) {
  const open = useTournaments({ status: "upcoming" });
  const items = upcomingItems(entries, open.data?.items);
  return (
    <Card>
      <CardHeader>
        <CardTitle>Upcoming Tournaments</CardTitle>
        <CardDescription>Your next tournaments and open ones you can still join.</CardDescription>
      </CardHeader>
      <CardContent>
        {open.isLoading ? (
          <Spinner label="Loading upcoming tournaments" />
        ) : items.length === 0 ? (
          <div className="py-6 text-center">
            <p className="text-muted-foreground">No upcoming tournaments right now.</p>
            <Button asChild variant="outline" className="mt-3">
              <Link to="/tournaments">Browse Tournaments</Link>
            </Button>
          </div>
        ) : (
          <ul className="space-y-3">
            {items.map((item) => (
              <UpcomingRow key={item.id} item={item} />
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}

function UpcomingRow({ item }: { item: UpcomingItem }) {
  const countdown = useCountdown(item.live ? null : item.startTime);
  const started = item.live || (item.tournament ? shownStatus(item.tournament, countdown.isDue) === "live" : false);
  const timeUp = useCountdown(started ? item.endTime : null).isDue;
  const live = started && !timeUp;
  return (
    <li className="flex flex-col gap-3 rounded-lg border border-border p-4 sm:flex-row sm:items-center sm:justify-between">
      <div className="min-w-0">
        <div className="flex flex-wrap items-center gap-2">
          <span className="font-medium">{item.title}</span>
          {item.joined && <Badge variant="outline">Joined</Badge>}
        </div>
        <p className="mt-1 flex items-center gap-1.5 text-sm" aria-live="polite">
          <CalendarClock className="h-4 w-4 text-muted-foreground" aria-hidden />
          {timeUp ? (
            <span className="text-muted-foreground">Time is up · results coming</span>
          ) : live ? (
            <span className="font-semibold text-destructive">Live Now</span>
          ) : (
            countdown.label
          )}
          <span className="text-muted-foreground">· {formatStart(item.startTime)}</span>
        </p>
      </div>
      <div className="flex gap-2">
        <Button variant="outline" size="sm" asChild>
          <Link to={`/tournaments/${item.id}`}>Details</Link>
        </Button>
        {item.joined && live && (
          <Button size="sm" asChild>
            <Link to={`/tournaments/${item.id}/play`}>Play Now</Link>
          </Button>
        )}
      </div>
    </li>
  );
}

function Achievements({ user, stats, entries }: { user: User; stats: UserStats | undefined; entries: UserTournamentEntry[] | undefined }) {
  const list = achievementsFor({ user, stats, tournaments: entries });
  const earned = list.filter((a) => a.earned).length;
  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <Medal className="h-5 w-5 text-primary" aria-hidden /> Achievements
        </CardTitle>
        <CardDescription>
          {earned} of {list.length} earned
        </CardDescription>
      </CardHeader>
      <CardContent>
        <ul className="space-y-3">
          {list.map((a) => (
            <li key={a.id} className={cn("flex items-start gap-3 rounded-lg p-2", a.earned ? "bg-accent/60" : "opacity-70")}>
              {a.earned ? (
                <CheckCircle2 className="mt-0.5 h-5 w-5 shrink-0 text-success" aria-hidden />
              ) : (
                <Lock className="mt-0.5 h-5 w-5 shrink-0 text-muted-foreground" aria-hidden />
              )}
              <div className="min-w-0 flex-1">
                <p className="font-medium">
                  {a.title}
                  <span className="sr-only">{a.earned ? " (earned)" : " (locked)"}</span>
                </p>
                <p className="text-xs text-muted-foreground">{a.description}</p>
              </div>
              {!a.earned && a.progress && <span className="text-xs text-muted-foreground">{a.progress}</span>}
            </li>
          ))}
        </ul>
      </CardContent>
    </Card>
  );
}
