import { useState } from "react";
import { useNavigate } from "react-router";
import type { Tournament } from "@common/api/types";
import type { JoinResult } from "@common/api/tournaments";
import { JOIN } from "@common/messages";
import { POST_JOIN_REDIRECT_MS } from "@common/spec";
import { useUser } from "@/lib/session";
import { ApiError } from "@/lib/api";
import { toast } from "@/lib/toast";
import { useIdempotencyKey } from "@/hooks/use-idempotency-key";
import { useJoinTournament } from "./api";
import { isPractice, joinBlock } from "./join-checks";

type Joinable = Pick<Tournament, "id" | "kind" | "minLevel" | "maxParticipants" | "currentParticipants" | "isFree" | "entryFee"> & {
  /** A private tournament's invite code, sent with the join. */
  inviteCode?: string;
};

/**
 * The join flow (docs/product.md, Joining): the client checks in order (each with its toast), then the call. Joined
 * from a card, a paid or free tournament goes to the dashboard after POST_JOIN_REDIRECT_MS; joined on its own page
 * (`stay`), the player stays there, registered. Practice starts at once.
 */
export function useJoinFlow({ stay = false }: { stay?: boolean } = {}) {
  const { user } = useUser();
  const join = useJoinTournament();
  const navigate = useNavigate();
  // A paid join the server held back for the date of birth; once given, an unconfirmed join goes on by itself.
  const [awaitingDateOfBirth, setAwaitingDateOfBirth] = useState<{ t: Joinable; confirmed: boolean } | null>(null);
  // One key per join attempt: pressing again after a failure resends it; a success or a new
  // confirmation dialog (newAttempt) starts another.
  const [idempotencyKey, newAttempt] = useIdempotencyKey();

  /** Shows the first client check that refuses the join; true when one did. */
  const refuses = (t: Joinable) => {
    const block = joinBlock(user, t);
    if (block) toast.error(block.title, block.description);
    return block !== null;
  };

  /** Joins unless a check refuses; true once joined. `turnstileToken` answers the bot check of a paid join. */
  const start = async (t: Joinable, turnstileToken?: string): Promise<boolean> => {
    if (refuses(t)) return false;
    // mutateAsync, not mutate's callbacks: the button that started the join may be gone by the time
    // it succeeds (the refreshed tournament shows the player as registered).
    let joined: JoinResult;
    try {
      joined = await join.mutateAsync({ id: t.id, turnstileToken, inviteCode: t.inviteCode, idempotencyKey });
    } catch (error) {
      if (error instanceof ApiError && error.code === "date_of_birth_required") {
        setAwaitingDateOfBirth({ t, confirmed: turnstileToken !== undefined });
        return false;
      }
      // A refusal the server named (full, level, limits...) says why; no answer or a server error asks to retry.
      const refusal = error instanceof ApiError && error.status >= 400 && error.status < 500 ? error.serverMessage : undefined;
      if (refusal) toast.error(JOIN.failedTitle, refusal);
      else toast.error(JOIN.error.title, JOIN.error.description);
      return false;
    }
    newAttempt();
    if (isPractice(t)) {
      // Practice answers with the player's own run of it: a fresh set of questions each time.
      toast.success("Starting practice tournament");
      navigate(`/tournaments/${joined.tournament.id}/play`);
      return true;
    }
    if (stay) {
      toast.success(JOIN.joinedHere.title, JOIN.joinedHere.description);
      return true;
    }
    toast.success(JOIN.joinedAway.title, JOIN.joinedAway.description);
    setTimeout(() => navigate("/dashboard?tab=tournaments"), POST_JOIN_REDIRECT_MS);
    return true;
  };

  /** The date of birth is stored: join again, unless the bot check's dialog is still open for the player to confirm. */
  const dateOfBirthGiven = () => {
    const waiting = awaitingDateOfBirth;
    setAwaitingDateOfBirth(null);
    if (waiting && !waiting.confirmed) void start(waiting.t);
  };

  return {
    start,
    refuses,
    newAttempt,
    isPending: join.isPending,
    pendingId: join.isPending ? join.variables?.id : undefined,
    needsDateOfBirth: awaitingDateOfBirth !== null,
    dateOfBirthGiven,
    dismissDateOfBirth: () => setAwaitingDateOfBirth(null),
  };
}
