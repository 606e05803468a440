// POST /api/webhooks/stripe: Stripe's word that a payment succeeded, credited once whichever of
// it and the browser's /api/deposit/confirm arrives first; and that a paid charge was refunded or
// disputed, which takes the money back out of the balance (payments/reversals.ts).
import { Hono } from "hono";
import { eq } from "drizzle-orm";
import Stripe from "stripe";
import { identityEvents, users } from "../db/schema";
import type { Db } from "../db/client";
import { StripeIdentityProvider } from "../identity/stripe";
import { applyResult } from "../identity/store";
import { HttpError, badRequest, notFound } from "../http/errors";
import type { AppEnv } from "../http/app-env";
import { creditOrRefund, depositRefusal } from "../payments/deposits";
import { configuredProvider, maxDepositCents, paymentsNotConfigured, stripeConfigured } from "../payments/index";
import { intentFromEvent, StripeProvider, stripeClient, withCardFingerprint } from "../payments/stripe";
import { webhookCreditChecks } from "../responsible-play/checks";
import { applyProviderReversal, type ProviderReversal, type Reversal } from "../payments/reversals";

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
  if (REVERSAL_EVENTS.has(event.type)) {
    const reversals = await reversalsFromEvent(stripeClient(c.env), event);
    const outcomes: string[] = [];
    for (const r of reversals) {
      if (!Number.isSafeInteger(r.amountCents) || r.amountCents < 0) continue;
      outcomes.push(await applyProviderReversal(c.env.DB, r));
    }
    if (reversals.length === 0) console.warn("stripe webhook: nothing to reverse", { event: event.id, type: event.type });
    return c.json({ received: true, applied: outcomes.includes("applied"), outcomes });
  }
  if (IDENTITY_EVENTS.has(event.type)) return c.json(await identityEvent(c.env, c.get("db"), c.req.url, event));
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
  // The event names the charge but not its card: the charge is read for the card's fingerprint.
  const stripe = stripeClient(c.env);
  const outcome = await creditOrRefund(
    c.env.DB,
    new StripeProvider(stripe),
    await withCardFingerprint(stripe, event.data.object, intent),
    owner.id,
    webhookCreditChecks(maxDepositCents(c.env), c.env),
  );
  if (outcome.kind === "refunded") return c.json({ received: true, credited: false, refunded: outcome.reason });
  return c.json({ received: true, credited: outcome.fresh });
});

const IDENTITY_EVENTS: ReadonlySet<string> = new Set([
  "identity.verification_session.verified",
  "identity.verification_session.requires_input",
  "identity.verification_session.canceled",
  "identity.verification_session.processing",
]);

/**
 * A verification session moved: the session is read back from Stripe with its verified outputs
 * (the event's copy has neither the date of birth nor the document number) and applied once per
 * event id; a repeated delivery changes nothing. A failed read fails the delivery, so Stripe retries.
 */
async function identityEvent(env: Env, db: Db, url: string, event: Stripe.Event) {
  const seen = await db.select({ id: identityEvents.eventId }).from(identityEvents).where(eq(identityEvents.eventId, event.id)).get();
  if (seen) return { received: true, duplicate: true };
  const sessionId = (event.data.object as { id: string }).id;
  const result = await new StripeIdentityProvider(stripeClient(env)).retrieve(sessionId);
  const outcome = await applyResult({ env, db, url }, result);
  if (outcome === "unknown_session") console.warn("stripe webhook: identity session not ours", { event: event.id, sessionId });
  await db.insert(identityEvents).values({ eventId: event.id, sessionId, type: event.type }).onConflictDoNothing();
  return { received: true, identity: outcome };
}

const idOf = (v: string | { id: string } | null | undefined) => (typeof v === "string" ? v : (v?.id ?? null));

const REVERSAL_EVENTS: ReadonlySet<string> = new Set([
  "charge.refunded",
  "charge.dispute.created",
  "charge.dispute.updated",
  "charge.dispute.funds_withdrawn",
  "charge.dispute.funds_reinstated",
  "charge.dispute.closed",
]);

/** The charge's PaymentIntent when the event does not carry it (stripe.charges.retrieve). */
async function intentOfCharge(stripe: Stripe, chargeId: string | null): Promise<string | null> {
  if (!chargeId) return null;
  try {
    return idOf((await stripe.charges.retrieve(chargeId)).payment_intent);
  } catch (e) {
    console.warn("stripe webhook: charge not retrieved", { chargeId, error: String((e as { code?: string }).code ?? e) });
    throw new HttpError(502, "provider_unavailable", "The payment provider could not be reached");
  }
}

/**
 * The reversals an event asks for; none when it moves no money: an inquiry (a dispute whose
 * status starts with warning_ takes no funds) until it escalates (charge.dispute.updated or
 * funds_withdrawn with a real dispute status), a closed inquiry. A dispute takes its money once,
 * whichever of created, updated and funds_withdrawn comes first; funds_reinstated and closed won
 * give it back once; closed lost takes it if nothing took it before (an inquiry lost outright).
 */
async function reversalsFromEvent(stripe: Stripe, event: Stripe.Event): Promise<ProviderReversal[]> {
  if (event.type === "charge.refunded") {
    const charge = event.data.object;
    const paymentIntentId = idOf(charge.payment_intent) ?? (await intentOfCharge(stripe, charge.id));
    if (!paymentIntentId) return [];
    return [{ eventId: event.id, kind: "refund", objectId: charge.id, amountCents: charge.amount_refunded, paymentIntentId }];
  }
  if (!event.type.startsWith("charge.dispute.")) return [];
  const dispute = event.data.object as Stripe.Dispute;
  const inquiry = dispute.status.startsWith("warning_");
  let kinds: Reversal["kind"][];
  if (event.type === "charge.dispute.funds_reinstated") kinds = ["dispute_won"];
  else if (event.type === "charge.dispute.closed")
    kinds = dispute.status === "won" ? ["dispute_won"] : dispute.status === "lost" ? ["dispute_opened", "dispute_lost"] : [];
  else if (event.type === "charge.dispute.funds_withdrawn") kinds = ["dispute_opened"];
  else kinds = inquiry || dispute.status === "won" || dispute.status === "lost" ? [] : ["dispute_opened"];
  if (kinds.length === 0) return [];
  const paymentIntentId = idOf(dispute.payment_intent) ?? (await intentOfCharge(stripe, idOf(dispute.charge)));
  if (!paymentIntentId) return [];
  // A lost dispute's taking (when nothing took it before) has an event id of its own, so it happens once too.
  return kinds.map((kind, i) => ({
    eventId: i === 0 && kinds.length > 1 ? `${event.id}:opened` : event.id,
    kind,
    objectId: dispute.id,
    amountCents: dispute.amount,
    paymentIntentId,
  }));
}
