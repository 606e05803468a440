// Crediting a deposit: the one path shared by POST /api/deposit/confirm and the Stripe webhook.
// The ledger reference is the PaymentIntent id, so whichever arrives first credits and the
// other finds the row already there.
import { MONEY } from "../../common/messages";
import { DEPOSIT_CURRENCY } from "../../common/spec";
import { formatCents } from "../../common/domain/money";
import { HttpError } from "../http/errors";
import { ledgerStatement, runAtomically } from "../money/ledger";
import { repaymentStatements } from "./reversals";
import type { PaymentProviderName } from "../../common/api/money";
import type { ProviderIntent } from "./provider";

/**
 * Why this intent may not be credited to this user, or null when it may. Only the provider's
 * own record counts; `claimedCents` (what the browser says it paid) is only compared.
 */
export function depositRefusal(intent: ProviderIntent, userId: number, claimedCents?: number): HttpError | null {
  if (intent.userId !== userId) return new HttpError(403, "payment_other_account", MONEY.paymentOtherAccount);
  if (intent.currency !== DEPOSIT_CURRENCY) return new HttpError(400, "currency_unsupported", MONEY.currencyUnsupported);
  if (!Number.isSafeInteger(intent.amountCents) || intent.amountCents <= 0)
    return new HttpError(400, "amount_mismatch", MONEY.amountMismatch);
  if (claimedCents !== undefined && claimedCents !== intent.amountCents) return new HttpError(400, "amount_mismatch", MONEY.amountMismatch);
  if (intent.status !== "succeeded") return new HttpError(409, "payment_not_succeeded", MONEY.paymentNotSucceeded);
  return null;
}

/**
 * Posts the deposit and, in the same batch, repays from it what a card refund or dispute left
 * owed (docs/payments.md); true when this call credited it, false when it had been credited before.
 */
export async function creditDeposit(
  d1: D1Database,
  intent: ProviderIntent,
  userId: number,
  provider: PaymentProviderName,
): Promise<boolean> {
  const [credited] = await runAtomically(d1, [
    ledgerStatement(d1, {
      userId,
      amountCents: intent.amountCents,
      type: "deposit",
      reference: intent.id,
      description: `Card deposit of $${formatCents(intent.amountCents)}${provider === "sandbox" ? " (sandbox)" : ""}`,
      provider,
    }),
    ...repaymentStatements(d1, userId, intent.id, intent.amountCents),
  ]);
  return (credited ?? 0) > 0;
}
