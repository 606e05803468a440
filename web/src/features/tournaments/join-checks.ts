// The client's checks before joining, in the server's order (docs/product.md, Joining). The server checks the same again.
import type { Tournament, User } from "@common/api/types";
import { JOIN } from "@common/messages";
import { formatCents, dollarsToCents } from "@common/domain/money";
import { isPracticeKind } from "@common/domain/tournaments";

export interface JoinBlock {
  title: string;
  description: string;
}

type JoinTarget = Pick<Tournament, "kind" | "minLevel" | "maxParticipants" | "currentParticipants" | "isFree" | "entryFee">;

export const isPractice = (t: Pick<Tournament, "kind">) => isPracticeKind(t.kind);

/** A level below the requirement (a missing level counts as 0); practice has no gate. */
export const belowLevel = (user: Pick<User, "level"> | null, t: Pick<Tournament, "kind" | "minLevel">) =>
  !isPractice(t) && (user?.level ?? 0) < t.minLevel;

/** The first check that fails, as the toast to show, or null when the player may try to join. */
export function joinBlock(user: Pick<User, "level" | "balance"> | null, t: JoinTarget): JoinBlock | null {
  if (!user) return JOIN.authRequired;
  if (belowLevel(user, t)) return { title: JOIN.levelTitle, description: JOIN.levelDescription(t.minLevel) };
  if (!isPractice(t) && t.maxParticipants != null && t.currentParticipants >= t.maxParticipants) return JOIN.full;
  if (!t.isFree) {
    const fee = dollarsToCents(t.entryFee);
    const balance = dollarsToCents(user.balance);
    if (balance < fee)
      return { title: JOIN.balanceTitle, description: JOIN.balanceDescription(formatCents(fee - balance), formatCents(fee)) };
  }
  return null;
}
