// Withdrawals, closed loop: recent card deposits go back to their cards first (a refund at the
// provider, no hold: it can only reach the payer); the rest, winnings, goes to a bank account as a
// pending ledger row and a payout an operator then pays or fails. Both parts are debited in one
// batch. Bank details are never logged. Each request carries an Idempotency-Key, so a retry after
// a lost reply finds the first withdrawal instead of making another.
import { Hono } from "hono";
import { eq } from "drizzle-orm";
import { withdrawalSchema } from "../../common/api/money";
import { MONEY, VALIDATION } from "../../common/messages";
import { formatCents } from "../../common/domain/money";
import { formatReleaseTime, planWithdrawal } from "../../common/domain/withdrawable";
import { bytesToHex, randomBytes } from "@noble/hashes/utils.js";
import { users } from "../db/schema";
import { badRequest } from "../http/errors";
import { idempotent } from "../http/idempotency";
import { currentUser, requireUser } from "../http/middleware";
import { validate } from "../http/validate";
import { requireStepUp } from "../auth/step-up";
import type { AppEnv } from "../http/app-env";
import { InsufficientFundsError } from "../money/ledger";
import {
  AccountFrozenError,
  debitWithdrawal,
  presentWithdrawal,
  settleCardRefunds,
  withdrawalReference,
  withdrawalRows,
} from "../money/payouts";
import { settleIntoBreak } from "../responsible-play/break";
import { paymentProvider } from "../payments/index";
import { withdrawableFor, type WithdrawableFor } from "../money/withdrawable";
import { accountFrozen } from "../money/frozen";
import { assertEmailVerified, sendSecurityNotice } from "../email/account-mail";
import { assertMayWithdraw } from "../responsible-play/checks";
import { assertTaxFormIfRequired } from "../tax/gate";
import { assertIdentityForBankWithdrawal } from "../identity/gate";

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

// A step-up first: a stolen session cookie alone cannot send the balance to another bank account.
export const withdrawalRoutes = new Hono<AppEnv>()
  .use(requireUser)
  .post("/confirm", requireStepUp, validate("json", withdrawalSchema), async (c) => {
    const me = currentUser(c);
    const body = c.req.valid("json");
    if (me.frozenAt !== null) throw accountFrozen(me.owedCents);
    assertEmailVerified(me);
    await assertMayWithdraw(c);
    const db = c.get("db");
    return idempotent(c, {
      scope: "withdrawal",
      request: body,
      required: true,
      run: async (claim) => {
        // Inside the run, so a retry of a withdrawal already made is answered, never refused.
        await assertTaxFormIfRequired(c);
        // Fast refusals; the CHECK constraint inside the debit is what actually guarantees them.
        if (body.amount > me.balanceCents) throw aboveBalance();
        const w = await withdrawableFor(c.env, me.id, me.balanceCents, c.req.url);
        const plan = planWithdrawal(w.input, body.amount);
        if (!plan) throw onHold(w);
        // A bank part needs a verified identity in the account holder's name (docs/identity-and-tax.md).
        await assertIdentityForBankWithdrawal(c.env, db, me, plan.bankCents, body.bankAccount.accountHolderName);
        const provider = plan.card.length > 0 ? paymentProvider(c.env, db, c.req.url) : null;
        const cardParts = await Promise.all(
          plan.card.map(async (p) => ({ ref: p.ref, cents: p.cents, cardLast4: provider ? await provider.cardLast4(p.ref) : null })),
        );
        const group = bytesToHex(randomBytes(12));
        const { inherited } = await debitWithdrawal(
          c.env,
          {
            userId: me.id,
            amountCents: plan.bankCents,
            cardParts,
            group,
            method: body.withdrawalMethod,
            ...body.bankAccount,
            keepCents: plan.keepCents,
          },
          claim,
        ).catch(async (e: unknown): Promise<never> => {
          // Frozen after the check above: the debit's own batch refused it.
          if (e instanceof AccountFrozenError) throw accountFrozen(e.owedCents);
          if (!(e instanceof InsufficientFundsError)) throw e;
          // Something else moved the balance meanwhile (another withdrawal, a fee): say which limit this one met.
          const balance = await db.select({ cents: users.balanceCents }).from(users).where(eq(users.id, me.id)).get();
          if (!balance || body.amount > balance.cents) throw aboveBalance();
          throw onHold(await withdrawableFor(c.env, me.id, balance.cents, c.req.url));
        });
        const reference = withdrawalReference(group);
        let rows = await withdrawalRows(db, me.id, reference);
        if (provider) {
          await settleCardRefunds(c.env.DB, provider, rows.cardRows);
          rows = await withdrawalRows(db, me.id, reference);
        }
        if (rows.payout) sendSecurityNotice(c, me, { kind: "withdrawal_requested", payout: rows.payout });
        // The bank account of a deleted self-excluded account: this one is now excluded too; its break starts as any does.
        if (inherited) await settleIntoBreak({ env: c.env, get: () => db, url: c.req.url }, me.id);
        return { reference, answer: presentWithdrawal(rows) };
      },
      // The debit committed and the answer was lost: card refunds still pending are asked for again (same keys), then answered.
      rebuild: async (reference) => {
        let rows = await withdrawalRows(db, me.id, reference);
        if (rows.cardRows.some((r) => r.status === "pending")) {
          await settleCardRefunds(c.env.DB, paymentProvider(c.env, db, c.req.url), rows.cardRows);
          rows = await withdrawalRows(db, me.id, reference);
        }
        return presentWithdrawal(rows);
      },
    });
  });
