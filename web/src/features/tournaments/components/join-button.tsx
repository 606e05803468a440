import type { Tournament } from "@common/api/types";
import { JOIN } from "@common/messages";
import { Button, type ButtonProps } from "@/components/ui/button";
import { Tooltip } from "@/components/ui/tooltip";
import { useUser } from "@/lib/session";
import { cn } from "@/lib/cn";
import { belowLevel, isPractice } from "../join-checks";
import { useJoinFlow } from "../use-join-flow";

type Joinable = Pick<Tournament, "id" | "kind" | "minLevel" | "maxParticipants" | "currentParticipants" | "isFree" | "entryFee" | "status">;

/**
 * Join (or, for practice, start) a tournament. Disabled once it is over, while joining, and for a
 * signed-in player below the level requirement, with a tooltip saying why.
 */
export function JoinButton({ tournament, className, size }: { tournament: Joinable; className?: string; size?: ButtonProps["size"] }) {
  const { user } = useUser();
  const flow = useJoinFlow();
  const practice = isPractice(tournament);
  const pending = flow.isPending && flow.pendingId === tournament.id;
  const over = tournament.status === "completed" || tournament.status === "cancelled";
  const gated = user != null && belowLevel(user, tournament);

  const button = (
    <Button
      size={size}
      className={className}
      disabled={over || pending || flow.isPending || gated}
      onClick={() => void flow.start(tournament)}
    >
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
  if (!gated) return button;
  return (
    <Tooltip content={JOIN.levelDescription(tournament.minLevel)}>
      {/* A disabled button gets no pointer or focus events, so the wrapper carries the tooltip. */}
      <span tabIndex={0} className={cn("inline-flex rounded-md", className)}>
        {button}
      </span>
    </Tooltip>
  );
}
