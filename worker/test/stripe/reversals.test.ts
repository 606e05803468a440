// Card refunds and disputes from Stripe's signed webhook: the money leaves the balance through
// the ledger once per event, a won dispute returns it, and what the balance cannot cover is owed
// and freezes the account until a deposit settles it.
import { afterEach, describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import { MONEY } from "../../../common/messages";
import { call, registerUser } from "../helpers";
import { balanceCents, countRows, expectLedgerBalanced, fund, makeAdmin, PAST_HOLD, withdraw } from "../money-helpers";
import { markSteppedUp } from "../session-helpers";
import { postSignedStripeEvent, stripeEvent } from "./webhook";
import { join, makeCategory, makePlayer, makeTournament } from "../tournament-fixtures";

afterEach(expectLedgerBalanced);

const testEnv = env as unknown as Env;
const eventId = () => `evt_${crypto.randomUUID().replace(/-/g, "")}`;
const event = stripeEvent;

/** Posts a signed event and expects the webhook to take it. */
async function postEvent(payload: string) {
  const res = await postSignedStripeEvent(payload);
  expect(res.status).toBe(200);
  return res.body;
}

const charge = (pi: string, amount: number, amountRefunded: number, id = `ch_${pi.slice(-12)}`) => ({
  id,
  object: "charge",
  amount,
  amount_refunded: amountRefunded,
  refunded: amountRefunded >= amount,
  currency: "usd",
  payment_intent: pi,
});

const dispute = (pi: string, amount: number, status: string, id = `dp_${pi.slice(-12)}`) => ({
  id,
  object: "dispute",
  amount,
  currency: "usd",
  charge: `ch_${pi.slice(-12)}`,
  payment_intent: pi,
  status,
});

const ledgerOf = async (userId: number) =>
  (
    await env.DB.prepare("SELECT type, amount_cents AS cents, reference FROM transactions WHERE user_id = ? ORDER BY id")
      .bind(userId)
      .all<{ type: string; cents: number; reference: string }>()
  ).results;

const accountOf = async (userId: number) =>
  env.DB.prepare("SELECT owed_cents AS owed, frozen_at IS NOT NULL AS frozen, frozen_reason AS reason FROM users WHERE id = ?")
    .bind(userId)
    .first<{ owed: number; frozen: number; reason: string | null }>();

describe("charge.refunded", () => {
  it("takes the refunded amount out of the balance once, however often the event arrives", async () => {
    const { user } = await registerUser();
    const pi = await fund(user.id, 5000, { hoursAgo: PAST_HOLD });
    const payload = event("charge.refunded", charge(pi, 5000, 2000));
    await postEvent(payload);
    await postEvent(payload);
    await Promise.all([postEvent(payload), postEvent(payload)]);
    expect(await balanceCents(user.id)).toBe(3000);
    expect((await ledgerOf(user.id)).filter((r) => r.type === "card_refund")).toEqual([
      { type: "card_refund", cents: -2000, reference: expect.stringMatching(/^reversal:evt_/) },
    ]);
    expect(await countRows("SELECT 1 FROM payment_reversals WHERE user_id = ?", user.id)).toBe(1);
  });

  it("two partial refunds of one charge debit each new part only (amount_refunded is cumulative)", async () => {
    const { user } = await registerUser();
    const pi = await fund(user.id, 5000, { hoursAgo: PAST_HOLD });
    await postEvent(event("charge.refunded", charge(pi, 5000, 1000)));
    await postEvent(event("charge.refunded", charge(pi, 5000, 3500)));
    expect(await balanceCents(user.id)).toBe(1500);
    expect((await ledgerOf(user.id)).filter((r) => r.type === "card_refund").map((r) => r.cents)).toEqual([-1000, -2500]);
    // An older event arriving late (cumulative 1000 again) takes nothing more.
    await postEvent(event("charge.refunded", charge(pi, 5000, 1000)));
    expect(await balanceCents(user.id)).toBe(1500);
  });

  it("ignores a charge that is not one of our deposits", async () => {
    const body = await postEvent(event("charge.refunded", charge("pi_not_ours_123456789", 5000, 5000)));
    expect(body).toMatchObject({ received: true, applied: false });
  });
});

describe("disputes", () => {
  it("created takes the amount (chargeback); closed won gives it back (chargeback_reversal)", async () => {
    const { cookie, user } = await registerUser();
    const pi = await fund(user.id, 4000, { hoursAgo: PAST_HOLD });
    const created = event("charge.dispute.created", dispute(pi, 4000, "needs_response"));
    await postEvent(created);
    await postEvent(created);
    expect(await balanceCents(user.id)).toBe(0);
    const won = event("charge.dispute.closed", dispute(pi, 4000, "won"));
    await postEvent(won);
    await postEvent(won);
    expect(await balanceCents(user.id)).toBe(4000);
    expect((await ledgerOf(user.id)).map((r) => [r.type, r.cents])).toEqual([
      ["deposit", 4000],
      ["chargeback", -4000],
      ["chargeback_reversal", 4000],
    ]);
    expect(await accountOf(user.id)).toEqual({ owed: 0, frozen: 0, reason: null });
    expect((await call("/api/wallet", { cookie })).body).toMatchObject({ balance: 40, withdrawableBalance: 40, owed: 0, frozen: null });
  });

  it("closed lost moves nothing more", async () => {
    const { user } = await registerUser();
    const pi = await fund(user.id, 4000, { hoursAgo: PAST_HOLD });
    await postEvent(event("charge.dispute.created", dispute(pi, 1500, "needs_response")));
    await postEvent(event("charge.dispute.closed", dispute(pi, 1500, "lost")));
    expect(await balanceCents(user.id)).toBe(2500);
    expect(await countRows("SELECT 1 FROM payment_reversals WHERE user_id = ?", user.id)).toBe(2);
  });

  it("an inquiry (warning_needs_response) takes no money", async () => {
    const { user } = await registerUser();
    const pi = await fund(user.id, 4000, { hoursAgo: PAST_HOLD });
    await postEvent(event("charge.dispute.created", dispute(pi, 4000, "warning_needs_response")));
    expect(await balanceCents(user.id)).toBe(4000);
  });
});

describe("a reversal the balance cannot cover", () => {
  it("takes what there is, owes the rest and freezes: no joins, no withdrawals; a later deposit repays and unfreezes", async () => {
    const player = await makePlayer();
    const pi = await fund(player.id, 3000, { hoursAgo: PAST_HOLD });
    const t = await makeTournament(await makeCategory(), { entryFeeCents: 2000 });
    expect((await join(player, t.id)).status).toBe(200);
    // The whole $30 is refunded after $20 of it paid an entry fee: $10 taken, $20 owed.
    await postEvent(event("charge.refunded", charge(pi, 3000, 3000)));
    expect(await balanceCents(player.id)).toBe(0);
    expect(await accountOf(player.id)).toEqual({ owed: 2000, frozen: 1, reason: MONEY.frozenOwed });
    const reversal = await env.DB.prepare(
      "SELECT amount_cents, balance_cents, owed_cents FROM payment_reversals WHERE payment_intent_id = ?",
    )
      .bind(pi)
      .first();
    expect(reversal).toEqual({ amount_cents: 3000, balance_cents: 1000, owed_cents: 2000 });

    const wallet = await call("/api/wallet", { cookie: player.cookie });
    expect(wallet.body).toMatchObject({
      balance: 0,
      owed: 20,
      frozen: { reason: MONEY.frozenOwed, message: MONEY.accountFrozen("20.00"), since: expect.any(String) },
    });

    // Frozen: neither a free nor a paid join, nor a withdrawal (even with money back in the balance).
    await markSteppedUp(player.id);
    const free = await makeTournament(await makeCategory());
    const refusedJoin = await join(player, free.id);
    expect(refusedJoin.status).toBe(403);
    expect(refusedJoin.body).toEqual({ code: "account_frozen", message: MONEY.accountFrozen("20.00") });

    // A $15 deposit repays $15 of the $20: still frozen, balance 0.
    await postEvent(event("payment_intent.succeeded", intentObject("pi_repay_one_" + player.id, 1500, player.id)));
    expect(await balanceCents(player.id)).toBe(0);
    expect(await accountOf(player.id)).toMatchObject({ owed: 500, frozen: 1 });
    const refusedWithdrawal = await withdraw(player.cookie, 1);
    expect(refusedWithdrawal.status).toBe(403);
    expect(refusedWithdrawal.body).toEqual({ code: "account_frozen", message: MONEY.accountFrozen("5.00") });

    // A $10 deposit repays the last $5 and unfreezes; $5 stays in the balance.
    await postEvent(event("payment_intent.succeeded", intentObject("pi_repay_two_" + player.id, 1000, player.id)));
    expect(await balanceCents(player.id)).toBe(500);
    expect(await accountOf(player.id)).toEqual({ owed: 0, frozen: 0, reason: null });
    expect((await ledgerOf(player.id)).map((r) => [r.type, r.cents])).toEqual([
      ["deposit", 3000],
      ["tournament_entry", -2000],
      ["card_refund", -1000],
      ["deposit", 1500],
      ["card_refund", -1500],
      ["deposit", 1000],
      ["card_refund", -500],
    ]);
    expect((await join(player, free.id)).status).toBe(200);
  });

  it("a dispute won after part of the debt was repaid returns everything the player paid and clears the debt", async () => {
    const { user } = await registerUser();
    const pi = await fund(user.id, 3000, { hoursAgo: PAST_HOLD });
    // $20 of it already left in a paid withdrawal: $10 left.
    await env.DB.prepare(
      "INSERT INTO transactions (user_id, amount_cents, type, status, reference) VALUES (?, -2000, 'withdrawal', 'completed', ?)",
    )
      .bind(user.id, `payout:test-${user.id}`)
      .run();
    await postEvent(event("charge.dispute.created", dispute(pi, 3000, "needs_response")));
    expect(await accountOf(user.id)).toMatchObject({ owed: 2000, frozen: 1 });
    await postEvent(event("payment_intent.succeeded", intentObject(`pi_part_${user.id}`, 500, user.id)));
    expect(await accountOf(user.id)).toMatchObject({ owed: 1500, frozen: 1 });
    await postEvent(event("charge.dispute.closed", dispute(pi, 3000, "won")));
    // Paid so far: $10 from the balance + $5 repaid = $15 back; the $15 still owed is cancelled.
    expect(await balanceCents(user.id)).toBe(1500);
    expect(await accountOf(user.id)).toEqual({ owed: 0, frozen: 0, reason: null });
  });
});

describe("GET /api/admin/frozen-accounts", () => {
  it("lists frozen accounts with what is owed, why, since when and the reversals; operators only", async () => {
    const { user, username } = await registerUser();
    const pi = await fund(user.id, 1000, { hoursAgo: PAST_HOLD });
    await env.DB.prepare(
      "INSERT INTO transactions (user_id, amount_cents, type, status, reference) VALUES (?, -600, 'withdrawal', 'completed', ?)",
    )
      .bind(user.id, `payout:test-${user.id}`)
      .run();
    const evt = eventId();
    await postEvent(event("charge.dispute.created", dispute(pi, 1000, "needs_response"), evt));

    const admin = await registerUser();
    expect((await call("/api/admin/frozen-accounts", { cookie: admin.cookie })).status).toBe(403);
    await makeAdmin(admin.user.id);
    const res = await call("/api/admin/frozen-accounts", { cookie: admin.cookie });
    expect(res.status).toBe(200);
    const mine = (res.body as { userId: number }[]).find((a) => a.userId === user.id);
    expect(mine).toEqual({
      userId: user.id,
      username,
      email: expect.stringContaining("@example.com"),
      balance: 0,
      owed: 6,
      reason: MONEY.frozenOwed,
      since: expect.any(String),
      reversals: [
        {
          eventId: evt,
          kind: "dispute_opened",
          objectId: `dp_${pi.slice(-12)}`,
          paymentIntentId: pi,
          amount: 10,
          fromBalance: 4,
          owed: 6,
          createdAt: expect.any(String),
        },
      ],
    });
  });
});

function intentObject(id: string, amount: number, userId: number) {
  return {
    id,
    object: "payment_intent",
    amount,
    amount_received: amount,
    currency: "usd",
    status: "succeeded",
    client_secret: `${id}_secret_x`,
    metadata: { userId: String(userId) },
  };
}

describe("the dispute lifecycle through Stripe's events", () => {
  const mockUrl = (path: string) => `http://127.0.0.1:${testEnv.STRIPE_API_PORT}${path}`;

  it("funds_withdrawn takes the money, funds_reinstated gives it back, once per event id; created and closed won add nothing", async () => {
    const { user } = await registerUser();
    const pi = await fund(user.id, 4000, { hoursAgo: PAST_HOLD });
    const withdrawn = event("charge.dispute.funds_withdrawn", dispute(pi, 4000, "needs_response"));
    expect(await postEvent(withdrawn)).toMatchObject({ applied: true });
    expect(await postEvent(withdrawn)).toMatchObject({ applied: false });
    expect(await postEvent(event("charge.dispute.created", dispute(pi, 4000, "needs_response")))).toMatchObject({ applied: false });
    expect(await balanceCents(user.id)).toBe(0);
    const reinstated = event("charge.dispute.funds_reinstated", dispute(pi, 4000, "won"));
    expect(await postEvent(reinstated)).toMatchObject({ applied: true });
    expect(await postEvent(reinstated)).toMatchObject({ applied: false });
    expect(await postEvent(event("charge.dispute.closed", dispute(pi, 4000, "won")))).toMatchObject({ applied: false });
    expect(await balanceCents(user.id)).toBe(4000);
  });

  it("an inquiry that escalates (charge.dispute.updated) is applied when it escalates", async () => {
    const { user } = await registerUser();
    const pi = await fund(user.id, 3000, { hoursAgo: PAST_HOLD });
    expect(await postEvent(event("charge.dispute.created", dispute(pi, 3000, "warning_needs_response")))).toMatchObject({ applied: false });
    expect(await postEvent(event("charge.dispute.updated", dispute(pi, 3000, "warning_under_review")))).toMatchObject({ applied: false });
    expect(await balanceCents(user.id)).toBe(3000);
    expect(await postEvent(event("charge.dispute.updated", dispute(pi, 3000, "needs_response")))).toMatchObject({ applied: true });
    expect(await balanceCents(user.id)).toBe(0);
  });

  it("an event without payment_intent is resolved through its charge (charges.retrieve)", async () => {
    const { user } = await registerUser();
    const pi = await fund(user.id, 2500, { hoursAgo: PAST_HOLD });
    const chargeId = `ch_${crypto.randomUUID().replace(/-/g, "").slice(0, 20)}`;
    await fetch(mockUrl("/__mock/charges"), { method: "POST", body: JSON.stringify({ id: chargeId, payment_intent: pi, amount: 2500 }) });
    const d = { ...dispute(pi, 2500, "needs_response"), charge: chargeId, payment_intent: null };
    expect(await postEvent(event("charge.dispute.created", d))).toMatchObject({ applied: true });
    expect(await balanceCents(user.id)).toBe(0);
    const c = { ...charge(pi, 2500, 0, chargeId), payment_intent: null };
    expect(await postEvent(event("charge.refunded", { ...c, amount_refunded: 2500 }))).toMatchObject({ received: true });
  });

  it("a dispute reported before the deposit is credited is kept and applied at credit", async () => {
    const { user } = await registerUser();
    const pi = `pi_early_${crypto.randomUUID().replace(/-/g, "").slice(0, 16)}`;
    expect(await postEvent(event("charge.dispute.created", dispute(pi, 2000, "needs_response")))).toMatchObject({
      applied: false,
      outcomes: ["recorded"],
    });
    // The credit (here straight through the shared path) then applies it.
    const { creditOrRefund } = await import("../../payments/deposits");
    const { webhookCreditChecks } = await import("../../responsible-play/checks");
    const provider = { name: "stripe" as const } as unknown as Parameters<typeof creditOrRefund>[1];
    await creditOrRefund(
      env.DB,
      provider,
      { id: pi, clientSecret: null, status: "succeeded", amountCents: 2000, currency: "usd", userId: user.id },
      user.id,
      webhookCreditChecks(100_000),
    );
    expect(await balanceCents(user.id)).toBe(0);
    expect((await ledgerOf(user.id)).map((r) => [r.type, r.cents])).toEqual([
      ["deposit", 2000],
      ["chargeback", -2000],
    ]);
  });
});
