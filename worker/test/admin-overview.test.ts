// The overview's figures to the cent for a known set of ledger rows (measured as the change they
// make, so other tests' rows do not matter), and the reconciliation turning red when a balance is
// changed behind the ledger's back.
import { describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import type { AdminOverview } from "../../common/api/console";
import { call } from "./helpers";
import { makeOperator } from "./fair-play-fixtures";
import { makeCategory, makePlayer, makeTournament } from "./tournament-fixtures";

const DAY = 86_400_000;
const startOfToday = () => Math.floor(Date.now() / DAY) * DAY;

async function row(
  userId: number,
  cents: number,
  type: string,
  at: number,
  status = "completed",
  reference: string = `t:${crypto.randomUUID()}`,
) {
  await env.DB.prepare("INSERT INTO transactions (user_id, amount_cents, type, status, reference, created_at) VALUES (?, ?, ?, ?, ?, ?)")
    .bind(userId, cents, type, status, reference, at)
    .run();
}

const overview = async (cookie: string) => {
  const res = await call<AdminOverview>("/api/admin/overview", { cookie });
  expect(res.status, res.text).toBe(200);
  return res.body;
};

const cents = (usd: number) => Math.round(usd * 100);
const diff = (a: Record<string, number>, b: Record<string, number>) =>
  Object.fromEntries(Object.keys(b).map((k) => [k, cents(b[k]!) - cents(a[k]!)]));

describe("GET /api/admin/overview", () => {
  it("sums today and the last 30 days to the cent, counts pending payouts and charts each day", async () => {
    const op = await makeOperator();
    const alice = await makePlayer();
    const bob = await makePlayer();
    const before = await overview(op.cookie);

    const today = startOfToday() + 1000;
    const tenDaysAgo = startOfToday() - 10 * DAY + 5000;
    const fortyDaysAgo = startOfToday() - 40 * DAY;
    await row(alice.id, 100_00, "deposit", fortyDaysAgo); // outside both periods
    await row(alice.id, 50_00, "deposit", tenDaysAgo);
    await row(alice.id, 20_00, "deposit", today);
    await row(bob.id, 30_00, "deposit", today);
    await row(bob.id, 9_99, "deposit", today, "failed"); // a failed row never moved money
    await row(alice.id, -5_00, "tournament_entry", today);
    await row(bob.id, -5_00, "tournament_entry", tenDaysAgo);
    await row(alice.id, 5_00, "refund", today);
    await row(alice.id, 12_34, "prize", tenDaysAgo);
    await row(bob.id, -10_00, "withdrawal", today, "pending", `payout:test-${crypto.randomUUID()}`);
    await row(alice.id, -7_00, "withdrawal", today, "failed");
    await row(alice.id, -3_00, "card_refund", today);
    await row(bob.id, -2_00, "chargeback", tenDaysAgo);
    await row(bob.id, 2_00, "chargeback_reversal", today);
    await row(alice.id, -1_50, "adjustment", today);
    await env.DB.prepare(
      "INSERT INTO payouts (user_id, amount_cents, account_holder_name, account_last4, routing_number, account_type) VALUES (?, 1000, 'Bob', '6789', '011000015', 'checking')",
    )
      .bind(bob.id)
      .run();
    // A paid tournament of 4 players at $5 settled today: the pool took 85%, the house keeps $3.00.
    const category = await makeCategory(4);
    const paid = await makeTournament(category, {
      status: "completed",
      entryFeeCents: 500,
      prizePoolCents: 1700,
      startTime: Date.now() - 3 * 3600_000,
    });
    await env.DB.prepare("UPDATE tournaments SET current_participants = 4, settled_at = ? WHERE id = ?").bind(Date.now(), paid.id).run();
    // A free tournament whose $8.00 pool the house paid, to bob, today.
    const free = await makeTournament(category, { status: "completed", prizePoolCents: 800, startTime: Date.now() - 3 * 3600_000 });
    await env.DB.prepare("UPDATE tournaments SET settled_at = ? WHERE id = ?").bind(Date.now(), free.id).run();
    await row(bob.id, 8_00, "prize", today, "completed", `prize:${free.id}:${bob.id}`);

    const after = await overview(op.cookie);
    expect(diff(before.today as never, after.today as never)).toEqual({
      deposits: 50_00,
      withdrawals: 10_00,
      entryFees: 5_00,
      entryRefunds: 5_00,
      prizes: 8_00,
      houseShare: 3_00,
      houseFundedPrizes: 8_00,
      cardRefunds: 3_00,
      chargebacks: 0,
      chargebackReversals: 2_00,
      adjustments: -1_50,
    });
    expect(diff(before.last30Days as never, after.last30Days as never)).toEqual({
      deposits: 100_00,
      withdrawals: 10_00,
      entryFees: 10_00,
      entryRefunds: 5_00,
      prizes: 20_34,
      houseShare: 3_00,
      houseFundedPrizes: 8_00,
      cardRefunds: 3_00,
      chargebacks: 2_00,
      chargebackReversals: 2_00,
      adjustments: -1_50,
    });
    // Alice: 100 + 50 + 20 - 5 + 5 + 12.34 - 3 - 1.50 = 177.84; Bob: 30 - 5 - 10 - 2 + 2 + 8 = 23.
    expect(cents(after.playerBalances) - cents(before.playerBalances)).toBe(177_84 + 23_00);
    expect(after.pendingPayouts.count - before.pendingPayouts.count).toBe(1);
    expect(cents(after.pendingPayouts.amount) - cents(before.pendingPayouts.amount)).toBe(10_00);

    expect(after.daily).toHaveLength(30);
    const todayKey = new Date(today).toISOString().slice(0, 10);
    expect(after.daily.at(-1)!.day).toBe(todayKey);
    const dayOf = (o: AdminOverview, key: string) => o.daily.find((d) => d.day === key)!;
    const tenKey = new Date(tenDaysAgo).toISOString().slice(0, 10);
    expect(cents(dayOf(after, tenKey).deposits) - cents(dayOf(before, tenKey).deposits)).toBe(50_00);
    expect(cents(dayOf(after, tenKey).entryFees) - cents(dayOf(before, tenKey).entryFees)).toBe(5_00);
    expect(cents(dayOf(after, todayKey).withdrawals) - cents(dayOf(before, todayKey).withdrawals)).toBe(10_00);

    expect(after.reconciliation.ok).toBe(true);
    expect(after.reconciliation.identity).toMatchObject({ holds: true, difference: 0 });
    expect(cents(after.reconciliation.identity.moneyIn) - cents(before.reconciliation.identity.moneyIn)).toBe(
      100_00 + 50_00 + 20_00 + 30_00 + 5_00 + 12_34 + 2_00 + 8_00,
    );
    expect(cents(after.reconciliation.identity.moneyOut) - cents(before.reconciliation.identity.moneyOut)).toBe(
      10_00 + 5_00 + 5_00 + 3_00 + 2_00 + 1_50,
    );
  });

  it("shows red, with the account, when a balance was changed directly in the database", async () => {
    const op = await makeOperator();
    const victim = await makePlayer({ balanceCents: 40_00 });
    await env.DB.prepare("UPDATE users SET balance_cents = balance_cents + 1234 WHERE id = ?").bind(victim.id).run();
    try {
      const o = await overview(op.cookie);
      expect(o.reconciliation.ok).toBe(false);
      expect(o.reconciliation.mismatches).toContainEqual({
        userId: victim.id,
        username: victim.username,
        balance: 52.34,
        ledger: 40,
        difference: 12.34,
      });
      expect(o.reconciliation.identity.holds).toBe(false);
      expect(o.reconciliation.identity.difference).toBe(-12.34);
    } finally {
      await env.DB.prepare("UPDATE users SET balance_cents = balance_cents - 1234 WHERE id = ?").bind(victim.id).run();
    }
  });

  it("is for operators with 2FA only", async () => {
    const player = await makePlayer();
    expect((await call("/api/admin/overview", { cookie: player.cookie })).status).toBe(403);
  });
});
