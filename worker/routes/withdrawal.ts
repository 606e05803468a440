// Withdrawals to a bank account: validated, debited at once into a pending ledger row and a
// payout an operator then pays or fails. Bank details are never logged. Each request carries an
// Idempotency-Key, so a retry after a lost reply finds the first payout instead of making another.
import { Hono } from "hono";
import { withdrawalSchema, type WithdrawalResponse } from "../../common/api/money";
import { VALIDATION } from "../../common/messages";
import { centsToDollars } from "../../common/domain/money";
import { presentTransaction } from "../db/present";
import { badRequest } from "../http/errors";
import { idempotent } from "../http/idempotency";
import { currentUser, requireUser } from "../http/middleware";
import { validate } from "../http/validate";
import type { AppEnv } from "../http/app-env";
import { InsufficientFundsError } from "../money/ledger";
import { debitWithdrawal, payoutIdOf, payoutReference, presentPayout, withdrawalRows } from "../money/payouts";
import { assertEmailVerified, sendSecurityNotice } from "../email/account-mail";
import { assertMayWithdraw } from "../responsible-play/checks";

const aboveBalance = () => badRequest(VALIDATION.amountAboveBalance, "insufficient_balance");

const present = ({ payout, transaction, balanceCents }: Awaited<ReturnType<typeof withdrawalRows>>): WithdrawalResponse => ({
  balance: centsToDollars(balanceCents),
  transaction: presentTransaction(transaction),
  payout: presentPayout(payout),
});

export const withdrawalRoutes = new Hono<AppEnv>().use(requireUser).post("/confirm", validate("json", withdrawalSchema), async (c) => {
  const me = currentUser(c);
  const body = c.req.valid("json");
  assertEmailVerified(me);
  assertMayWithdraw(c);
  const db = c.get("db");
  return idempotent(c, {
    scope: "withdrawal",
    request: body,
    required: true,
    run: async (claim) => {
      // A fast refusal; the CHECK constraint inside the debit is what actually guarantees it.
      if (body.amount > me.balanceCents) throw aboveBalance();
      try {
        const rows = await debitWithdrawal(
          c.env.DB,
          db,
          { userId: me.id, amountCents: body.amount, method: body.withdrawalMethod, ...body.bankAccount },
          claim,
        );
        sendSecurityNotice(c, me, { kind: "withdrawal_requested", payout: rows.payout });
        return { reference: payoutReference(rows.payout.id), answer: present(rows) };
      } catch (e) {
        if (e instanceof InsufficientFundsError) throw aboveBalance();
        throw e;
      }
    },
    rebuild: async (reference) => present(await withdrawalRows(db, me.id, payoutIdOf(reference))),
  });
});
