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
import { requireStepUp } from "../auth/step-up";
import type { AppEnv } from "../http/app-env";
import { InsufficientFundsError } from "../money/ledger";
import { debitWithdrawal, presentPayout } from "../money/payouts";

const aboveBalance = () => badRequest(VALIDATION.amountAboveBalance, "insufficient_balance");

// A step-up first: a stolen session cookie alone cannot send the balance to another bank account.
export const withdrawalRoutes = new Hono<AppEnv>()
  .use(requireUser)
  .post("/confirm", requireStepUp, validate("json", withdrawalSchema), async (c) => {
    const me = currentUser(c);
    const body = c.req.valid("json");
    // A fast refusal; the CHECK constraint inside the debit is what actually guarantees it.
    if (body.amount > me.balanceCents) throw aboveBalance();
    try {
      const { payout, transaction, balanceCents } = await debitWithdrawal(c.env.DB, c.get("db"), {
        userId: me.id,
        amountCents: body.amount,
        method: body.withdrawalMethod,
        ...body.bankAccount,
      });
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
