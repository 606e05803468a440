// How much of a balance may be withdrawn now. A card deposit can still be refunded or disputed
// days after it was made, so it is held for DEPOSIT_HOLD_HOURS: a stolen card could otherwise
// be cashed out before its owner notices. Money spent on entry fees is no longer a deposit that
// could leave, so fees spend held deposits first, the newest first: what stays held is the
// older part, which frees soonest. Sandbox (test card) deposits are never real money, so off
// the sandbox hosts they stay held whatever their age.
import { DEFAULT_DEPOSIT_HOLD_HOURS } from "../spec";
import type { Cents } from "./money";

/** DEPOSIT_HOLD_HOURS as hours; missing, negative or not a number gives the default. */
export function depositHoldHours(raw: string | undefined): number {
  const hours = raw === undefined || raw.trim() === "" ? Number.NaN : Number(raw);
  return Number.isFinite(hours) && hours >= 0 ? hours : DEFAULT_DEPOSIT_HOLD_HOURS;
}

/** What moved held money, in time order; amounts are positive cents. */
export type HoldEvent =
  /** A card deposit (ref: its PaymentIntent id). */
  | { kind: "deposit"; ref: string; cents: Cents; at: number; sandbox: boolean }
  /** An entry fee (key: the tournament and user, shared with its refund). */
  | { kind: "fee"; key: string; cents: Cents; at: number }
  /** An entry fee given back (a left or cancelled tournament). */
  | { kind: "fee_refund"; key: string; cents: Cents; at: number }
  /** A card refund or dispute that took money back for the deposit `ref`. */
  | { kind: "reversal"; ref: string; cents: Cents; at: number }
  /**
   * A prize from a paid tournament, held until `releaseAt`: the latest hold release of the card
   * deposits that may have paid its entry fees. A prize is never a faster way out than the deposit it came from.
   */
  | { kind: "prize"; cents: Cents; at: number; releaseAt: number };

/**
 * A card deposit that can still go back to its card (closed loop): of the last
 * CARD_REFUND_WINDOW_DAYS, made through the active provider, less what went back already.
 */
export interface CardRefundable {
  /** The deposit's PaymentIntent id. */
  ref: string;
  /** What of it may still be refunded. */
  cents: Cents;
  at: number;
  cardLast4: string | null;
}

export interface HoldInput {
  balanceCents: Cents;
  /** Deposits a withdrawal may refund to their card first, in any order (newest first is applied). */
  cardRefundable?: readonly CardRefundable[];
  events: readonly HoldEvent[];
  now: number;
  holdMs: number;
  /** True on a sandbox host (loopback or SANDBOX_HOSTS), where test money counts like any other. */
  sandboxWithdrawable: boolean;
}

export interface Withdrawable {
  /** Card part plus bank part: what a withdrawal may take now. */
  withdrawableCents: Cents;
  /** What may go back to the cards it came from now, whatever the hold (at most the balance). */
  cardRefundableCents: Cents;
  /** What may go to a bank account once the card part has gone back. */
  bankWithdrawableCents: Cents;
  /** The part of the balance that may not leave yet: recent plus sandbox, at most the balance. */
  heldCents: Cents;
  recentHeldCents: Cents;
  sandboxHeldCents: Cents;
  /** When the next recent deposit (or held prize) frees; null when nothing frees with time. */
  nextReleaseAt: number | null;
  /** Prizes held until the deposits that paid their tournament's entry fees clear (part of recentHeldCents). */
  prizeHeldCents: Cents;
  /** When the last of those prizes frees; null when none is held. */
  prizeReleaseAt: number | null;
}

interface Lot {
  at: number;
  remaining: Cents;
  /** Held for good: sandbox money off the sandbox hosts. */
  forever: boolean;
}

/** The card refunds a withdrawal of `amountCents` makes: newest deposit first, up to what each can take. */
export function cardParts(amountCents: Cents, refundable: readonly CardRefundable[]): (CardRefundable & { cents: Cents })[] {
  const parts: (CardRefundable & { cents: Cents })[] = [];
  let left = amountCents;
  for (const r of [...refundable].sort((a, b) => b.at - a.at || (a.ref < b.ref ? 1 : -1))) {
    if (left <= 0) break;
    const cents = Math.min(left, r.cents);
    if (cents <= 0) continue;
    parts.push({ ...r, cents });
    left -= cents;
  }
  return parts;
}

/**
 * A withdrawal of `amountCents` split into its card refunds and its bank part, and the held money
 * that must stay in the balance after both (`keepCents`: the debit's guard); null when the amount
 * is above what may leave now.
 */
export function planWithdrawal(input: HoldInput, amountCents: Cents) {
  const all = withdrawable(input);
  if (amountCents > all.withdrawableCents) return null;
  const card = cardParts(Math.min(amountCents, all.cardRefundableCents), input.cardRefundable ?? []);
  const cardCents = card.reduce((s, p) => s + p.cents, 0);
  const after = withdrawable({ ...input, cardRefundable: [] }, card);
  return { card, cardCents, bankCents: amountCents - cardCents, keepCents: after.heldCents };
}

export function withdrawable(input: HoldInput, refundedNow?: readonly { ref: string; cents: Cents }[]): Withdrawable {
  const { events, now, holdMs, sandboxWithdrawable } = input;
  const balanceCents = Math.max(0, input.balanceCents);
  // The card part first: it can only go back to the payer, so no hold applies to it. It is taken
  // out of the balance and of the deposits it refunds, and the bank part is what the hold leaves of the rest.
  const refundable = (input.cardRefundable ?? []).reduce((s, r) => s + Math.max(0, r.cents), 0);
  const cardCents = refundedNow ? 0 : Math.min(balanceCents, refundable);
  const refunds = refundedNow ?? cardParts(cardCents, input.cardRefundable ?? []);
  const afterCard = refundedNow ? balanceCents - refunds.reduce((s, p) => s + p.cents, 0) : balanceCents - cardCents;
  const bank = held({ balanceCents: Math.max(0, afterCard), events, now, holdMs, sandboxWithdrawable }, refunds);
  return {
    ...bank,
    withdrawableCents: cardCents + bank.withdrawableCents,
    cardRefundableCents: cardCents,
    bankWithdrawableCents: bank.withdrawableCents,
  };
}

function held(
  { balanceCents, events, now, holdMs, sandboxWithdrawable }: HoldInput,
  refunds: readonly { ref: string; cents: Cents }[],
): Omit<Withdrawable, "cardRefundableCents" | "bankWithdrawableCents"> {
  const lots = new Map<string, Lot>();
  const spentBy = new Map<string, { lot: Lot; cents: Cents }[]>();
  const ordered = events.map((e, i) => ({ e, i })).sort((a, b) => a.e.at - b.e.at || a.i - b.i);
  for (const { e } of ordered) {
    if (e.kind === "deposit") {
      const forever = e.sandbox && !sandboxWithdrawable;
      if (forever || e.at + holdMs > now) lots.set(e.ref, { at: e.at, remaining: e.cents, forever });
    } else if (e.kind === "fee") {
      let left = e.cents;
      const taken: { lot: Lot; cents: Cents }[] = [];
      for (const lot of [...lots.values()].filter((l) => l.at <= e.at).sort((a, b) => b.at - a.at)) {
        if (left === 0) break;
        const cents = Math.min(left, lot.remaining);
        if (cents === 0) continue;
        lot.remaining -= cents;
        left -= cents;
        taken.push({ lot, cents });
      }
      spentBy.set(e.key, [...(spentBy.get(e.key) ?? []), ...taken]);
    } else if (e.kind === "fee_refund") {
      let left = e.cents;
      for (const part of [...(spentBy.get(e.key) ?? [])].reverse()) {
        const cents = Math.min(left, part.cents);
        part.lot.remaining += cents;
        part.cents -= cents;
        left -= cents;
      }
    } else if (e.kind === "reversal") {
      const lot = lots.get(e.ref);
      if (lot) lot.remaining -= Math.min(lot.remaining, e.cents);
    }
  }
  // Money going back to its card now leaves the deposit it came from, as a card refund would.
  for (const r of refunds) {
    const lot = lots.get(r.ref);
    if (lot) lot.remaining -= Math.min(lot.remaining, r.cents);
  }
  let recent = 0;
  let sandbox = 0;
  let nextReleaseAt: number | null = null;
  for (const lot of lots.values()) {
    if (lot.remaining <= 0) continue;
    if (lot.forever) sandbox += lot.remaining;
    else {
      recent += lot.remaining;
      nextReleaseAt = Math.min(nextReleaseAt ?? Infinity, lot.at + holdMs);
    }
  }
  let prizes = 0;
  let prizeReleaseAt: number | null = null;
  for (const e of events) {
    if (e.kind !== "prize" || e.releaseAt <= now || e.cents <= 0) continue;
    prizes += e.cents;
    prizeReleaseAt = Math.max(prizeReleaseAt ?? 0, e.releaseAt);
    nextReleaseAt = Math.min(nextReleaseAt ?? Infinity, e.releaseAt);
  }
  const balance = Math.max(0, balanceCents);
  const heldCents = Math.min(balance, recent + prizes + sandbox);
  const recentHeldCents = Math.min(recent + prizes, heldCents);
  return {
    withdrawableCents: balance - heldCents,
    heldCents,
    recentHeldCents,
    sandboxHeldCents: heldCents - recentHeldCents,
    nextReleaseAt,
    prizeHeldCents: Math.min(prizes, recentHeldCents),
    prizeReleaseAt,
  };
}

/** "2026-11-24 10:00 UTC": when held money frees, in messages. */
export const formatReleaseTime = (ms: number) => `${new Date(ms).toISOString().slice(0, 16).replace("T", " ")} UTC`;
