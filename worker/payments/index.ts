// Chooses the payment provider. PAYMENT_PROVIDER names it outright: a missing Stripe key never
// turns the sandbox on (it makes payments unavailable), and the sandbox, whose test card adds
// money, answers only on loopback hosts and the staging hosts listed in SANDBOX_HOSTS.
import { DEFAULT_MAX_DEPOSIT_CENTS, MIN_DEPOSIT_CENTS } from "../../common/spec";
import { MONEY } from "../../common/messages";
import type { PaymentProviderName } from "../../common/api/money";
import type { Db } from "../db/client";
import { HttpError } from "../http/errors";
import { isLocalhost } from "../auth/session";
import { SandboxProvider } from "./sandbox";
import { StripeProvider, stripeClient } from "./stripe";
import type { PaymentProvider } from "./provider";

/** The provider this deployment is set up for; anything but "sandbox" means Stripe, so a typo never opens the sandbox. */
export const configuredProvider = (env: Env): PaymentProviderName => (env.PAYMENT_PROVIDER?.trim() === "sandbox" ? "sandbox" : "stripe");

export const stripeConfigured = (env: Env) => configuredProvider(env) === "stripe" && (env.STRIPE_SECRET_KEY ?? "").trim() !== "";

/** Loopback, or a host SANDBOX_HOSTS lists exactly: where sandbox money is real enough to use. */
export function isSandboxHost(env: Env, url: string): boolean {
  if (isLocalhost(url)) return true;
  const host = new URL(url).hostname.toLowerCase();
  return (env.SANDBOX_HOSTS ?? "")
    .split(",")
    .map((h) => h.trim().toLowerCase())
    .some((h) => h !== "" && h === host);
}

/** The provider that takes cards for a request to `url`, or null when this site takes none. */
export function activeProvider(env: Env, url: string): PaymentProviderName | null {
  if (configuredProvider(env) === "sandbox") return isSandboxHost(env, url) ? "sandbox" : null;
  return stripeConfigured(env) ? "stripe" : null;
}

export const paymentsNotConfigured = () => new HttpError(503, "payments_not_configured", MONEY.paymentsNotConfigured);

/** The provider for this request; a 503 when the site takes no card payments. */
export function paymentProvider(env: Env, db: Db, url: string): PaymentProvider {
  const name = activeProvider(env, url);
  if (name === "stripe") return new StripeProvider(stripeClient(env));
  if (name === "sandbox") return new SandboxProvider(db);
  throw paymentsNotConfigured();
}

/** MAX_DEPOSIT_CENTS from wrangler.toml; a missing or nonsensical value falls back to the default. */
export function maxDepositCents(env: Env): number {
  const n = Number(env.MAX_DEPOSIT_CENTS);
  return Number.isSafeInteger(n) && n >= MIN_DEPOSIT_CENTS ? n : DEFAULT_MAX_DEPOSIT_CENTS;
}
