// POST /api/webhooks/stripe: Stripe's word that a payment succeeded, credited once whichever of
// it and the browser's /api/deposit/confirm arrives first.
import { Hono } from "hono";
import { eq } from "drizzle-orm";
import Stripe from "stripe";
import { users } from "../db/schema";
import { HttpError, badRequest, notFound } from "../http/errors";
import type { AppEnv } from "../http/app-env";
import { creditDeposit, depositRefusal } from "../payments/deposits";
import { configuredProvider, paymentsNotConfigured, stripeConfigured } from "../payments/index";
import { intentFromEvent } from "../payments/stripe";

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
  const credited = await creditDeposit(c.env.DB, intent, owner.id, "stripe");
  return c.json({ received: true, credited });
});
