// Card deposits: PaymentIntent creation, the sandbox card step, the result page's status check
// and the credit after a succeeded payment. Mounted at /api itself: these URLs share no prefix.
import { Hono } from "hono";
import { createMiddleware } from "hono/factory";
import { eq } from "drizzle-orm";
import {
  createPaymentIntentSchema,
  depositConfirmSchema,
  paymentIntentQuerySchema,
  sandboxConfirmSchema,
  sandboxReversalSchema,
  type CreatePaymentIntentResponse,
  type DepositConfirmResponse,
  type PaymentIntentSummary,
  type SandboxConfirmResponse,
} from "../../common/api/money";
import { MONEY } from "../../common/messages";
import { centsToDollars } from "../../common/domain/money";
import { randomToken, sha256Hex, timingSafeEqual } from "../auth/bytes";
import { transactions, users } from "../db/schema";
import { presentTransaction } from "../db/present";
import { HttpError, notFound } from "../http/errors";
import { idempotent } from "../http/idempotency";
import { currentUser, requireUser } from "../http/middleware";
import { validate } from "../http/validate";
import type { AppEnv } from "../http/app-env";
import { creditOrRefund, depositRefunded, depositRefusal, recordCheckout } from "../payments/deposits";
import { applyProviderReversal, reversedBeforeCredit, type ProviderReversal, type ReversalKind } from "../payments/reversals";
import { activeProvider, maxDepositCents, paymentProvider, paymentsNotConfigured } from "../payments/index";
import { SandboxProvider, sandboxCardFingerprint } from "../payments/sandbox";
import { cardHash, inheritedExclusionRefusal } from "../responsible-play/excluded-identities";
import { takeOverExclusion } from "../responsible-play/break";
import { intentIdFromClientSecret } from "../payments/provider";
import { assertMayDeposit, depositCreditChecks } from "../responsible-play/checks";
import { assertNotSuspended } from "../admin/account-state";

/** Only the sandbox has a card step of its own: with Stripe, Stripe.js confirms the card. */
const sandboxOnly = createMiddleware<AppEnv>(async (c, next) => {
  const provider = activeProvider(c.env, c.req.url);
  if (provider === "stripe") throw notFound();
  if (provider === null) throw paymentsNotConfigured();
  return next();
});

const encoder = new TextEncoder();
const sameSecret = (a: string, b: string) => timingSafeEqual(encoder.encode(a), encoder.encode(b));

export const paymentRoutes = new Hono<AppEnv>()
  // The largest deposit is the deployment's (MAX_DEPOSIT_CENTS).
  .post(
    "/create-payment-intent",
    requireUser,
    validate("json", (env) => createPaymentIntentSchema(maxDepositCents(env))),
    async (c) => {
      const me = currentUser(c);
      const body = c.req.valid("json");
      assertNotSuspended(me);
      await assertMayDeposit(c, body.amount);
      return idempotent(c, {
        scope: "deposit_intent",
        request: body,
        run: async (claim) => {
          // Scoped to the user and the amount: one checkout visit (one Idempotency-Key) and one amount
          // give one intent at the provider too; without a key every call is new.
          const clientKey = claim?.key ?? randomToken(16);
          const idempotencyKey = `deposit-${sha256Hex(`${me.id}:${body.amount}:${clientKey}`).slice(0, 48)}`;
          const intent = await paymentProvider(c.env, c.get("db"), c.req.url).createIntent({
            userId: me.id,
            amountCents: body.amount,
            idempotencyKey,
          });
          if (!intent.clientSecret) throw new HttpError(502, "provider_unavailable", MONEY.providerUnavailable);
          // Open checkouts count against the deposit limits until paid, refunded or cancelled.
          await recordCheckout(c.env.DB, intent, me.id);
          return {
            reference: intent.id,
            answer: { clientSecret: intent.clientSecret, paymentIntentId: intent.id } satisfies CreatePaymentIntentResponse,
          };
        },
      });
    },
  )
  .post("/sandbox/confirm-payment", requireUser, sandboxOnly, validate("json", sandboxConfirmSchema), async (c) => {
    const body = c.req.valid("json");
    const me = currentUser(c);
    // A card a deleted self-excluded account paid with: this account takes the exclusion over,
    // its checkouts are cancelled (this one too) and the card is refused.
    const hashes = [cardHash(c.env, sandboxCardFingerprint(body.cardNumber))];
    const kept = await takeOverExclusion({ env: c.env, get: () => c.get("db"), url: c.req.url }, me.id, "card", hashes);
    if (kept) throw inheritedExclusionRefusal(kept.endsAt);
    const intent = await new SandboxProvider(c.get("db")).confirmCard(body.clientSecret, me.id, body);
    return c.json({ status: "succeeded", paymentIntentId: intent.id } satisfies SandboxConfirmResponse);
  })
  // The card issuer's side of the sandbox: refunds and the dispute lifecycle, as Stripe's events would report them.
  .post("/sandbox/reversal", requireUser, sandboxOnly, validate("json", sandboxReversalSchema), async (c) => {
    const body = c.req.valid("json");
    const sandbox = new SandboxProvider(c.get("db"));
    const intent = await sandbox.retrieveIntent(body.paymentIntentId);
    if (!intent || intent.userId !== currentUser(c).id || intent.status !== "succeeded")
      throw notFound(MONEY.paymentNotFound, "payment_not_found");
    const eventId = body.eventId ?? `evt_sbx_${randomToken(12)}`;
    const amountCents = body.amount ?? intent.amountCents;
    const dispute = (kind: ReversalKind, id = eventId): ProviderReversal => ({
      eventId: id,
      kind,
      objectId: `dp_sbx_${intent.id}`,
      paymentIntentId: intent.id,
      amountCents,
    });
    let reversals: ProviderReversal[];
    if (body.event === "refund") {
      await sandbox.refundIntent(intent.id, "sandbox_refund", { amountCents, idempotencyKey: eventId });
      // Like charge.refunded: the charge's cumulative amount refunded.
      reversals = [
        {
          eventId,
          kind: "refund",
          objectId: `ch_sbx_${intent.id}`,
          paymentIntentId: intent.id,
          amountCents: await sandbox.refundedCents(intent.id),
        },
      ];
    } else if (body.event === "dispute_inquiry") reversals = [];
    else if (body.event === "funds_reinstated" || body.event === "dispute_won") reversals = [dispute("dispute_won")];
    else if (body.event === "dispute_lost") reversals = [dispute("dispute_opened", `${eventId}:opened`), dispute("dispute_lost")];
    else reversals = [dispute("dispute_opened")];
    const outcomes: string[] = [];
    for (const r of reversals) outcomes.push(await applyProviderReversal(c.env.DB, r));
    return c.json({ eventId, applied: outcomes.includes("applied"), outcomes });
  })
  .get("/payment-intent", requireUser, validate("query", paymentIntentQuerySchema), async (c) => {
    const { clientSecret } = c.req.valid("query");
    const intent = await paymentProvider(c.env, c.get("db"), c.req.url).retrieveIntent(intentIdFromClientSecret(clientSecret));
    // Someone else's intent looks exactly like a missing one.
    if (!intent || intent.userId !== currentUser(c).id || !intent.clientSecret || !sameSecret(intent.clientSecret, clientSecret)) {
      throw notFound(MONEY.paymentNotFound, "payment_not_found");
    }
    return c.json({ id: intent.id, status: intent.status, amount: centsToDollars(intent.amountCents) } satisfies PaymentIntentSummary);
  })
  .post("/deposit/confirm", requireUser, validate("json", depositConfirmSchema), async (c) => {
    const me = currentUser(c);
    const db = c.get("db");
    const body = c.req.valid("json");
    const provider = paymentProvider(c.env, db, c.req.url);
    const intent = await provider.retrieveIntent(body.paymentIntentId);
    if (!intent) throw notFound(MONEY.paymentNotFound, "payment_not_found");
    const refusal = depositRefusal(intent, me.id, body.amount);
    if (refusal) throw refusal;
    // Refunded or disputed at the provider before it was credited: never credited from here.
    const credited = await db.select({ id: transactions.id }).from(transactions).where(eq(transactions.reference, intent.id)).get();
    if (!credited && (await reversedBeforeCredit(c.env.DB, intent.id))) throw new HttpError(409, "payment_reversed", MONEY.paymentReversed);
    // Checked again now the money is here, in the credit's own batch; a refused payment goes back to the card.
    const outcome = await creditOrRefund(c.env.DB, provider, intent, me.id, depositCreditChecks(c, maxDepositCents(c.env)));
    if (outcome.kind === "refunded") throw depositRefunded(outcome);
    const [row, user] = await Promise.all([
      db.select().from(transactions).where(eq(transactions.reference, intent.id)).get(),
      db.select({ balanceCents: users.balanceCents }).from(users).where(eq(users.id, me.id)).get(),
    ]);
    if (!row || !user) throw new Error("deposit row missing after credit");
    return c.json({ balance: centsToDollars(user.balanceCents), transaction: presentTransaction(row) } satisfies DepositConfirmResponse);
  });
