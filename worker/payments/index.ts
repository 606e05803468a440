// Chooses the payment provider: Stripe whenever a secret key is configured, otherwise the
// offline sandbox. The sandbox can never be active beside a Stripe key.
import { DEFAULT_MAX_DEPOSIT_CENTS, MIN_DEPOSIT_CENTS } from "../../common/spec";
import type { Db } from "../db/client";
import { SandboxProvider } from "./sandbox";
import { StripeProvider, stripeClient } from "./stripe";
import type { PaymentProvider } from "./provider";

export const stripeConfigured = (env: Env) => (env.STRIPE_SECRET_KEY ?? "").trim() !== "";

export function paymentProvider(env: Env, db: Db): PaymentProvider {
  return stripeConfigured(env) ? new StripeProvider(stripeClient(env)) : new SandboxProvider(db);
}

/** MAX_DEPOSIT_CENTS from wrangler.toml; a missing or nonsensical value falls back to the default. */
export function maxDepositCents(env: Env): number {
  const n = Number(env.MAX_DEPOSIT_CENTS);
  return Number.isSafeInteger(n) && n >= MIN_DEPOSIT_CENTS ? n : DEFAULT_MAX_DEPOSIT_CENTS;
}
