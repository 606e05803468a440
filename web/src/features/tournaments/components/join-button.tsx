import { lazy, Suspense, useEffect, useState } from "react";
import type { FeaturedRegistration } from "@common/api/featured";
import type { Tournament } from "@common/api/types";
import { FEATURED, JOIN } from "@common/messages";
import { Button, type ButtonProps } from "@/components/ui/button";
import { useBotCheckSiteKey } from "@/components/turnstile-widget";
import { useLatch } from "@/hooks/use-latch";
import { useUser } from "@/lib/session";
import { cn } from "@/lib/cn";
import { formatStart } from "../display";
import { belowLevel, isPractice } from "../join-checks";
import { useJoinFlow } from "../use-join-flow";

// Every card on the home page has a join button, and most visitors never press one: its dialogs
// and its tooltip load when first needed.
const PaidJoinConfirmation = lazy(() => import("./paid-join-confirmation"));
const DateOfBirthDialog = lazy(() => import("@/components/date-of-birth-form").then((m) => ({ default: m.DateOfBirthDialog })));
const Tooltip = lazy(() => import("@/components/ui/tooltip").then((m) => ({ default: m.Tooltip })));

type Joinable = Pick<
  Tournament,
  "id" | "title" | "kind" | "minLevel" | "maxParticipants" | "currentParticipants" | "isFree" | "entryFee" | "prizePool" | "status"
> & {
  inviteCode?: string;
  /** A featured event's registration as the viewer sees it (the detail page has it; the lists do not). */
  featured?: FeaturedRegistration | null;
};

/** setTimeout's longest delay (about 24.8 days); a registration opening later waits for a reload. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * A featured event's registration that has not opened for this player yet: the time it opens
 * (as the server said), until the browser's clock reaches it; then null, and the page re-renders.
 */
export function useRegistrationNotOpen(r: FeaturedRegistration | null | undefined): FeaturedRegistration | null {
  const until = r && !r.open ? Date.parse(r.opensForYouAt) : null;
  const [, reached] = useState(0);
  useEffect(() => {
    if (until === null) return;
    const left = until - Date.now();
    if (left <= 0 || left > MAX_TIMER_MS) return;
    const timer = setTimeout(() => reached((n) => n + 1), left + 50);
    return () => clearTimeout(timer);
  }, [until]);
  return r && until !== null && Date.now() < until ? r : null;
}

/** What the player sees while a featured event's registration is closed to them: the server's own refusal. */
export const registrationNotOpenText = (r: FeaturedRegistration) => FEATURED.registrationNotOpen(formatStart(r.opensForYouAt), r.priority);

/**
 * Join (or, for practice, start) a tournament. Disabled once it is over, while joining, and for a
 * signed-in player below the level requirement or before a featured event's registration opens
 * for them (level 6+ a day earlier), with a tooltip saying why. While the bot check is
 * on, a prize-play join (paid, or free with a prize) is confirmed in a dialog that carries the
 * check (the server asks for it only when there is money to win or pay).
 */
export function JoinButton({
  tournament,
  className,
  size,
  stay = false,
}: {
  tournament: Joinable;
  className?: string;
  size?: ButtonProps["size"];
  /** On the tournament's own page: a join keeps the player there (the page shows them registered). */
  stay?: boolean;
}) {
  const { user } = useUser();
  const flow = useJoinFlow({ stay });
  const siteKey = useBotCheckSiteKey();
  const [confirming, setConfirming] = useState(false);
  const practice = isPractice(tournament);
  const pending = flow.isPending && flow.pendingId === tournament.id;
  const over = tournament.status === "completed" || tournament.status === "cancelled";
  const belowRequired = user != null && belowLevel(user, tournament);
  // A visitor sees everyone's time, but may be an Advanced player: signing in tells.
  const notOpen = useRegistrationNotOpen(user != null && !belowRequired ? tournament.featured : null);
  const gated = belowRequired || notOpen !== null;
  // Prize play: a paid entry, or a free tournament with a prize the house funds.
  const botCheck = siteKey !== null && !practice && (tournament.entryFee > 0 || tournament.prizePool > 0);
  const confirmWanted = useLatch(confirming);
  const dateOfBirthWanted = useLatch(flow.needsDateOfBirth);

  const press = () => {
    if (!botCheck) void flow.start(tournament);
    else if (!flow.refuses(tournament)) {
      flow.newAttempt();
      setConfirming(true);
    }
  };

  const button = (
    <Button size={size} className={className} disabled={over || pending || flow.isPending || gated} onClick={press}>
      {over
        ? tournament.status === "cancelled"
          ? "Cancelled"
          : "Tournament Ended"
        : pending
          ? "Joining..."
          : practice
            ? "Start Practice Quiz"
            : "Join Tournament"}
    </Button>
  );
  const confirmation = botCheck && siteKey !== null && confirmWanted && (
    <PaidJoinConfirmation
      open={confirming}
      onOpenChange={setConfirming}
      tournament={tournament}
      siteKey={siteKey}
      joining={flow.isPending}
      onConfirm={async (token) => {
        const joined = await flow.start(tournament, token);
        if (joined) setConfirming(false);
        return joined;
      }}
    />
  );
  const dateOfBirth = dateOfBirthWanted && (
    <DateOfBirthDialog
      open={flow.needsDateOfBirth}
      onOpenChange={(open) => !open && flow.dismissDateOfBirth()}
      onSaved={flow.dateOfBirthGiven}
    />
  );
  if (!gated) {
    return (
      <>
        {button}
        <Suspense fallback={null}>
          {confirmation}
          {dateOfBirth}
        </Suspense>
      </>
    );
  }
  // A disabled button gets no pointer or focus events, so the wrapper carries the tooltip.
  const wrapped = (
    <span tabIndex={0} className={cn("inline-flex rounded-md", className)}>
      {button}
    </span>
  );
  return (
    <Suspense fallback={wrapped}>
      <Tooltip content={notOpen ? registrationNotOpenText(notOpen) : JOIN.levelDescription(tournament.minLevel)}>{wrapped}</Tooltip>
    </Suspense>
  );
}
