// Idempotency keys on the requests that move money (docs/payments.md, "Retrying a money request"):
// a retry with the same key gets the first answer back and moves nothing; a reply lost after the
// money moved is rebuilt from the ledger; a double click moves money once.
import { afterEach, describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import { IDEMPOTENCY_CLAIM_STALE_MS, IDEMPOTENCY_KEY_TTL_MS } from "../../common/spec";
import { IDEMPOTENCY, PLAY } from "../../common/messages";
import { sha256Hex } from "../auth/bytes";
import { createExecutionContext, createScheduledController, waitOnExecutionContext } from "cloudflare:test";
import { isClaimLost } from "../money/idempotency";
import worker from "../index";
import { debitWithdrawal } from "../money/payouts";
import { call, registerUser } from "./helpers";
import { balanceCents, countRows, dumpDatabase, expectLedgerBalanced, fund, PAST_HOLD, validBank, readyToWithdraw } from "./money-helpers";
import { all, balanceOf, makeCategory, makePlayer, makeTournament, one, type Player } from "./tournament-fixtures";

/** The withdrawal a payout is the bank part of: the key's reference names it (withdrawal:{group}). */
const groupOf = async (payoutId: number) =>
  (await env.DB.prepare("SELECT withdrawal_group AS g FROM payouts WHERE id = ?").bind(payoutId).first<{ g: string }>())!.g;

afterEach(expectLedgerBalanced);

let keyCounter = 0;
const newKey = () => `key-${Date.now().toString(36)}-${++keyCounter}-${crypto.randomUUID().slice(0, 8)}`;

const withdrawal = (amount: number, bank = validBank()) => ({ amount, withdrawalMethod: "bank_account", bankAccount: bank });

const withdrawWithKey = (cookie: string, key: string | null, body: unknown = withdrawal(25)) =>
  call("/api/withdrawal/confirm", { cookie, body, headers: key === null ? {} : { "idempotency-key": key } });

const joinWithKey = (p: Player, tournamentId: number, key: string) =>
  call(`/api/tournaments/${tournamentId}/join`, { method: "POST", cookie: p.cookie, headers: { "idempotency-key": key } });

const leaveWithKey = (p: Player, tournamentId: number, key: string) =>
  call(`/api/tournaments/${tournamentId}/leave`, { method: "POST", cookie: p.cookie, headers: { "idempotency-key": key } });

const keyRow = (userId: number, key: string) =>
  one<{ scope: string; fingerprint: string; reference: string | null; response_status: number | null; response_body: string | null }>(
    "SELECT scope, fingerprint, reference, response_status, response_body FROM idempotency_keys WHERE user_id = ? AND key = ?",
    userId,
    key,
  );

/** What a process killed after the money batch leaves behind: the key and its reference, no stored answer. */
const loseStoredAnswer = (userId: number, key: string) =>
  env.DB.prepare("UPDATE idempotency_keys SET response_status = NULL, response_body = NULL WHERE user_id = ? AND key = ?")
    .bind(userId, key)
    .run();

const payoutsOf = (userId: number) => countRows("SELECT 1 FROM payouts WHERE user_id = ?", userId);

async function fundedUser(cents = 10_000) {
  const u = await registerUser();
  await fund(u.user.id, cents, { hoursAgo: PAST_HOLD });
  await readyToWithdraw(u.user.id);
  return u;
}

describe("Idempotency-Key on POST /api/withdrawal/confirm", () => {
  it("is required: without one nothing moves and the refusal says what to send", async () => {
    const { cookie, user } = await fundedUser();
    const res = await withdrawWithKey(cookie, null);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ code: "idempotency_key_required", message: IDEMPOTENCY.required });
    expect(await payoutsOf(user.id)).toBe(0);
    expect(await balanceCents(user.id)).toBe(10_000);
  });

  it.each([
    ["too short", "abc1234"],
    ["too long", "k".repeat(101)],
    ["other characters", "key with spaces"],
  ])("refuses a key that is %s", async (_name, key) => {
    const { cookie, user } = await fundedUser();
    const res = await withdrawWithKey(cookie, key);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ code: "invalid_request", message: IDEMPOTENCY.invalid });
    expect(await payoutsOf(user.id)).toBe(0);
  });

  it("a retry gets the first answer byte for byte and nothing moves again", async () => {
    const { cookie, user } = await fundedUser();
    const key = newKey();
    const first = await withdrawWithKey(cookie, key);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ balance: 75, payout: { amount: 25, status: "pending" } });
    // Something else moves the balance in between: the replay still shows the first answer.
    await fund(user.id, 500, { hoursAgo: PAST_HOLD });
    const retry = await withdrawWithKey(cookie, key);
    expect(retry.status).toBe(200);
    expect(retry.text).toBe(first.text);
    expect(await payoutsOf(user.id)).toBe(1);
    expect(await balanceCents(user.id)).toBe(8_000);
    // The key row names the payout it committed.
    expect((await keyRow(user.id, key))?.reference).toBe(`withdrawal:${await groupOf(first.body.payout.id)}`);
  });

  it("the same key with another amount or another account is refused as reused", async () => {
    const { cookie, user } = await fundedUser();
    const key = newKey();
    expect((await withdrawWithKey(cookie, key, withdrawal(25))).status).toBe(200);
    for (const other of [withdrawal(30), withdrawal(25, { ...validBank(), accountNumber: "000123456780" })]) {
      const res = await withdrawWithKey(cookie, key, other);
      expect(res.status).toBe(409);
      expect(res.body).toEqual({ code: "idempotency_key_reused", message: IDEMPOTENCY.reused });
    }
    expect(await payoutsOf(user.id)).toBe(1);
    expect(await balanceCents(user.id)).toBe(7_500);
  });

  it("a key is the user's own: another player's identical key is their own request", async () => {
    const a = await fundedUser();
    const b = await fundedUser();
    const key = newKey();
    expect((await withdrawWithKey(a.cookie, key)).status).toBe(200);
    expect((await withdrawWithKey(b.cookie, key)).status).toBe(200);
    expect(await balanceCents(a.user.id)).toBe(7_500);
    expect(await balanceCents(b.user.id)).toBe(7_500);
  });

  it("a double click (concurrent requests, one key) makes exactly one payout", async () => {
    const { cookie, user } = await fundedUser();
    const key = newKey();
    const results = await Promise.all(Array.from({ length: 5 }, () => withdrawWithKey(cookie, key)));
    const oks = results.filter((r) => r.status === 200);
    expect(oks.length).toBeGreaterThanOrEqual(1);
    // Every 200 is the same answer; the others were told the first is still running.
    expect(new Set(oks.map((r) => r.text)).size).toBe(1);
    for (const r of results.filter((x) => x.status !== 200)) {
      expect(r.status).toBe(409);
      expect(r.body).toEqual({ code: "idempotency_key_in_progress", message: IDEMPOTENCY.inProgress });
    }
    expect(await payoutsOf(user.id)).toBe(1);
    expect(await balanceCents(user.id)).toBe(7_500);
    // Once it has finished, a retry gets that one answer.
    const after = await withdrawWithKey(cookie, key);
    expect(after.status).toBe(200);
    expect(after.text).toBe(oks[0]!.text);
  });

  it("a reply lost after the payout committed is rebuilt from the ledger on retry, without a second payout", async () => {
    const { cookie, user } = await fundedUser();
    const key = newKey();
    const first = await withdrawWithKey(cookie, key);
    expect(first.status).toBe(200);
    await loseStoredAnswer(user.id, key);
    expect(await keyRow(user.id, key)).toMatchObject({
      reference: `withdrawal:${await groupOf(first.body.payout.id)}`,
      response_body: null,
    });

    const retry = await withdrawWithKey(cookie, key);
    expect(retry.status).toBe(200);
    // Nothing changed since, so the rebuilt answer is the first one exactly.
    expect(retry.text).toBe(first.text);
    expect(await payoutsOf(user.id)).toBe(1);
    expect(await balanceCents(user.id)).toBe(7_500);
    // The rebuilt answer is stored: later retries get it too.
    expect((await keyRow(user.id, key))?.response_body).toBe(retry.text);
    expect((await withdrawWithKey(cookie, key)).text).toBe(first.text);
  });

  it("a refusal is not kept: the same key works once the player can afford it", async () => {
    const { cookie, user } = await fundedUser(1_000);
    const key = newKey();
    const refused = await withdrawWithKey(cookie, key);
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe("insufficient_balance");
    expect(await keyRow(user.id, key)).toBeNull();
    await fund(user.id, 5_000, { hoursAgo: PAST_HOLD });
    const retry = await withdrawWithKey(cookie, key);
    expect(retry.status).toBe(200);
    expect(await balanceCents(user.id)).toBe(3_500);
  });

  it("a key claimed by a running request answers 'in progress'; a claim abandoned before its batch is taken over, and its owner can no longer move money", async () => {
    const { cookie, user } = await fundedUser();
    // The fingerprint of this request, from a finished one (it depends on the request, not the key).
    const done = newKey();
    expect((await withdrawWithKey(cookie, done)).status).toBe(200);
    const { fingerprint } = (await keyRow(user.id, done))!;

    // Another request with the same body claimed a key and has not moved money yet.
    const key = newKey();
    const claimedAt = Date.now();
    await env.DB.prepare("INSERT INTO idempotency_keys (user_id, key, scope, fingerprint, created_at) VALUES (?, ?, 'withdrawal', ?, ?)")
      .bind(user.id, key, fingerprint, claimedAt)
      .run();
    const running = await withdrawWithKey(cookie, key);
    expect(running.status).toBe(409);
    expect(running.body).toEqual({ code: "idempotency_key_in_progress", message: IDEMPOTENCY.inProgress });
    expect(await payoutsOf(user.id)).toBe(1);

    // Its process died before the batch: nothing moved, so once the claim is stale a retry takes it over.
    const staleAt = Date.now() - IDEMPOTENCY_CLAIM_STALE_MS - 1;
    await env.DB.prepare("UPDATE idempotency_keys SET created_at = ? WHERE user_id = ? AND key = ?").bind(staleAt, user.id, key).run();
    const retry = await withdrawWithKey(cookie, key);
    expect(retry.status).toBe(200);
    expect(await payoutsOf(user.id)).toBe(2);

    // Had it only stalled, its batch now fails whole: the claim it holds (created_at = staleAt) is gone.
    const late = await debitWithdrawal(
      env,
      { userId: user.id, amountCents: 2_500, group: "0badc0ffee", method: "bank_account", ...validBank() },
      { userId: user.id, key, claimedAt: staleAt },
    ).catch((e: unknown) => e);
    expect(isClaimLost(late)).toBe(true);
    expect(await payoutsOf(user.id)).toBe(2);
    expect(await balanceCents(user.id)).toBe(5_000);
    expect((await withdrawWithKey(cookie, key)).text).toBe(retry.text);
  });

  it("keys expire after 24 hours: an older key is a new request, and expired rows are deleted", async () => {
    const { cookie, user } = await fundedUser();
    const key = newKey();
    expect((await withdrawWithKey(cookie, key)).status).toBe(200);
    await env.DB.prepare("UPDATE idempotency_keys SET created_at = ? WHERE user_id = ? AND key = ?")
      .bind(Date.now() - IDEMPOTENCY_KEY_TTL_MS - 1, user.id, key)
      .run();
    expect((await withdrawWithKey(cookie, key)).status).toBe(200);
    expect(await payoutsOf(user.id)).toBe(2);

    // The cron removes every expired row, whoever it belongs to.
    const idle = await fundedUser();
    const idleKey = newKey();
    expect((await withdrawWithKey(idle.cookie, idleKey)).status).toBe(200);
    await env.DB.prepare("UPDATE idempotency_keys SET created_at = ? WHERE user_id = ?")
      .bind(Date.now() - IDEMPOTENCY_KEY_TTL_MS - 1, idle.user.id)
      .run();
    const ctx = createExecutionContext();
    await worker.scheduled!(createScheduledController({ scheduledTime: Date.now(), cron: "*/5 * * * *" }), env, ctx);
    await waitOnExecutionContext(ctx);
    expect(await keyRow(idle.user.id, idleKey)).toBeNull();
    expect(await keyRow(user.id, key)).not.toBeNull();
  });

  it("stores no plain hash of the body: the full account number cannot be recovered from the key row", async () => {
    const { cookie, user } = await fundedUser();
    const key = newKey();
    const body = withdrawal(25);
    expect((await withdrawWithKey(cookie, key, body)).status).toBe(200);
    const row = (await keyRow(user.id, key))!;
    expect(row.fingerprint).toMatch(/^[0-9a-f]{64}$/);
    const canonical = JSON.stringify({
      amount: 2500,
      bankAccount: {
        accountHolderName: "Ada Lovelace",
        accountNumber: "000123456789",
        accountType: "checking",
        routingNumber: "021000021",
      },
      withdrawalMethod: "bank_account",
    });
    expect(row.fingerprint).not.toBe(sha256Hex(canonical));
    expect(await dumpDatabase()).not.toContain("000123456789");
  });
});

describe("Idempotency-Key on joining and leaving", () => {
  it("a join retried with its key gets the first answer and pays once; the same key on another tournament is refused", async () => {
    const cat = await makeCategory();
    const t = await makeTournament(cat, { entryFeeCents: 500 });
    const p = await makePlayer({ balanceCents: 2_000 });
    const key = newKey();
    const first = await joinWithKey(p, t.id, key);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ joined: true, balance: 15 });
    const retry = await joinWithKey(p, t.id, key);
    expect(retry.text).toBe(first.text);
    expect(await balanceOf(p.id)).toBe(1_500);
    expect((await keyRow(p.id, key))?.reference).toBe(`entry:${t.id}:${p.id}`);

    const other = await makeTournament(cat, { entryFeeCents: 500 });
    const reused = await joinWithKey(p, other.id, key);
    expect(reused.status).toBe(409);
    expect(reused.body).toEqual({ code: "idempotency_key_reused", message: IDEMPOTENCY.reused });
    expect(await balanceOf(p.id)).toBe(1_500);
  });

  it("a join whose reply was lost after the seat and fee committed is rebuilt on retry, charged once", async () => {
    const t = await makeTournament(await makeCategory(), { entryFeeCents: 500 });
    const p = await makePlayer({ balanceCents: 2_000 });
    const key = newKey();
    const first = await joinWithKey(p, t.id, key);
    expect(first.status).toBe(200);
    await loseStoredAnswer(p.id, key);
    const retry = await joinWithKey(p, t.id, key);
    expect(retry.status).toBe(200);
    expect(retry.text).toBe(first.text);
    expect(await balanceOf(p.id)).toBe(1_500);
    expect(await all("SELECT 1 FROM tournament_participants WHERE tournament_id = ? AND user_id = ?", t.id, p.id)).toHaveLength(1);
  });

  it("concurrent joins with one key seat and charge once", async () => {
    const t = await makeTournament(await makeCategory(), { entryFeeCents: 500 });
    const p = await makePlayer({ balanceCents: 2_000 });
    const key = newKey();
    const results = await Promise.all(Array.from({ length: 4 }, () => joinWithKey(p, t.id, key)));
    expect(results.every((r) => r.status === 200 || r.body.code === "idempotency_key_in_progress")).toBe(true);
    expect(await balanceOf(p.id)).toBe(1_500);
  });

  it("a leave retried with its key gets the first answer, refunds once, and a lost reply is rebuilt from the refund", async () => {
    const t = await makeTournament(await makeCategory(), { entryFeeCents: 500 });
    const p = await makePlayer({ balanceCents: 2_000 });
    expect((await joinWithKey(p, t.id, newKey())).status).toBe(200);
    const key = newKey();
    const first = await leaveWithKey(p, t.id, key);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ message: PLAY.leftRefunded("5.00"), balance: 20 });
    expect((await keyRow(p.id, key))?.reference).toBe(`leave:${t.id}:${p.id}:0`);
    expect((await leaveWithKey(p, t.id, key)).text).toBe(first.text);

    await loseStoredAnswer(p.id, key);
    const rebuilt = await leaveWithKey(p, t.id, key);
    expect(rebuilt.status).toBe(200);
    expect(rebuilt.text).toBe(first.text);
    expect(await balanceOf(p.id)).toBe(2_000);
  });

  it("without a key, join and leave behave as before", async () => {
    const t = await makeTournament(await makeCategory(), { entryFeeCents: 500 });
    const p = await makePlayer({ balanceCents: 2_000 });
    const joined = await call(`/api/tournaments/${t.id}/join`, { method: "POST", cookie: p.cookie });
    expect(joined.status).toBe(200);
    const left = await call(`/api/tournaments/${t.id}/leave`, { method: "POST", cookie: p.cookie });
    expect(left.status).toBe(200);
    expect(await balanceOf(p.id)).toBe(2_000);
    expect(await countRows("SELECT 1 FROM idempotency_keys WHERE user_id = ?", p.id)).toBe(0);
  });
});

describe("Idempotency-Key on POST /api/create-payment-intent", () => {
  const createIntent = (cookie: string, amount: number, key?: string) =>
    call("/api/create-payment-intent", { cookie, body: { amount }, headers: key ? { "idempotency-key": key } : {} });

  it("the header, not the body, makes a checkout visit one intent; another amount with that key is refused", async () => {
    const { cookie } = await registerUser();
    const key = newKey();
    const a = await createIntent(cookie, 20, key);
    expect(a.status).toBe(200);
    const b = await createIntent(cookie, 20, key);
    expect(b.text).toBe(a.text);
    const otherAmount = await createIntent(cookie, 30, key);
    expect(otherAmount.status).toBe(409);
    expect(otherAmount.body.code).toBe("idempotency_key_reused");
    // Without a key every call is a new intent, as before.
    const c = await createIntent(cookie, 20);
    const d = await createIntent(cookie, 20);
    expect(c.body.paymentIntentId).not.toBe(d.body.paymentIntentId);
  });
});
