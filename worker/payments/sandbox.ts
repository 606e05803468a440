// The offline stand-in for Stripe (no STRIPE_SECRET_KEY): PaymentIntents live in D1 with
// Stripe's ids, statuses and client secrets, and the well-known test cards decide the outcome.
// D1 rather than a Durable Object: an intent is a row read by id, beside the ledger it feeds.
import { and, eq, isNull } from "drizzle-orm";
import { bytesToHex, randomBytes } from "@noble/hashes/utils.js";
import { MONEY } from "../../common/messages";
import { DEPOSIT_CURRENCY } from "../../common/spec";
import { luhnValid } from "../../common/domain/payment-checks";
import type { Db } from "../db/client";
import { sha256Hex } from "../auth/bytes";
import { sandboxPaymentIntents } from "../db/schema";
import { badRequest, HttpError, notFound } from "../http/errors";
import type { CreateIntentInput, PartialRefund, PaymentProvider, ProviderIntent } from "./provider";

export const SANDBOX_CARDS = { succeeds: "4242424242424242", declined: "4000000000000002" } as const;

export interface SandboxCard {
  cardNumber: string;
  expMonth: number;
  expYear: number;
  cvc: string;
}

type Row = typeof sandboxPaymentIntents.$inferSelect;

const toProviderIntent = (r: Row): ProviderIntent => ({
  id: r.id,
  clientSecret: r.clientSecret,
  status: r.status,
  amountCents: r.amountCents,
  currency: r.currency,
  userId: r.userId,
  cardFingerprint: r.cardFingerprint,
});

/**
 * The sandbox's stand-in for Stripe's card.fingerprint: the same card number always gives the
 * same opaque value, and the number itself is never stored.
 */
export const sandboxCardFingerprint = (cardNumber: string) => `sbxfp_${sha256Hex(`sandbox-card:${cardNumber}`).slice(0, 24)}`;

/** Card checks in Stripe's order and with its messages. */
function checkCard(card: SandboxCard, now: Date): void {
  if (!luhnValid(card.cardNumber)) throw badRequest(MONEY.cardNumberInvalid);
  const thisMonth = now.getUTCFullYear() * 12 + now.getUTCMonth();
  const expiry = card.expYear * 12 + (card.expMonth - 1);
  if (expiry < thisMonth) throw badRequest(MONEY.cardExpired);
  if (card.expYear > now.getUTCFullYear() + 50) throw badRequest(MONEY.cardExpiryInvalid);
}

export class SandboxProvider implements PaymentProvider {
  readonly name = "sandbox" as const;
  constructor(private readonly db: Db) {}

  async createIntent({ userId, amountCents, idempotencyKey }: CreateIntentInput): Promise<ProviderIntent> {
    const id = `pi_sbx_${bytesToHex(randomBytes(12))}`;
    // The unique idempotency key makes a repeated create return the first row, as Stripe does.
    await this.db
      .insert(sandboxPaymentIntents)
      .values({
        id,
        clientSecret: `${id}_secret_${bytesToHex(randomBytes(16))}`,
        userId,
        amountCents,
        currency: DEPOSIT_CURRENCY,
        idempotencyKey,
      })
      .onConflictDoNothing({ target: sandboxPaymentIntents.idempotencyKey });
    const row = await this.db.select().from(sandboxPaymentIntents).where(eq(sandboxPaymentIntents.idempotencyKey, idempotencyKey)).get();
    if (!row) throw new Error("sandbox intent vanished after insert");
    return toProviderIntent(row);
  }

  async retrieveIntent(id: string): Promise<ProviderIntent | null> {
    const row = await this.db.select().from(sandboxPaymentIntents).where(eq(sandboxPaymentIntents.id, id)).get();
    return row ? toProviderIntent(row) : null;
  }

  /**
   * Records the refund on the intent (the sandbox's card is fake: nothing else to send back); once.
   * A partial refund is a sandbox_refunds row per key, refused (as Stripe does) for an intent that
   * is unknown, not paid, or would be refunded beyond what was paid.
   */
  async refundIntent(id: string, reason: string, partial?: PartialRefund): Promise<void> {
    if (partial) return this.refundPart(id, reason, partial);
    await this.db
      .update(sandboxPaymentIntents)
      .set({ refundedAt: Date.now(), refundReason: reason })
      .where(
        and(eq(sandboxPaymentIntents.id, id), eq(sandboxPaymentIntents.status, "succeeded"), isNull(sandboxPaymentIntents.refundedAt)),
      );
  }

  private async refundPart(id: string, reason: string, { amountCents, idempotencyKey }: PartialRefund): Promise<void> {
    const refundId = `re_sbx_${bytesToHex(randomBytes(12))}`;
    const [, , existing] = await this.db.$client.batch([
      this.db.$client
        .prepare(
          `INSERT INTO sandbox_refunds (id, intent_id, amount_cents, idempotency_key, reason)
           SELECT ?1, i.id, ?3, ?4, ?5 FROM sandbox_payment_intents i
           WHERE i.id = ?2 AND i.status = 'succeeded' AND i.refunded_at IS NULL AND i.refunded_cents + ?3 <= i.amount_cents
           ON CONFLICT (idempotency_key) DO NOTHING`,
        )
        .bind(refundId, id, amountCents, idempotencyKey, reason),
      this.db.$client
        .prepare(
          "UPDATE sandbox_payment_intents SET refunded_cents = (SELECT coalesce(sum(amount_cents), 0) FROM sandbox_refunds WHERE intent_id = ?1) WHERE id = ?1",
        )
        .bind(id),
      this.db.$client.prepare("SELECT intent_id, amount_cents FROM sandbox_refunds WHERE idempotency_key = ?").bind(idempotencyKey),
    ]);
    const row = existing?.results[0] as { intent_id: string; amount_cents: number } | undefined;
    if (!row || row.intent_id !== id || row.amount_cents !== amountCents)
      throw new HttpError(502, "provider_unavailable", MONEY.providerUnavailable);
  }

  /** What was refunded of the intent so far: in full, or the partial refunds' sum. */
  async refundedCents(id: string): Promise<number> {
    const row = await this.retrieveRow(id);
    if (!row) return 0;
    return row.refundedAt !== null ? row.amountCents : row.refundedCents;
  }

  async cardLast4(id: string): Promise<string | null> {
    return (await this.retrieveRow(id))?.cardLast4 ?? null;
  }

  private retrieveRow(id: string) {
    return this.db.select().from(sandboxPaymentIntents).where(eq(sandboxPaymentIntents.id, id)).get();
  }

  /** An unpaid intent becomes canceled (it can no longer be paid); a succeeded one is left as it is. */
  async cancelIntent(id: string): Promise<ProviderIntent | null> {
    await this.db
      .update(sandboxPaymentIntents)
      .set({ status: "canceled" })
      .where(and(eq(sandboxPaymentIntents.id, id), eq(sandboxPaymentIntents.status, "requires_payment_method")));
    return this.retrieveIntent(id);
  }

  /**
   * What Stripe.js does in the browser with a real card: 4242… succeeds, 4000…0002 is declined
   * (402, the intent stays payable), anything else is refused. Confirming a succeeded intent
   * again answers succeeded, so a double submit is harmless; money moves only at deposit/confirm.
   */
  async confirmCard(clientSecret: string, userId: number, card: SandboxCard, now = new Date()): Promise<ProviderIntent> {
    const row = await this.db
      .select()
      .from(sandboxPaymentIntents)
      .where(and(eq(sandboxPaymentIntents.clientSecret, clientSecret), eq(sandboxPaymentIntents.userId, userId)))
      .get();
    if (!row) throw notFound(MONEY.paymentNotFound, "payment_not_found");
    if (row.status === "succeeded") return toProviderIntent(row);
    if (row.status === "canceled") throw new HttpError(409, "checkout_cancelled", MONEY.checkoutCancelled);
    checkCard(card, now);
    if (card.cardNumber === SANDBOX_CARDS.declined) {
      await this.db.update(sandboxPaymentIntents).set({ lastError: "card_declined" }).where(eq(sandboxPaymentIntents.id, row.id));
      throw new HttpError(402, "card_declined", MONEY.cardDeclined);
    }
    if (card.cardNumber !== SANDBOX_CARDS.succeeds) throw badRequest(MONEY.sandboxTestCardsOnly);
    const updated = await this.db
      .update(sandboxPaymentIntents)
      .set({
        status: "succeeded",
        lastError: null,
        cardLast4: card.cardNumber.slice(-4),
        cardFingerprint: sandboxCardFingerprint(card.cardNumber),
      })
      .where(and(eq(sandboxPaymentIntents.id, row.id), eq(sandboxPaymentIntents.status, "requires_payment_method")))
      .returning()
      .get();
    if (updated) return toProviderIntent(updated);
    // Cancelled (a break started) or paid by another tab meanwhile: say which.
    const current = await this.retrieveIntent(row.id);
    if (current?.status !== "succeeded") throw new HttpError(409, "checkout_cancelled", MONEY.checkoutCancelled);
    return current;
  }
}
