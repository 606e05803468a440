// The paid join's confirmation while the bot check is on: the fee, the check, and the button
// that pays. Loaded by the join button when a player first presses it (join-button.tsx).
import { useRef, useState } from "react";
import type { Tournament } from "@common/api/types";
import { formatDollars } from "@common/domain/money";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { TurnstileWidget, type TurnstileHandle } from "@/components/turnstile-widget";

/** The fee, the bot check, and the button that pays; a refused attempt asks for the check again. */
export default function PaidJoinConfirmation(props: {
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
