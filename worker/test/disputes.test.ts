// The dispute lifecycle in full and reversals that race the credit, through the sandbox's issuer
// side (POST /api/sandbox/reversal), which runs the same code as Stripe's webhook events
// (docs/payments.md, "Card refunds and disputes").
import { afterEach, describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import { MONEY } from "../../common/messages";
import { creditOrRefund } from "../payments/deposits";
import { SandboxProvider } from "../payments/sandbox";
import { webhookCreditChecks } from "../responsible-play/checks";
import { createDb } from "../db/client";
import { call, registerUser } from "./helpers";
import { balanceCents, expectLedgerBalanced, futureYear } from "./money-helpers";

afterEach(expectLedgerBalanced);

const card = { cardNumber: "4242424242424242", expMonth: 12, expYear: futureYear(), cvc: "123" };

async function player() {
  const u = await registerUser();
  return { id: u.user.id as number, cookie: u.cookie };
}
type P = Awaited<ReturnType<typeof player>>;

/** A checkout paid with the test card; credited unless `credit` is false (the money is at the provider). */
async function paid(p: P, dollars: number, credit = true): Promise<string> {
  const created = await call("/api/create-payment-intent", { cookie: p.cookie, body: { amount: dollars } });
  expect(created.status).toBe(200);
  expect(
    (await call("/api/sandbox/confirm-payment", { cookie: p.cookie, body: { clientSecret: created.body.clientSecret, ...card } })).status,
  ).toBe(200);
  const id = created.body.paymentIntentId as string;
  if (credit) expect((await confirm(p, id, dollars)).status).toBe(200);
  return id;
}

const confirm = (p: P, paymentIntentId: string, amount: number) =>
  call("/api/deposit/confirm", { cookie: p.cookie, body: { paymentIntentId, amount } });

const issuer = (p: P, paymentIntentId: string, event: string, extra: { amount?: number; eventId?: string; host?: string } = {}) =>
  call("/api/sandbox/reversal", {
    cookie: p.cookie,
    host: extra.host,
    body: {
      paymentIntentId,
      event,
      ...(extra.amount ? { amount: extra.amount } : {}),
      ...(extra.eventId ? { eventId: extra.eventId } : {}),
    },
  });

const rows = async (p: P) =>
  (
    await env.DB.prepare("SELECT type, amount_cents AS cents FROM transactions WHERE user_id = ? AND type <> 'deposit' ORDER BY id")
      .bind(p.id)
      .all<{ type: string; cents: number }>()
  ).results.map((r) => [r.type, r.cents]);

describe("the dispute lifecycle", () => {
  it("funds withdrawn take the money once, funds reinstated give it back once, each event id applied once", async () => {
    const p = await player();
    const pi = await paid(p, 40);
    const opened = await issuer(p, pi, "dispute_created", { eventId: "evt_sbx_open1" });
    expect(opened.body).toMatchObject({ applied: true });
    // Stripe then reports the funds withdrawn, and may repeat any event: nothing more moves.
    expect((await issuer(p, pi, "dispute_created", { eventId: "evt_sbx_open1" })).body).toMatchObject({ applied: false });
    expect((await issuer(p, pi, "funds_withdrawn")).body).toMatchObject({ applied: false });
    expect(await balanceCents(p.id)).toBe(0);

    expect((await issuer(p, pi, "funds_reinstated", { eventId: "evt_sbx_back1" })).body).toMatchObject({ applied: true });
    expect((await issuer(p, pi, "funds_reinstated", { eventId: "evt_sbx_back1" })).body).toMatchObject({ applied: false });
    // The dispute then closes won: already given back.
    expect((await issuer(p, pi, "dispute_won")).body).toMatchObject({ applied: false });
    expect(await balanceCents(p.id)).toBe(4_000);
    expect(await rows(p)).toEqual([
      ["chargeback", -4_000],
      ["chargeback_reversal", 4_000],
    ]);
  });

  it("funds_withdrawn alone (no created event seen) takes the money", async () => {
    const p = await player();
    const pi = await paid(p, 25);
    expect((await issuer(p, pi, "funds_withdrawn")).body).toMatchObject({ applied: true });
    expect(await balanceCents(p.id)).toBe(0);
  });

  it("an inquiry takes nothing; when it escalates the money is taken, once; lost then moves nothing more", async () => {
    const p = await player();
    const pi = await paid(p, 30);
    expect((await issuer(p, pi, "dispute_inquiry")).body).toMatchObject({ applied: false });
    expect(await balanceCents(p.id)).toBe(3_000);
    expect((await issuer(p, pi, "dispute_escalated")).body).toMatchObject({ applied: true });
    expect((await issuer(p, pi, "funds_withdrawn")).body).toMatchObject({ applied: false });
    expect((await issuer(p, pi, "dispute_lost")).body).toMatchObject({ applied: false });
    expect(await balanceCents(p.id)).toBe(0);
    expect(await rows(p)).toEqual([["chargeback", -3_000]]);
  });

  it("an inquiry lost outright takes the money when it is lost, once", async () => {
    const p = await player();
    const pi = await paid(p, 20);
    await issuer(p, pi, "dispute_inquiry");
    expect((await issuer(p, pi, "dispute_lost", { eventId: "evt_sbx_lost1" })).body).toMatchObject({ applied: true });
    expect((await issuer(p, pi, "dispute_lost", { eventId: "evt_sbx_lost1" })).body).toMatchObject({ applied: false });
    expect(await balanceCents(p.id)).toBe(0);
    expect(await rows(p)).toEqual([["chargeback", -2_000]]);
  });

  it("a sandbox refund is a real partial refund at the sandbox and a card_refund in the ledger", async () => {
    const p = await player();
    const pi = await paid(p, 50);
    expect((await issuer(p, pi, "refund", { amount: 15 })).body).toMatchObject({ applied: true });
    expect((await issuer(p, pi, "refund", { amount: 10 })).body).toMatchObject({ applied: true });
    expect(await balanceCents(p.id)).toBe(2_500);
    expect(await rows(p)).toEqual([
      ["card_refund", -1_500],
      ["card_refund", -1_000],
    ]);
  });

  it("the issuer route is the sandbox's, on loopback only, and only for one's own payment", async () => {
    const p = await player();
    const pi = await paid(p, 10);
    expect((await issuer(p, pi, "dispute_created", { host: "arena.example.com" })).status).toBe(503);
    const other = await player();
    expect((await issuer(other, pi, "dispute_created")).status).toBe(404);
    expect(await balanceCents(p.id)).toBe(1_000);
  });
});

describe("a refund or dispute that arrives before the credit", () => {
  it("is recorded against the payment; /api/deposit/confirm refuses it; a credit later (the webhook) applies it", async () => {
    const p = await player();
    const pi = await paid(p, 30, false);
    expect((await issuer(p, pi, "dispute_created")).body).toMatchObject({ applied: false, outcomes: ["recorded"] });
    const refused = await confirm(p, pi, 30);
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({ code: "payment_reversed", message: MONEY.paymentReversed });
    expect(await balanceCents(p.id)).toBe(0);

    // The provider's payment_intent.succeeded credits it anyway (the webhook's path): the dispute applies at once.
    const intent = (await new SandboxProvider(createDb(env.DB)).retrieveIntent(pi))!;
    const outcome = await creditOrRefund(env.DB, new SandboxProvider(createDb(env.DB)), intent, p.id, webhookCreditChecks(100_000));
    expect(outcome.kind).toBe("credited");
    expect(await balanceCents(p.id)).toBe(0);
    expect(await rows(p)).toEqual([["chargeback", -3_000]]);
    // Again (a repeated delivery): nothing more.
    await creditOrRefund(env.DB, new SandboxProvider(createDb(env.DB)), intent, p.id, webhookCreditChecks(100_000));
    expect(await rows(p)).toEqual([["chargeback", -3_000]]);
  });

  it("a partial refund before the credit is taken at credit", async () => {
    const p = await player();
    const pi = await paid(p, 30, false);
    expect((await issuer(p, pi, "refund", { amount: 10 })).body).toMatchObject({ outcomes: ["recorded"] });
    expect((await confirm(p, pi, 30)).status).toBe(409);
    const intent = (await new SandboxProvider(createDb(env.DB)).retrieveIntent(pi))!;
    await creditOrRefund(env.DB, new SandboxProvider(createDb(env.DB)), intent, p.id, webhookCreditChecks(100_000));
    expect(await balanceCents(p.id)).toBe(2_000);
    expect(await rows(p)).toEqual([["card_refund", -1_000]]);
  });
});
