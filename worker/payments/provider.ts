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
   * when it reports it: the sandbox does; from Stripe it would be the PaymentMethod's
   * card.fingerprint, which a retrieve does not return unless expanded (not done yet: null).
   */
  cardFingerprint?: string | null;
}

export interface CreateIntentInput {
  userId: number;
  amountCents: number;
  /** Repeating a create with the same key returns the first intent instead of a second one. */
  idempotencyKey: string;
}

export interface PaymentProvider {
  readonly name: PaymentProviderName;
  createIntent(input: CreateIntentInput): Promise<ProviderIntent>;
  /** Null when the provider has no intent with this id. */
  retrieveIntent(id: string): Promise<ProviderIntent | null>;
  /**
   * Refunds a succeeded payment in full to the card it came from. Idempotent: asking again for
   * the same intent makes no second refund. `reason` is our refusal code, kept with the refund.
   */
  refundIntent(id: string, reason: string): Promise<void>;
  /** Cancels an unpaid intent so it can no longer be paid; one already paid stays as it is. Returns the intent as it now stands. */
  cancelIntent(id: string): Promise<ProviderIntent | null>;
}

/** metadata.userId as a user id, or null. */
export function userIdFromMetadata(value: string | undefined | null): number | null {
  return value && /^\d{1,12}$/.test(value) ? Number(value) : null;
}

/** The intent id inside a client secret ("pi_…_secret_…"). */
export const intentIdFromClientSecret = (clientSecret: string) => clientSecret.slice(0, clientSecret.indexOf("_secret_"));
