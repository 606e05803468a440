// The two-person rule in aggregate (docs/operating.md, "Two-person rule"): a threshold holds for
// what one operator lets through on their own, and what one payee receives that way, over the
// last 24 hours (TWO_PERSON_WINDOW_MS), not for each item alone. Five $500 pools or ten $999
// payouts in a day need the second operator exactly as one large one does.

export interface TwoPersonCheck {
  /** The action's own amount (a payout, a released prize, a house-funded pool or its increase). */
  amountCents: number;
  /** What this operator let through without a second operator in the window, of the same kind of money. */
  operatorTotalCents24h: number;
  /** What the payee received that way in the window; null for an action without one (a house pool). */
  payeeTotalCents24h: number | null;
  /** TWO_PERSON_PAYOUT_USD or TWO_PERSON_HOUSE_POOL_USD, in cents. */
  thresholdCents: number;
  /** The money would go to the acting operator's own player account. */
  payeeIsOperator?: boolean;
}

/**
 * True when the action needs a second operator: money to the operator's own account always does;
 * otherwise when the action would take the operator's total, or the payee's, above the threshold
 * (a total exactly at the threshold is allowed, as a single item at it always was).
 */
export function needsSecondOperator(c: TwoPersonCheck): boolean {
  if (c.payeeIsOperator) return true;
  if (c.operatorTotalCents24h + c.amountCents > c.thresholdCents) return true;
  return c.payeeTotalCents24h !== null && c.payeeTotalCents24h + c.amountCents > c.thresholdCents;
}

export interface TwoPersonItem {
  amountCents: number;
  /** Null for an action without a payee. */
  payeeId: number | null;
  /** Already approved by a second operator: outside the rule, and in no total. */
  approved: boolean;
}

/**
 * For several items done at once (a selection of payouts in one ACH file), in order: the index of
 * the first that needs a second operator once the ones before it are counted, or -1 when none does.
 */
export function firstNeedingSecondOperator(
  items: readonly TwoPersonItem[],
  operatorTotalCents24h: number,
  payeeTotalsCents24h: ReadonlyMap<number, number>,
  thresholdCents: number,
  operatorId: number,
): number {
  let operatorTotal = operatorTotalCents24h;
  const payeeTotals = new Map(payeeTotalsCents24h);
  for (const [i, item] of items.entries()) {
    if (item.approved) continue;
    const payeeTotal = item.payeeId === null ? null : (payeeTotals.get(item.payeeId) ?? 0);
    const check = {
      amountCents: item.amountCents,
      operatorTotalCents24h: operatorTotal,
      payeeTotalCents24h: payeeTotal,
      thresholdCents,
      payeeIsOperator: item.payeeId === operatorId,
    };
    if (needsSecondOperator(check)) return i;
    operatorTotal += item.amountCents;
    if (item.payeeId !== null) payeeTotals.set(item.payeeId, (payeeTotal ?? 0) + item.amountCents);
  }
  return -1;
}
