// The refusals of breaks and limits as values (status, code, message), shared by the routes'
// checks (checks.ts throws them) and the join's D1 batch (the room answers them when the batch
// refused a row: worker/durable/room/join-group.ts), so both say the same thing.
import { RESPONSIBLE } from "../../common/messages";
import type { ErrorCode } from "../../common/api/errors";
import { formatCents } from "../../common/domain/money";
import {
  activeExclusion,
  checkLimit,
  LIMIT_KINDS,
  limitFamily,
  limitPeriod,
  limitWindowMs,
  type LimitFamily,
  type LimitKind,
  type LimitState,
} from "../../common/domain/responsible-play";
import type { Db } from "../db/client";
import { loadLimits, spendsOf, type ExclusionRow } from "./state";

export interface Refusal {
  status: 403 | 409;
  code: ErrorCode;
  message: string;
}

/** The break in force at `now`, as its refusal; null when none. */
export function exclusionRefusal(rows: readonly ExclusionRow[], now: number): Refusal | null {
  const active = activeExclusion(rows, now);
  if (active?.kind === "self_exclusion") return { status: 403, code: "self_excluded", message: RESPONSIBLE.selfExcluded(active.endsAt) };
  if (active) return { status: 403, code: "cooling_off", message: RESPONSIBLE.coolingOff(active.endsAt!) };
  return null;
}

/** Every limit of the family the amount would break, the one that frees up last named; null when it fits. */
export async function limitRefusal(
  db: Db,
  userId: number,
  family: LimitFamily,
  amountCents: number,
  now: number,
  loaded?: Map<LimitKind, LimitState>,
): Promise<Refusal | null> {
  const limits = loaded ?? (await loadLimits(db, userId, now));
  const kinds = LIMIT_KINDS.filter((k) => limitFamily(k) === family && limits.get(k)?.amountCents != null);
  if (kinds.length === 0) return null;
  const spends = await spendsOf(db, userId, family, now);
  const broken = kinds
    .map((kind) => ({ kind, check: checkLimit(limits.get(kind)!.amountCents!, spends, limitWindowMs(kind), now, amountCents) }))
    .filter((b) => !b.check.fits)
    .sort((a, b) => (b.check.fitsAt ?? Infinity) - (a.check.fitsAt ?? Infinity));
  const worst = broken[0];
  if (!worst) return null;
  const message = RESPONSIBLE.limitReached({
    family,
    period: limitPeriod(worst.kind),
    limitUsd: formatCents(worst.check.limitCents),
    // What fits under every limit at once.
    leftUsd: formatCents(Math.min(...broken.map((b) => b.check.leftCents))),
    amountUsd: formatCents(amountCents),
    fitsAt: worst.check.fitsAt,
  });
  return { status: 409, code: family === "deposit" ? "deposit_limit_reached" : "spend_limit_reached", message };
}
