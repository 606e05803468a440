// Withdrawals to a bank account: validated, debited at once into a pending ledger row and a
// payout an operator then pays or fails. Bank details are never logged. Each request carries an
// Idempotency-Key, so a retry after a lost reply finds the first payout instead of making another.
import { Hono } from "hono";
import { eq } from "drizzle-orm";
import { withdrawalSchema, type WithdrawalResponse } from "../../common/api/money";
import { MONEY, VALIDATION } from "../../common/messages";
import { centsToDollars, formatCents } from "../../common/domain/money";
import { formatReleaseTime } from "../../common/domain/withdrawable";
import { presentTransaction } from "../db/present";
import { users } from "../db/schema";
import { badRequest } from "../http/errors";
import { idempotent } from "../http/idempotency";
import { currentUser, requireUser } from "../http/middleware";
import { validate } from "../http/validate";
import { requireStepUp } from "../auth/step-up";
import type { AppEnv } from "../http/app-env";
import { InsufficientFundsError } from "../money/ledger";
import { AccountFrozenError, debitWithdrawal, payoutIdOf, payoutReference, presentPayout, withdrawalRows } from "../money/payouts";
import { withdrawableFor, type WithdrawableFor } from "../money/withdrawable";
import { accountFrozen } from "../money/frozen";
import { assertEmailVerified, sendSecurityNotice } from "../email/account-mail";
import { assertMayWithdraw } from "../responsible-play/checks";
import { settleIntoBreak } from "../responsible-play/break";

const aboveBalance = () => badRequest(VALIDATION.amountAboveBalance, "insufficient_balance");

const onHold = (w: WithdrawableFor) =>
  badRequest(
    MONEY.withdrawableOnly(
      formatCents(w.withdrawableCents),
      formatCents(w.heldCents),
      w.recentHeldCents > 0 && w.nextReleaseAt !== null ? formatReleaseTime(w.nextReleaseAt) : null,
    ),
    "funds_on_hold",
  );

const present = ({ payout, transaction, balanceCents }: Awaited<ReturnType<typeof withdrawalRows>>): WithdrawalResponse => ({
  balance: centsToDollars(balanceCents),
  transaction: presentTransaction(transaction),
  payout: presentPayout(payout),
});

// A step-up first: a stolen session cookie alone cannot send the balance to another bank account.
export const withdrawalRoutes = new Hono<AppEnv>()
  .use(requireUser)
  .post("/confirm", requireStepUp, validate("json", withdrawalSchema), async (c) => {
    const me = currentUser(c);
    const body = c.req.valid("json");
    if (me.frozenAt !== null) throw accountFrozen(me.owedCents);
    assertEmailVerified(me);
    assertMayWithdraw(c);
    const db = c.get("db");
    return idempotent(c, {
      scope: "withdrawal",
      request: body,
      required: true,
      run: async (claim) => {
        // Fast refusals; the CHECK constraint inside the debit is what actually guarantees them.
        if (body.amount > me.balanceCents) throw aboveBalance();
        const w = await withdrawableFor(c.env, me.id, me.balanceCents, c.req.url);
        if (body.amount > w.withdrawableCents) throw onHold(w);
        try {
          const rows = await debitWithdrawal(
            c.env,
            db,
            { userId: me.id, amountCents: body.amount, method: body.withdrawalMethod, ...body.bankAccount, keepCents: w.heldCents },
            claim,
          );
          sendSecurityNotice(c, me, { kind: "withdrawal_requested", payout: rows.payout });
          // The bank account of a deleted self-excluded account: this one is now excluded too; its break starts as any does.
          if (rows.inherited) await settleIntoBreak({ env: c.env, get: () => db, url: c.req.url }, me.id);
          return { reference: payoutReference(rows.payout.id), answer: present(rows) };
        } catch (e) {
          // Frozen after the check above: the debit's own batch refused it.
          if (e instanceof AccountFrozenError) throw accountFrozen(e.owedCents);
          if (!(e instanceof InsufficientFundsError)) throw e;
          // Something else moved the balance meanwhile (another withdrawal, a fee): say which limit this one met.
          const balance = await db.select({ cents: users.balanceCents }).from(users).where(eq(users.id, me.id)).get();
          if (!balance || body.amount > balance.cents) throw aboveBalance();
          throw onHold(await withdrawableFor(c.env, me.id, balance.cents, c.req.url));
        }
      },
      rebuild: async (reference) => present(await withdrawalRows(db, me.id, payoutIdOf(reference))),
    });
  });
