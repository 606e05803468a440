// The two-person rule in aggregate (common/domain/two-person.ts, docs/operating.md): the
// thresholds hold for what one operator let through on their own in the last 24 h, and for what
// one payee received that way, not for each item alone; the guard sits in the action's own batch.
import { describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import { AUTH, MODERATION } from "../../common/messages";
import { ADMIN_TOURNAMENTS, APPROVALS, PAYOUTS } from "../../common/console-messages";
import { OPERATOR_STEP_UP_TTL_MS } from "../../common/spec";
import { sha256Hex } from "../auth/bytes";
import { debitWithdrawal } from "../money/payouts";
import { call } from "./helpers";
import { countRows, expectLedgerBalanced, makeAdmin } from "./money-helpers";
import { heldPrize, makeOperator } from "./fair-play-fixtures";
import { makeCategory, makePlayer, type Player } from "./tournament-fixtures";

/** A pending payout of `cents` to `userId` (who must hold the money), as a withdrawal leaves it. */
async function payout(userId: number, cents: number): Promise<number> {
  const group = crypto.randomUUID();
  await debitWithdrawal(env, {
    userId,
    amountCents: cents,
    group,
    accountHolderName: "Ada Lovelace",
    accountNumber: "000123456789",
    routingNumber: "021000021",
    accountType: "checking",
    method: "bank_account",
  });
  const row = await env.DB.prepare("SELECT id FROM payouts WHERE withdrawal_group = ?").bind(group).first<{ id: number }>();
  return row!.id;
}

/** A player holding `cents`, with a pending payout of `payoutCents` of it. */
async function payeeWithPayout(payoutCents: number, cents = 500_000) {
  const p = await makePlayer({ balanceCents: cents });
  return { player: p, payoutId: await payout(p.id, payoutCents) };
}

const exportFile = (op: Player, payoutIds: number[]) => call("/api/admin/payouts/export", { cookie: op.cookie, body: { payoutIds } });
const payoutRow = (id: number) => env.DB.prepare("SELECT * FROM payouts WHERE id = ?").bind(id).first<Record<string, any>>();
const approve = (op: Player, id: number) => call(`/api/admin/approvals/${id}/approve`, { cookie: op.cookie, body: {} });

describe("payouts: rolling totals per operator and per payee", () => {
  it("an operator's second $999 payout of the day needs a second operator, as one large payout does", async () => {
    const op = await makeOperator();
    const a = await payeeWithPayout(99_900);
    const b = await payeeWithPayout(99_900);
    expect((await exportFile(op, [a.payoutId])).status).toBe(200);

    const refused = await exportFile(op, [b.payoutId]);
    expect(refused.status, refused.text).toBe(409);
    expect(refused.body).toEqual({ code: "approval_required", message: PAYOUTS.approvalRequiredTotal(b.payoutId, "$1000.00") });
    expect((await payoutRow(b.payoutId))!.batch_id).toBeNull();

    // The queue says so, and the operator can ask for the approval.
    const queue = await call(`/api/admin/payouts?status=pending&username=${b.player.username}`, { cookie: op.cookie });
    expect(queue.body.items.find((i: { id: number }) => i.id === b.payoutId).approval.state).toBe("required");
    const asked = await call(`/api/admin/payouts/${b.payoutId}/request-approval`, { cookie: op.cookie, body: {} });
    expect(asked.status, asked.text).toBe(202);
    // Another operator has paid nothing today: the same payout goes through on their own say.
    const other = await makeOperator();
    expect((await exportFile(other, [b.payoutId])).status).toBe(200);
  });

  it("a payee's payouts add up across operators", async () => {
    const [op1, op2, op3] = [await makeOperator(), await makeOperator(), await makeOperator()];
    const p = await makePlayer({ balanceCents: 500_000 });
    const first = await payout(p.id, 60_000);
    const second = await payout(p.id, 60_000);
    expect((await exportFile(op1, [first])).status).toBe(200);
    const refused = await exportFile(op2, [second]);
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe("approval_required");

    const asked = await call(`/api/admin/payouts/${second}/request-approval`, { cookie: op2.cookie, body: {} });
    expect(asked.status, asked.text).toBe(202);
    expect((await approve(op3, asked.body.approvalId)).status).toBe(200);
    // Approved by a second operator: outside the totals, exported at once.
    expect((await exportFile(op2, [second])).status).toBe(200);
    expect(await countRows("SELECT 1 FROM two_person_tally WHERE reference = ?", `payout:${second}`)).toBe(0);
  });

  it("counts a selection's own payouts: two $600 payouts in one file need a second operator for the second", async () => {
    const op = await makeOperator();
    const a = await payeeWithPayout(60_000);
    const b = await payeeWithPayout(60_000);
    const res = await exportFile(op, [a.payoutId, b.payoutId]);
    expect(res.status).toBe(409);
    expect(res.body.message).toBe(PAYOUTS.approvalRequiredTotal(Math.max(a.payoutId, b.payoutId), "$1000.00"));
    expect(await countRows("SELECT 1 FROM payouts WHERE id IN (?, ?) AND batch_id IS NOT NULL", a.payoutId, b.payoutId)).toBe(0);
  });

  it("two exports racing under the threshold cannot both slip under: the guard is in the export's batch", async () => {
    const op = await makeOperator();
    const a = await payeeWithPayout(60_000);
    const b = await payeeWithPayout(60_000);
    const results = await Promise.all([exportFile(op, [a.payoutId]), exportFile(op, [b.payoutId])]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(await countRows("SELECT 1 FROM two_person_tally WHERE operator_id = ?", op.id)).toBe(1);
    await expectLedgerBalanced();
  });

  it("payouts paid by hand count too, and money to the operator's own account always needs a second operator", async () => {
    const op = await makeOperator();
    const a = await payeeWithPayout(60_000);
    const b = await payeeWithPayout(60_000);
    expect((await call(`/api/admin/payouts/${a.payoutId}/paid`, { cookie: op.cookie, body: {} })).status).toBe(200);
    const refused = await call(`/api/admin/payouts/${b.payoutId}/paid`, { cookie: op.cookie, body: {} });
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe("approval_required");
    expect((await payoutRow(b.payoutId))!.status).toBe("pending");

    const self = await makeOperator();
    await env.DB.prepare("UPDATE users SET balance_cents = 0 WHERE id = ?").bind(self.id).run();
    await env.DB.prepare(
      "INSERT INTO transactions (user_id, amount_cents, type, status, reference) VALUES (?, 1000, 'deposit', 'completed', ?)",
    )
      .bind(self.id, `pi_self_${self.id}`)
      .run();
    const own = await payout(self.id, 500);
    const ownExport = await exportFile(self, [own]);
    expect(ownExport.status).toBe(409);
    expect(ownExport.body.code).toBe("approval_required");
  });
});

describe("house-funded pools: rolling totals per operator", () => {
  const free = (categoryId: number, title: string, prizePool: number) => ({
    title,
    description: "A house-funded cup.",
    categoryId,
    entryFee: 0,
    isFree: true,
    maxParticipants: null,
    minLevel: 1,
    startTime: new Date(Date.now() + 60 * 60_000).toISOString(),
    durationMinutes: 30,
    prizePool,
  });
  const create = (op: Player, b: unknown) => call("/api/admin/tournaments", { cookie: op.cookie, body: b });

  it("a second $500 pool by one operator in a day waits for a second operator; another operator's does not", async () => {
    const op = await makeOperator();
    const [c1, c2, c3] = [await makeCategory(7), await makeCategory(7), await makeCategory(7)];
    expect((await create(op, free(c1.id, "First House Cup", 500))).status).toBe(201);
    const second = await create(op, free(c2.id, "Second House Cup", 500));
    expect(second.status, second.text).toBe(202);
    expect(
      await countRows("SELECT 1 FROM approvals WHERE id = ? AND kind = 'house_pool' AND status = 'pending'", second.body.approvalId),
    ).toBe(1);
    expect(await countRows("SELECT 1 FROM tournaments WHERE title = 'Second House Cup'")).toBe(0);
    expect((await create(await makeOperator(), free(c3.id, "Third House Cup", 500))).status).toBe(201);
  });

  it("a raised pool counts its raise", async () => {
    const op = await makeOperator();
    const [c1, c2] = [await makeCategory(7), await makeCategory(7)];
    const made = await create(op, free(c1.id, "Raised Cup", 300));
    expect(made.status).toBe(201);
    const raised = await call(`/api/admin/tournaments/${made.body.id}`, {
      method: "PATCH",
      cookie: op.cookie,
      body: free(c1.id, "Raised Cup", 450),
    });
    expect(raised.status, raised.text).toBe(200);
    // $450 counted; another $100 pool passes $500 in the day.
    const small = await create(op, free(c2.id, "Small Cup", 100));
    expect(small.status).toBe(202);
  });
});

describe("held prizes: releases count toward the payout totals", () => {
  it("a release above the threshold with the day's totals, or of the operator's own prize, waits for a second operator", async () => {
    const op = await makeOperator();
    const first = await heldPrize({ prizeCents: 60_000 });
    const second = await heldPrize({ prizeCents: 60_000 });
    expect((await call(`/api/admin/held-prizes/${first.prizeId}/release`, { cookie: op.cookie, body: {} })).status).toBe(200);
    const waits = await call(`/api/admin/held-prizes/${second.prizeId}/release`, { cookie: op.cookie, body: {} });
    expect(waits.status, waits.text).toBe(202);
    expect(await countRows("SELECT 1 FROM transactions WHERE id = ? AND status = 'held'", second.prizeId)).toBe(1);
    const other = await makeOperator();
    expect((await approve(other, waits.body.approvalId)).status).toBe(200);
    expect(await countRows("SELECT 1 FROM transactions WHERE id = ? AND status = 'completed'", second.prizeId)).toBe(1);

    // A small release on one's own say is fine, unless the prize is the operator's own.
    const small = await heldPrize({ prizeCents: 1_000 });
    expect((await call(`/api/admin/held-prizes/${small.prizeId}/release`, { cookie: other.cookie, body: {} })).status).toBe(200);
    const own = await heldPrize({ prizeCents: 1_000 });
    await makeAdmin(own.player.id);
    const ownRelease = await call(`/api/admin/held-prizes/${own.prizeId}/release`, { cookie: own.player.cookie, body: {} });
    expect(ownRelease.status).toBe(202);
    await expectLedgerBalanced();
  });
});

describe("manual balance adjustments", () => {
  it("always need a second operator, however small", async () => {
    const op = await makeOperator();
    const p = await makePlayer({ balanceCents: 1_000 });
    const res = await call(`/api/admin/users/${p.id}/adjustments`, { cookie: op.cookie, body: { amount: 0.01, reason: "Rounding fix" } });
    expect(res.status).toBe(202);
  });
});

describe("what was approved stays approved; nobody approves their own gain; two clicks ask once", () => {
  const free = (categoryId: number, o: Record<string, unknown> = {}) => ({
    title: "Approved Cup",
    description: "A house-funded cup.",
    categoryId,
    entryFee: 0,
    isFree: true,
    maxParticipants: 100,
    minLevel: 1,
    startTime: new Date(Date.now() + 2 * 60 * 60_000).toISOString(),
    durationMinutes: 30,
    prizePool: 600,
    ...o,
  });

  it("an edit of a tournament a second operator approved needs a new approval", async () => {
    const [op, second] = [await makeOperator(), await makeOperator()];
    const cat = await makeCategory(7);
    const asked = await call("/api/admin/tournaments", { cookie: op.cookie, body: free(cat.id) });
    expect(asked.status).toBe(202);
    const made = await approve(second, asked.body.approvalId);
    expect(made.status, made.text).toBe(200);
    const id = Number(made.body.resultRef);

    const edit = await call(`/api/admin/tournaments/${id}`, {
      method: "PATCH",
      cookie: op.cookie,
      body: free(cat.id, { maxParticipants: 5 }),
    });
    expect(edit.status, edit.text).toBe(202);
    expect(edit.body.message).toBe(ADMIN_TOURNAMENTS.editApprovalRequested);
    const row = () =>
      env.DB.prepare("SELECT max_participants FROM tournaments WHERE id = ?").bind(id).first<{ max_participants: number }>();
    expect((await row())!.max_participants).toBe(100);
    const approval = await env.DB.prepare("SELECT kind, status FROM approvals WHERE id = ?").bind(edit.body.approvalId).first();
    expect(approval).toEqual({ kind: "tournament_edit", status: "pending" });

    expect((await approve(second, edit.body.approvalId)).status).toBe(200);
    expect((await row())!.max_participants).toBe(5);
  });

  it("refuses an approval that pays the approving operator's own account (payout, adjustment, held prize): 403 own_benefit", async () => {
    const [asker, other] = [await makeOperator(), await makeOperator()];
    // `payee` is an operator with money of their own and a held prize.
    const { player: payee, prizeId } = await heldPrize({ balanceCents: 300_000, prizeCents: 150_000 });
    await makeAdmin(payee.id);
    const payoutId = await payout(payee.id, 150_000);

    const requests = [
      await call(`/api/admin/payouts/${payoutId}/request-approval`, { cookie: asker.cookie, body: {} }),
      await call(`/api/admin/users/${payee.id}/adjustments`, { cookie: asker.cookie, body: { amount: 25, reason: "Goodwill" } }),
      await call(`/api/admin/held-prizes/${prizeId}/release`, { cookie: asker.cookie, body: {} }),
    ];
    for (const r of requests) {
      expect(r.status, r.text).toBe(202);
      const refused = await approve(payee, r.body.approvalId);
      expect(refused.status).toBe(403);
      expect(refused.body).toEqual({ code: "own_benefit", message: APPROVALS.ownBenefit });
      expect(await countRows("SELECT 1 FROM approvals WHERE id = ? AND status = 'pending'", r.body.approvalId)).toBe(1);
      // Another operator may.
      expect((await approve(other, r.body.approvalId)).status).toBe(200);
    }
    await expectLedgerBalanced();
  });

  it("two clicks, even at once, request one approval: the second gets the pending one", async () => {
    const op = await makeOperator();
    const p = await makePlayer({ balanceCents: 300_000 });
    const payoutId = await payout(p.id, 150_000);
    const ask = () => call(`/api/admin/payouts/${payoutId}/request-approval`, { cookie: op.cookie, body: {} });
    const [a, b] = await Promise.all([ask(), ask()]);
    expect([a.status, b.status]).toEqual([202, 202]);
    expect(a.body.approvalId).toBe(b.body.approvalId);
    expect((await ask()).body.approvalId).toBe(a.body.approvalId);
    expect(await countRows("SELECT 1 FROM approvals WHERE kind = 'payout' AND json_extract(payload, '$.payoutId') = ?", payoutId)).toBe(1);
    expect(await countRows("SELECT 1 FROM audit_log WHERE action = 'approval.request' AND target_id = ?", String(a.body.approvalId))).toBe(
      1,
    );

    const adjust = (amount: number) =>
      call(`/api/admin/users/${p.id}/adjustments`, { cookie: op.cookie, body: { amount, reason: "Goodwill" } });
    const [x, y] = await Promise.all([adjust(10), adjust(10)]);
    expect(x.body.approvalId).toBe(y.body.approvalId);
    // Another amount is another request.
    expect((await adjust(11)).body.approvalId).not.toBe(x.body.approvalId);
  });
});

describe("operator sessions: step-up, short lives, no-store, file downloads on record, second operators", () => {
  const session = (userId: number) =>
    env.DB.prepare("SELECT * FROM sessions WHERE user_id = ?").bind(userId).first<Record<string, number>>();

  it("every state-changing /api/admin request needs a step-up within 15 minutes; reads do not", async () => {
    const op = await makeOperator();
    const p = await makePlayer();
    const suspend = () => call(`/api/admin/users/${p.id}/suspend`, { cookie: op.cookie, body: { note: "Chargeback pattern" } });
    await env.DB.prepare("UPDATE sessions SET step_up_at = ? WHERE user_id = ?")
      .bind(Date.now() - OPERATOR_STEP_UP_TTL_MS - 1000, op.id)
      .run();
    const refused = await suspend();
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ code: "step_up_required", message: AUTH.stepUpRequired });
    expect((await call("/api/admin/approvals", { cookie: op.cookie })).status).toBe(200);
    for (const [path, method] of [
      ["/api/admin/payouts/export", "POST"],
      ["/api/admin/approvals/1/approve", "POST"],
      [`/api/admin/tournaments/1`, "PATCH"],
      [`/api/admin/users/${p.id}/sessions`, "DELETE"],
      ["/api/admin/questions/import", "POST"],
    ] as const) {
      const res = await call(path, { cookie: op.cookie, method, body: method === "DELETE" ? undefined : {} });
      expect(res.body?.code, `${method} ${path}`).toBe("step_up_required");
    }
    // 14 minutes ago is recent enough for an operator (a player's withdrawal wants 10).
    await env.DB.prepare("UPDATE sessions SET step_up_at = ? WHERE user_id = ?")
      .bind(Date.now() - 14 * 60_000, op.id)
      .run();
    expect((await suspend()).status).toBe(200);
  });

  it("ends an operator's session after 30 idle minutes or 12 hours in all (401), a player's not", async () => {
    const op = await makeOperator();
    const player = await makePlayer();
    const me = (cookie: string) => call("/api/user", { cookie });
    expect((await me(op.cookie)).status).toBe(200);
    await env.DB.prepare("UPDATE sessions SET last_seen_at = ? WHERE user_id IN (?, ?)")
      .bind(Date.now() - 31 * 60_000, op.id, player.id)
      .run();
    expect((await me(op.cookie)).status).toBe(401);
    expect(await session(op.id)).toBeNull();
    expect((await me(player.cookie)).status).toBe(200);

    const busy = await makeOperator();
    // Active a minute ago, but signed in 12 hours ago.
    await env.DB.prepare("UPDATE sessions SET created_at = ?, last_seen_at = ? WHERE user_id = ?")
      .bind(Date.now() - 12 * 60 * 60_000 - 1000, Date.now() - 60_000, busy.id)
      .run();
    expect((await call("/api/admin/approvals", { cookie: busy.cookie })).status).toBe(401);

    // An operator's activity is seen to the minute, so 30 minutes are counted from their last request.
    const active = await makeOperator();
    await env.DB.prepare("UPDATE sessions SET last_seen_at = ? WHERE user_id = ?")
      .bind(Date.now() - 2 * 60_000, active.id)
      .run();
    expect((await me(active.cookie)).status).toBe(200);
    expect(Date.now() - (await session(active.id))!.last_seen_at!).toBeLessThan(60_000);
  });

  it("answers every /api/admin request with Cache-Control: no-store, refusals included", async () => {
    const op = await makeOperator();
    for (const res of [
      await call("/api/admin/overview", { cookie: op.cookie }),
      await call("/api/admin/payout-batches", { cookie: op.cookie }),
      await call("/api/admin/approvals/999999/approve", { cookie: op.cookie, body: {} }),
      await call("/api/admin/overview"),
    ]) {
      expect(res.headers.get("cache-control")).toBe("no-store");
    }
  });

  it("writes an audit row for every ACH file download, export and re-download", async () => {
    const op = await makeOperator();
    const a = await payeeWithPayout(2_500);
    const exported = await exportFile(op, [a.payoutId]);
    const batchId = Number(exported.headers.get("x-payout-batch-id"));
    expect(await countRows("SELECT 1 FROM audit_log WHERE action = 'payout.export' AND target_id = ?", String(batchId))).toBe(1);
    for (let i = 0; i < 2; i++) {
      const again = await call(`/api/admin/payout-batches/${batchId}/file`, { cookie: op.cookie });
      expect(again.text).toBe(exported.text);
    }
    const rows = await env.DB.prepare("SELECT actor_user_id, after FROM audit_log WHERE action = 'payout_batch.download' AND target_id = ?")
      .bind(String(batchId))
      .all<{ actor_user_id: number; after: string }>();
    expect(rows.results).toHaveLength(2);
    expect(rows.results[0]!.actor_user_id).toBe(op.id);
    expect(JSON.parse(rows.results[0]!.after).sha256).toBe(sha256Hex(exported.text));
  });

  it("banning another operator waits for a second operator; a player's ban does not", async () => {
    const [op, other, target] = [await makeOperator(), await makeOperator(), await makeOperator()];
    const ban = await call(`/api/admin/users/${target.id}/ban`, { cookie: op.cookie, body: { note: "Left the company" } });
    expect(ban.status, ban.text).toBe(202);
    expect(ban.body.message).toBe(MODERATION.operatorBanRequested);
    expect(await countRows("SELECT 1 FROM users WHERE id = ? AND banned_at IS NULL", target.id)).toBe(1);
    expect((await approve(other, ban.body.approvalId)).status).toBe(200);
    expect(await countRows("SELECT 1 FROM users WHERE id = ? AND banned_at IS NOT NULL", target.id)).toBe(1);

    const p = await makePlayer();
    expect((await call(`/api/admin/users/${p.id}/ban`, { cookie: op.cookie, body: { note: "Bots" } })).status).toBe(200);
  });
});

describe("a payout of an exported ACH file fails only with the bank's return and a second operator", () => {
  const today = () => new Date().toISOString().slice(0, 10);
  const fail = (op: Player, id: number, body: object) => call(`/api/admin/payouts/${id}/failed`, { cookie: op.cookie, body });

  it("asks for the R-code and date, waits for a second operator, says why on the ledger row, and the file stays the bank's bytes", async () => {
    const [op, second] = [await makeOperator(), await makeOperator()];
    const a = await payeeWithPayout(2_500, 10_000);
    const b = await payeeWithPayout(4_000, 10_000);
    const exported = await exportFile(op, [a.payoutId, b.payoutId]);
    expect(exported.status).toBe(200);
    const batchId = Number(exported.headers.get("x-payout-batch-id"));

    // A reason alone, a malformed code or date, or a date the bank cannot have returned it on: refused, nothing moves.
    const noReturn = await fail(op, a.payoutId, { reason: "The bank called" });
    expect(noReturn.status).toBe(400);
    expect(noReturn.body).toEqual({ code: "bank_return_required", message: PAYOUTS.bankReturnRequired });
    for (const [returnCode, returnDate] of [
      ["R86", today()],
      ["R1", today()],
      ["X01", today()],
      ["R01", "2026-02-30"],
      ["R01", "20-11-2026"],
    ]) {
      expect((await fail(op, a.payoutId, { returnCode, returnDate })).status, `${returnCode} ${returnDate}`).toBe(400);
    }
    expect((await fail(op, a.payoutId, { returnCode: "R01" })).status).toBe(400);
    const beforeExport = await fail(op, a.payoutId, { returnCode: "R01", returnDate: "2020-01-02" });
    expect(beforeExport.body).toEqual({ code: "bank_return_required", message: PAYOUTS.returnDateImplausible });

    const asked = await fail(op, a.payoutId, { returnCode: "R01", returnDate: today(), reason: "Return notice 4471" });
    expect(asked.status, asked.text).toBe(202);
    expect((await payoutRow(a.payoutId))!.status).toBe("pending");
    expect((await approve(op, asked.body.approvalId)).body.code).toBe("own_approval");
    expect((await approve(second, asked.body.approvalId)).status).toBe(200);

    const reason = `Returned by the bank: R01 Insufficient funds, ${today()}`;
    expect(await payoutRow(a.payoutId)).toMatchObject({ status: "failed", failure_reason: reason });
    const ledger = await env.DB.prepare("SELECT status, description FROM transactions WHERE reference = ?")
      .bind(`payout:${a.payoutId}`)
      .first<{ status: string; description: string }>();
    expect(ledger!.status).toBe("failed");
    expect(ledger!.description).toContain(reason);
    expect(await countRows("SELECT 1 FROM users WHERE id = ? AND balance_cents = 10000", a.player.id)).toBe(1);

    // The re-download is the file the bank received, byte for byte, even with the bank identity changed since.
    const again = await call(`/api/admin/payout-batches/${batchId}/file`, { cookie: op.cookie });
    expect(again.text).toBe(exported.text);
    const renamed = await call(`/api/admin/payout-batches/${batchId}/file`, { cookie: op.cookie, env: { ACH_COMPANY_NAME: "RENAMED CO" } });
    expect(renamed.text).toBe(exported.text);
    await expectLedgerBalanced();
  });

  it("a payout in no file still fails at once with a reason, by one operator", async () => {
    const op = await makeOperator();
    const a = await payeeWithPayout(2_500, 10_000);
    const res = await fail(op, a.payoutId, { reason: "Player asked to cancel" });
    expect(res.status, res.text).toBe(200);
    expect((await payoutRow(a.payoutId))!.status).toBe("failed");
  });
});
