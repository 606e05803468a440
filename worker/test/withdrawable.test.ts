// The withdrawable balance: recent card deposits are held for DEPOSIT_HOLD_HOURS unless they paid
// entry fees, sandbox money is held off the sandbox hosts, and a withdrawal above what may leave
// is refused with what can be withdrawn and when more frees up.
import { afterEach, describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import { MONEY } from "../../common/messages";
import { formatReleaseTime } from "../../common/domain/withdrawable";
import { call, registerUser } from "./helpers";
import { balanceCents, countRows, expectLedgerBalanced, fund, PAST_HOLD, withdraw, readyToWithdraw } from "./money-helpers";
import { join, leave, makeCategory, makePlayer, makeTournament, type CategoryFixture } from "./tournament-fixtures";

afterEach(expectLedgerBalanced);

const HOUR = 3_600_000;
const wallet = (cookie: string, host?: string) => call("/api/wallet", { cookie, host });

let category: CategoryFixture | undefined;
const paidTournament = async (feeCents: number) => makeTournament((category ??= await makeCategory()), { entryFeeCents: feeCents });

describe("GET /api/wallet", () => {
  it("needs a session", async () => {
    expect((await call("/api/wallet")).status).toBe(401);
  });

  it("an old deposit is all withdrawable", async () => {
    const { cookie, user } = await registerUser();
    await readyToWithdraw(user.id);
    await fund(user.id, 5000, { hoursAgo: PAST_HOLD });
    expect((await wallet(cookie)).body).toEqual({
      balance: 50,
      withdrawableBalance: 50,
      heldBalance: 0,
      // A deposit made outside this app's checkouts (a fixture) cannot go back to a card: all of it goes to the bank.
      cardRefundable: 0,
      heldReason: null,
      nextReleaseAt: null,
      owed: 0,
      frozen: null,
    });
  });

  it("a young deposit is held until 72 hours after it was made, and says so", async () => {
    const { cookie, user } = await registerUser();
    await readyToWithdraw(user.id);
    await fund(user.id, 2000, { hoursAgo: PAST_HOLD });
    await fund(user.id, 3000, { hoursAgo: 10 });
    const res = await wallet(cookie);
    expect(res.body).toMatchObject({ balance: 50, withdrawableBalance: 20, heldBalance: 30, heldReason: MONEY.heldRecentDeposits(72) });
    const frees = Date.parse(res.body.nextReleaseAt);
    expect(Math.abs(frees - (Date.now() + 62 * HOUR))).toBeLessThan(60_000);
  });

  it("a deposit used for an entry fee is no longer held; leaving the tournament puts it back on hold", async () => {
    const player = await makePlayer();
    await fund(player.id, 1000, { hoursAgo: PAST_HOLD });
    await fund(player.id, 1500, { hoursAgo: 1 });
    const t = await paidTournament(500);
    expect((await join(player, t.id)).status).toBe(200);
    // $25 - $5 fee = $20: the fee spent $5 of the young $15, so $10 is held and the old $10 is free.
    expect((await wallet(player.cookie)).body).toMatchObject({ balance: 20, withdrawableBalance: 10, heldBalance: 10 });
    expect((await leave(player, t.id)).status).toBe(200);
    expect((await wallet(player.cookie)).body).toMatchObject({ balance: 25, withdrawableBalance: 10, heldBalance: 15 });
  });

  it("sandbox deposits are withdrawable on loopback but held on a host that is not a sandbox host", async () => {
    const { cookie, user } = await registerUser();
    await readyToWithdraw(user.id);
    await fund(user.id, 4000, { hoursAgo: PAST_HOLD, provider: "sandbox" });
    await fund(user.id, 1000, { hoursAgo: PAST_HOLD });
    expect((await wallet(cookie)).body).toMatchObject({ balance: 50, withdrawableBalance: 50 });
    const elsewhere = await wallet(cookie, "arena.example.com");
    expect(elsewhere.body).toMatchObject({
      balance: 50,
      withdrawableBalance: 10,
      heldBalance: 40,
      heldReason: MONEY.heldSandboxDeposits,
      nextReleaseAt: null,
    });
    const refused = await call("/api/withdrawal/confirm", {
      host: "arena.example.com",
      cookie,
      headers: { "idempotency-key": crypto.randomUUID() },
      body: {
        amount: 11,
        withdrawalMethod: "bank_account",
        bankAccount: {
          accountHolderName: "Ada Lovelace",
          accountNumber: "000123456789",
          routingNumber: "021000021",
          accountType: "checking",
        },
      },
    });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ code: "funds_on_hold", message: MONEY.withdrawableOnly("10.00", "40.00", null) });
    expect(await balanceCents(user.id)).toBe(5000);
  });
});

describe("POST /api/withdrawal/confirm and held money", () => {
  it("refuses more than the withdrawable part, naming it and when more frees up", async () => {
    const { cookie, user } = await registerUser();
    await readyToWithdraw(user.id);
    await fund(user.id, 1000, { hoursAgo: PAST_HOLD });
    await fund(user.id, 4000, { hoursAgo: 2 });
    const wallet0 = (await wallet(cookie)).body;
    const res = await withdraw(cookie, 10.01);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      code: "funds_on_hold",
      message: MONEY.withdrawableOnly("10.00", "40.00", formatReleaseTime(Date.parse(wallet0.nextReleaseAt))),
    });
    expect(await balanceCents(user.id)).toBe(5000);
    expect(await countRows("SELECT 1 FROM payouts WHERE user_id = ?", user.id)).toBe(0);

    const ok = await withdraw(cookie, 10);
    expect(ok.status).toBe(200);
    expect(await balanceCents(user.id)).toBe(4000);
    expect((await wallet(cookie)).body).toMatchObject({ balance: 40, withdrawableBalance: 0, heldBalance: 40 });
  });

  it("only a young deposit: nothing can be withdrawn yet", async () => {
    const { cookie, user } = await registerUser();
    await readyToWithdraw(user.id);
    await fund(user.id, 2500);
    const res = await withdraw(cookie, 10);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe("funds_on_hold");
    expect(res.body.message).toMatch(
      /^You can withdraw up to \$0\.00 now\. \$25\.00 of your balance is on hold; more becomes withdrawable on \d{4}-/,
    );
  });

  it("parallel withdrawals cannot together take held money", async () => {
    const { cookie, user } = await registerUser();
    await readyToWithdraw(user.id);
    await fund(user.id, 1000, { hoursAgo: PAST_HOLD });
    await fund(user.id, 5000, { hoursAgo: 1 });
    const results = await Promise.all(Array.from({ length: 6 }, () => withdraw(cookie, 5)));
    expect(results.filter((r) => r.status === 200)).toHaveLength(2);
    expect(results.filter((r) => r.status !== 200).every((r) => r.body.code === "funds_on_hold")).toBe(true);
    expect(await balanceCents(user.id)).toBe(5000);
  });
});

describe("prizes paid from entry fees still on hold", () => {
  /** A prize row as the settlement writes it (prize:{tournament}:{user}). */
  const prize = (userId: number, tournamentId: number, cents: number) =>
    env.DB.prepare("INSERT INTO transactions (user_id, amount_cents, type, status, reference) VALUES (?, ?, 'prize', 'completed', ?)")
      .bind(userId, cents, `prize:${tournamentId}:${userId}`)
      .run();

  it("a prize is held until the deposits that paid the tournament's entry fees clear, and the wallet says when", async () => {
    // The payer's fresh card deposit (1 h old) pays the fee; the winner's prize comes from it.
    const payer = await makePlayer();
    await fund(payer.id, 2000, { hoursAgo: 1 });
    const t = await paidTournament(2000);
    expect((await join(payer, t.id)).status).toBe(200);
    const winner = await registerUser();
    await readyToWithdraw(winner.user.id);
    await prize(winner.user.id, t.id, 1700);

    const res = await wallet(winner.cookie);
    expect(res.body).toMatchObject({ balance: 17, withdrawableBalance: 0, heldBalance: 17 });
    const availableAt = Date.parse(res.body.nextReleaseAt);
    expect(Math.abs(availableAt - (Date.now() + 71 * HOUR))).toBeLessThan(60_000);
    expect(res.body.heldReason).toContain(MONEY.prizeAvailableOn(formatReleaseTime(availableAt)));
    const refused = await withdraw(winner.cookie, 17);
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe("funds_on_hold");
    expect(refused.body.message).toContain(formatReleaseTime(availableAt));

    // The payer's own money is no faster: spent on the fee, it is not in the balance to take either.
    // Once the deposit is past the hold, the prize is free.
    await env.DB.prepare("UPDATE transactions SET created_at = created_at - ? WHERE user_id = ? AND type = 'deposit'")
      .bind(72 * HOUR, payer.id)
      .run();
    expect((await wallet(winner.cookie)).body).toMatchObject({ balance: 17, withdrawableBalance: 17, heldBalance: 0 });
  });

  it("a prize from fees paid with money past its hold is withdrawable at once", async () => {
    const payer = await makePlayer();
    await fund(payer.id, 2000, { hoursAgo: PAST_HOLD });
    const t = await paidTournament(2000);
    expect((await join(payer, t.id)).status).toBe(200);
    const winner = await registerUser();
    await prize(winner.user.id, t.id, 1700);
    expect((await wallet(winner.cookie)).body).toMatchObject({ balance: 17, withdrawableBalance: 17, heldBalance: 0, heldReason: null });
  });

  it("a winner who paid their own fee with a fresh deposit cannot take the prize out before that deposit clears", async () => {
    const player = await makePlayer();
    await fund(player.id, 500, { hoursAgo: 2 });
    const t = await paidTournament(500);
    expect((await join(player, t.id)).status).toBe(200);
    await prize(player.id, t.id, 3000);
    const res = await wallet(player.cookie);
    expect(res.body).toMatchObject({ balance: 30, withdrawableBalance: 0, heldBalance: 30 });
    expect(Math.abs(Date.parse(res.body.nextReleaseAt) - (Date.now() + 70 * HOUR))).toBeLessThan(60_000);
  });
});
