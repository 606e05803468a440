// POST /api/webhooks/stripe: Stripe's word that a payment succeeded, credited once whichever of
// it and the browser's /api/deposit/confirm arrives first; and that a paid charge was refunded or
// disputed, which takes the money back out of the balance (payments/reversals.ts).
import { Hono } from "hono";
import { and, eq, inArray } from "drizzle-orm";
import Stripe from "stripe";
import { transactions, users } from "../db/schema";
import type { Db } from "../db/client";
import { HttpError, badRequest, notFound } from "../http/errors";
import type { AppEnv } from "../http/app-env";
import { creditOrRefund, depositRefusal } from "../payments/deposits";
import { configuredProvider, maxDepositCents, paymentsNotConfigured, stripeConfigured } from "../payments/index";
import { intentFromEvent, StripeProvider, stripeClient } from "../payments/stripe";
import { webhookCreditChecks } from "../responsible-play/checks";
import { applyReversal, type Reversal } from "../payments/reversals";

const cryptoProvider = Stripe.createSubtleCryptoProvider();

// Stripe posts here without an Origin header; the signature is its authentication (see sameOriginJson).
export const webhookRoutes = new Hono<AppEnv>().post("/stripe", async (c) => {
  if (configuredProvider(c.env) !== "stripe") throw notFound();
  if (!stripeConfigured(c.env)) throw paymentsNotConfigured();
  const secret = c.env.STRIPE_WEBHOOK_SECRET ?? "";
  if (!secret) {
    console.error("stripe webhook received but STRIPE_WEBHOOK_SECRET is not set");
    throw new HttpError(503, "webhook_not_configured", "Webhook signing secret is not configured");
  }
  const signature = c.req.header("stripe-signature");
  if (!signature) throw badRequest("Missing Stripe-Signature header", "webhook_signature_invalid");
  const payload = await c.req.text();
  let event: Stripe.Event;
  try {
    event = await Stripe.webhooks.constructEventAsync(payload, signature, secret, undefined, cryptoProvider);
  } catch {
    throw badRequest("Invalid webhook signature", "webhook_signature_invalid");
  }
  if (event.type === "charge.refunded" || event.type === "charge.dispute.created" || event.type === "charge.dispute.closed") {
    const reversal = await reversalFromEvent(c.get("db"), event);
    if (!reversal) return c.json({ received: true, applied: false });
    return c.json({ received: true, applied: await applyReversal(c.env.DB, reversal) });
  }
  if (event.type !== "payment_intent.succeeded") return c.json({ received: true, ignored: event.type });

  const intent = intentFromEvent(event.data.object);
  const owner =
    intent.userId === null ? undefined : await c.get("db").select({ id: users.id }).from(users).where(eq(users.id, intent.userId)).get();
  const reason = owner ? depositRefusal(intent, owner.id)?.message : "no such user";
  if (!owner || reason) {
    // Not ours to credit (another integration on the account, a bad currency): acknowledge so Stripe stops retrying.
    console.warn("stripe webhook: payment_intent.succeeded not credited", { id: intent.id, reason });
    return c.json({ received: true, credited: false });
  }
  // No player's request here: the stored state decides (webhookCreditChecks); a refused payment is
  // refunded, and a refund Stripe did not confirm fails this delivery so that Stripe retries it.
  const outcome = await creditOrRefund(
    c.env.DB,
    new StripeProvider(stripeClient(c.env)),
    intent,
    owner.id,
    webhookCreditChecks(maxDepositCents(c.env), c.env),
  );
  if (outcome.kind === "refunded") return c.json({ received: true, credited: false, refunded: outcome.reason });
  return c.json({ received: true, credited: outcome.fresh });
});

const idOf = (v: string | { id: string } | null | undefined) => (typeof v === "string" ? v : (v?.id ?? null));

/**
 * The reversal an event asks for, or null when it moves no money of ours: a charge that is not
 * one of our deposits (found by its PaymentIntent), an inquiry (a dispute whose status starts
 * with warning_ takes no funds), a closed dispute that was neither won nor lost.
 */
async function reversalFromEvent(db: Db, event: Stripe.Event): Promise<Reversal | null> {
  let kind: Reversal["kind"];
  let objectId: string;
  let amountCents: number;
  let paymentIntentId: string | null;
  if (event.type === "charge.refunded") {
    const charge = event.data.object;
    [kind, objectId, amountCents, paymentIntentId] = ["refund", charge.id, charge.amount_refunded, idOf(charge.payment_intent)];
  } else if (event.type === "charge.dispute.created" || event.type === "charge.dispute.closed") {
    const dispute = event.data.object;
    if (dispute.status.startsWith("warning_")) return null;
    if (event.type === "charge.dispute.created") kind = "dispute_opened";
    else if (dispute.status === "won") kind = "dispute_won";
    else if (dispute.status === "lost") kind = "dispute_lost";
    else return null;
    [objectId, amountCents, paymentIntentId] = [dispute.id, dispute.amount, idOf(dispute.payment_intent)];
  } else return null;
  const deposit = paymentIntentId
    ? await db
        .select({ userId: transactions.userId, amountCents: transactions.amountCents })
        .from(transactions)
        // Only a credited deposit: one we refused and refunded ourselves (status refunded) was never in the balance.
        .where(
          and(
            eq(transactions.reference, paymentIntentId),
            eq(transactions.type, "deposit"),
            inArray(transactions.status, ["completed", "pending"]),
          ),
        )
        .get()
    : undefined;
  if (!deposit || !paymentIntentId || !Number.isSafeInteger(amountCents) || amountCents < 0) {
    console.warn("stripe webhook: reversal not applied", { event: event.id, type: event.type, paymentIntentId });
    return null;
  }
  return { eventId: event.id, kind, objectId, paymentIntentId, userId: deposit.userId, amountCents, depositCents: deposit.amountCents };
}
