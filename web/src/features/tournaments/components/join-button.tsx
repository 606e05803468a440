import { useRef, useState } from "react";
import type { Tournament } from "@common/api/types";
import { JOIN } from "@common/messages";
import { formatDollars } from "@common/domain/money";
import { Button, type ButtonProps } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { Tooltip } from "@/components/ui/tooltip";
import { TurnstileWidget, useBotCheckSiteKey, type TurnstileHandle } from "@/components/turnstile-widget";
import { DateOfBirthDialog } from "@/components/date-of-birth-form";
import { useUser } from "@/lib/session";
import { cn } from "@/lib/cn";
import { belowLevel, isPractice } from "../join-checks";
import { useJoinFlow } from "../use-join-flow";

type Joinable = Pick<
  Tournament,
  "id" | "title" | "kind" | "minLevel" | "maxParticipants" | "currentParticipants" | "isFree" | "entryFee" | "status"
>;

/**
 * Join (or, for practice, start) a tournament. Disabled once it is over, while joining, and for a
 * signed-in player below the level requirement, with a tooltip saying why. While the bot check is
 * on, a paid join is confirmed in a dialog that carries the check (the server asks for it only
 * when money changes hands).
 */
export function JoinButton({ tournament, className, size }: { tournament: Joinable; className?: string; size?: ButtonProps["size"] }) {
  const { user } = useUser();
  const flow = useJoinFlow();
  const siteKey = useBotCheckSiteKey();
  const [confirming, setConfirming] = useState(false);
  const practice = isPractice(tournament);
  const pending = flow.isPending && flow.pendingId === tournament.id;
  const over = tournament.status === "completed" || tournament.status === "cancelled";
  const gated = user != null && belowLevel(user, tournament);
  const botCheck = siteKey !== null && tournament.entryFee > 0;

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
  const confirmation = botCheck && siteKey !== null && (
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
  const dateOfBirth = (
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
        {confirmation}
        {dateOfBirth}
      </>
    );
  }
  return (
    <Tooltip content={JOIN.levelDescription(tournament.minLevel)}>
      {/* A disabled button gets no pointer or focus events, so the wrapper carries the tooltip. */}
      <span tabIndex={0} className={cn("inline-flex rounded-md", className)}>
        {button}
      </span>
    </Tooltip>
  );
}

/** The fee, the bot check, and the button that pays; a refused attempt asks for the check again. */
function PaidJoinConfirmation(props: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  tournament: Pick<Tournament, "title" | "entryFee">;
  siteKey: string;
  joining: boolean;
  onConfirm: (turnstileToken: string) => Promise<boolean>;
}) {
  const [token, setToken] = useState<string | null>(null);
  const widget = useRef<TurnstileHandle>(null);
  const confirm = async () => {
    if (token === null) return;
    // The token is spent whatever the answer: a refusal needs a fresh check.
    if (!(await props.onConfirm(token))) widget.current?.reset();
  };
  return (
    <Dialog open={props.open} onOpenChange={props.onOpenChange}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Join {props.tournament.title}?</DialogTitle>
          <DialogDescription>
            The {formatDollars(props.tournament.entryFee)} entry fee is taken from your balance. Complete the check below to confirm.
          </DialogDescription>
        </DialogHeader>
        {props.open && <TurnstileWidget ref={widget} siteKey={props.siteKey} action="join" onToken={setToken} />}
        <DialogFooter>
          <Button variant="outline" onClick={() => props.onOpenChange(false)} disabled={props.joining}>
            Cancel
          </Button>
          <Button onClick={() => void confirm()} disabled={token === null || props.joining}>
            {props.joining ? "Joining..." : "Pay and join"}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
