// Card refunds and disputes the provider reports: the money leaves the balance through the
// ledger (card_refund, chargeback) and comes back when a dispute is won (chargeback_reversal),
// once per provider event (payment_reversals.event_id). What the balance cannot cover is owed
// (users.owed_cents) and freezes the account; a later deposit settles it first. Every amount is
// computed inside the D1 batch from the rows as they are then, so concurrent events cannot
// double-count, and users.owed_cents is recomputed from the rows rather than adjusted.
import { MONEY } from "../../common/messages";

export type ReversalKind = "refund" | "dispute_opened" | "dispute_won" | "dispute_lost";

export interface Reversal {
  eventId: string;
  kind: ReversalKind;
  /** ch_… for a refund (its refunds add up per charge), dp_… for a dispute. */
  objectId: string;
  paymentIntentId: string;
  userId: number;
  /** A refund: the charge's cumulative amount_refunded; a dispute: the disputed amount. */
  amountCents: number;
  /** The deposit's own amount: no reversal takes more than was paid. */
  depositCents: number;
}

/** The reference of a repayment: one per deposit, so a repeated credit repays nothing twice. */
export const repaymentReference = (paymentIntentId: string) => `repay:${paymentIntentId}`;

/** users.owed_cents as the rows say: what reversals left owed (less what won disputes cancelled), less the repayments. */
const OWED = `max(0,
  (SELECT coalesce(sum(owed_cents), 0) FROM payment_reversals WHERE user_id = ?1)
  + (SELECT coalesce(sum(amount_cents), 0) FROM transactions WHERE user_id = ?1 AND reference LIKE 'repay:%' AND status <> 'failed'))`;

/**
 * Recomputes what the user owes and freezes (owed) or unfreezes (nothing owed) the account. Only a
 * freeze this code made is lifted here: another reason stays until whoever set it lifts it.
 */
export function settleOwedStatement(d1: D1Database, userId: number, now = Date.now()): D1PreparedStatement {
  return d1
    .prepare(
      `UPDATE users SET
         owed_cents = ${OWED},
         frozen_at = CASE WHEN ${OWED} > 0 THEN coalesce(frozen_at, ?2) WHEN frozen_reason = ?3 THEN NULL ELSE frozen_at END,
         frozen_reason = CASE WHEN ${OWED} > 0 THEN coalesce(frozen_reason, ?3) WHEN frozen_reason = ?3 THEN NULL ELSE frozen_reason END
       WHERE id = ?1`,
    )
    .bind(userId, now, MONEY.frozenOwed);
}

/** The payment_reversals row: its amount, the part taken from (or returned to) the balance, and the part owed. */
function reversalRowStatement(d1: D1Database, r: Reversal): D1PreparedStatement {
  const columns = "event_id, user_id, kind, object_id, payment_intent_id, amount_cents, balance_cents, owed_cents";
  if (r.kind === "refund" || r.kind === "dispute_opened") {
    // A refund takes only what earlier refunds of the charge did not, nor our own closed-loop
    // refunds (a withdrawal's card part, already out of the balance); a dispute is opened once,
    // whichever of created, updated and funds_withdrawn comes first (the others record nothing).
    const amount =
      r.kind === "refund"
        ? `max(0, min(?5, ?6) - (SELECT coalesce(sum(amount_cents), 0) FROM payment_reversals WHERE kind = 'refund' AND object_id = ?3)
             + (SELECT coalesce(sum(c.amount_cents), 0) FROM transactions c
                WHERE c.type = 'withdrawal' AND c.status IN ('completed', 'pending')
                  AND substr(c.reference, 1, length(?4) + 12) = 'cardrefund:' || ?4 || ':'))`
        : `CASE WHEN EXISTS (SELECT 1 FROM payment_reversals WHERE kind = 'dispute_opened' AND object_id = ?3) THEN 0 ELSE min(?5, ?6) END`;
    return d1
      .prepare(
        `INSERT INTO payment_reversals (${columns})
         SELECT ?1, u.id, ?7, ?3, ?4, a.amt, min(a.amt, u.balance_cents), a.amt - min(a.amt, u.balance_cents)
         FROM users u, (SELECT ${amount} AS amt) a
         WHERE u.id = ?2${r.kind === "dispute_opened" ? " AND NOT EXISTS (SELECT 1 FROM payment_reversals WHERE kind = 'dispute_opened' AND object_id = ?3)" : ""}
         ON CONFLICT (event_id) DO NOTHING`,
      )
      .bind(r.eventId, r.userId, r.objectId, r.paymentIntentId, r.amountCents, r.depositCents, r.kind);
  }
  // A closed dispute: won returns what the player paid towards it (from the balance, or repaid
  // since) and cancels what is still owed for it; lost moves nothing more. Closed once.
  const won = r.kind === "dispute_won";
  return d1
    .prepare(
      `INSERT INTO payment_reversals (${columns})
       SELECT ?1, u.id, ?5, ?3, ?4, coalesce(o.amount_cents, 0),
              ${won ? "coalesce(o.amount_cents, 0) - min(coalesce(o.owed_cents, 0), u.owed_cents)" : "0"},
              ${won ? "-min(coalesce(o.owed_cents, 0), u.owed_cents)" : "0"}
       FROM users u LEFT JOIN payment_reversals o ON o.kind = 'dispute_opened' AND o.object_id = ?3
       WHERE u.id = ?2
         AND NOT EXISTS (SELECT 1 FROM payment_reversals WHERE kind IN ('dispute_won', 'dispute_lost') AND object_id = ?3)
       ON CONFLICT (event_id) DO NOTHING`,
    )
    .bind(r.eventId, r.userId, r.objectId, r.paymentIntentId, r.kind);
}

/** The ledger row for the event's row: out of the balance, or back into it for a won dispute. */
function reversalLedgerStatement(d1: D1Database, r: Reversal): D1PreparedStatement {
  const [type, description, sign] =
    r.kind === "refund"
      ? ["card_refund", MONEY.cardRefund, -1]
      : r.kind === "dispute_won"
        ? ["chargeback_reversal", MONEY.chargebackReversal, 1]
        : ["chargeback", MONEY.chargeback, -1];
  return d1
    .prepare(
      `INSERT INTO transactions (user_id, amount_cents, type, status, reference, description)
       SELECT user_id, ? * balance_cents, ?, 'completed', 'reversal:' || event_id, ?
       FROM payment_reversals WHERE event_id = ? AND balance_cents > 0
       ON CONFLICT (reference) DO NOTHING`,
    )
    .bind(sign, type, description, r.eventId);
}

/**
 * Applies one provider event; true when this call recorded it and it moved money (or what is
 * owed), false when it had been recorded before or moved nothing (a dispute already taken, a lost one).
 */
export async function applyReversal(d1: D1Database, r: Reversal): Promise<boolean> {
  const results = await d1.batch<{ moved: number }>([
    reversalRowStatement(d1, r),
    reversalLedgerStatement(d1, r),
    settleOwedStatement(d1, r.userId),
    d1.prepare("SELECT balance_cents <> 0 OR owed_cents <> 0 AS moved FROM payment_reversals WHERE event_id = ?").bind(r.eventId),
  ]);
  const recorded = (results[0]?.meta.changes ?? 0) > 0;
  return recorded && results[3]?.results[0]?.moved === 1;
}

/**
 * After a deposit's credit, in its batch (only when it was credited, not refunded): what is owed is repaid from the balance first (at most
 * the deposit, never below zero), as the reversal's own kind of row, then the account is settled.
 */
export function repaymentStatements(d1: D1Database, userId: number, paymentIntentId: string, depositCents: number): D1PreparedStatement[] {
  return [
    d1
      .prepare(
        `INSERT INTO transactions (user_id, amount_cents, type, status, reference, description)
         SELECT u.id, -min(u.owed_cents, u.balance_cents, ?3),
                coalesce((SELECT CASE kind WHEN 'refund' THEN 'card_refund' ELSE 'chargeback' END
                          FROM payment_reversals WHERE user_id = ?1 AND owed_cents > 0 ORDER BY id DESC LIMIT 1), 'chargeback'),
                'completed', ?2, ?4
         FROM users u WHERE u.id = ?1 AND u.owed_cents > 0 AND u.balance_cents > 0
           AND EXISTS (SELECT 1 FROM transactions d WHERE d.reference = ?5 AND d.type = 'deposit' AND d.status = 'completed')
         ON CONFLICT (reference) DO NOTHING`,
      )
      .bind(userId, repaymentReference(paymentIntentId), depositCents, MONEY.owedRepaid, paymentIntentId),
    settleOwedStatement(d1, userId),
  ];
}

/** A refund or dispute event as the provider reports it, before we know whose deposit it is. */
export type ProviderReversal = Omit<Reversal, "userId" | "depositCents">;

export type ReversalOutcome = "applied" | "duplicate" | "recorded" | "ignored";

const depositOf = (d1: D1Database, paymentIntentId: string) =>
  d1
    .prepare("SELECT user_id AS userId, amount_cents AS cents, status FROM transactions WHERE reference = ? AND type = 'deposit'")
    .bind(paymentIntentId)
    .first<{ userId: number; cents: number; status: string }>();

/**
 * Applies one provider event to the deposit it names. A credited deposit: the reversal, once per
 * event id. One refused at credit (status refunded) was never in the balance: ignored. Not credited
 * yet (the webhook raced the credit): recorded in early_reversals, applied when it is credited,
 * and checked once more afterwards so a credit in between cannot miss it.
 */
export async function applyProviderReversal(d1: D1Database, r: ProviderReversal): Promise<ReversalOutcome> {
  const apply = async (deposit: { userId: number; cents: number; status: string }): Promise<ReversalOutcome> => {
    if (deposit.status !== "completed" && deposit.status !== "pending") return "ignored";
    return (await applyReversal(d1, { ...r, userId: deposit.userId, depositCents: deposit.cents })) ? "applied" : "duplicate";
  };
  const deposit = await depositOf(d1, r.paymentIntentId);
  if (deposit) return apply(deposit);
  await d1
    .prepare(
      `INSERT INTO early_reversals (event_id, payment_intent_id, kind, object_id, amount_cents) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (event_id) DO NOTHING`,
    )
    .bind(r.eventId, r.paymentIntentId, r.kind, r.objectId, r.amountCents)
    .run();
  const now = await depositOf(d1, r.paymentIntentId);
  if (now) return apply(now);
  return "recorded";
}

/** After a deposit's credit: the refunds and disputes reported before it, in the order they came. */
export async function applyEarlyReversals(d1: D1Database, paymentIntentId: string): Promise<void> {
  const { results } = await d1
    .prepare(
      "SELECT event_id AS eventId, kind, object_id AS objectId, amount_cents AS amountCents FROM early_reversals WHERE payment_intent_id = ? ORDER BY created_at, rowid",
    )
    .bind(paymentIntentId)
    .all<{ eventId: string; kind: ReversalKind; objectId: string; amountCents: number }>();
  for (const e of results) await applyProviderReversal(d1, { ...e, paymentIntentId });
}

/** Whether the provider reported a refund or dispute for a payment before it was credited. */
export async function reversedBeforeCredit(d1: D1Database, paymentIntentId: string): Promise<boolean> {
  const row = await d1.prepare("SELECT 1 AS x FROM early_reversals WHERE payment_intent_id = ? LIMIT 1").bind(paymentIntentId).first();
  return row !== null;
}
