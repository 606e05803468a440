// Chooses the identity provider: the one PAYMENT_PROVIDER names (no setting of its own, so a
// deployment cannot take Stripe's money and the sandbox's identities). The sandbox answers only
// where sandbox payments do (loopback, SANDBOX_HOSTS); Stripe needs STRIPE_SECRET_KEY.
import { IDENTITY } from "../../common/messages";
import { HttpError } from "../http/errors";
import { activeProvider } from "../payments/index";
import { stripeClient } from "../payments/stripe";
import type { IdentityProvider } from "./provider";
import { SandboxIdentityProvider } from "./sandbox";
import { StripeIdentityProvider } from "./stripe";

export const identityNotConfigured = () => new HttpError(503, "identity_not_configured", IDENTITY.notConfigured);

export function identityProvider(env: Env, url: string): IdentityProvider {
  const name = activeProvider(env, url);
  if (name === "stripe") return new StripeIdentityProvider(stripeClient(env));
  if (name === "sandbox") return new SandboxIdentityProvider();
  throw identityNotConfigured();
}
