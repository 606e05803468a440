// What the deposit flow needs from a card payment provider. Stripe and the offline sandbox
// both implement it, so crediting, webhooks and the result page cannot tell them apart.
import type { PaymentIntentStatus, PaymentProviderName } from "../../common/api/money";

/** A PaymentIntent as the provider reports it, in cents. */
export interface ProviderIntent {
  /** pi_…: also the ledger reference of the deposit it pays for. */
  id: string;
  clientSecret: string | null;
  status: PaymentIntentStatus;
  amountCents: number;
  currency: string;
  /** From metadata.userId; null when the intent was not created by this app. */
  userId: number | null;
  /**
   * The provider's fingerprint of the card that paid (the same card number gives the same one),
   * when it reports it: the sandbox from its card step; Stripe from the latest charge's
   * payment_method_details.card.fingerprint (a retrieve expands latest_charge; the webhook reads
   * the charge). Null before a payment, or when the provider does not say.
   */
  cardFingerprint?: string | null;
}

export interface CreateIntentInput {
  userId: number;
  amountCents: number;
  /** Repeating a create with the same key returns the first intent instead of a second one. */
  idempotencyKey: string;
}

/** A partial refund: this many cents, once per key (a closed-loop withdrawal's card part). */
export interface PartialRefund {
  amountCents: number;
  idempotencyKey: string;
}

export interface PaymentProvider {
  readonly name: PaymentProviderName;
  createIntent(input: CreateIntentInput): Promise<ProviderIntent>;
  /** Null when the provider has no intent with this id. */
  retrieveIntent(id: string): Promise<ProviderIntent | null>;
  /**
   * Refunds a succeeded payment to the card it came from: in full, or `partial.amountCents` of it.
   * Idempotent: asking again for the same intent (in full) or the same key (partial) makes no
   * second refund. `reason` is our code (a refusal, or `withdrawal`), kept with the refund. Throws
   * when the provider refuses or cannot be reached.
   */
  refundIntent(id: string, reason: string, partial?: PartialRefund): Promise<void>;
  /** The last 4 digits of the card that paid the intent; null when the provider does not say. */
  cardLast4(id: string): Promise<string | null>;
  /** Cancels an unpaid intent so it can no longer be paid; one already paid stays as it is. Returns the intent as it now stands. */
  cancelIntent(id: string): Promise<ProviderIntent | null>;
}

/** metadata.userId as a user id, or null. */
export function userIdFromMetadata(value: string | undefined | null): number | null {
  return value && /^\d{1,12}$/.test(value) ? Number(value) : null;
}

/** The intent id inside a client secret ("pi_…_secret_…"). */
export const intentIdFromClientSecret = (clientSecret: string) => clientSecret.slice(0, clientSecret.indexOf("_secret_"));
