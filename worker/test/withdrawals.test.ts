// Withdrawals and the operators' payout queue: validation, the pending debit with only the
// last 4 digits stored, overdraft under concurrency, paid/failed with refunds, admin access.
import { afterEach, describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import { MONEY, NOTIFY, VALIDATION } from "../../common/messages";
import { hubServerFrameSchema } from "../../common/api/tournaments";
import { call, registerUser } from "./helpers";
import { stepUp } from "./session-helpers";
import { openSocket, sleep } from "./tournament-fixtures";
import {
  balanceCents,
  countRows,
  dumpDatabase,
  expectLedgerBalanced,
  fund,
  makeAdmin,
  PAST_HOLD,
  validBank,
  withdraw,
  withdrawRaw,
} from "./money-helpers";
import { verifyEmail } from "./email-helpers";
import { verifyIdentity } from "./identity-helpers";
import { open, payoutSealContext } from "../crypto/sealed";

afterEach(expectLedgerBalanced);

/** A player whose deposit is past the hold (all of it withdrawable), with a verified email, who has confirmed the password in this session. */
async function fundedUser(cents = 10_000) {
  const u = await registerUser();
  await fund(u.user.id, cents, { hoursAgo: PAST_HOLD });
  // Withdrawals need a verified address; the player opens the link mailed at sign-up.
  await verifyEmail(u.user.id);
  // A bank withdrawal needs a verified identity in the holder's name (validBank(): Ada Lovelace).
  await verifyIdentity(u.cookie);
  await stepUp(u.cookie, u.password);
  return u;
}

async function admin() {
  const a = await registerUser();
  await makeAdmin(a.user.id);
  return a;
}

describe("POST /api/withdrawal/confirm validation", () => {
  const bank = validBank();
  it.each([
    ["amount missing", undefined, bank, "bank_account", VALIDATION.amountRequired],
    ["amount zero", 0, bank, "bank_account", VALIDATION.amountPositive],
    ["amount negative", -5, bank, "bank_account", VALIDATION.amountPositive],
    ["amount text", "lots", bank, "bank_account", VALIDATION.amountPositive],
    ["three decimals", 1.234, bank, "bank_account", MONEY.amountDecimals],
    ["a billionth of a dollar", 0.000000001, bank, "bank_account", MONEY.amountDecimals],
    ["a tenth of a cent", 0.001, bank, "bank_account", MONEY.amountDecimals],
    ["a billionth of a dollar as text", "0.000000001", bank, "bank_account", MONEY.amountDecimals],
    ["whole dollars plus a billionth", 5.000000001, bank, "bank_account", MONEY.amountDecimals],
    ["whole dollars plus a billionth as text", "5.000000001", bank, "bank_account", MONEY.amountDecimals],
    ["text finer than a double can tell from 5", "5.0000000000000001", bank, "bank_account", MONEY.amountDecimals],
    ["under the minimum", 0.99, bank, "bank_account", MONEY.minWithdrawal("1.00")],
    ["one cent", 0.01, bank, "bank_account", MONEY.minWithdrawal("1.00")],
    ["method missing", 10, bank, undefined, VALIDATION.methodRequired],
    ["method empty", 10, bank, "", VALIDATION.methodRequired],
    ["method unknown", 10, bank, "paypal", MONEY.methodUnsupported],
    ["bank account missing", 10, undefined, "bank_account", MONEY.bankDetailsMissing],
    ["holder missing", 10, { ...bank, accountHolderName: undefined }, "bank_account", MONEY.holderNameRequired],
    ["holder blank", 10, { ...bank, accountHolderName: "   " }, "bank_account", MONEY.holderNameRequired],
    ["holder too short", 10, { ...bank, accountHolderName: "A" }, "bank_account", MONEY.holderNameLength],
    ["holder too long", 10, { ...bank, accountHolderName: "A".repeat(101) }, "bank_account", MONEY.holderNameLength],
    ["account number missing", 10, { ...bank, accountNumber: "" }, "bank_account", MONEY.accountNumberRequired],
    ["account number 3 digits", 10, { ...bank, accountNumber: "123" }, "bank_account", MONEY.accountNumberInvalid],
    ["account number 18 digits", 10, { ...bank, accountNumber: "1".repeat(18) }, "bank_account", MONEY.accountNumberInvalid],
    ["account number letters", 10, { ...bank, accountNumber: "12ab5678" }, "bank_account", MONEY.accountNumberInvalid],
    ["routing missing", 10, { ...bank, routingNumber: undefined }, "bank_account", MONEY.routingNumberRequired],
    ["routing 8 digits", 10, { ...bank, routingNumber: "02100002" }, "bank_account", MONEY.routingNumberFormat],
    ["routing bad checksum", 10, { ...bank, routingNumber: "021000022" }, "bank_account", MONEY.routingNumberInvalid],
    ["routing zeros", 10, { ...bank, routingNumber: "000000000" }, "bank_account", MONEY.routingNumberInvalid],
    ["account type unknown", 10, { ...bank, accountType: "business" }, "bank_account", MONEY.accountTypeInvalid],
  ])("%s", async (_name, amount, bankAccount, method, message) => {
    const { cookie, user } = await fundedUser();
    const res = await withdrawRaw(cookie, { amount, bankAccount, withdrawalMethod: method });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ code: "invalid_request", message });
    expect(await balanceCents(user.id)).toBe(10_000);
    expect(await countRows("SELECT 1 FROM payouts WHERE user_id = ?", user.id)).toBe(0);
  });

  it("accepts the minimum itself, to the cent", async () => {
    const { cookie, user } = await fundedUser();
    const res = await withdraw(cookie, 1);
    expect(res.status).toBe(200);
    expect(res.body.payout.amount).toBe(1);
    expect(await balanceCents(user.id)).toBe(9_900);
  });

  it("needs a session", async () => {
    expect((await withdraw("", 10)).status).toBe(401);
  });

  it("refuses more than the balance and changes nothing", async () => {
    const { cookie, user } = await fundedUser(2_000);
    const res = await withdraw(cookie, 20.01);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ code: "insufficient_balance", message: VALIDATION.amountAboveBalance });
    expect(await balanceCents(user.id)).toBe(2_000);
    expect(await countRows("SELECT 1 FROM payouts WHERE user_id = ?", user.id)).toBe(0);
    expect(await countRows("SELECT 1 FROM transactions WHERE user_id = ? AND type = 'withdrawal'", user.id)).toBe(0);
  });
});

describe("a withdrawal", () => {
  it("debits at once into a pending withdrawal with a payout holding only the last 4 digits", async () => {
    const { cookie, user } = await fundedUser(5_000);
    const accountNumber = "9876 5432 1012 3456";
    const res = await withdraw(cookie, 12.34, { ...validBank(), accountNumber, accountType: "savings" });
    expect(res.status).toBe(200);
    const { balance, transaction, payout } = res.body;
    expect(balance).toBe(37.66);
    expect(payout).toEqual({
      id: expect.any(Number),
      amount: 12.34,
      status: "pending",
      accountLast4: "3456",
      createdAt: expect.any(String),
    });
    expect(transaction).toMatchObject({
      userId: user.id,
      amount: -12.34,
      type: "withdrawal",
      status: "pending",
      reference: `payout:${payout.id}`,
    });
    expect(await balanceCents(user.id)).toBe(3_766);

    const row = await env.DB.prepare("SELECT * FROM payouts WHERE id = ?").bind(payout.id).first<Record<string, unknown>>();
    expect(row).toMatchObject({
      user_id: user.id,
      amount_cents: 1234,
      account_last4: "3456",
      routing_number: "021000021",
      account_type: "savings",
      status: "pending",
    });
    const everything = await dumpDatabase();
    expect(everything).not.toContain("9876543210123456");
    expect(everything).not.toContain("98765432101");
    expect(res.text).not.toContain("9876543210123456");

    const list = await call("/api/user/transactions", { cookie });
    expect(list.body[0]).toMatchObject({ amount: -12.34, type: "withdrawal", status: "pending" });
    expect((await call("/api/user", { cookie })).body.balance).toBe(37.66);
  });

  it("keeps the full account number sealed (AES-GCM) on the payout, so it can be paid by file, and nowhere in plain", async () => {
    const { cookie, user } = await fundedUser(5_000);
    const accountNumber = "55501234567890";
    const res = await withdraw(cookie, 20, { ...validBank(), accountNumber: "5550 1234-567890" });
    expect(res.status).toBe(200);
    expect(res.text).not.toContain(accountNumber);
    const row = await env.DB.prepare("SELECT account_number_sealed AS sealed, account_last4 AS last4 FROM payouts WHERE id = ?")
      .bind(res.body.payout.id)
      .first<{ sealed: string | null; last4: string }>();
    expect(row?.last4).toBe("7890");
    // Bound to the payout's player, routing number and last 4 digits (v2).
    expect(row?.sealed).toMatch(/^v2:test1:/);
    const context = payoutSealContext({ userId: user.id, routingNumber: validBank().routingNumber, accountLast4: "7890" });
    expect(await open(env, row!.sealed!, context)).toBe(accountNumber);
    await expect(open(env, row!.sealed!)).rejects.toThrow();
    const everything = await dumpDatabase();
    expect(everything).not.toContain(accountNumber);
    expect(everything).not.toContain("5550123456");
  });

  it("defaults the account type to checking and may take the whole balance", async () => {
    const { cookie, user } = await fundedUser(1_050);
    const { accountType: _omit, ...bank } = validBank();
    const res = await withdraw(cookie, "10.50", bank);
    expect(res.status).toBe(200);
    expect(res.body.balance).toBe(0);
    const row = await env.DB.prepare("SELECT account_type FROM payouts WHERE id = ?")
      .bind(res.body.payout.id)
      .first<{ account_type: string }>();
    expect(row?.account_type).toBe("checking");
    expect(await balanceCents(user.id)).toBe(0);
  });

  it("20 parallel withdrawals against one balance can never overdraw it", async () => {
    const { cookie, user } = await fundedUser(10_000);
    const results = await Promise.all(Array.from({ length: 20 }, () => withdraw(cookie, 10)));
    const ok = results.filter((r) => r.status === 200);
    const refused = results.filter((r) => r.status !== 200);
    expect(ok).toHaveLength(10);
    expect(refused.every((r) => r.status === 400 && r.body.message === VALIDATION.amountAboveBalance)).toBe(true);
    expect(await balanceCents(user.id)).toBe(0);
    expect(await countRows("SELECT 1 FROM payouts WHERE user_id = ?", user.id)).toBe(10);
    expect(await countRows("SELECT 1 FROM transactions WHERE user_id = ? AND type = 'withdrawal' AND status = 'pending'", user.id)).toBe(
      10,
    );
    // Every payout has exactly its own ledger row.
    expect(
      await countRows(
        "SELECT 1 FROM payouts p JOIN transactions t ON t.reference = 'payout:' || p.id AND t.amount_cents = -p.amount_cents WHERE p.user_id = ?",
        user.id,
      ),
    ).toBe(10);
  });
});

describe("operators' payout queue", () => {
  it("is closed to players (403) and to visitors (401)", async () => {
    const { cookie } = await fundedUser();
    const w = await withdraw(cookie, 5);
    for (const [path, body] of [
      [`/api/admin/payouts/${w.body.payout.id}/paid`, {}],
      [`/api/admin/payouts/${w.body.payout.id}/failed`, { reason: "x" }],
    ] as const) {
      expect((await call(path, { cookie, body })).status).toBe(403);
      expect((await call(path, { body })).status).toBe(401);
    }
    expect((await call("/api/admin/payouts", { cookie })).status).toBe(403);
    expect((await call("/api/admin/payouts")).status).toBe(401);
    expect(await countRows("SELECT 1 FROM payouts WHERE id = ? AND status = 'pending'", w.body.payout.id)).toBe(1);
  });

  it("lists payouts with the username, filtered by status", async () => {
    const op = await admin();
    const player = await fundedUser();
    const w = await withdraw(player.cookie, 7.5);
    const pending = await call("/api/admin/payouts?status=pending", { cookie: op.cookie });
    expect(pending.status).toBe(200);
    expect(pending.body.items).toContainEqual(
      expect.objectContaining({
        id: w.body.payout.id,
        userId: player.user.id,
        username: player.user.username,
        amount: 7.5,
        status: "pending",
        accountLast4: "6789",
        routingNumber: "021000021",
        accountHolderName: "Ada Lovelace",
      }),
    );
    expect(pending.text).not.toContain("000123456789");
    const paid = await call("/api/admin/payouts?status=paid", { cookie: op.cookie });
    expect(paid.body.items.some((p: { id: number }) => p.id === w.body.payout.id)).toBe(false);
    expect((await call("/api/admin/payouts?status=lost", { cookie: op.cookie })).status).toBe(400);
  });

  it("paid completes the ledger row, keeps the balance, is idempotent and final", async () => {
    const op = await admin();
    const { cookie, user } = await fundedUser(3_000);
    const { payout } = (await withdraw(cookie, 10)).body;
    const first = await call(`/api/admin/payouts/${payout.id}/paid`, { cookie: op.cookie, body: {} });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ id: payout.id, status: "paid", processedAt: expect.any(String) });
    const again = await call(`/api/admin/payouts/${payout.id}/paid`, { cookie: op.cookie, method: "POST" });
    expect(again.status).toBe(200);
    const fail = await call(`/api/admin/payouts/${payout.id}/failed`, { cookie: op.cookie, body: { reason: "too late" } });
    expect(fail.status).toBe(409);
    expect(fail.body).toEqual({ code: "payout_already_settled", message: MONEY.payoutAlready("paid") });
    expect(await balanceCents(user.id)).toBe(2_000);
    const tx = await env.DB.prepare("SELECT status FROM transactions WHERE reference = ?")
      .bind(`payout:${payout.id}`)
      .first<{ status: string }>();
    expect(tx?.status).toBe("completed");
    expect((await call("/api/user/transactions", { cookie })).body[0]).toMatchObject({
      type: "withdrawal",
      status: "completed",
      amount: -10,
    });
  });

  it("failed refunds once, records the reason, is idempotent and final", async () => {
    const op = await admin();
    const { cookie, user } = await fundedUser(3_000);
    const { payout } = (await withdraw(cookie, 25)).body;
    expect(await balanceCents(user.id)).toBe(500);
    const first = await call(`/api/admin/payouts/${payout.id}/failed`, { cookie: op.cookie, body: { reason: "Account closed" } });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ status: "failed", failureReason: "Account closed" });
    expect(await balanceCents(user.id)).toBe(3_000);
    const again = await call(`/api/admin/payouts/${payout.id}/failed`, { cookie: op.cookie, body: { reason: "Account closed" } });
    expect(again.status).toBe(200);
    expect(await balanceCents(user.id)).toBe(3_000);
    const paid = await call(`/api/admin/payouts/${payout.id}/paid`, { cookie: op.cookie, method: "POST" });
    expect(paid.status).toBe(409);
    expect(paid.body).toEqual({ code: "payout_already_settled", message: MONEY.payoutAlready("failed") });
    expect(await balanceCents(user.id)).toBe(3_000);
    expect((await call("/api/user/transactions", { cookie })).body[0]).toMatchObject({ type: "withdrawal", status: "failed", amount: -25 });
  });

  it("a failed payout tells the player once: a stored notification, a /ws push and the reason on the transaction", async () => {
    const op = await admin();
    const { cookie, user } = await fundedUser(3_000);
    const { payout } = (await withdraw(cookie, 25)).body;
    const { status, client } = await openSocket("/ws", cookie);
    expect(status).toBe(101);
    const reason = "The bank returned the transfer: account closed";
    // Repeated, and twice at once: the player hears about it exactly once.
    const calls = await Promise.all(
      [1, 2].map(() => call(`/api/admin/payouts/${payout.id}/failed`, { cookie: op.cookie, body: { reason } })),
    );
    expect(calls.map((r) => r.status)).toEqual([200, 200]);
    expect((await call(`/api/admin/payouts/${payout.id}/failed`, { cookie: op.cookie, body: { reason: "again" } })).status).toBe(200);

    const message = NOTIFY.payoutFailed("25.00", reason);
    const pushed = await client!.waitFor((f) => f.type === "notification");
    expect(pushed).toEqual({ type: "notification", message, data: { action: "payout_failed", tournamentId: null, status: "failed" } });
    expect(hubServerFrameSchema.safeParse(pushed).success).toBe(true);
    await sleep(200);
    expect(client!.frames.filter((f) => f.type === "notification")).toHaveLength(1);
    client!.ws.close(1000, "bye");

    const list = await call("/api/notifications", { cookie });
    expect(list.body.unread).toBe(1);
    expect(list.body.items).toEqual([
      expect.objectContaining({ message, data: { action: "payout_failed", tournamentId: null, status: "failed" }, read: false }),
    ]);

    const [tx] = (await call("/api/user/transactions", { cookie })).body;
    expect(tx).toMatchObject({ type: "withdrawal", status: "failed", amount: -25 });
    expect(tx.description).toContain(reason);
    expect(tx.description.split(reason)).toHaveLength(2);
    expect(await balanceCents(user.id)).toBe(3_000);
  });

  it("a paid payout sends no failure notification", async () => {
    const op = await admin();
    const { cookie } = await fundedUser(3_000);
    const { payout } = (await withdraw(cookie, 10)).body;
    await call(`/api/admin/payouts/${payout.id}/paid`, { cookie: op.cookie, method: "POST" });
    expect((await call(`/api/admin/payouts/${payout.id}/failed`, { cookie: op.cookie, body: { reason: "late" } })).status).toBe(409);
    expect((await call("/api/notifications", { cookie })).body.items).toEqual([]);
    expect((await call("/api/user/transactions", { cookie })).body[0].description).not.toContain("late");
  });

  it("paid and failed racing each other settle one way only", async () => {
    const op = await admin();
    const { cookie, user } = await fundedUser(1_000);
    const { payout } = (await withdraw(cookie, 10)).body;
    const [paid, failed] = await Promise.all([
      call(`/api/admin/payouts/${payout.id}/paid`, { cookie: op.cookie, method: "POST" }),
      call(`/api/admin/payouts/${payout.id}/failed`, { cookie: op.cookie, body: { reason: "race" } }),
    ]);
    expect([paid.status, failed.status].sort()).toEqual([200, 409]);
    const final = await env.DB.prepare("SELECT status FROM payouts WHERE id = ?").bind(payout.id).first<{ status: string }>();
    expect(await balanceCents(user.id)).toBe(final?.status === "failed" ? 1_000 : 0);
  });

  it("failing needs a reason; unknown payouts are 404", async () => {
    const op = await admin();
    const { cookie } = await fundedUser();
    const { payout } = (await withdraw(cookie, 1)).body;
    const noReason = await call(`/api/admin/payouts/${payout.id}/failed`, { cookie: op.cookie, body: { reason: " " } });
    expect(noReason.status).toBe(400);
    expect(noReason.body).toEqual({ code: "invalid_request", message: MONEY.payoutReasonRequired });
    expect((await call("/api/admin/payouts/999999/paid", { cookie: op.cookie, method: "POST" })).status).toBe(404);
    expect((await call("/api/admin/payouts/abc/paid", { cookie: op.cookie, method: "POST" })).status).toBe(400);
  });
});
