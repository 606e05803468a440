import { useNavigate } from "react-router";
import type { Tournament } from "@common/api/types";
import { JOIN } from "@common/messages";
import { POST_JOIN_REDIRECT_MS } from "@common/spec";
import { useUser } from "@/features/auth/api";
import { errorMessage } from "@/lib/api";
import { toast } from "@/lib/toast";
import { useJoinTournament } from "./api";
import { isPractice, joinBlock } from "./join-checks";

type Joinable = Pick<Tournament, "id" | "title" | "minLevel" | "maxParticipants" | "currentParticipants" | "isFree" | "entryFee">;

/**
 * SPEC.md's join flow: the client checks in order (each with its toast), then the call. A paid or
 * free tournament goes to the dashboard after POST_JOIN_REDIRECT_MS; practice starts at once.
 */
export function useJoinFlow() {
  const { user } = useUser();
  const join = useJoinTournament();
  const navigate = useNavigate();

  const start = (t: Joinable) => {
    const block = joinBlock(user, t);
    if (block) {
      toast.error(block.title, block.description);
      return;
    }
    join.mutate(t.id, {
      onSuccess: () => {
        if (isPractice(t)) {
          toast.success("Starting practice tournament");
          navigate(`/tournaments/${t.id}/play`);
          return;
        }
        toast.success("Successfully joined tournament!", "Taking you to your tournaments...");
        setTimeout(() => navigate("/dashboard?tab=tournaments"), POST_JOIN_REDIRECT_MS);
      },
      onError: (error) => toast.error(JOIN.failedTitle, errorMessage(error, error.message)),
    });
  };

  return { start, isPending: join.isPending, pendingId: join.isPending ? join.variables : undefined };
}
