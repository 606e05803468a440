// GET /api/config: what the web app needs to know about this deployment.
import { Hono } from "hono";
import type { PublicConfig } from "../../common/api/money";
import { MIN_DEPOSIT_CENTS } from "../../common/spec";
import { centsToDollars } from "../../common/domain/money";
import { activeProvider, maxDepositCents } from "../payments/index";
import { turnstileSiteKey } from "../auth/turnstile";
import type { AppEnv } from "../http/app-env";

export const configRoutes = new Hono<AppEnv>().get("/", (c) => {
  const provider = activeProvider(c.env, c.req.url);
  return c.json({
    paymentProvider: provider,
    stripePublishableKey: provider === "stripe" ? c.env.STRIPE_PUBLISHABLE_KEY || null : null,
    minDeposit: centsToDollars(MIN_DEPOSIT_CENTS),
    maxDeposit: centsToDollars(maxDepositCents(c.env)),
    supportEmail: c.env.SUPPORT_EMAIL?.trim() || null,
    turnstileSiteKey: turnstileSiteKey(c.env),
  } satisfies PublicConfig);
});
