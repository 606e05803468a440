// The Stripe path end to end: the Worker's real `stripe` SDK (fetch client, SubtleCrypto
// webhooks) against the local Stripe test double. Nothing here reaches the internet.
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { env, exports } from "cloudflare:workers";
import Stripe from "stripe";
import { MONEY } from "../../../common/messages";
import { DELETE_ACCOUNT_CONFIRMATION } from "../../../common/spec";
import { sha256Hex } from "../../auth/bytes";
import { cardHash } from "../../responsible-play/excluded-identities";
import { call, registerUser } from "../helpers";
import { balanceCents, countRows, expectLedgerBalanced, readyToWithdraw, withdraw } from "../money-helpers";

afterEach(expectLedgerBalanced);

const testEnv = env as unknown as Env;
const mockUrl = (path: string) => `http://127.0.0.1:${testEnv.STRIPE_API_PORT}${path}`;

interface MockIntent {
  id: string;
  amount: number;
  currency: string;
  status: string;
  client_secret: string;
  metadata: Record<string, string>;
  /** The charge that paid it (an id, as in a webhook event), once it succeeded. */
  latest_charge: string | null;
}

/**
 * Plays the part of Stripe.js and the card network: sets what Stripe would now report. `card`:
 * the card number a succeeded intent is paid with (the double's default test card otherwise).
 */
async function setIntent(id: string, fields: Partial<MockIntent> & { card?: string }): Promise<MockIntent> {
  const res = await fetch(mockUrl(`/__mock/payment_intents/${id}`), { method: "POST", body: JSON.stringify(fields) });
  expect(res.status).toBe(200);
  return res.json();
}

/** An intent made directly at "Stripe", not through our API (another currency, say). */
async function mockIntent(fields: Partial<MockIntent> & { amount: number }): Promise<MockIntent> {
  return (await fetch(mockUrl("/__mock/payment_intents"), { method: "POST", body: JSON.stringify(fields) })).json();
}

async function receivedRequests(): Promise<
  {
    method: string;
    path: string;
    idempotencyKey: string | null;
    authorized: boolean;
    contentType: string | null;
    params: Record<string, string>;
  }[]
> {
  return (await fetch(mockUrl("/__mock/requests"))).json();
}

async function createIntent(cookie: string, amount: number, idempotencyKey?: string) {
  const res = await call("/api/create-payment-intent", {
    cookie,
    body: { amount },
    headers: idempotencyKey ? { "idempotency-key": idempotencyKey } : {},
  });
  expect(res.status).toBe(200);
  return res.body as { clientSecret: string; paymentIntentId: string };
}

async function paidIntent(cookie: string, amount: number) {
  const intent = await createIntent(cookie, amount);
  await setIntent(intent.paymentIntentId, { status: "succeeded" });
  return intent;
}

const confirm = (cookie: string, paymentIntentId: string, amount?: number) =>
  call("/api/deposit/confirm", { cookie, body: amount === undefined ? { paymentIntentId } : { paymentIntentId, amount } });

function succeededEvent(intent: MockIntent, id = `evt_${crypto.randomUUID().replace(/-/g, "")}`) {
  return JSON.stringify({
    id,
    object: "event",
    type: "payment_intent.succeeded",
    api_version: "2025-01-01",
    created: Math.floor(Date.now() / 1000),
    livemode: false,
    data: { object: { ...intent, object: "payment_intent" } },
  });
}

async function sign(payload: string, opts: { secret?: string; timestamp?: number } = {}) {
  return Stripe.webhooks.generateTestHeaderStringAsync({
    payload,
    secret: opts.secret ?? testEnv.STRIPE_WEBHOOK_SECRET,
    timestamp: opts.timestamp ?? Math.floor(Date.now() / 1000),
    cryptoProvider: Stripe.createSubtleCryptoProvider(),
  });
}

/** As Stripe's servers post it: no Origin, no cookie, the raw JSON and its signature. */
async function postWebhook(payload: string, signature?: string) {
  const headers: Record<string, string> = { "content-type": "application/json; charset=utf-8" };
  if (signature) headers["stripe-signature"] = signature;
  const res = await exports.default.fetch(new Request("http://localhost/api/webhooks/stripe", { method: "POST", headers, body: payload }));
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

describe("configuration", () => {
  it("reports Stripe and its publishable key", async () => {
    expect((await call("/api/config")).body).toEqual({
      paymentProvider: "stripe",
      stripePublishableKey: "pk_test_mock_server_only",
      minDeposit: 0.5,
      maxDeposit: 1000,
      supportEmail: null,
      turnstileSiteKey: null,
    });
  });

  it("the sandbox card endpoint does not exist while Stripe is configured", async () => {
    const { cookie } = await registerUser();
    const intent = await createIntent(cookie, 10);
    const res = await call("/api/sandbox/confirm-payment", {
      cookie,
      body: { clientSecret: intent.clientSecret, cardNumber: "4242424242424242", expMonth: 12, expYear: 2099, cvc: "123" },
    });
    expect(res.status).toBe(404);
    expect((await call(`/api/payment-intent?clientSecret=${encodeURIComponent(intent.clientSecret)}`, { cookie })).body.status).toBe(
      "requires_payment_method",
    );
  });
});

describe("creating a PaymentIntent", () => {
  it("sends amount in cents, USD, metadata.userId, automatic payment methods and an Idempotency-Key", async () => {
    const { cookie, user } = await registerUser();
    const intent = await createIntent(cookie, 25.5);
    expect(intent.paymentIntentId).toMatch(/^pi_/);
    expect(intent.clientSecret).toMatch(new RegExp(`^${intent.paymentIntentId}_secret_`));

    const sent = (await receivedRequests()).filter((r) => r.method === "POST" && r.params["metadata[userId]"] === String(user.id));
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({
      path: "/v1/payment_intents",
      authorized: true,
      contentType: expect.stringMatching(/^application\/x-www-form-urlencoded/),
      idempotencyKey: expect.stringMatching(/^deposit-[0-9a-f]{48}$/),
      params: expect.objectContaining({ amount: "2550", currency: "usd", "automatic_payment_methods[enabled]": "true" }),
    });
  });

  it("a repeated Idempotency-Key (a double click) gets the same intent; Stripe's own key is derived from it", async () => {
    const { cookie, user } = await registerUser();
    const a = await createIntent(cookie, 30, "visit-abcdef123");
    const b = await createIntent(cookie, 30, "visit-abcdef123");
    expect(b).toEqual(a);
    // The retry is answered from the stored first answer: Stripe is asked once.
    const sent = (await receivedRequests()).filter((r) => r.params["metadata[userId]"] === String(user.id));
    expect(sent).toHaveLength(1);
    // A retry that does reach Stripe (its first process died mid-call) sends the same Stripe key.
    expect(sent[0]!.idempotencyKey).toBe(`deposit-${sha256Hex(`${user.id}:3000:visit-abcdef123`).slice(0, 48)}`);
    const c = await createIntent(cookie, 30, "visit-other-9876");
    expect(c.paymentIntentId).not.toBe(a.paymentIntentId);
  });

  it("validates before calling Stripe", async () => {
    const { cookie, user } = await registerUser();
    const res = await call("/api/create-payment-intent", { cookie, body: { amount: 0.4 } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ code: "invalid_request", message: "The minimum deposit is $0.50" });
    expect((await receivedRequests()).some((r) => r.params["metadata[userId]"] === String(user.id))).toBe(false);
  });
});

describe("POST /api/deposit/confirm with Stripe", () => {
  it("credits a succeeded intent exactly once", async () => {
    const { cookie, user } = await registerUser();
    const intent = await paidIntent(cookie, 25);
    const first = await confirm(cookie, intent.paymentIntentId, 25);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      balance: 25,
      transaction: { amount: 25, type: "deposit", status: "completed", reference: intent.paymentIntentId },
    });
    const second = await confirm(cookie, intent.paymentIntentId, 25);
    expect(second.status).toBe(200);
    expect(second.body.balance).toBe(25);
    expect(await balanceCents(user.id)).toBe(2500);
    expect(await countRows("SELECT 1 FROM transactions WHERE reference = ?", intent.paymentIntentId)).toBe(1);
    // The SDK retrieved the intent from "Stripe" itself.
    expect((await receivedRequests()).some((r) => r.method === "GET" && r.path === `/v1/payment_intents/${intent.paymentIntentId}`)).toBe(
      true,
    );
  });

  it.each(["requires_payment_method", "processing", "requires_action", "canceled"])("refuses an intent still %s", async (status) => {
    const { cookie, user } = await registerUser();
    const intent = await createIntent(cookie, 10);
    await setIntent(intent.paymentIntentId, { status });
    const res = await confirm(cookie, intent.paymentIntentId, 10);
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ code: "payment_not_succeeded", message: MONEY.paymentNotSucceeded });
    expect(await balanceCents(user.id)).toBe(0);
  });

  it("refuses another user's intent", async () => {
    const owner = await registerUser();
    const thief = await registerUser();
    const intent = await paidIntent(owner.cookie, 40);
    const res = await confirm(thief.cookie, intent.paymentIntentId, 40);
    expect(res.status).toBe(403);
    expect(await balanceCents(thief.user.id)).toBe(0);
    expect(await balanceCents(owner.user.id)).toBe(0);
    expect(
      (await call(`/api/payment-intent?clientSecret=${encodeURIComponent(intent.clientSecret)}`, { cookie: thief.cookie })).status,
    ).toBe(404);
  });

  it("refuses when the claimed amount differs from Stripe's", async () => {
    const { cookie, user } = await registerUser();
    const intent = await paidIntent(cookie, 10);
    const res = await confirm(cookie, intent.paymentIntentId, 100);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ code: "amount_mismatch", message: MONEY.amountMismatch });
    expect(await balanceCents(user.id)).toBe(0);
  });

  it("credits Stripe's amount when the intent's amount changed after creation", async () => {
    const { cookie, user } = await registerUser();
    const intent = await paidIntent(cookie, 10);
    await setIntent(intent.paymentIntentId, { amount: 700 });
    expect((await confirm(cookie, intent.paymentIntentId, 10)).status).toBe(400);
    const res = await confirm(cookie, intent.paymentIntentId);
    expect(res.body.balance).toBe(7);
    expect(await balanceCents(user.id)).toBe(700);
  });

  it("refuses a non-USD intent and answers 404 for one Stripe does not know", async () => {
    const { cookie, user } = await registerUser();
    const eur = await mockIntent({ amount: 1000, currency: "eur", status: "succeeded", metadata: { userId: String(user.id) } });
    const res = await confirm(cookie, eur.id);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ code: "currency_unsupported", message: MONEY.currencyUnsupported });
    const missing = await confirm(cookie, "pi_mockdoesnotexist");
    expect(missing.status).toBe(404);
    expect(await balanceCents(user.id)).toBe(0);
  });

  it("the result page reads the status through the server", async () => {
    const { cookie } = await registerUser();
    const intent = await createIntent(cookie, 12.34);
    const url = `/api/payment-intent?clientSecret=${encodeURIComponent(intent.clientSecret)}`;
    expect((await call(url, { cookie })).body).toEqual({ id: intent.paymentIntentId, status: "requires_payment_method", amount: 12.34 });
    await setIntent(intent.paymentIntentId, { status: "processing" });
    expect((await call(url, { cookie })).body.status).toBe("processing");
    await setIntent(intent.paymentIntentId, { status: "succeeded" });
    expect((await call(url, { cookie })).body.status).toBe("succeeded");
    const wrongSecret = `${intent.paymentIntentId}_secret_wrong`;
    expect((await call(`/api/payment-intent?clientSecret=${wrongSecret}`, { cookie })).status).toBe(404);
  });
});

describe("POST /api/webhooks/stripe", () => {
  async function succeeded(amount: number) {
    const u = await registerUser();
    const intent = await createIntent(u.cookie, amount);
    const paid = await setIntent(intent.paymentIntentId, { status: "succeeded" });
    return { ...u, intent, paid };
  }

  it("credits payment_intent.succeeded with a valid signature, without Origin or cookie, once", async () => {
    const { user, paid } = await succeeded(20);
    const payload = succeededEvent(paid);
    const res = await postWebhook(payload, await sign(payload));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ received: true, credited: true });
    expect(await balanceCents(user.id)).toBe(2000);
    // Stripe redelivers: no second credit.
    const again = await postWebhook(payload, await sign(payload));
    expect(again.body).toEqual({ received: true, credited: false });
    expect(await balanceCents(user.id)).toBe(2000);
  });

  it.each([
    ["signed with another secret", { secret: "whsec_forged" }],
    ["stale (10 minutes old)", { timestamp: Math.floor(Date.now() / 1000) - 600 }],
  ])("refuses a signature %s with 400 and credits nothing", async (_name, opts) => {
    const { user, paid } = await succeeded(20);
    const payload = succeededEvent(paid);
    const res = await postWebhook(payload, await sign(payload, opts));
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ code: "webhook_signature_invalid", message: "Invalid webhook signature" });
    expect(await balanceCents(user.id)).toBe(0);
  });

  it("refuses a tampered body and a missing signature", async () => {
    const { user, paid } = await succeeded(20);
    const payload = succeededEvent(paid);
    const signature = await sign(payload);
    const tampered = payload.replace('"amount":2000', '"amount":200000');
    expect(tampered).not.toBe(payload);
    expect((await postWebhook(tampered, signature)).status).toBe(400);
    expect((await postWebhook(payload)).status).toBe(400);
    expect(await balanceCents(user.id)).toBe(0);
  });

  it("webhook then confirm, and confirm then webhook, credit once", async () => {
    const a = await succeeded(15);
    const payloadA = succeededEvent(a.paid);
    expect((await postWebhook(payloadA, await sign(payloadA))).body.credited).toBe(true);
    expect((await confirm(a.cookie, a.intent.paymentIntentId, 15)).body.balance).toBe(15);

    const b = await succeeded(15);
    expect((await confirm(b.cookie, b.intent.paymentIntentId, 15)).body.balance).toBe(15);
    const payloadB = succeededEvent(b.paid);
    expect((await postWebhook(payloadB, await sign(payloadB))).body.credited).toBe(false);

    expect(await balanceCents(a.user.id)).toBe(1500);
    expect(await balanceCents(b.user.id)).toBe(1500);
  });

  it("webhook and confirm arriving together credit once", async () => {
    const { cookie, user, intent, paid } = await succeeded(33);
    const payload = succeededEvent(paid);
    const signature = await sign(payload);
    await Promise.all([
      postWebhook(payload, signature),
      confirm(cookie, intent.paymentIntentId, 33),
      postWebhook(payload, signature),
      confirm(cookie, intent.paymentIntentId),
    ]);
    expect(await balanceCents(user.id)).toBe(3300);
    expect(await countRows("SELECT 1 FROM transactions WHERE reference = ?", intent.paymentIntentId)).toBe(1);
  });

  it("acknowledges other event types without crediting", async () => {
    const { user, paid } = await succeeded(20);
    const payload = JSON.stringify({ ...JSON.parse(succeededEvent(paid)), type: "payment_intent.created" });
    const res = await postWebhook(payload, await sign(payload));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ received: true, ignored: "payment_intent.created" });
    expect(await balanceCents(user.id)).toBe(0);
  });

  it("acknowledges but does not credit an intent in another currency or for no known user", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const { user } = await registerUser();
    const eur = await mockIntent({ amount: 1000, currency: "eur", status: "succeeded", metadata: { userId: String(user.id) } });
    const eurPayload = succeededEvent(eur);
    expect((await postWebhook(eurPayload, await sign(eurPayload))).body).toEqual({ received: true, credited: false });
    const stranger = await mockIntent({ amount: 1000, currency: "usd", status: "succeeded", metadata: { userId: "987654321" } });
    const strangerPayload = succeededEvent(stranger);
    expect((await postWebhook(strangerPayload, await sign(strangerPayload))).body).toEqual({ received: true, credited: false });
    const foreign = await mockIntent({ amount: 1000, currency: "usd", status: "succeeded" });
    const foreignPayload = succeededEvent(foreign);
    expect((await postWebhook(foreignPayload, await sign(foreignPayload))).body).toEqual({ received: true, credited: false });
    expect(await balanceCents(user.id)).toBe(0);
    expect(warn.mock.calls.map((c) => (c[1] as { reason: string }).reason)).toEqual([
      MONEY.currencyUnsupported,
      "no such user",
      "no such user",
    ]);
    warn.mockRestore();
  });
});

async function refundsOf(paymentIntentId: string) {
  const all = (await (await fetch(mockUrl("/__mock/refunds"))).json()) as {
    payment_intent: string;
    amount: number;
    metadata: Record<string, string>;
  }[];
  return all.filter((r) => r.payment_intent === paymentIntentId);
}

describe("checked again when the money arrives (Stripe)", () => {
  /** Two $200 checkouts paid at Stripe, then a $300 daily limit: the second may not be credited. */
  async function overLimit() {
    const { cookie, user } = await registerUser();
    const a = await paidIntent(cookie, 200);
    const b = await paidIntent(cookie, 200);
    const limits = await call("/api/user/responsible-play/limits", { method: "PUT", cookie, body: { deposit_daily: 300 } });
    expect(limits.status).toBe(200);
    const events = await Promise.all([a, b].map(async (i) => setIntent(i.paymentIntentId, {})));
    return { cookie, user, a, b, events };
  }

  it("a webhook for a payment over the limit refunds it through Stripe once, duplicates included, and never credits it", async () => {
    const { user, b, events } = await overLimit();
    const credited = succeededEvent(events[0]!);
    expect((await postWebhook(credited, await sign(credited))).body).toEqual({ received: true, credited: true });
    const payload = succeededEvent(events[1]!);
    const first = await postWebhook(payload, await sign(payload));
    expect(first).toEqual({ status: 200, body: { received: true, credited: false, refunded: "deposit_daily" } });
    const again = await postWebhook(payload, await sign(payload));
    expect(again.body).toEqual({ received: true, credited: false, refunded: "deposit_daily" });
    const refunds = await refundsOf(b.paymentIntentId);
    expect(refunds).toEqual([expect.objectContaining({ amount: 20_000, metadata: { refusal: "deposit_daily" } })]);
    const refundRequests = (await receivedRequests()).filter(
      (r) => r.path === "/v1/refunds" && r.params.payment_intent === b.paymentIntentId,
    );
    expect(refundRequests.every((r) => r.idempotencyKey === `deposit-refund-${b.paymentIntentId}`)).toBe(true);
    expect(await balanceCents(user.id)).toBe(20_000);
    expect(await countRows("SELECT 1 FROM transactions WHERE reference = ? AND status = 'refunded'", b.paymentIntentId)).toBe(1);

    // Stripe then reports the charge refunded: our own refund of money never credited takes nothing from the balance.
    const charge = {
      id: `ch_${b.paymentIntentId}`,
      object: "charge",
      amount: 20_000,
      amount_refunded: 20_000,
      currency: "usd",
      payment_intent: b.paymentIntentId,
    };
    const refunded = JSON.stringify({
      id: `evt_${crypto.randomUUID().replace(/-/g, "")}`,
      object: "event",
      type: "charge.refunded",
      api_version: "2025-01-01",
      created: Math.floor(Date.now() / 1000),
      livemode: false,
      data: { object: charge },
    });
    expect((await postWebhook(refunded, await sign(refunded))).body).toEqual({ received: true, applied: false, outcomes: ["ignored"] });
    expect(await balanceCents(user.id)).toBe(20_000);
  });

  it("the browser's confirm and the webhook racing decide once: one ledger row, one refund, the player told why", async () => {
    const { cookie, user, a, b, events } = await overLimit();
    expect((await confirm(cookie, a.paymentIntentId, 200)).status).toBe(200);
    const payload = succeededEvent(events[1]!);
    const [viaBrowser, viaWebhook] = await Promise.all([
      confirm(cookie, b.paymentIntentId, 200),
      postWebhook(payload, await sign(payload)),
    ]);
    expect(viaBrowser.status).toBe(409);
    expect(viaBrowser.body).toEqual({
      code: "deposit_refunded",
      message: MONEY.depositRefunded("200.00", MONEY.depositRefusedWhy.deposit_daily),
    });
    expect(viaWebhook.body).toMatchObject({ credited: false, refunded: "deposit_daily" });
    expect(await refundsOf(b.paymentIntentId)).toHaveLength(1);
    expect(await countRows("SELECT 1 FROM transactions WHERE reference = ?", b.paymentIntentId)).toBe(1);
    expect(await balanceCents(user.id)).toBe(20_000);
  });

  it("a cool-off cancels the open checkouts at Stripe; a payment that still arrives by webhook is refunded", async () => {
    const { cookie, user, password } = await registerUser();
    const paid = await paidIntent(cookie, 30);
    const open = await createIntent(cookie, 20);
    const res = await call("/api/user/responsible-play/cool-off", { cookie, body: { period: "24h", password } });
    expect(res.status).toBe(200);
    expect((await setIntent(open.paymentIntentId, {})).status).toBe("canceled");
    const event = await setIntent(paid.paymentIntentId, {});
    const payload = succeededEvent(event);
    expect((await postWebhook(payload, await sign(payload))).body).toEqual({ received: true, credited: false, refunded: "cooling_off" });
    expect(await refundsOf(paid.paymentIntentId)).toHaveLength(1);
    expect(await balanceCents(user.id)).toBe(0);
  });

  it("a webhook for a suspended account, or a date of birth under the default age, is refunded", async () => {
    const { cookie, user } = await registerUser();
    const paid = await paidIntent(cookie, 10);
    await testEnv.DB.prepare("UPDATE users SET suspended_at = ? WHERE id = ?").bind(Date.now(), user.id).run();
    const payload = succeededEvent(await setIntent(paid.paymentIntentId, {}));
    expect((await postWebhook(payload, await sign(payload))).body).toMatchObject({ refunded: "account_suspended" });

    const young = await registerUser({ dateOfBirth: `${new Date().getUTCFullYear() - 30}-01-01` });
    const p2 = await paidIntent(young.cookie, 10);
    // The date on file is corrected by an operator to one under 18.
    await testEnv.DB.prepare("UPDATE users SET date_of_birth = ? WHERE id = ?")
      .bind(`${new Date().getUTCFullYear() - 17}-01-01`, young.user.id)
      .run();
    const payload2 = succeededEvent(await setIntent(p2.paymentIntentId, {}));
    expect((await postWebhook(payload2, await sign(payload2))).body).toMatchObject({ refunded: "underage" });
    expect(await balanceCents(young.user.id)).toBe(0);
  });
});

// A self-exclusion outlives the account with Stripe too (docs/responsible-play.md, "Deleting an
// account"): the fingerprint of the card a self-excluded player paid with (the PaymentIntent's
// latest charge, payment_method_details.card.fingerprint) is kept at deletion, and a new account
// paying with that card has the payment refunded at credit and takes the exclusion over, through
// the browser's confirm and through the webhook alike. In this file, not one of its own: the
// tests above pick the double's requests out by metadata.userId, and each file's users are
// numbered from 1 while the double is shared. The tests share one deleted person (Ada), in order.
describe("a Stripe card of a deleted self-excluded account", () => {
  /** Ada's card, and another one; neither is the double's default card the tests above pay with. */
  const ADA_CARD = "4000056655665556";
  const OTHER_CARD = "5555555555554444";

  type Person = Awaited<ReturnType<typeof registerUser>>;
  const idOf = (p: Person) => p.user.id as number;

  /** Opens a checkout through our API and has "Stripe" report it paid by `card`. */
  async function payAtStripe(p: Person, card: string, amount = 20): Promise<MockIntent> {
    const intent = await createIntent(p.cookie, amount);
    return setIntent(intent.paymentIntentId, { status: "succeeded", card });
  }

  /** The fingerprint "Stripe" gives the card that paid the intent, read from its charge as any client would. */
  async function fingerprintAtStripe(intent: MockIntent): Promise<string> {
    expect(intent.latest_charge).toMatch(/^ch_/);
    const res = await fetch(mockUrl(`/v1/charges/${intent.latest_charge}`), {
      headers: { authorization: `Bearer ${testEnv.STRIPE_SECRET_KEY}` },
    });
    expect(res.status).toBe(200);
    const charge = (await res.json()) as { payment_method_details: { card: { fingerprint: string } } };
    return charge.payment_method_details.card.fingerprint;
  }

  /** As Stripe sends it: latest_charge in the event's object is the charge's id, not the charge. */
  async function webhookFor(intent: MockIntent) {
    const payload = succeededEvent(intent);
    return postWebhook(payload, await sign(payload));
  }

  const checkoutOf = (paymentIntentId: string) =>
    testEnv.DB.prepare("SELECT status, refund_reason, refunded_at, card_fingerprint FROM deposit_intents WHERE id = ?")
      .bind(paymentIntentId)
      .first<{ status: string; refund_reason: string | null; refunded_at: number | null; card_fingerprint: string | null }>();

  const exclusionOf = async (p: Person) => (await call("/api/user/responsible-play", { cookie: p.cookie })).body.exclusion;

  let adaFingerprint: string;
  let adaEnds: number;

  beforeAll(async () => {
    const ada = await registerUser();
    // A Stripe deposit with Ada's card, credited; then withdrawn, which goes back to that card (closed loop).
    const paid = await payAtStripe(ada, ADA_CARD);
    adaFingerprint = await fingerprintAtStripe(paid);
    const credited = await confirm(ada.cookie, paid.id, 20);
    expect(credited.status, credited.text).toBe(200);
    await readyToWithdraw(idOf(ada));
    const out = await withdraw(ada.cookie, 20);
    expect(out.status, out.text).toBe(200);
    expect(await balanceCents(idOf(ada))).toBe(0);

    const excluded = await call("/api/user/responsible-play/self-exclusion", {
      cookie: ada.cookie,
      body: { period: "6m", password: ada.password },
    });
    expect(excluded.status, excluded.text).toBe(200);
    adaEnds = Date.parse(excluded.body.exclusion.endsAt);
    const deleted = await call("/api/user", {
      method: "DELETE",
      cookie: ada.cookie,
      body: { password: ada.password, confirm: DELETE_ACCOUNT_CONFIRMATION },
    });
    expect(deleted.status, deleted.text).toBe(200);
  }, 60_000);

  it("the card's fingerprint from Stripe was kept at the deletion, as a keyed hash, with the exclusion's end", async () => {
    const kept = await testEnv.DB.prepare("SELECT ends_at FROM excluded_identities WHERE kind = 'card' AND hash = ?")
      .bind(cardHash(testEnv, adaFingerprint))
      .all<{ ends_at: number | null }>();
    expect(kept.results).toEqual([{ ends_at: adaEnds }]);
  });

  it("paid again from a new account and confirmed: refunded to the card (409 self_excluded), and the account is excluded", async () => {
    const other = await registerUser();
    const paid = await payAtStripe(other, ADA_CARD);
    expect(await fingerprintAtStripe(paid)).toBe(adaFingerprint);
    const res = await confirm(other.cookie, paid.id, 20);
    expect(res.status, res.text).toBe(409);
    expect(res.body).toEqual({
      code: "deposit_refunded",
      message: MONEY.depositRefunded("20.00", MONEY.depositRefusedWhy.self_excluded),
    });
    const checkout = await checkoutOf(paid.id);
    expect(checkout).toMatchObject({ status: "refunded", refund_reason: "self_excluded", card_fingerprint: adaFingerprint });
    expect(checkout?.refunded_at).not.toBeNull();
    expect(await refundsOf(paid.id)).toEqual([expect.objectContaining({ amount: 2000, metadata: { refusal: "self_excluded" } })]);
    expect(await balanceCents(idOf(other))).toBe(0);
    expect(Date.parse((await exclusionOf(other)).endsAt)).toBe(adaEnds);
  });

  it("paid again from a new account and reported by the webhook: refunded, and the account is excluded", async () => {
    const other = await registerUser();
    const paid = await payAtStripe(other, ADA_CARD);
    expect(typeof paid.latest_charge).toBe("string");
    expect(await webhookFor(paid)).toEqual({ status: 200, body: { received: true, credited: false, refunded: "self_excluded" } });
    expect(await refundsOf(paid.id)).toEqual([expect.objectContaining({ amount: 2000, metadata: { refusal: "self_excluded" } })]);
    expect(await balanceCents(idOf(other))).toBe(0);
    expect(Date.parse((await exclusionOf(other)).endsAt)).toBe(adaEnds);
  });

  it("another card credits as ever, by confirm and by webhook, its fingerprint kept, and excludes nobody", async () => {
    const other = await registerUser();
    const first = await payAtStripe(other, OTHER_CARD);
    const otherFingerprint = await fingerprintAtStripe(first);
    expect(otherFingerprint).not.toBe(adaFingerprint);
    const res = await confirm(other.cookie, first.id, 20);
    expect(res.status, res.text).toBe(200);
    expect(res.body.balance).toBe(20);
    expect(await checkoutOf(first.id)).toMatchObject({ status: "credited", card_fingerprint: otherFingerprint });
    const second = await payAtStripe(other, OTHER_CARD);
    expect((await webhookFor(second)).body).toEqual({ received: true, credited: true });
    expect(await checkoutOf(second.id)).toMatchObject({ status: "credited", card_fingerprint: otherFingerprint });
    expect(await balanceCents(idOf(other))).toBe(4000);
    expect([...(await refundsOf(first.id)), ...(await refundsOf(second.id))]).toEqual([]);
    expect(await exclusionOf(other)).toBeNull();
  });
});
