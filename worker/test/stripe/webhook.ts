// Stripe webhook events as Stripe's servers send them: the event JSON, signed with the webhook
// secret, posted with no Origin and no cookie. Shared by the Stripe project's tests and the
// identity helpers (which verify through Stripe's double in that project).
import { env, exports } from "cloudflare:workers";
import Stripe from "stripe";

const testEnv = env as unknown as Env;

/** An event's raw JSON, as the webhook receives it. */
export function stripeEvent(type: string, object: Record<string, unknown>, id = `evt_${crypto.randomUUID().replace(/-/g, "")}`): string {
  return JSON.stringify({
    id,
    object: "event",
    type,
    api_version: "2025-01-01",
    created: Math.floor(Date.now() / 1000),
    livemode: false,
    data: { object },
  });
}

/** Posts `payload` to the webhook, signed with STRIPE_WEBHOOK_SECRET; the route's status and JSON body. */
export async function postSignedStripeEvent(payload: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const signature = await Stripe.webhooks.generateTestHeaderStringAsync({
    payload,
    secret: testEnv.STRIPE_WEBHOOK_SECRET,
    cryptoProvider: Stripe.createSubtleCryptoProvider(),
  });
  const res = await exports.default.fetch(
    new Request("http://localhost/api/webhooks/stripe", {
      method: "POST",
      headers: { "content-type": "application/json; charset=utf-8", "stripe-signature": signature },
      body: payload,
    }),
  );
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}
