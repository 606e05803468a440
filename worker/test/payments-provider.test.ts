// Which card payments a site offers: PAYMENT_PROVIDER says stripe or sandbox outright (never
// inferred from a missing key), and the sandbox answers only on loopback hosts and SANDBOX_HOSTS.
import { afterEach, describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import { MONEY } from "../../common/messages";
import { call, registerUser } from "./helpers";
import { balanceCents, countRows, expectLedgerBalanced, futureYear } from "./money-helpers";

afterEach(expectLedgerBalanced);

const NOT_HERE = { code: "payments_not_configured", message: MONEY.paymentsNotConfigured };
const card = { cardNumber: "4242424242424242", expMonth: 12, expYear: futureYear(), cvc: "123" };

/** Signs up on `host` (a session is per site) and returns its cookie. */
async function playerOn(host?: string) {
  const p = await registerUser();
  return { ...p, host };
}

describe("PAYMENT_PROVIDER=sandbox", () => {
  it.each(["localhost", "127.0.0.1", "[::1]"])("the sandbox pays and credits on the loopback host %s", async (host) => {
    const { cookie, user } = await playerOn();
    const intent = await call("/api/create-payment-intent", { host, cookie, body: { amount: 12 } });
    expect(intent.status).toBe(200);
    expect(
      (await call("/api/sandbox/confirm-payment", { host, cookie, body: { clientSecret: intent.body.clientSecret, ...card } })).status,
    ).toBe(200);
    const confirm = await call("/api/deposit/confirm", { host, cookie, body: { paymentIntentId: intent.body.paymentIntentId } });
    expect(confirm.status).toBe(200);
    expect(await balanceCents(user.id)).toBe(1200);
    expect((await call("/api/config", { host })).body.paymentProvider).toBe("sandbox");
  });

  it("on any other host no card payment is offered: config says so and every payment route refuses with 503", async () => {
    const host = "arena.example.com";
    const { cookie, user } = await playerOn();
    // An intent made where the sandbox is allowed cannot be paid or credited from elsewhere.
    const intent = await call("/api/create-payment-intent", { cookie, body: { amount: 12 } });
    expect(intent.status).toBe(200);

    const config = await call("/api/config", { host });
    expect(config.status).toBe(200);
    expect(config.body).toMatchObject({ paymentProvider: null, stripePublishableKey: null });

    const refusals = await Promise.all([
      call("/api/create-payment-intent", { host, cookie, body: { amount: 12 } }),
      call("/api/sandbox/confirm-payment", { host, cookie, body: { clientSecret: intent.body.clientSecret, ...card } }),
      call(`/api/payment-intent?clientSecret=${encodeURIComponent(intent.body.clientSecret)}`, { host, cookie }),
      call("/api/deposit/confirm", { host, cookie, body: { paymentIntentId: intent.body.paymentIntentId } }),
    ]);
    for (const res of refusals) {
      expect(res.status).toBe(503);
      expect(res.body).toEqual(NOT_HERE);
    }
    expect(await balanceCents(user.id)).toBe(0);
    expect(await countRows("SELECT 1 FROM sandbox_payment_intents WHERE user_id = ? AND status = 'succeeded'", user.id)).toBe(0);
  });

  it("a staging host listed in SANDBOX_HOSTS gets the sandbox", async () => {
    const host = "staging.arena.example.com";
    const sandboxHosts = { SANDBOX_HOSTS: " other.example.org , staging.arena.example.com" };
    const { cookie, user } = await playerOn();
    const intent = await call("/api/create-payment-intent", { host, env: sandboxHosts, cookie, body: { amount: 7 } });
    expect(intent.status).toBe(200);
    const paid = await call("/api/sandbox/confirm-payment", {
      host,
      env: sandboxHosts,
      cookie,
      body: { clientSecret: intent.body.clientSecret, ...card },
    });
    expect(paid.status).toBe(200);
    expect(
      (await call("/api/deposit/confirm", { host, env: sandboxHosts, cookie, body: { paymentIntentId: intent.body.paymentIntentId } }))
        .status,
    ).toBe(200);
    expect(await balanceCents(user.id)).toBe(700);
    expect((await call("/api/config", { host, env: sandboxHosts })).body.paymentProvider).toBe("sandbox");
    // Only the exact host: a look-alike is not listed.
    expect((await call("/api/config", { host: "evil-staging.arena.example.com", env: sandboxHosts })).body.paymentProvider).toBeNull();
  });

  it("marks each deposit with the provider that took the card", async () => {
    const { cookie, user } = await playerOn();
    const intent = await call("/api/create-payment-intent", { cookie, body: { amount: 5 } });
    await call("/api/sandbox/confirm-payment", { cookie, body: { clientSecret: intent.body.clientSecret, ...card } });
    await call("/api/deposit/confirm", { cookie, body: { paymentIntentId: intent.body.paymentIntentId } });
    const row = await env.DB.prepare("SELECT provider FROM transactions WHERE user_id = ? AND type = 'deposit'").bind(user.id).first();
    expect(row).toEqual({ provider: "sandbox" });
  });
});

describe("PAYMENT_PROVIDER=stripe without STRIPE_SECRET_KEY", () => {
  const stripeNoKey = { PAYMENT_PROVIDER: "stripe", STRIPE_SECRET_KEY: "" };

  it("answers a clear 503 on every payment route, never the sandbox, even on localhost", async () => {
    const { cookie, user } = await playerOn();
    const sandboxIntent = await call("/api/create-payment-intent", { cookie, body: { amount: 12 } });
    const refusals = await Promise.all([
      call("/api/create-payment-intent", { env: stripeNoKey, cookie, body: { amount: 12 } }),
      call("/api/sandbox/confirm-payment", { env: stripeNoKey, cookie, body: { clientSecret: sandboxIntent.body.clientSecret, ...card } }),
      call(`/api/payment-intent?clientSecret=${encodeURIComponent(sandboxIntent.body.clientSecret)}`, { env: stripeNoKey, cookie }),
      call("/api/deposit/confirm", { env: stripeNoKey, cookie, body: { paymentIntentId: sandboxIntent.body.paymentIntentId } }),
    ]);
    for (const res of refusals) {
      expect(res.status).toBe(503);
      expect(res.body).toEqual(NOT_HERE);
    }
    expect(await balanceCents(user.id)).toBe(0);
  });

  it("config announces no card payments, and the webhook is not configured", async () => {
    expect((await call("/api/config", { env: stripeNoKey })).body).toMatchObject({ paymentProvider: null, stripePublishableKey: null });
    const hook = await call("/api/webhooks/stripe", { env: stripeNoKey, body: {}, headers: { "stripe-signature": "t=1,v1=x" } });
    expect(hook.status).toBe(503);
    expect(hook.body).toEqual(NOT_HERE);
  });

  it("an unknown PAYMENT_PROVIDER is not the sandbox either", async () => {
    const { cookie } = await playerOn();
    const res = await call("/api/create-payment-intent", { env: { PAYMENT_PROVIDER: "sandbx" }, cookie, body: { amount: 12 } });
    expect(res.status).toBe(503);
    expect(res.body).toEqual(NOT_HERE);
  });
});
