// The only way money moves. A ledger row is applied to users.balance_cents by the triggers in
// migrations/0001_ledger_triggers.sql, in the same statement, so each call here is atomic with
// the balance change, an overdraft aborts (CHECK balance >= 0) and a repeated reference is a no-op.
import type { transactionStatuses, transactionTypes } from "../db/schema";

export interface LedgerEntry {
  userId: number;
  /** Signed: credits positive, debits negative. */
  amountCents: number;
  type: (typeof transactionTypes)[number];
  status?: (typeof transactionStatuses)[number];
  /** Unique per outside event; the forms are listed on transactions.reference in worker/db/schema.ts. */
  reference: string;
  description?: string;
  /** Deposits only: the provider that took the card. */
  provider?: "stripe" | "sandbox";
}

/** Raised when a debit would take a balance below zero; nothing in its batch was written. */
export class InsufficientFundsError extends Error {
  constructor() {
    super("Insufficient balance");
  }
}

/** The statement that records one entry; a row with the same reference already there makes it a no-op. */
export function ledgerStatement(d1: D1Database, e: LedgerEntry): D1PreparedStatement {
  if (!Number.isSafeInteger(e.amountCents)) throw new Error(`ledger amount must be integer cents: ${e.amountCents}`);
  return d1
    .prepare(
      `INSERT INTO transactions (user_id, amount_cents, type, status, reference, description, provider)
       VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (reference) DO NOTHING`,
    )
    .bind(e.userId, e.amountCents, e.type, e.status ?? "completed", e.reference, e.description ?? null, e.provider ?? null);
}

/**
 * Runs statements (ledger entries and whatever must change with them) as one D1 batch: all or
 * nothing. Returns how many rows each statement changed, so callers can tell a fresh entry
 * from a duplicate (0); trigger writes may count too, so test for > 0.
 */
export async function runAtomically(d1: D1Database, statements: D1PreparedStatement[]): Promise<number[]> {
  try {
    const results = await d1.batch(statements);
    return results.map((r) => r.meta.changes ?? 0);
  } catch (e) {
    if (isOverdraft(e)) throw new InsufficientFundsError();
    throw e;
  }
}

export const isOverdraft = (e: unknown) => /users_balance_non_negative|CHECK constraint failed/i.test(String((e as Error)?.message ?? e));

/** Convenience for a single entry; true when it was applied, false when the reference existed. */
export async function postEntry(d1: D1Database, e: LedgerEntry): Promise<boolean> {
  const [changed] = await runAtomically(d1, [ledgerStatement(d1, e)]);
  return (changed ?? 0) > 0;
}

/** Moves a pending or completed row to a new status; turning it failed gives the money back. */
export function setStatusStatement(d1: D1Database, reference: string, status: (typeof transactionStatuses)[number]): D1PreparedStatement {
  return d1.prepare("UPDATE transactions SET status = ? WHERE reference = ? AND status <> 'failed'").bind(status, reference);
}
