// Withdrawals to a bank account: the debit into a pending ledger row plus its payout record,
// and the operator's paid/failed decision. The account number is stored sealed (AES-GCM, so the
// ACH file can pay it) beside its last 4 digits, the only part ever shown.
import { and, eq, like } from "drizzle-orm";
import type { AdminPayout, CardRefundPart, Payout, WithdrawalResponse } from "../../common/api/money";
import type { NotificationFrame } from "../../common/api/tournaments";
import { MONEY, NOTIFY } from "../../common/messages";
import { centsToDollars, formatCents } from "../../common/domain/money";
import type { Db } from "../db/client";
import { iso, presentTransaction } from "../db/present";
import { payouts, transactions, users } from "../db/schema";
import { InsufficientFundsError, isOverdraft, runAtomically } from "./ledger";
import { claimGuardStatement, claimReferenceStatement, type KeyClaim } from "./idempotency";
import { payoutSealContext, seal, type SealEnv } from "../crypto/sealed";
import type { PaymentProvider } from "../payments/provider";
import { CARD_REFUNDABLE_SQL, cardRefundReference } from "./withdrawable";
import { bankAccountHash, inheritExclusionStatement } from "../responsible-play/excluded-identities";

export type PayoutRow = typeof payouts.$inferSelect;

/** A deposit's share of a withdrawal that goes back to its card. */
export interface CardPart {
  /** The deposit's PaymentIntent id. */
  ref: string;
  cents: number;
  cardLast4: string | null;
}

export interface WithdrawalRequest {
  userId: number;
  /** The bank part: what goes to the bank account (0 when everything goes back to cards). */
  amountCents: number;
  /** The card parts (closed loop), refunded to the cards after the debit. */
  cardParts?: CardPart[];
  /** Names this withdrawal: its card rows' references end in it and its payout carries it. */
  group: string;
  accountHolderName: string;
  /** The full number: stored sealed; only its last 4 digits leave this function. */
  accountNumber: string;
  routingNumber: string;
  accountType: "checking" | "savings";
  method: string;
  /** Held money (recent deposits) that must stay in the balance after the debit. */
  keepCents?: number;
}

/** Raised when the account was frozen when the debit ran; nothing in its batch was written. */
export class AccountFrozenError extends Error {
  constructor(readonly owedCents: number) {
    super("Account frozen");
  }
}

export const payoutReference = (payoutId: number) => `payout:${payoutId}`;

/** The idempotency reference of a withdrawal: its group, which names its card rows and its payout. */
export const withdrawalReference = (group: string) => `withdrawal:${group}`;
const cardRowDescription = (p: CardPart) => MONEY.cardRefundRow(formatCents(p.cents), p.cardLast4);

/**
 * One atomic batch: the payout row, then its pending withdrawal row whose reference
 * `payout:{id}` takes the new payout's id from last_insert_rowid() (same batch, same connection).
 * The ledger trigger debits the balance; an overdraft fails the CHECK and undoes both rows, so
 * concurrent withdrawals can never take a balance below zero. With an idempotency key's claim,
 * the key's reference commits in the same batch (worker/money/idempotency.ts), or the batch fails
 * whole when the claim was lost.
 * The held-money statement changes no balance: it only trips the same CHECK when the debit
 * would dig into the held money, so two withdrawals racing each other cannot together take what is on hold.
 * It trips it too when the account is frozen (it owes the house after a card refund or dispute),
 * as D1 has it when the batch runs: a freeze committed after the route's check still stops the
 * debit, and the refusal says so (AccountFrozenError). Suspensions and breaks never hold a
 * balance back, and the region and age are the request's, so those stay the route's checks.
 */
export async function debitWithdrawal(
  env: SealEnv & { DB: D1Database; RECEIPT_SECRET?: string },
  w: WithdrawalRequest,
  claim: KeyClaim | null = null,
): Promise<{ inherited: boolean }> {
  const d1 = env.DB;
  const last4 = w.accountNumber.slice(-4);
  const cardParts = w.cardParts ?? [];
  const totalCents = w.amountCents + cardParts.reduce((s, p) => s + p.cents, 0);
  const bank = w.amountCents > 0;
  const sealedNumber = bank
    ? await seal(env, w.accountNumber, payoutSealContext({ userId: w.userId, routingNumber: w.routingNumber, accountLast4: last4 }))
    : null;
  // Hashed before sealing: what a self-excluded account's deletion keeps, and what a new account's withdrawal is matched on.
  const bankHash = bank ? bankAccountHash(env, w.routingNumber, w.accountNumber) : null;
  const statements: D1PreparedStatement[] = [
    ...(claim ? [claimGuardStatement(d1, claim)] : []),
    d1
      .prepare(
        "UPDATE users SET balance_cents = CASE WHEN balance_cents - ? < ? OR frozen_at IS NOT NULL THEN -1 ELSE balance_cents END WHERE id = ?",
      )
      .bind(totalCents, w.keepCents ?? 0, w.userId),
    // The card parts: pending until the provider confirms the refund (settleCardRefunds).
    ...cardParts.map((p) =>
      d1
        .prepare(
          `INSERT INTO transactions (user_id, amount_cents, type, status, reference, description) VALUES (?, ?, 'withdrawal', 'pending', ?, ?)`,
        )
        .bind(w.userId, -p.cents, cardRefundReference(p.ref, w.group), cardRowDescription(p)),
    ),
    // No deposit goes back to its card beyond what it paid, however many withdrawals race: the CHECK trips.
    ...cardParts.map((p) =>
      d1
        .prepare(
          `UPDATE users SET balance_cents = -1 WHERE id = ?1
             AND (SELECT ${CARD_REFUNDABLE_SQL("t")} FROM transactions t WHERE t.reference = ?2 AND t.user_id = ?1 AND t.type = 'deposit') < 0`,
        )
        .bind(w.userId, p.ref),
    ),
  ];
  const payoutAt = statements.length;
  if (bank) {
    statements.push(
      d1
        .prepare(
          `INSERT INTO payouts (user_id, amount_cents, method, account_holder_name, account_last4, account_number_sealed, bank_hash, routing_number, account_type, withdrawal_group)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
        )
        .bind(
          w.userId,
          w.amountCents,
          w.method,
          w.accountHolderName,
          last4,
          sealedNumber,
          bankHash,
          w.routingNumber,
          w.accountType,
          w.group,
        ),
      // The payout's ledger row: its reference names the payout just inserted (same batch, same connection).
      d1
        .prepare(
          `INSERT INTO transactions (user_id, amount_cents, type, status, reference, description)
           VALUES (?, ?, 'withdrawal', 'pending', 'payout:' || last_insert_rowid(), ?)`,
        )
        .bind(w.userId, -w.amountCents, `Withdrawal of $${formatCents(w.amountCents)} to ${w.accountType} account ••••${last4}`),
    );
  }
  if (claim) statements.push(claimReferenceStatement(d1, claim, withdrawalReference(w.group)));
  // An account a deleted self-excluded account was paid to hands its exclusion over (the money still leaves: breaks never hold it back).
  const inheritAt = statements.length;
  if (bankHash) statements.push(inheritExclusionStatement(d1, w.userId, "bank_account", [bankHash], Date.now()));
  try {
    const results = await d1.batch<{ id: number }>(statements);
    if (bank && typeof results[payoutAt]?.results[0]?.id !== "number") throw new Error("payout insert returned no id");
    return { inherited: bankHash !== null && (results[inheritAt]?.meta.changes ?? 0) > 0 };
  } catch (e) {
    if (!isOverdraft(e)) throw e;
    // Which guard tripped: a freeze committed after the route's check is said as such, whatever the balance.
    const frozen = await d1
      .prepare("SELECT owed_cents AS owed FROM users WHERE id = ? AND frozen_at IS NOT NULL")
      .bind(w.userId)
      .first<{ owed: number }>();
    if (frozen) throw new AccountFrozenError(frozen.owed);
    throw new InsufficientFundsError();
  }
}

/**
 * Asks the provider for each pending card refund of a withdrawal (its key is the row's reference,
 * so asking again never refunds twice) and settles the row: completed once the provider confirmed
 * it; failed when it refused or could not be reached, which gives the money back to the balance
 * (the ledger trigger). Should a failed-looking refund have happened after all, the provider's
 * charge.refunded then takes it from the balance (payments/reversals.ts counts only live rows).
 */
export async function settleCardRefunds(
  d1: D1Database,
  provider: PaymentProvider,
  rows: { reference: string | null; amountCents: number; status: string }[],
) {
  for (const row of rows) {
    if (row.status !== "pending" || !row.reference?.startsWith("cardrefund:")) continue;
    const paymentIntentId = row.reference.split(":")[1] ?? "";
    let ok = true;
    try {
      await provider.refundIntent(paymentIntentId, "withdrawal", {
        amountCents: -row.amountCents,
        idempotencyKey: `withdrawal-${row.reference}`,
      });
    } catch (e) {
      console.warn("closed-loop card refund failed", { reference: row.reference, error: String(e) });
      ok = false;
    }
    await (
      ok
        ? d1.prepare("UPDATE transactions SET status = 'completed' WHERE reference = ? AND status = 'pending'").bind(row.reference)
        : d1
            .prepare(
              "UPDATE transactions SET status = 'failed', description = coalesce(description, '') || ? WHERE reference = ? AND status = 'pending'",
            )
            .bind(MONEY.cardRefundFailedNote, row.reference)
    ).run();
  }
}

/** A withdrawal as it stands: its card rows, its payout and ledger row (when it has a bank part) and the player's balance now. */
export async function withdrawalRows(db: Db, userId: number, reference: string) {
  const group = /^withdrawal:([0-9a-f]+)$/.exec(reference)?.[1] ?? null;
  const payoutQuery = group
    ? db
        .select()
        .from(payouts)
        .where(and(eq(payouts.withdrawalGroup, group), eq(payouts.userId, userId)))
    : db
        .select()
        .from(payouts)
        .where(eq(payouts.id, payoutIdOf(reference)));
  const [payout, cardRows, user] = await Promise.all([
    payoutQuery.get(),
    group
      ? db
          .select()
          .from(transactions)
          .where(and(eq(transactions.userId, userId), like(transactions.reference, `cardrefund:%:${group}`)))
          .orderBy(transactions.id)
          .all()
      : Promise.resolve([]),
    db.select({ balanceCents: users.balanceCents }).from(users).where(eq(users.id, userId)).get(),
  ]);
  const transaction = payout
    ? await db
        .select()
        .from(transactions)
        .where(eq(transactions.reference, payoutReference(payout.id)))
        .get()
    : null;
  if (!user || (payout && payout.userId !== userId) || (payout && !transaction) || (!payout && cardRows.length === 0))
    throw new Error("withdrawal rows missing");
  return { payout: payout ?? null, transaction: transaction ?? null, cardRows, balanceCents: user.balanceCents };
}

const lastFourOf = (description: string | null) => /…(\d{4})/.exec(description ?? "")?.[1] ?? null;

export function presentWithdrawal({
  payout,
  transaction,
  cardRows,
  balanceCents,
}: Awaited<ReturnType<typeof withdrawalRows>>): WithdrawalResponse {
  const cardRefunds: CardRefundPart[] = cardRows.map((t) => {
    const usd = formatCents(-t.amountCents);
    const cardLast4 = lastFourOf(t.description);
    const status = t.status === "failed" ? "failed" : t.status === "completed" ? "completed" : "pending";
    return {
      amount: centsToDollars(-t.amountCents),
      cardLast4,
      status,
      message: status === "failed" ? MONEY.cardRefundFailed(usd, cardLast4) : MONEY.cardRefundPart(usd, cardLast4),
      transaction: presentTransaction(t),
    };
  });
  const cardCents = cardRows.filter((t) => t.status !== "failed").reduce((s, t) => s - t.amountCents, 0);
  return {
    balance: centsToDollars(balanceCents),
    transaction: transaction ? presentTransaction(transaction) : null,
    payout: payout ? presentPayout(payout) : null,
    cardRefunds,
    cardAmount: centsToDollars(cardCents),
    bankAmount: centsToDollars(payout?.amountCents ?? 0),
    bankMessage: payout ? MONEY.bankPart(formatCents(payout.amountCents)) : null,
  };
}

/** The payout id in a `payout:{id}` reference. */
export function payoutIdOf(reference: string): number {
  const id = Number(/^payout:(\d+)$/.exec(reference)?.[1]);
  if (!Number.isSafeInteger(id)) throw new Error(`not a payout reference: ${reference}`);
  return id;
}

/** SQL true while payout `?` is still pending: the condition of every statement that settles it. */
export const PAYOUT_STILL_PENDING = "(SELECT status FROM payouts WHERE id = ?) = 'pending'";

/**
 * The statements that move a pending payout to paid (its ledger row completes) or failed (its
 * ledger row fails and the trigger refunds; the reason goes onto the row's description and into a
 * notification for the player). Every statement is conditional on the payout still being pending,
 * so run in one batch a repeat is a no-op, the player is told once, and a paid payout can never be
 * refunded by a late "failed", nor the reverse. `alongside` (an audit row, conditional on
 * PAYOUT_STILL_PENDING too) runs before the payout's own update, which is last.
 */
export function settleStatements(
  d1: D1Database,
  payout: PayoutRow,
  outcome: "paid" | "failed",
  reason: string | null = null,
  alongside: D1PreparedStatement[] = [],
): D1PreparedStatement[] {
  const ledgerRow =
    outcome === "paid"
      ? d1
          .prepare(`UPDATE transactions SET status = 'completed' WHERE reference = ? AND status = 'pending' AND ${PAYOUT_STILL_PENDING}`)
          .bind(payoutReference(payout.id), payout.id)
      : d1
          .prepare(
            `UPDATE transactions SET status = 'failed', description = coalesce(description, '') || ? WHERE reference = ? AND status = 'pending' AND ${PAYOUT_STILL_PENDING}`,
          )
          .bind(MONEY.withdrawalFailedNote(reason ?? ""), payoutReference(payout.id), payout.id);
  const notice =
    outcome === "failed"
      ? [
          d1
            .prepare(
              `INSERT INTO notifications (user_id, message, action, status) SELECT ?, ?, 'payout_failed', 'failed' WHERE ${PAYOUT_STILL_PENDING}`,
            )
            .bind(payout.userId, NOTIFY.payoutFailed(formatCents(payout.amountCents), reason ?? ""), payout.id),
        ]
      : [];
  return [
    ...notice,
    ledgerRow,
    ...alongside,
    d1
      .prepare("UPDATE payouts SET status = ?, failure_reason = ?, processed_at = ? WHERE id = ? AND status = 'pending'")
      .bind(outcome, reason, Date.now(), payout.id),
  ];
}

/** Settles one payout in its own batch (settleStatements); returns whether this call made the move. */
export async function settlePayout(
  d1: D1Database,
  payout: PayoutRow,
  outcome: "paid" | "failed",
  reason: string | null = null,
  alongside: D1PreparedStatement[] = [],
): Promise<boolean> {
  const changes = await runAtomically(d1, settleStatements(d1, payout, outcome, reason, alongside));
  return (changes.at(-1) ?? 0) > 0;
}

/** The /ws frame telling a player their payout failed (the stored row carries the same message). */
export const payoutFailedFrame = (payout: PayoutRow, reason: string): NotificationFrame => ({
  type: "notification",
  message: NOTIFY.payoutFailed(formatCents(payout.amountCents), reason),
  data: { action: "payout_failed", tournamentId: null, status: "failed" },
});

export const presentPayout = (p: PayoutRow): Payout => ({
  id: p.id,
  amount: centsToDollars(p.amountCents),
  status: p.status,
  accountLast4: p.accountLast4,
  createdAt: iso(p.createdAt),
});

export const presentAdminPayout = (p: PayoutRow, username: string): AdminPayout => ({
  ...presentPayout(p),
  userId: p.userId,
  username,
  method: p.method,
  accountHolderName: p.accountHolderName,
  accountType: p.accountType,
  routingNumber: p.routingNumber,
  failureReason: p.failureReason,
  processedAt: p.processedAt === null ? null : iso(p.processedAt),
});
