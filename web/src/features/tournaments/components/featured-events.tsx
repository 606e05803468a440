// "Featured events" on home and the tournaments page: special events announced at least a week
// ahead, each with its start, fee, prize, when registration opens for the viewer, and "Remind me".
import { Link, useLocation } from "react-router";
import { Bell, BellOff, CalendarClock, Coins, Sparkles, Trophy } from "lucide-react";
import type { FeaturedEvent, FeaturedRegistration } from "@common/api/featured";
import { formatCents } from "@common/domain/money";
import { FEATURED } from "@common/messages";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { errorMessage } from "@/lib/api";
import { useUser } from "@/lib/session";
import { signInFor } from "@/lib/return-to";
import { toast } from "@/lib/toast";
import { displayedPoolCents, feeLabel, formatStart } from "../display";
import { useFeaturedEvents, useReminder } from "../featured-api";

/** The section, or nothing while there is no featured event to show. */
export function FeaturedEvents({ className }: { className?: string }) {
  const { data } = useFeaturedEvents();
  if (!data || data.length === 0) return null;
  return (
    <section aria-labelledby="featured-events" className={className}>
      <div className="mb-6">
        <h2 id="featured-events" className="flex items-center gap-2 text-2xl font-bold sm:text-3xl">
          <Sparkles className="h-6 w-6 text-primary" aria-hidden /> {FEATURED.title}
        </h2>
        <p className="mt-1 text-muted-foreground">{FEATURED.subtitle}</p>
      </div>
      <ul className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
        {data.map((e) => (
          <li key={e.id}>
            <FeaturedCard event={e} />
          </li>
        ))}
      </ul>
    </section>
  );
}

function prizeText(e: FeaturedEvent): string {
  const pool = displayedPoolCents(e);
  if (pool > 0) return `$${formatCents(pool)}`;
  return e.isFree ? "No cash prize" : "85% of entry fees";
}

function FeaturedCard({ event: e }: { event: FeaturedEvent }) {
  return (
    <Card className="flex h-full flex-col gap-3 border-primary/40 p-4">
      <div className="flex items-start justify-between gap-2">
        <h3 className="text-lg font-semibold leading-tight">
          <Link to={`/tournaments/${e.id}`} className="hover:underline">
            {e.title}
          </Link>
        </h3>
        <Badge variant="default">Featured</Badge>
      </div>
      <p className="text-xs text-muted-foreground">{e.categoryName}</p>
      <dl className="grid grid-cols-1 gap-2 text-sm sm:grid-cols-3">
        <div>
          <dt className="flex items-center gap-1 text-xs text-muted-foreground">
            <CalendarClock className="h-3.5 w-3.5" aria-hidden /> Starts
          </dt>
          <dd className="font-semibold">
            <time dateTime={e.startTime}>{formatStart(e.startTime)}</time>
          </dd>
        </div>
        <div>
          <dt className="flex items-center gap-1 text-xs text-muted-foreground">
            <Coins className="h-3.5 w-3.5" aria-hidden /> Entry
          </dt>
          <dd className="font-semibold">{feeLabel(e)}</dd>
        </div>
        <div>
          <dt className="flex items-center gap-1 text-xs text-muted-foreground">
            <Trophy className="h-3.5 w-3.5" aria-hidden /> Prize
          </dt>
          <dd className="font-semibold">{prizeText(e)}</dd>
        </div>
      </dl>
      <RegistrationNote registration={e.registration} />
      <div className="mt-auto">
        <RemindButton tournamentId={e.id} reminderSet={e.registration.reminderSet} />
      </div>
    </Card>
  );
}

/** A featured tournament's detail page: what is announced, when registration opens for the viewer, "Remind me". */
export function FeaturedPanel({ tournamentId, registration }: { tournamentId: number; registration: FeaturedRegistration }) {
  return (
    <section
      aria-label={FEATURED.title}
      className="mt-4 flex flex-wrap items-center justify-between gap-4 rounded-lg border border-primary/40 bg-primary/5 px-4 py-3"
    >
      <div className="space-y-1">
        <p className="flex items-center gap-2 text-sm font-semibold">
          <Sparkles className="h-4 w-4 text-primary" aria-hidden /> Featured event
        </p>
        <RegistrationNote registration={registration} />
      </div>
      <RemindButton tournamentId={tournamentId} reminderSet={registration.reminderSet} />
    </section>
  );
}

/** When registration opens for the viewer; nothing once it is open. Shared with the detail page. */
export function RegistrationNote({ registration: r }: { registration: FeaturedRegistration }) {
  const { user } = useUser();
  if (r.open) return null;
  const when = formatStart(r.opensForYouAt);
  return (
    <div className="space-y-1 text-sm">
      {r.priority && <p className="font-medium text-primary">{FEATURED.priority}</p>}
      <p>{user ? FEATURED.opensForYou(when) : FEATURED.opens(when)}</p>
      {!r.priority && <p className="text-xs text-muted-foreground">{FEATURED.priorityHint}</p>}
    </div>
  );
}

/** "Remind me" for a signed-in player; a visitor is sent to sign in and brought back here. */
export function RemindButton({ tournamentId, reminderSet }: { tournamentId: number; reminderSet: boolean }) {
  const { user } = useUser();
  const location = useLocation();
  const reminder = useReminder();
  if (!user) {
    return (
      <Button variant="outline" size="sm" asChild>
        <Link to={signInFor(`${location.pathname}${location.search}`)} title={FEATURED.signInToRemind}>
          <Bell className="h-4 w-4" aria-hidden /> {FEATURED.remindMe}
        </Link>
      </Button>
    );
  }
  const toggle = () =>
    reminder.mutate(
      { id: tournamentId, on: !reminderSet },
      {
        onSuccess: (r) => toast.success(r.reminderSet ? FEATURED.reminderSet : FEATURED.reminderRemoved),
        onError: (e) => toast.error(FEATURED.reminderFailed, errorMessage(e)),
      },
    );
  return (
    <Button
      variant={reminderSet ? "secondary" : "outline"}
      size="sm"
      aria-pressed={reminderSet}
      disabled={reminder.isPending}
      onClick={toggle}
      title={reminderSet ? FEATURED.removeReminder : undefined}
    >
      {reminderSet ? <BellOff className="h-4 w-4" aria-hidden /> : <Bell className="h-4 w-4" aria-hidden />}
      {reminderSet ? FEATURED.reminderOn : FEATURED.remindMe}
    </Button>
  );
}
