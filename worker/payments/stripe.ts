// Stripe through its SDK with the fetch HTTP client (Workers have no Node http). Host, port and
// protocol can point the SDK at another Stripe-speaking server: the tests use a local one.
import Stripe from "stripe";
import { DEPOSIT_CURRENCY } from "../../common/spec";
import { paymentIntentStatuses, type PaymentIntentStatus } from "../../common/api/money";
import { HttpError } from "../http/errors";
import { MONEY } from "../../common/messages";
import { userIdFromMetadata, type CreateIntentInput, type PartialRefund, type PaymentProvider, type ProviderIntent } from "./provider";

export function stripeClient(env: Env): Stripe {
  const config: ConstructorParameters<typeof Stripe>[1] = {
    httpClient: Stripe.createFetchHttpClient(),
    maxNetworkRetries: 2,
    timeout: 20_000,
  };
  if (env.STRIPE_API_HOST) config.host = env.STRIPE_API_HOST;
  if (env.STRIPE_API_PORT) config.port = env.STRIPE_API_PORT;
  if (env.STRIPE_API_PROTOCOL === "http" || env.STRIPE_API_PROTOCOL === "https") config.protocol = env.STRIPE_API_PROTOCOL;
  return new Stripe(env.STRIPE_SECRET_KEY, config);
}

const knownStatuses: ReadonlySet<string> = new Set(paymentIntentStatuses);

/** The fingerprint of the card that paid, from the latest charge when it is expanded (an id alone says nothing). */
const fingerprintOf = (charge: string | Stripe.Charge | null): string | null =>
  typeof charge === "object" && charge ? (charge.payment_method_details?.card?.fingerprint ?? null) : null;

function toProviderIntent(pi: Stripe.PaymentIntent): ProviderIntent {
  return {
    id: pi.id,
    clientSecret: pi.client_secret,
    // A status newer than this code is treated as "not paid yet", which credits nothing.
    status: knownStatuses.has(pi.status) ? (pi.status as PaymentIntentStatus) : "processing",
    amountCents: pi.amount,
    currency: pi.currency,
    userId: userIdFromMetadata(pi.metadata?.userId),
    cardFingerprint: fingerprintOf(pi.latest_charge),
  };
}

/**
 * Reads a PaymentIntent out of a webhook event's data.object. There latest_charge is only the
 * charge's id, so the card's fingerprint is not known yet (withCardFingerprint adds it).
 */
export const intentFromEvent = (object: Stripe.PaymentIntent) => toProviderIntent(object);

/**
 * The event's intent with the fingerprint of the card that paid it, from its latest charge
 * (stripe.charges.retrieve), so that a card of a deleted self-excluded account is matched at a
 * webhook's credit as at the browser's confirm. Throws a 502 when Stripe cannot be reached: the
 * delivery fails and Stripe retries it, rather than crediting a card that was never checked.
 */
export async function withCardFingerprint(stripe: Stripe, object: Stripe.PaymentIntent, intent: ProviderIntent): Promise<ProviderIntent> {
  const charge = object.latest_charge;
  if (typeof charge !== "string") return intent;
  try {
    return { ...intent, cardFingerprint: fingerprintOf(await stripe.charges.retrieve(charge)) };
  } catch (e) {
    throw providerError(e, "charge retrieve");
  }
}

/** Stripe's own failures become one 502 for the client; the details go to the log, never keys or card data. */
function providerError(e: unknown, action: string): HttpError {
  const err = e as { type?: string; code?: string; statusCode?: number; requestId?: string };
  console.error(`stripe ${action} failed`, { type: err.type, code: err.code, statusCode: err.statusCode, requestId: err.requestId });
  return new HttpError(502, "provider_unavailable", MONEY.providerUnavailable);
}

export class StripeProvider implements PaymentProvider {
  readonly name = "stripe" as const;
  constructor(private readonly stripe: Stripe) {}

  async createIntent({ userId, amountCents, idempotencyKey }: CreateIntentInput): Promise<ProviderIntent> {
    try {
      const pi = await this.stripe.paymentIntents.create(
        {
          amount: amountCents,
          currency: DEPOSIT_CURRENCY,
          metadata: { userId: String(userId) },
          automatic_payment_methods: { enabled: true },
          description: "Trivia Arena balance deposit",
        },
        { idempotencyKey },
      );
      return toProviderIntent(pi);
    } catch (e) {
      throw providerError(e, "create");
    }
  }

  /**
   * A full refund of the intent's charge (the idempotency key makes every caller's request the same
   * refund), or a partial one of `partial.amountCents` under the caller's key.
   */
  async refundIntent(id: string, reason: string, partial?: PartialRefund): Promise<void> {
    try {
      await this.stripe.refunds.create(
        {
          payment_intent: id,
          reason: "requested_by_customer",
          metadata: partial ? { withdrawal: reason } : { refusal: reason },
          ...(partial ? { amount: partial.amountCents } : {}),
        },
        { idempotencyKey: partial ? partial.idempotencyKey : `deposit-refund-${id}` },
      );
    } catch (e) {
      // Refunded before (a retry after the key expired): nothing more to send back.
      if (!partial && (e as { code?: string }).code === "charge_already_refunded") return;
      throw providerError(e, "refund");
    }
  }

  /** From the intent's latest charge's card details; null when Stripe does not say (or cannot be reached). */
  async cardLast4(id: string): Promise<string | null> {
    try {
      const pi = await this.stripe.paymentIntents.retrieve(id, { expand: ["latest_charge"] });
      const charge = pi.latest_charge;
      return typeof charge === "object" && charge ? (charge.payment_method_details?.card?.last4 ?? null) : null;
    } catch {
      return null;
    }
  }

  /** Cancels an unpaid intent; one that has succeeded (or was canceled) cannot be, and is returned as it stands. */
  async cancelIntent(id: string): Promise<ProviderIntent | null> {
    try {
      return toProviderIntent(
        await this.stripe.paymentIntents.cancel(id, { cancellation_reason: "abandoned" }, { idempotencyKey: `deposit-cancel-${id}` }),
      );
    } catch (e) {
      if ((e as { code?: string }).code === "payment_intent_unexpected_state") return this.retrieveIntent(id);
      throw providerError(e, "cancel");
    }
  }

  /** With the latest charge expanded, which carries the paying card's fingerprint. */
  async retrieveIntent(id: string): Promise<ProviderIntent | null> {
    try {
      return toProviderIntent(await this.stripe.paymentIntents.retrieve(id, { expand: ["latest_charge"] }));
    } catch (e) {
      if ((e as { statusCode?: number }).statusCode === 404) return null;
      throw providerError(e, "retrieve");
    }
  }
}
