// Closed loop (docs/payments.md, "Money back where it came from"): a withdrawal first refunds the
// card deposits of the last 120 days to their cards, newest first, with no 72 h hold; only the
// rest goes to the bank account. Real sandbox deposits (checkout, test card, confirm), so the
// provider's refunds are real sandbox refunds.
import { afterEach, describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import { MONEY } from "../../common/messages";
import { CARD_REFUND_WINDOW_DAYS } from "../../common/spec";
import { buildOverview } from "../admin/overview";
import { call, registerUser } from "./helpers";
import { balanceCents, countRows, expectLedgerBalanced, futureYear, readyToWithdraw, validBank } from "./money-helpers";

afterEach(expectLedgerBalanced);

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const card = { cardNumber: "4242424242424242", expMonth: 12, expYear: futureYear(), cvc: "123" };

async function player() {
  const u = await registerUser();
  await readyToWithdraw(u.user.id);
  return { id: u.user.id as number, cookie: u.cookie };
}
type P = Awaited<ReturnType<typeof player>>;

/** A real sandbox deposit of `dollars`, credited; `daysAgo` moves it back in time. Returns its PaymentIntent id. */
async function deposit(p: P, dollars: number, daysAgo = 0): Promise<string> {
  const created = await call("/api/create-payment-intent", { cookie: p.cookie, body: { amount: dollars } });
  expect(created.status).toBe(200);
  const paid = await call("/api/sandbox/confirm-payment", { cookie: p.cookie, body: { clientSecret: created.body.clientSecret, ...card } });
  expect(paid.status).toBe(200);
  const id = created.body.paymentIntentId as string;
  expect((await call("/api/deposit/confirm", { cookie: p.cookie, body: { paymentIntentId: id, amount: dollars } })).status).toBe(200);
  if (daysAgo > 0)
    await env.DB.prepare("UPDATE transactions SET created_at = created_at - ? WHERE reference = ?")
      .bind(daysAgo * DAY, id)
      .run();
  return id;
}

/** Winnings: a prize row straight into the ledger. */
const prize = (p: P, cents: number) =>
  env.DB.prepare("INSERT INTO transactions (user_id, amount_cents, type, status, reference) VALUES (?, ?, 'prize', 'completed', ?)")
    .bind(p.id, cents, `prize:${crypto.randomUUID()}:${p.id}`)
    .run();

const withdraw = (p: P, amount: number, key: string = crypto.randomUUID()) =>
  call("/api/withdrawal/confirm", {
    cookie: p.cookie,
    headers: { "idempotency-key": key },
    body: { amount, withdrawalMethod: "bank_account", bankAccount: validBank() },
  });

const refundedAtSandbox = async (id: string) =>
  (await env.DB.prepare("SELECT refunded_cents AS c FROM sandbox_payment_intents WHERE id = ?").bind(id).first<{ c: number }>())!.c;

const cardRows = (p: P) =>
  env.DB.prepare(
    "SELECT amount_cents AS cents, status, description, reference FROM transactions WHERE user_id = ? AND reference LIKE 'cardrefund:%' ORDER BY id",
  )
    .bind(p.id)
    .all<{ cents: number; status: string; description: string; reference: string }>()
    .then((r) => r.results);

describe("closed loop: deposits go back to the card first", () => {
  it("a deposit made a minute ago is withdrawable at once, as a refund to its card, and nothing goes to a bank", async () => {
    const p = await player();
    const pi = await deposit(p, 50);
    expect((await call("/api/wallet", { cookie: p.cookie })).body).toMatchObject({
      balance: 50,
      withdrawableBalance: 50,
      cardRefundable: 50,
      heldBalance: 0,
    });
    const res = await withdraw(p, 50);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      balance: 0,
      payout: null,
      transaction: null,
      cardAmount: 50,
      bankAmount: 0,
      bankMessage: null,
      cardRefunds: [{ amount: 50, cardLast4: "4242", status: "completed", message: "$50.00 back to your card ending 4242" }],
    });
    expect(await refundedAtSandbox(pi)).toBe(5_000);
    expect(await cardRows(p)).toEqual([
      { cents: -5_000, status: "completed", description: MONEY.cardRefundRow("50.00", "4242"), reference: expect.stringContaining(pi) },
    ]);
    expect(await countRows("SELECT 1 FROM payouts WHERE user_id = ?", p.id)).toBe(0);
  });

  it("only the rest (winnings) goes to the bank account; both rows are in the transactions", async () => {
    const p = await player();
    await deposit(p, 30);
    await prize(p, 2_000);
    // Before: the young deposit was held and only the prize was withdrawable.
    expect((await call("/api/wallet", { cookie: p.cookie })).body).toMatchObject({
      balance: 50,
      withdrawableBalance: 50,
      cardRefundable: 30,
    });
    const res = await withdraw(p, 50);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      balance: 0,
      cardAmount: 30,
      bankAmount: 20,
      bankMessage: "$20.00 to your bank account, 1-3 business days",
      payout: { amount: 20, status: "pending", accountLast4: "6789" },
      transaction: { amount: -20, type: "withdrawal", status: "pending" },
      cardRefunds: [{ amount: 30, status: "completed", message: "$30.00 back to your card ending 4242" }],
    });
    const list = await call("/api/user/transactions", { cookie: p.cookie });
    const withdrawals = (list.body as { type: string; amount: number; description: string }[]).filter((t) => t.type === "withdrawal");
    expect(withdrawals.map((t) => [t.amount, t.description]).sort()).toEqual(
      [
        [-30, MONEY.cardRefundRow("30.00", "4242")],
        [-20, "Withdrawal of $20.00 to checking account ••••6789"],
      ].sort(),
    );
  });

  it("newest deposit first, only deposits of the last 120 days, and never more than was paid in over several withdrawals", async () => {
    const p = await player();
    const old = await deposit(p, 10, CARD_REFUND_WINDOW_DAYS + 1);
    const mid = await deposit(p, 20, 10);
    const fresh = await deposit(p, 15);
    const res = await withdraw(p, 40);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ cardAmount: 35, bankAmount: 5 });
    expect(res.body.cardRefunds.map((c: { amount: number }) => c.amount)).toEqual([15, 20]);
    expect([await refundedAtSandbox(fresh), await refundedAtSandbox(mid), await refundedAtSandbox(old)]).toEqual([1_500, 2_000, 0]);
    // What is left ($5 of the old deposit) is past the window: it goes to the bank.
    expect((await call("/api/wallet", { cookie: p.cookie })).body).toMatchObject({ balance: 5, cardRefundable: 0, withdrawableBalance: 5 });

    // Partly back already: a second withdrawal refunds only what the first did not.
    const q = await player();
    const a = await deposit(q, 40);
    expect((await withdraw(q, 15)).body).toMatchObject({ cardAmount: 15, bankAmount: 0 });
    await prize(q, 1_000);
    const second = await withdraw(q, 35);
    expect(second.body).toMatchObject({ cardAmount: 25, bankAmount: 10 });
    expect(await refundedAtSandbox(a)).toBe(4_000);
  });

  it("a card refund the provider reported already is not refunded again", async () => {
    const p = await player();
    const pi = await deposit(p, 40);
    await prize(p, 1_000);
    await env.DB.prepare(
      `INSERT INTO payment_reversals (event_id, user_id, kind, object_id, payment_intent_id, amount_cents, balance_cents)
       VALUES (?, ?, 'refund', 'ch_x', ?, 1500, 1500)`,
    )
      .bind(`evt_${crypto.randomUUID()}`, p.id, pi)
      .run();
    await env.DB.prepare(
      "INSERT INTO transactions (user_id, amount_cents, type, status, reference) VALUES (?, -1500, 'card_refund', 'completed', ?)",
    )
      .bind(p.id, `reversal:${crypto.randomUUID()}`)
      .run();
    expect((await call("/api/wallet", { cookie: p.cookie })).body).toMatchObject({ balance: 35, cardRefundable: 25 });
    expect((await withdraw(p, 35)).body).toMatchObject({ cardAmount: 25, bankAmount: 10 });
  });

  it("exactly once under retries: the same Idempotency-Key refunds once and answers the same", async () => {
    const p = await player();
    const pi = await deposit(p, 25);
    const key = crypto.randomUUID();
    const [first, second] = await Promise.all([withdraw(p, 25, key), withdraw(p, 25, key)]);
    const ok = [first, second].filter((r) => r.status === 200);
    expect(ok.length).toBeGreaterThanOrEqual(1);
    const again = await withdraw(p, 25, key);
    expect(again.text).toBe(ok[0]!.text);
    expect(await refundedAtSandbox(pi)).toBe(2_500);
    expect(await countRows("SELECT 1 FROM sandbox_refunds WHERE intent_id = ?", pi)).toBe(1);
    expect(await cardRows(p)).toHaveLength(1);
    expect(await balanceCents(p.id)).toBe(0);
  });

  it("parallel withdrawals with different keys cannot refund one deposit twice", async () => {
    const p = await player();
    const pi = await deposit(p, 30);
    const results = await Promise.all([withdraw(p, 30), withdraw(p, 30), withdraw(p, 30)]);
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(await refundedAtSandbox(pi)).toBe(3_000);
    expect(await balanceCents(p.id)).toBe(0);
  });

  it("a refund the provider refuses fails its row and the money is back in the balance", async () => {
    const p = await player();
    const pi = await deposit(p, 20);
    await prize(p, 500);
    // The provider no longer knows the payment: the refund is refused.
    await env.DB.prepare("UPDATE sandbox_payment_intents SET refunded_cents = amount_cents WHERE id = ?").bind(pi).run();
    const res = await withdraw(p, 25);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      balance: 20,
      cardAmount: 0,
      bankAmount: 5,
      cardRefunds: [{ amount: 20, status: "failed", message: MONEY.cardRefundFailed("20.00", "4242") }],
    });
    expect(await balanceCents(p.id)).toBe(2_000);
    expect((await cardRows(p))[0]).toMatchObject({ status: "failed", description: expect.stringContaining(MONEY.cardRefundFailedNote) });
  });

  it("keeps the overview's reconciliation: money in = money out + balances", async () => {
    const p = await player();
    await deposit(p, 20);
    await prize(p, 700);
    expect((await withdraw(p, 27)).status).toBe(200);
    const overview = await buildOverview(env.DB);
    expect(overview.reconciliation.ok).toBe(true);
  });
});
