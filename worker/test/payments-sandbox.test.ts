// Deposits through the offline sandbox provider (no Stripe key in this project): limits, the
// test cards, the result page's status check, crediting once, and other users' intents.
import { afterEach, describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import { MONEY, VALIDATION } from "../../common/messages";
import { call, registerUser } from "./helpers";
import { balanceCents, countRows, expectLedgerBalanced, futureYear } from "./money-helpers";

afterEach(expectLedgerBalanced);

const card = (cardNumber: string, over: Record<string, unknown> = {}) => ({
  cardNumber,
  expMonth: 12,
  expYear: futureYear(),
  cvc: "123",
  ...over,
});

async function createIntent(cookie: string, amount: unknown, idempotencyKey?: string) {
  return call("/api/create-payment-intent", {
    cookie,
    body: { amount },
    headers: idempotencyKey ? { "idempotency-key": idempotencyKey } : {},
  });
}

/** Creates a $`amount` intent and pays it with `cardNumber`. */
async function pay(cookie: string, amount: number, cardNumber = "4242 4242 4242 4242") {
  const intent = await createIntent(cookie, amount);
  expect(intent.status).toBe(200);
  const confirm = await call("/api/sandbox/confirm-payment", {
    cookie,
    body: { clientSecret: intent.body.clientSecret, ...card(cardNumber) },
  });
  return { intent: intent.body as { clientSecret: string; paymentIntentId: string }, confirm };
}

describe("GET /api/config", () => {
  it("reports the sandbox, no publishable key and the deposit limits in USD", async () => {
    const res = await call("/api/config");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      paymentProvider: "sandbox",
      stripePublishableKey: null,
      minDeposit: 0.5,
      maxDeposit: 1000,
      supportEmail: null,
      turnstileSiteKey: null,
    });
  });
});

describe("POST /api/create-payment-intent", () => {
  it.each([
    [{}, VALIDATION.amountRequired],
    [{ amount: null }, VALIDATION.amountRequired],
    [{ amount: "" }, VALIDATION.amountRequired],
    [{ amount: 0 }, VALIDATION.amountPositive],
    [{ amount: -5 }, VALIDATION.amountPositive],
    [{ amount: "ten" }, VALIDATION.amountPositive],
    [{ amount: true }, VALIDATION.amountPositive],
    [{ amount: 10.123 }, MONEY.amountDecimals],
    [{ amount: 0.000000001 }, MONEY.amountDecimals],
    [{ amount: 10.000000001 }, MONEY.amountDecimals],
    [{ amount: "10.000000001" }, MONEY.amountDecimals],
    [{ amount: "0.001" }, MONEY.amountDecimals],
    [{ amount: 0.49 }, "The minimum deposit is $0.50"],
    [{ amount: 1000.01 }, "The maximum deposit is $1000.00"],
    [{ amount: 1e300 }, MONEY.amountTooLarge],
  ])("refuses %j with its message", async (body, message) => {
    const { cookie } = await registerUser();
    const res = await call("/api/create-payment-intent", { cookie, body });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ code: "invalid_request", message });
  });

  it("accepts the limits themselves and numeric text", async () => {
    const { cookie } = await registerUser();
    for (const amount of [0.5, 1000, "25.00"]) {
      const res = await createIntent(cookie, amount);
      expect(res.status).toBe(200);
      expect(res.body.clientSecret).toMatch(new RegExp(`^${res.body.paymentIntentId}_secret_`));
    }
  });

  it("needs a session", async () => {
    expect((await createIntent("", 10)).status).toBe(401);
  });

  it("returns the same intent for a repeated Idempotency-Key, refuses that key with another amount, and keys are per user", async () => {
    const { cookie } = await registerUser();
    const a = await createIntent(cookie, 20, "checkout-visit-0001");
    const b = await createIntent(cookie, 20, "checkout-visit-0001");
    const otherAmount = await createIntent(cookie, 30, "checkout-visit-0001");
    const otherKey = await createIntent(cookie, 20, "checkout-visit-0002");
    expect(b.body).toEqual(a.body);
    expect(otherAmount.status).toBe(409);
    expect(otherAmount.body.code).toBe("idempotency_key_reused");
    expect(otherKey.body.paymentIntentId).not.toBe(a.body.paymentIntentId);
    // The same client key from another user is another intent.
    const stranger = await registerUser();
    expect((await createIntent(stranger.cookie, 20, "checkout-visit-0001")).body.paymentIntentId).not.toBe(a.body.paymentIntentId);
  });
});

describe("sandbox card payment", () => {
  it("the success card pays, the result page sees it, and confirm credits exactly once", async () => {
    const { cookie, user } = await registerUser();
    const { intent, confirm } = await pay(cookie, 25);
    expect(confirm.status).toBe(200);
    expect(confirm.body).toEqual({ status: "succeeded", paymentIntentId: intent.paymentIntentId });

    const status = await call(`/api/payment-intent?clientSecret=${encodeURIComponent(intent.clientSecret)}`, { cookie });
    expect(status.status).toBe(200);
    expect(status.body).toEqual({ id: intent.paymentIntentId, status: "succeeded", amount: 25 });

    const first = await call("/api/deposit/confirm", { cookie, body: { paymentIntentId: intent.paymentIntentId, amount: 25 } });
    expect(first.status).toBe(200);
    expect(first.body.balance).toBe(25);
    expect(first.body.transaction).toMatchObject({
      userId: user.id,
      amount: 25,
      type: "deposit",
      status: "completed",
      reference: intent.paymentIntentId,
    });

    const again = await call("/api/deposit/confirm", { cookie, body: { paymentIntentId: intent.paymentIntentId, amount: 25 } });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect(await balanceCents(user.id)).toBe(2500);
    expect(await countRows("SELECT 1 FROM transactions WHERE reference = ?", intent.paymentIntentId)).toBe(1);

    const list = await call("/api/user/transactions", { cookie });
    expect(list.body).toEqual([
      expect.objectContaining({ amount: 25, type: "deposit", status: "completed", reference: intent.paymentIntentId }),
    ]);
    expect((await call("/api/user", { cookie })).body.balance).toBe(25);
  });

  it("parallel confirms of one payment credit once", async () => {
    const { cookie, user } = await registerUser();
    const { intent } = await pay(cookie, 40);
    const results = await Promise.all(
      Array.from({ length: 8 }, () =>
        call("/api/deposit/confirm", { cookie, body: { paymentIntentId: intent.paymentIntentId, amount: 40 } }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(Array(8).fill(200));
    expect(await balanceCents(user.id)).toBe(4000);
  });

  it("the declined card is a 402 with the card-declined message and credits nothing", async () => {
    const { cookie, user } = await registerUser();
    const { intent, confirm } = await pay(cookie, 25, "4000 0000 0000 0002");
    expect(confirm.status).toBe(402);
    expect(confirm.body).toEqual({ code: "card_declined", message: MONEY.cardDeclined });
    const status = await call(`/api/payment-intent?clientSecret=${encodeURIComponent(intent.clientSecret)}`, { cookie });
    expect(status.body.status).toBe("requires_payment_method");
    const deposit = await call("/api/deposit/confirm", { cookie, body: { paymentIntentId: intent.paymentIntentId, amount: 25 } });
    expect(deposit.status).toBe(409);
    expect(deposit.body).toEqual({ code: "payment_not_succeeded", message: MONEY.paymentNotSucceeded });
    expect(await balanceCents(user.id)).toBe(0);
    expect(await countRows("SELECT 1 FROM transactions WHERE user_id = ?", user.id)).toBe(0);

    // After a decline the same intent can still be paid with another card, as with Stripe.
    const retry = await call("/api/sandbox/confirm-payment", {
      cookie,
      body: { clientSecret: intent.clientSecret, ...card("4242424242424242") },
    });
    expect(retry.status).toBe(200);
  });

  it.each([
    [card("4242 4242 4242 4241"), MONEY.cardNumberInvalid],
    [card("4242"), MONEY.cardNumberInvalid],
    [card("4242424242424242", { expMonth: 1, expYear: 2020 }), MONEY.cardExpired],
    [card("4242424242424242", { expMonth: 13 }), MONEY.cardExpiryInvalid],
    [card("4242424242424242", { expYear: "3" }), MONEY.cardExpiryInvalid],
    [card("4242424242424242", { cvc: "12" }), MONEY.cvcInvalid],
    [card("5555 5555 5555 4444"), MONEY.sandboxTestCardsOnly],
  ])("refuses the card %j with 400", async (cardFields, message) => {
    const { cookie, user } = await registerUser();
    const intent = await createIntent(cookie, 10);
    const res = await call("/api/sandbox/confirm-payment", { cookie, body: { clientSecret: intent.body.clientSecret, ...cardFields } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ code: "invalid_request", message });
    expect(await balanceCents(user.id)).toBe(0);
  });

  it("accepts a two-digit expiry year", async () => {
    const { cookie } = await registerUser();
    const intent = await createIntent(cookie, 10);
    const res = await call("/api/sandbox/confirm-payment", {
      cookie,
      body: {
        clientSecret: intent.body.clientSecret,
        ...card("4242424242424242", { expMonth: "07", expYear: String(futureYear() % 100) }),
      },
    });
    expect(res.status).toBe(200);
  });

  it("paying a succeeded intent again answers succeeded and still credits once", async () => {
    const { cookie, user } = await registerUser();
    const { intent } = await pay(cookie, 15);
    const second = await call("/api/sandbox/confirm-payment", {
      cookie,
      body: { clientSecret: intent.clientSecret, ...card("4242424242424242") },
    });
    expect(second.body).toEqual({ status: "succeeded", paymentIntentId: intent.paymentIntentId });
    await call("/api/deposit/confirm", { cookie, body: { paymentIntentId: intent.paymentIntentId } });
    await call("/api/deposit/confirm", { cookie, body: { paymentIntentId: intent.paymentIntentId } });
    expect(await balanceCents(user.id)).toBe(1500);
  });
});

describe("POST /api/deposit/confirm", () => {
  it("never trusts the body's amount", async () => {
    const { cookie, user } = await registerUser();
    const { intent } = await pay(cookie, 10);
    const res = await call("/api/deposit/confirm", { cookie, body: { paymentIntentId: intent.paymentIntentId, amount: 1000 } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ code: "amount_mismatch", message: MONEY.amountMismatch });
    expect(await balanceCents(user.id)).toBe(0);
  });

  it("refuses an amount finer than a cent instead of rounding it", async () => {
    const { cookie, user } = await registerUser();
    const { intent } = await pay(cookie, 10);
    const res = await call("/api/deposit/confirm", { cookie, body: { paymentIntentId: intent.paymentIntentId, amount: 10.000000001 } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ code: "invalid_request", message: MONEY.amountDecimals });
    expect(await balanceCents(user.id)).toBe(0);
  });

  it("refuses another user's payment, on every step", async () => {
    const owner = await registerUser();
    const thief = await registerUser();
    const { intent } = await pay(owner.cookie, 50);
    const deposit = await call("/api/deposit/confirm", {
      cookie: thief.cookie,
      body: { paymentIntentId: intent.paymentIntentId, amount: 50 },
    });
    expect(deposit.status).toBe(403);
    expect(deposit.body).toEqual({ code: "payment_other_account", message: MONEY.paymentOtherAccount });
    const status = await call(`/api/payment-intent?clientSecret=${encodeURIComponent(intent.clientSecret)}`, { cookie: thief.cookie });
    expect(status.status).toBe(404);
    const pay2 = await call("/api/sandbox/confirm-payment", {
      cookie: thief.cookie,
      body: { clientSecret: intent.clientSecret, ...card("4242424242424242") },
    });
    expect(pay2.status).toBe(404);
    expect(await balanceCents(thief.user.id)).toBe(0);
    expect(await balanceCents(owner.user.id)).toBe(0);
  });

  it("answers 404 for an unknown payment and 400 for a malformed id", async () => {
    const { cookie } = await registerUser();
    const unknown = await call("/api/deposit/confirm", { cookie, body: { paymentIntentId: "pi_sbx_doesnotexist" } });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ code: "payment_not_found", message: MONEY.paymentNotFound });
    const malformed = await call("/api/deposit/confirm", { cookie, body: { paymentIntentId: "../../etc" } });
    expect(malformed.status).toBe(400);
  });

  it("the result page's lookup needs the exact client secret", async () => {
    const { cookie } = await registerUser();
    const { intent } = await pay(cookie, 5);
    const forged = `${intent.paymentIntentId}_secret_${"0".repeat(32)}`;
    expect((await call(`/api/payment-intent?clientSecret=${forged}`, { cookie })).status).toBe(404);
    expect((await call("/api/payment-intent", { cookie })).status).toBe(400);
    expect((await call(`/api/payment-intent?clientSecret=${encodeURIComponent(intent.clientSecret)}`)).status).toBe(401);
  });
});

describe("Stripe-only endpoints in sandbox mode", () => {
  it("the Stripe webhook does not exist without a Stripe key", async () => {
    const res = await call("/api/webhooks/stripe", {
      body: { type: "payment_intent.succeeded" },
      headers: { "stripe-signature": "t=1,v1=x" },
    });
    expect(res.status).toBe(404);
  });

  it("sandbox intents never hold card data", async () => {
    const { cookie } = await registerUser();
    await pay(cookie, 5);
    const rows = JSON.stringify((await env.DB.prepare("SELECT * FROM sandbox_payment_intents").all()).results);
    expect(rows).not.toMatch(/4242424242424242|4242 4242/);
  });
});
