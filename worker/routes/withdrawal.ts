// Withdrawals to a bank account: validated, debited at once into a pending ledger row and a
// payout an operator then pays or fails. Bank details are never logged.
import { Hono } from "hono";
import { withdrawalSchema, type WithdrawalResponse } from "../../common/api/money";
import { VALIDATION } from "../../common/messages";
import { centsToDollars } from "../../common/domain/money";
import { presentTransaction } from "../db/present";
import { badRequest } from "../http/errors";
import { currentUser, requireUser } from "../http/middleware";
import { validate } from "../http/validate";
import type { AppEnv } from "../http/app-env";
import { InsufficientFundsError } from "../money/ledger";
import { debitWithdrawal, presentPayout } from "../money/payouts";
import { assertEmailVerified, sendSecurityNotice } from "../email/account-mail";
import { assertMayWithdraw } from "../responsible-play/checks";

const aboveBalance = () => badRequest(VALIDATION.amountAboveBalance, "insufficient_balance");

export const withdrawalRoutes = new Hono<AppEnv>().use(requireUser).post("/confirm", validate("json", withdrawalSchema), async (c) => {
  const me = currentUser(c);
  const body = c.req.valid("json");
  assertEmailVerified(me);
  assertMayWithdraw(c);
  // A fast refusal; the CHECK constraint inside the debit is what actually guarantees it.
  if (body.amount > me.balanceCents) throw aboveBalance();
  try {
    const { payout, transaction, balanceCents } = await debitWithdrawal(c.env.DB, c.get("db"), {
      userId: me.id,
      amountCents: body.amount,
      method: body.withdrawalMethod,
      ...body.bankAccount,
    });
    sendSecurityNotice(c, me, { kind: "withdrawal_requested", payout });
    return c.json({
      balance: centsToDollars(balanceCents),
      transaction: presentTransaction(transaction),
      payout: presentPayout(payout),
    } satisfies WithdrawalResponse);
  } catch (e) {
    if (e instanceof InsufficientFundsError) throw aboveBalance();
    throw e;
  }
});
