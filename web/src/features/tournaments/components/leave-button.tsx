import { useState } from "react";
import type { Tournament } from "@common/api/types";
import { formatDollars } from "@common/domain/money";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, DialogTrigger } from "@/components/ui/dialog";
import { errorMessage } from "@/lib/api";
import { toast } from "@/lib/toast";
import { useIdempotencyKey } from "@/hooks/use-idempotency-key";
import { useLeaveTournament } from "../api";

const LEAVE_FAILED = "Could not leave the tournament";

/** Leave an upcoming tournament, after a confirmation that says what comes back. */
export function LeaveButton({ tournament: t }: { tournament: Pick<Tournament, "id" | "title" | "isFree" | "entryFee"> }) {
  const [open, setOpen] = useState(false);
  const leave = useLeaveTournament();
  // One key per confirmation: pressing Leave again after a failure refunds once.
  const [idempotencyKey, renewKey] = useIdempotencyKey();
  const refund = !t.isFree && t.entryFee > 0;

  const confirm = async () => {
    try {
      const result = await leave.mutateAsync({ id: t.id, idempotencyKey });
      toast.success("Left tournament", result.message);
      setOpen(false);
    } catch (error) {
      toast.error(LEAVE_FAILED, errorMessage(error, "Please try again"));
    }
  };

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (next) renewKey();
        setOpen(next);
      }}
    >
      <DialogTrigger asChild>
        <Button variant="outline" className="w-full">
          Leave tournament
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Leave {t.title}?</DialogTitle>
          <DialogDescription>
            {refund
              ? `Your ${formatDollars(t.entryFee)} entry fee goes back to your balance and your seat is freed. You can join again while it has not started.`
              : "Your seat is freed. You can join again while it has not started."}
          </DialogDescription>
        </DialogHeader>
        <DialogFooter>
          <Button variant="outline" onClick={() => setOpen(false)} disabled={leave.isPending}>
            Stay registered
          </Button>
          <Button variant="destructive" onClick={() => void confirm()} disabled={leave.isPending}>
            {leave.isPending ? "Leaving..." : "Leave tournament"}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
