// Withdrawals to a bank account: validated, debited at once into a pending ledger row and a
// payout an operator then pays or fails. Bank details are never logged.
import { Hono } from "hono";
import { withdrawalSchema, type WithdrawalResponse } from "../../common/api/money";
import { VALIDATION } from "../../common/messages";
import { centsToDollars } from "../../common/domain/money";
import { presentTransaction } from "../db/present";
import { badRequest } from "../http/errors";
import { currentUser, requireUser } from "../http/middleware";
import { jsonBody } from "../http/validate";
import type { AppEnv } from "../http/app-env";
import { InsufficientFundsError } from "../money/ledger";
import { debitWithdrawal, presentPayout } from "../money/payouts";

export const withdrawalRoutes = new Hono<AppEnv>().use(requireUser).post("/confirm", async (c) => {
  const me = currentUser(c);
  const body = await jsonBody(c, withdrawalSchema);
  // A fast refusal; the CHECK constraint inside the debit is what actually guarantees it.
  if (body.amount > me.balanceCents) throw badRequest(VALIDATION.amountAboveBalance);
  try {
    const { payout, transaction, balanceCents } = await debitWithdrawal(c.env.DB, c.get("db"), {
      userId: me.id,
      amountCents: body.amount,
      method: body.withdrawalMethod,
      ...body.bankAccount,
    });
    const res: WithdrawalResponse = { balance: centsToDollars(balanceCents), transaction: presentTransaction(transaction), payout: presentPayout(payout) };
    return c.json(res);
  } catch (e) {
    if (e instanceof InsufficientFundsError) throw badRequest(VALIDATION.amountAboveBalance);
    throw e;
  }
});
