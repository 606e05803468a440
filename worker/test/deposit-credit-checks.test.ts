// The controls are checked again when a payment is credited, not only when its checkout was
// created (docs/payments.md, "Checked again when the money arrives"), through the sandbox
// provider: a payment that may not be credited is refunded to the card, recorded in the ledger
// as a refunded row outside the balance, and shown to the player; open checkouts count against
// the deposit limits; a break cancels them.
import { afterEach, describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import { MONEY } from "../../common/messages";
import { buildOverview } from "../admin/overview";
import { call, registerUser } from "./helpers";
import { balanceCents, countRows, expectLedgerBalanced, futureYear } from "./money-helpers";

afterEach(expectLedgerBalanced);

const card = { cardNumber: "4242424242424242", expMonth: 12, expYear: futureYear(), cvc: "123" };

async function player(dateOfBirth?: string) {
  const u = await registerUser(dateOfBirth ? { dateOfBirth } : {});
  return { id: u.user.id as number, cookie: u.cookie, password: u.password };
}
type P = Awaited<ReturnType<typeof player>>;

const createIntent = (p: P, amount: number) => call("/api/create-payment-intent", { cookie: p.cookie, body: { amount } });

/** A checkout created and paid with the test card, not yet confirmed (the money is at the provider). */
async function paidCheckout(p: P, amount: number) {
  const created = await createIntent(p, amount);
  expect(created.status).toBe(200);
  const paid = await call("/api/sandbox/confirm-payment", { cookie: p.cookie, body: { clientSecret: created.body.clientSecret, ...card } });
  expect(paid.status).toBe(200);
  return created.body as { clientSecret: string; paymentIntentId: string };
}

const confirm = (p: P, paymentIntentId: string, amount: number, extra: { cf?: Record<string, unknown>; env?: Partial<Env> } = {}) =>
  call("/api/deposit/confirm", { cookie: p.cookie, body: { paymentIntentId, amount }, ...extra });

const putLimits = (p: P, limits: Record<string, number | null>) =>
  call("/api/user/responsible-play/limits", { method: "PUT", cookie: p.cookie, body: limits });

const sandboxIntent = (id: string) =>
  env.DB.prepare("SELECT status, refunded_at AS refundedAt, refund_reason AS refundReason FROM sandbox_payment_intents WHERE id = ?")
    .bind(id)
    .first<{ status: string; refundedAt: number | null; refundReason: string | null }>();

const ledgerRow = (reference: string) =>
  env.DB.prepare("SELECT amount_cents AS cents, type, status, description FROM transactions WHERE reference = ?")
    .bind(reference)
    .first<{ cents: number; type: string; status: string; description: string }>();

/** The refused payment: a 409 deposit_refunded saying why and that it goes back to the card; one refunded row; the provider refunded it once. */
async function expectRefunded(_p: P, paymentIntentId: string, amount: number, why: string, res: Awaited<ReturnType<typeof confirm>>) {
  expect(res.status).toBe(409);
  expect(res.body).toEqual({ code: "deposit_refunded", message: MONEY.depositRefunded(amount.toFixed(2), why) });
  expect(res.body.message).toContain("refunded to your card");
  expect(await ledgerRow(paymentIntentId)).toEqual({
    cents: amount * 100,
    type: "deposit",
    status: "refunded",
    description: MONEY.depositRefundedRow(amount.toFixed(2), why),
  });
  expect((await sandboxIntent(paymentIntentId))?.refundedAt).toEqual(expect.any(Number));
}

describe("deposit limits at credit", () => {
  it("the finding: checkouts opened before paying cannot together pass the daily limit; the one over it is refunded", async () => {
    const p = await player();
    // Two checkouts opened and paid while no limit stood in their way, then a $300 daily limit (a lower limit applies at once).
    const a = await paidCheckout(p, 200);
    const b = await paidCheckout(p, 200);
    expect((await putLimits(p, { deposit_daily: 300 })).status).toBe(200);

    expect((await confirm(p, a.paymentIntentId, 200)).status).toBe(200);
    const refused = await confirm(p, b.paymentIntentId, 200);
    await expectRefunded(p, b.paymentIntentId, 200, MONEY.depositRefusedWhy.deposit_daily, refused);
    expect(await balanceCents(p.id)).toBe(20_000);

    // A retry answers the same and refunds nothing twice.
    const refundedAt = (await sandboxIntent(b.paymentIntentId))!.refundedAt;
    expect(await confirm(p, b.paymentIntentId, 200)).toMatchObject({ status: 409, body: refused.body });
    expect((await sandboxIntent(b.paymentIntentId))!.refundedAt).toBe(refundedAt);
    expect(await countRows("SELECT 1 FROM transactions WHERE reference = ?", b.paymentIntentId)).toBe(1);

    // The player sees it among their transactions, and the balance and the limit's use are untouched by it.
    const list = await call("/api/user/transactions", { cookie: p.cookie });
    expect(list.body).toContainEqual(expect.objectContaining({ reference: b.paymentIntentId, status: "refunded", amount: 200 }));
    const state = await call("/api/user/responsible-play", { cookie: p.cookie });
    expect(state.body.limits.find((l: { kind: string }) => l.kind === "deposit_daily")).toMatchObject({ used: 200, left: 100 });

    // The overview's identity (money in = money out + balances) holds.
    expect((await buildOverview(env.DB)).reconciliation.ok).toBe(true);
  });

  it("parallel confirms of payments that together pass the limit credit what fits and refund the rest, each exactly once", async () => {
    const p = await player();
    const checkouts = [];
    for (let i = 0; i < 4; i++) checkouts.push(await paidCheckout(p, 100));
    await putLimits(p, { deposit_daily: 250 });
    const results = await Promise.all(checkouts.flatMap((c) => [confirm(p, c.paymentIntentId, 100), confirm(p, c.paymentIntentId, 100)]));
    // Each payment has one answer, whichever of its two confirms came first.
    for (let i = 0; i < 4; i++) expect(results[2 * i]!.status).toBe(results[2 * i + 1]!.status);
    expect(results.filter((r) => r.status === 200)).toHaveLength(4);
    expect(results.filter((r) => r.status === 409 && r.body.code === "deposit_refunded")).toHaveLength(4);
    expect(await balanceCents(p.id)).toBe(20_000);
    expect(await countRows("SELECT 1 FROM transactions WHERE user_id = ? AND status = 'refunded'", p.id)).toBe(2);
  });

  it("refuses a payment above MAX_DEPOSIT_CENTS when it arrives", async () => {
    const p = await player();
    const c = await paidCheckout(p, 500);
    const res = await confirm(p, c.paymentIntentId, 500, { env: { MAX_DEPOSIT_CENTS: "30000" } });
    await expectRefunded(p, c.paymentIntentId, 500, MONEY.depositRefusedWhy.max_deposit("300.00"), res);
    expect(await balanceCents(p.id)).toBe(0);
  });
});

describe("open checkouts count against the limit", () => {
  it("a second checkout that would pass the limit with an open one is refused at create", async () => {
    const p = await player();
    await putLimits(p, { deposit_daily: 300 });
    expect((await createIntent(p, 200)).status).toBe(200);
    const second = await createIntent(p, 200);
    expect(second.status).toBe(409);
    expect(second.body.code).toBe("deposit_limit_reached");
    expect(second.body.message).toContain("You can deposit up to $100.00 now");
    expect((await createIntent(p, 100)).status).toBe(200);
  });

  it("a checkout that was paid and credited counts once, and one refunded or cancelled counts no more", async () => {
    const p = await player();
    await putLimits(p, { deposit_daily: 300 });
    const a = await paidCheckout(p, 100);
    expect((await confirm(p, a.paymentIntentId, 100)).status).toBe(200);
    const state = await call("/api/user/responsible-play", { cookie: p.cookie });
    expect(state.body.limits.find((l: { kind: string }) => l.kind === "deposit_daily")).toMatchObject({ used: 100, left: 200 });
    await env.DB.prepare("UPDATE deposit_intents SET status = 'cancelled' WHERE user_id = ?").bind(p.id).run();
    expect((await createIntent(p, 200)).status).toBe(200);
  });
});

describe("breaks, suspension, age and region at credit", () => {
  it("a cool-off started after paying refunds the payment; its open checkouts are cancelled and can no longer be paid", async () => {
    const p = await player();
    const paid = await paidCheckout(p, 50);
    const open = (await createIntent(p, 20)).body as { clientSecret: string; paymentIntentId: string };
    const coolOff = await call("/api/user/responsible-play/cool-off", { cookie: p.cookie, body: { period: "24h", password: p.password } });
    expect(coolOff.status).toBe(200);

    expect((await sandboxIntent(open.paymentIntentId))!.status).toBe("canceled");
    expect(await countRows("SELECT 1 FROM deposit_intents WHERE id = ? AND status = 'cancelled'", open.paymentIntentId)).toBe(1);
    const pay = await call("/api/sandbox/confirm-payment", { cookie: p.cookie, body: { clientSecret: open.clientSecret, ...card } });
    expect(pay).toMatchObject({ status: 409, body: { code: "checkout_cancelled", message: MONEY.checkoutCancelled } });

    await expectRefunded(p, paid.paymentIntentId, 50, MONEY.depositRefusedWhy.cooling_off, await confirm(p, paid.paymentIntentId, 50));
    expect(await balanceCents(p.id)).toBe(0);
  });

  it("a cancelled checkout that is paid all the same is refunded once the break is over", async () => {
    const p = await player();
    const c = await paidCheckout(p, 30);
    await env.DB.prepare("UPDATE deposit_intents SET status = 'cancelled' WHERE id = ?").bind(c.paymentIntentId).run();
    const res = await confirm(p, c.paymentIntentId, 30);
    await expectRefunded(p, c.paymentIntentId, 30, MONEY.depositRefusedWhy.checkout_cancelled, res);
  });

  it("a self-exclusion started after paying refunds the payment", async () => {
    const p = await player();
    const c = await paidCheckout(p, 40);
    await call("/api/user/responsible-play/self-exclusion", { cookie: p.cookie, body: { period: "6m", password: p.password } });
    await expectRefunded(p, c.paymentIntentId, 40, MONEY.depositRefusedWhy.self_excluded, await confirm(p, c.paymentIntentId, 40));
  });

  it("a suspension after paying refunds the payment", async () => {
    const p = await player();
    const c = await paidCheckout(p, 25);
    await env.DB.prepare("UPDATE users SET suspended_at = ? WHERE id = ?").bind(Date.now(), p.id).run();
    await expectRefunded(p, c.paymentIntentId, 25, MONEY.depositRefusedWhy.account_suspended, await confirm(p, c.paymentIntentId, 25));
  });

  it("a confirm from a barred region, or from where the player is under age, refunds the payment", async () => {
    const p = await player();
    const c = await paidCheckout(p, 15);
    const barred = await confirm(p, c.paymentIntentId, 15, { cf: { country: "KP" } });
    await expectRefunded(p, c.paymentIntentId, 15, MONEY.depositRefusedWhy.region_barred, barred);

    const year = new Date().getUTCFullYear() - 20;
    const young = await player(`${year}-01-01`);
    const d = await paidCheckout(young, 15);
    const underage = await confirm(young, d.paymentIntentId, 15, { cf: { country: "US", regionCode: "MS" } });
    await expectRefunded(young, d.paymentIntentId, 15, MONEY.depositRefusedWhy.underage(21), underage);
  });
});
