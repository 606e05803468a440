// The player's responsible-play state as the API shows it: limits with their pending changes and
// what the rolling windows hold now, the exclusion in force, the date of birth.
import type { ExclusionView, LimitView, ResponsiblePlayState } from "../../common/api/responsible-play";
import { centsToDollars } from "../../common/domain/money";
import {
  activeExclusion,
  checkLimit,
  LIMIT_KINDS,
  limitFamily,
  limitWindowMs,
  type LimitFamily,
  type LimitKind,
  type LimitState,
} from "../../common/domain/responsible-play";
import type { Db } from "../db/client";
import { loadExclusions, loadLimits, spendsOf } from "./state";

const iso = (ms: number) => new Date(ms).toISOString();

/** The player's whole responsible-play state at `now`, as GET answers it. */
export async function responsiblePlayState(
  db: Db,
  user: { id: number; dateOfBirth: string | null },
  now: number,
): Promise<ResponsiblePlayState> {
  const [limits, rows, deposits, fees] = await Promise.all([
    loadLimits(db, user.id, now),
    loadExclusions(db, user.id),
    spendsOf(db, user.id, "deposit", now),
    spendsOf(db, user.id, "entry_fees", now),
  ]);
  const spends: Record<LimitFamily, typeof deposits> = { deposit: deposits, entry_fees: fees };
  const view = (kind: LimitKind, s: LimitState): LimitView => {
    const used = checkLimit(s.amountCents ?? 0, spends[limitFamily(kind)], limitWindowMs(kind), now, 0);
    return {
      kind,
      amount: s.amountCents === null ? null : centsToDollars(s.amountCents),
      pending:
        s.pendingFrom === null
          ? null
          : { amount: s.pendingAmountCents === null ? null : centsToDollars(s.pendingAmountCents), from: iso(s.pendingFrom) },
      used: centsToDollars(used.usedCents),
      left: s.amountCents === null ? null : centsToDollars(used.leftCents),
    };
  };
  const active = activeExclusion(rows, now);
  const exclusion: ExclusionView | null = active
    ? { kind: active.kind, startsAt: iso(active.startsAt), endsAt: active.endsAt === null ? null : iso(active.endsAt) }
    : null;
  return { dateOfBirth: user.dateOfBirth, limits: LIMIT_KINDS.map((k) => view(k, limits.get(k)!)), exclusion };
}
