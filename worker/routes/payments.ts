// Card deposits: configuration, PaymentIntent creation, the sandbox card step, the result
// page's status check, the credit after a succeeded payment, and Stripe's webhook.
import { Hono } from "hono";
import { eq } from "drizzle-orm";
import Stripe from "stripe";
import {
  createPaymentIntentSchema,
  depositConfirmSchema,
  paymentIntentQuerySchema,
  sandboxConfirmSchema,
  type CreatePaymentIntentResponse,
  type DepositConfirmResponse,
  type PublicConfig,
  type PaymentIntentSummary,
  type SandboxConfirmResponse,
} from "../../common/api/money";
import { MONEY } from "../../common/messages";
import { MIN_DEPOSIT_CENTS } from "../../common/spec";
import { centsToDollars } from "../../common/domain/money";
import { randomToken, sha256Hex, timingSafeEqual } from "../auth/bytes";
import { transactions, users } from "../db/schema";
import { presentTransaction } from "../db/present";
import { HttpError, badRequest, notFound } from "../http/errors";
import { currentUser, requireUser } from "../http/middleware";
import { jsonBody, parse } from "../http/validate";
import type { AppEnv } from "../http/app-env";
import { creditDeposit, depositRefusal } from "../payments/deposits";
import { maxDepositCents, paymentProvider, sandboxProvider, stripeConfigured } from "../payments/index";
import { intentIdFromClientSecret } from "../payments/provider";
import { intentFromEvent } from "../payments/stripe";

const cryptoProvider = Stripe.createSubtleCryptoProvider();
const encoder = new TextEncoder();
const sameSecret = (a: string, b: string) => timingSafeEqual(encoder.encode(a), encoder.encode(b));

export const paymentRoutes = new Hono<AppEnv>()
  .get("/config", (c) => {
    const body: PublicConfig = {
      paymentProvider: stripeConfigured(c.env) ? "stripe" : "sandbox",
      stripePublishableKey: stripeConfigured(c.env) ? c.env.STRIPE_PUBLISHABLE_KEY || null : null,
      minDeposit: centsToDollars(MIN_DEPOSIT_CENTS),
      maxDeposit: centsToDollars(maxDepositCents(c.env)),
      supportEmail: c.env.SUPPORT_EMAIL?.trim() || null,
    };
    return c.json(body);
  })
  .post("/create-payment-intent", requireUser, async (c) => {
    const me = currentUser(c);
    const body = await jsonBody(c, createPaymentIntentSchema(maxDepositCents(c.env)));
    // Scoped to the user and the amount: one checkout visit (one client key) and one amount
    // give one intent however often it is posted; without a client key every call is new.
    const clientKey = body.idempotencyKey ?? randomToken(16);
    const idempotencyKey = `deposit-${sha256Hex(`${me.id}:${body.amount}:${clientKey}`).slice(0, 48)}`;
    const intent = await paymentProvider(c.env, c.get("db")).createIntent({ userId: me.id, amountCents: body.amount, idempotencyKey });
    if (!intent.clientSecret) throw new HttpError(502, MONEY.providerUnavailable);
    const res: CreatePaymentIntentResponse = { clientSecret: intent.clientSecret, paymentIntentId: intent.id };
    return c.json(res);
  })
  .post("/sandbox/confirm-payment", requireUser, async (c) => {
    const sandbox = sandboxProvider(c.env, c.get("db"));
    if (!sandbox) throw notFound();
    const body = await jsonBody(c, sandboxConfirmSchema);
    const intent = await sandbox.confirmCard(body.clientSecret, currentUser(c).id, body);
    const res: SandboxConfirmResponse = { status: "succeeded", paymentIntentId: intent.id };
    return c.json(res);
  })
  .get("/payment-intent", requireUser, async (c) => {
    const { clientSecret } = parse(paymentIntentQuerySchema, c.req.query());
    const intent = await paymentProvider(c.env, c.get("db")).retrieveIntent(intentIdFromClientSecret(clientSecret));
    // Someone else's intent looks exactly like a missing one.
    if (!intent || intent.userId !== currentUser(c).id || !intent.clientSecret || !sameSecret(intent.clientSecret, clientSecret)) {
      throw notFound(MONEY.paymentNotFound);
    }
    const res: PaymentIntentSummary = { id: intent.id, status: intent.status, amount: centsToDollars(intent.amountCents) };
    return c.json(res);
  })
  .post("/deposit/confirm", requireUser, async (c) => {
    const me = currentUser(c);
    const db = c.get("db");
    const body = await jsonBody(c, depositConfirmSchema);
    const provider = paymentProvider(c.env, db);
    const intent = await provider.retrieveIntent(body.paymentIntentId);
    if (!intent) throw notFound(MONEY.paymentNotFound);
    const refusal = depositRefusal(intent, me.id, body.amount);
    if (refusal) throw refusal;
    await creditDeposit(c.env.DB, intent, me.id, provider.name);
    const [row, user] = await Promise.all([
      db.select().from(transactions).where(eq(transactions.reference, intent.id)).get(),
      db.select({ balanceCents: users.balanceCents }).from(users).where(eq(users.id, me.id)).get(),
    ]);
    if (!row || !user) throw new Error("deposit row missing after credit");
    const res: DepositConfirmResponse = { balance: centsToDollars(user.balanceCents), transaction: presentTransaction(row) };
    return c.json(res);
  })
  // Stripe posts here without an Origin header; the signature is its authentication (see sameOriginJson).
  .post("/webhooks/stripe", async (c) => {
    if (!stripeConfigured(c.env)) throw notFound();
    const secret = c.env.STRIPE_WEBHOOK_SECRET ?? "";
    if (!secret) {
      console.error("stripe webhook received but STRIPE_WEBHOOK_SECRET is not set");
      throw new HttpError(503, "Webhook signing secret is not configured");
    }
    const signature = c.req.header("stripe-signature");
    if (!signature) throw badRequest("Missing Stripe-Signature header");
    const payload = await c.req.text();
    let event: Stripe.Event;
    try {
      event = await Stripe.webhooks.constructEventAsync(payload, signature, secret, undefined, cryptoProvider);
    } catch {
      throw badRequest("Invalid webhook signature");
    }
    if (event.type !== "payment_intent.succeeded") return c.json({ received: true, ignored: event.type });

    const intent = intentFromEvent(event.data.object);
    const owner = intent.userId === null ? undefined : await c.get("db").select({ id: users.id }).from(users).where(eq(users.id, intent.userId)).get();
    const reason = owner ? depositRefusal(intent, owner.id)?.message : "no such user";
    if (!owner || reason) {
      // Not ours to credit (another integration on the account, a bad currency): acknowledge so Stripe stops retrying.
      console.warn("stripe webhook: payment_intent.succeeded not credited", { id: intent.id, reason });
      return c.json({ received: true, credited: false });
    }
    const credited = await creditDeposit(c.env.DB, intent, owner.id, "stripe");
    return c.json({ received: true, credited });
  });
