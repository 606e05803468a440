// The payout queue in the console: filters, masked and legacy accounts, the two-person rule, the
// ACH file (read back by common/test/nacha-reader.ts), batches marked paid once, failures refunded
// once with the player told, and an audit row for every action.
import { afterEach, describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import { AUTH, MONEY, NOTIFY } from "../../common/messages";
import { PAYOUTS } from "../../common/console-messages";
import { readAchFile } from "../../common/test/nacha-reader";
import { approvalExecutor } from "../admin/approvals";
import { createDb } from "../db/client";
import { open, payoutSealContext } from "../crypto/sealed";
import { call, registerUser } from "./helpers";
import { countRows, balanceCents, expectLedgerBalanced, fund, PAST_HOLD, readyToWithdraw, validBank, withdraw } from "./money-helpers";
import { makeOperator } from "./fair-play-fixtures";
import { makePlayer } from "./tournament-fixtures";

afterEach(expectLedgerBalanced);

/** A player with withdrawable money, ready to withdraw (verified email and identity, recent step-up). */
async function player(cents = 500_000, legalName = "Ada Lovelace") {
  const u = await registerUser();
  await fund(u.user.id, cents, { hoursAgo: PAST_HOLD });
  await readyToWithdraw(u.user.id, { legalName });
  return u;
}

/** A pending payout of `usd` dollars; its id. */
async function payoutOf(cookie: string, usd: number, bank: object = validBank()): Promise<number> {
  const res = await withdraw(cookie, usd, bank);
  if (res.status !== 200) throw new Error(`withdrawal failed: ${res.status} ${res.text}`);
  return res.body.payout.id;
}

/** A payout from before full account numbers were kept: last 4 digits only. */
async function legacyPayoutOf(cookie: string, usd: number): Promise<number> {
  const id = await payoutOf(cookie, usd);
  await env.DB.prepare("UPDATE payouts SET account_number_sealed = NULL WHERE id = ?").bind(id).run();
  return id;
}

const exportFile = (cookie: string, payoutIds: unknown) => call("/api/admin/payouts/export", { cookie, body: { payoutIds } });

const payoutRow = (id: number) => env.DB.prepare("SELECT * FROM payouts WHERE id = ?").bind(id).first<Record<string, any>>();
const auditRows = (action: string, targetType: string, targetId: number) =>
  env.DB.prepare("SELECT * FROM audit_log WHERE action = ? AND target_type = ? AND target_id = ? ORDER BY id")
    .bind(action, targetType, String(targetId))
    .all<Record<string, any>>()
    .then((r) => r.results);

describe("the payout queue", () => {
  it("answers only operators with 2FA on its new routes", async () => {
    const p = await makePlayer();
    const noTwoFactor = await makePlayer();
    await env.DB.prepare("UPDATE users SET role = 'admin' WHERE id = ?").bind(noTwoFactor.id).run();
    for (const [path, body] of [
      ["/api/admin/payouts/export", { payoutIds: [1] }],
      ["/api/admin/payouts/1/request-approval", {}],
      ["/api/admin/payout-batches/1/mark-paid", {}],
      ["/api/admin/payout-batches", undefined],
      ["/api/admin/payout-batches/1/file", undefined],
    ] as const) {
      expect((await call(path, { cookie: p.cookie, body })).status).toBe(403);
      const refused = await call(path, { cookie: noTwoFactor.cookie, body });
      expect(refused.status).toBe(403);
      expect(refused.body).toEqual({ code: "admin_two_factor_required", message: AUTH.adminTwoFactorRequired });
      expect((await call(path, { body })).status).toBe(401);
    }
  });

  it("lists payouts with the account masked, how each is paid and its approval state, filtered", async () => {
    const op = await makeOperator();
    const u = await player();
    const small = await payoutOf(u.cookie, 25, { ...validBank(), accountNumber: "9988776655" });
    const large = await payoutOf(u.cookie, 1_500);
    const legacy = await legacyPayoutOf(u.cookie, 40);
    const old = await payoutOf(u.cookie, 30);
    await env.DB.prepare("UPDATE payouts SET created_at = ? WHERE id = ?").bind(Date.parse("2026-01-15T12:00:00Z"), old).run();

    const res = await call(`/api/admin/payouts?status=pending&username=${u.username.slice(1).toUpperCase()}`, { cookie: op.cookie });
    expect(res.status).toBe(200);
    expect(res.body.approvalThreshold).toBe(1_000);
    expect(res.text).not.toContain("9988776655");
    const byId = new Map(res.body.items.map((p: any) => [p.id, p]));
    expect([...byId.keys()].sort()).toEqual([small, large, legacy, old].sort());
    expect(byId.get(small)).toMatchObject({
      username: u.username,
      amount: 25,
      accountMasked: "••••6655",
      payableByFile: true,
      batchId: null,
      approval: { state: "not_required", approvalId: null },
    });
    expect(byId.get(large)).toMatchObject({ amount: 1_500, approval: { state: "required" } });
    expect(byId.get(legacy)).toMatchObject({ payableByFile: false, accountMasked: "••••6789" });

    const ids = async (query: string) =>
      (await call(`/api/admin/payouts?username=${u.username}&${query}`, { cookie: op.cookie })).body.items.map((p: any) => p.id).sort();
    expect(await ids("minAmount=30&maxAmount=1000")).toEqual([legacy, old].sort());
    expect(await ids("minAmount=1000.01")).toEqual([large]);
    expect(await ids("from=2026-01-15&to=2026-01-15")).toEqual([old]);
    expect(await ids("to=2026-01-14")).toEqual([]);
    expect(await ids("status=paid")).toEqual([]);
    for (const bad of ["minAmount=ten", "minAmount=1.234", "from=15/01/2026", "status=lost"]) {
      expect((await call(`/api/admin/payouts?${bad}`, { cookie: op.cookie })).status).toBe(400);
    }
  });
});

describe("the ACH export", () => {
  it("answers a NACHA file of the selection: PPD credits, 94-character records blocked by 10, control totals and entry hash", async () => {
    const op = await makeOperator();
    const a = await player();
    const b = await player(500_000, "Grace Brewster Murray Hopper");
    const first = await payoutOf(a.cookie, 12.34, { ...validBank(), accountHolderName: "Ada Lovelace", accountNumber: "55501234567890" });
    const second = await payoutOf(b.cookie, 250, {
      accountHolderName: "Grace Brewster Murray Hopper Jr",
      accountNumber: "9876543210",
      routingNumber: "011401533",
      accountType: "savings",
    });

    const res = await exportFile(op.cookie, [second, first, first]);
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/plain/);
    const batchId = Number(res.headers.get("x-payout-batch-id"));
    const day = new Date().toISOString().slice(0, 10).replace(/-/g, "");
    expect(res.headers.get("content-disposition")).toBe(`attachment; filename="ach-${day}-${batchId}.txt"`);

    const ach = readAchFile(res.text);
    expect(ach.lines.every((l) => l.length === 94)).toBe(true);
    expect(ach.lines.length % 10).toBe(0);
    expect(ach.types).toBe("15668" + "9");
    expect(ach.fillerAfterControl).toBe(true);
    expect(ach.header).toEqual({ destination: " 021000021", origin: "1234567890", recordSize: "094", blocking: "10" });
    // The batch number in the file is the batch's id.
    const batchNumber = String(batchId).padStart(7, "0");
    expect(ach.batchHeader).toEqual({ serviceClass: "220", company: "TRIVIA ARENA", sec: "PPD", odfi: "02100002", batch: batchNumber });
    expect(ach.entries).toEqual([
      {
        code: "22",
        rdfi: "02100002",
        checkDigit: "1",
        account: "55501234567890",
        amountCents: 1_234,
        id: String(first),
        name: "ADA LOVELACE",
        addenda: "0",
        trace: "021000020000001",
      },
      // The name is cut to its 22 characters, upper case.
      {
        code: "32",
        rdfi: "01140153",
        checkDigit: "3",
        account: "9876543210",
        amountCents: 25_000,
        id: String(second),
        name: "GRACE BREWSTER MURRAY",
        addenda: "0",
        trace: "021000020000002",
      },
    ]);
    const hash = String(2100002 + 1140153).padStart(10, "0");
    expect(ach.batchControl).toEqual({ serviceClass: "220", entryCount: 2, hash, debitCents: 0, creditCents: 26_234, batch: batchNumber });
    expect(ach.fileControl).toEqual({ batches: 1, blocks: ach.lines.length / 10, entryCount: 2, hash, debitCents: 0, creditCents: 26_234 });

    // The batch and its payouts, and the audit row, committed together.
    const batch = await env.DB.prepare("SELECT * FROM payout_batches WHERE id = ?").bind(batchId).first<Record<string, any>>();
    expect(batch).toMatchObject({
      file_name: `ach-${day}-${batchId}.txt`,
      entry_count: 2,
      total_cents: 26_234,
      status: "exported",
      created_by: op.id,
    });
    expect(await payoutRow(first)).toMatchObject({ batch_id: batchId, status: "pending" });
    expect(await payoutRow(second)).toMatchObject({ batch_id: batchId, status: "pending" });
    const [audit] = await auditRows("payout.export", "payout_batch", batchId);
    expect(audit).toMatchObject({ actor_user_id: op.id });
    expect(JSON.parse(audit!.after)).toEqual({
      fileName: `ach-${day}-${batchId}.txt`,
      payoutIds: [first, second],
      entryCount: 2,
      totalCents: 26_234,
    });

    // Downloaded again: the same bytes. Listed with its payouts' states.
    const again = await call(`/api/admin/payout-batches/${batchId}/file`, { cookie: op.cookie });
    expect(again.status).toBe(200);
    expect(again.text).toBe(res.text);
    expect(again.headers.get("content-disposition")).toBe(`attachment; filename="ach-${day}-${batchId}.txt"`);
    const list = await call("/api/admin/payout-batches", { cookie: op.cookie });
    expect(list.body[0]).toMatchObject({
      id: batchId,
      entryCount: 2,
      total: 262.34,
      status: "exported",
      createdBy: { id: op.id, username: op.username },
      payouts: { pending: 2, paid: 0, failed: 0 },
    });
    // The queue says where they went.
    const queue = await call(`/api/admin/payouts?username=${a.username}`, { cookie: op.cookie });
    expect(queue.body.items[0]).toMatchObject({ id: first, batchId });
  });

  it("never puts a payout in two files, and a refused selection exports nothing", async () => {
    const op = await makeOperator();
    const u = await player();
    const exported = await payoutOf(u.cookie, 10);
    expect((await exportFile(op.cookie, [exported])).status).toBe(200);

    const fresh = await payoutOf(u.cookie, 11);
    const twice = await exportFile(op.cookie, [fresh, exported]);
    expect(twice.status).toBe(409);
    expect(twice.body.code).toBe("payout_already_exported");
    expect(twice.body.message).toBe(PAYOUTS.alreadyExported(exported, (await payoutRow(exported))!.batch_id));

    const legacy = await legacyPayoutOf(u.cookie, 12);
    const refused = await exportFile(op.cookie, [fresh, legacy]);
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({ code: "payout_not_exportable", message: PAYOUTS.notExportable(legacy) });

    await call(`/api/admin/payouts/${legacy}/failed`, { cookie: op.cookie, body: { reason: "Closed account" } });
    const settled = await exportFile(op.cookie, [fresh, legacy]);
    expect(settled.status).toBe(409);
    expect(settled.body.code).toBe("payout_already_settled");
    expect((await exportFile(op.cookie, [fresh, 99_999_999])).status).toBe(404);
    expect((await exportFile(op.cookie, [])).body).toEqual({ code: "invalid_request", message: PAYOUTS.selectionEmpty });
    expect((await payoutRow(fresh))!.batch_id).toBeNull();

    // Two operators exporting the same payout at once: one file carries it.
    const other = await makeOperator();
    const racing = await payoutOf(u.cookie, 13);
    const results = await Promise.all([exportFile(op.cookie, [racing]), exportFile(other.cookie, [racing])]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(await countRows("SELECT 1 FROM audit_log WHERE action = 'payout.export' AND after LIKE ?", `%[${racing}]%`)).toBe(1);
  });

  it("a legacy payout is paid by hand: marked paid with an audit row", async () => {
    const op = await makeOperator();
    const u = await player();
    const legacy = await legacyPayoutOf(u.cookie, 20);
    const res = await call(`/api/admin/payouts/${legacy}/paid`, { cookie: op.cookie, method: "POST" });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe("paid");
    expect(await call(`/api/admin/payouts/${legacy}/paid`, { cookie: op.cookie, method: "POST" }).then((r) => r.status)).toBe(200);
    const audits = await auditRows("payout.mark_paid", "payout", legacy);
    expect(audits).toHaveLength(1);
    expect(audits[0]).toMatchObject({ actor_user_id: op.id });
  });

  it("refuses with the variable's name when the bank identity is malformed", async () => {
    const op = await makeOperator();
    const u = await player();
    const id = await payoutOf(u.cookie, 10);
    const res = await call("/api/admin/payouts/export", { cookie: op.cookie, body: { payoutIds: [id] }, env: { ACH_ODFI_ROUTING: "123" } });
    expect(res.status).toBe(503);
    expect(res.body.code).toBe("ach_not_configured");
    expect(res.body.message).toContain("ACH_ODFI_ROUTING");
    expect((await payoutRow(id))!.batch_id).toBeNull();
  });
});

describe("the two-person rule for large payouts", () => {
  it("a payout above the threshold is exported only after another operator approves it", async () => {
    const asker = await makeOperator();
    const approver = await makeOperator();
    const u = await player();
    const id = await payoutOf(u.cookie, 1_000.01);

    const refused = await exportFile(asker.cookie, [id]);
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({ code: "approval_required", message: PAYOUTS.approvalRequired(id, "$1000.00") });
    const byHand = await call(`/api/admin/payouts/${id}/paid`, { cookie: asker.cookie, method: "POST" });
    expect(byHand.status).toBe(409);
    expect(byHand.body.code).toBe("approval_required");
    expect((await payoutRow(id))!.status).toBe("pending");

    const asked = await call(`/api/admin/payouts/${id}/request-approval`, { cookie: asker.cookie, method: "POST" });
    expect(asked.status).toBe(202);
    expect(asked.body.message).toBe(PAYOUTS.approvalRequested);
    const approvalId = asked.body.approvalId;
    const twice = await call(`/api/admin/payouts/${id}/request-approval`, { cookie: approver.cookie, method: "POST" });
    // Asking again (a second click, or another operator) answers the request that waits.
    expect(twice.status).toBe(202);
    expect(twice.body.approvalId).toBe(approvalId);
    const queued = await call(`/api/admin/payouts?username=${u.username}`, { cookie: asker.cookie });
    expect(queued.body.items[0].approval).toEqual({ state: "requested", approvalId, approvedBy: null, approvedAt: null });
    const pending = await call("/api/admin/approvals?status=pending", { cookie: approver.cookie });
    expect(pending.body.find((a: any) => a.id === approvalId)).toMatchObject({
      kind: "payout",
      amount: 1_000.01,
      summary: PAYOUTS.approvalSummary("1000.01", u.username, id, "6789"),
    });

    // Nobody approves their own request.
    expect((await call(`/api/admin/approvals/${approvalId}/approve`, { cookie: asker.cookie, body: {} })).status).toBe(403);
    expect((await exportFile(asker.cookie, [id])).status).toBe(409);

    const approved = await call(`/api/admin/approvals/${approvalId}/approve`, {
      cookie: approver.cookie,
      body: { note: "checked the account" },
    });
    expect(approved.status, approved.text).toBe(200);
    expect(approved.body).toMatchObject({ status: "approved", resultRef: String(id) });
    const row = await payoutRow(id);
    expect(row).toMatchObject({ approved_by: approver.id, status: "pending" });
    const approvedAt = row!.approved_at;
    const afterApproval = await call(`/api/admin/payouts?username=${u.username}`, { cookie: asker.cookie });
    expect(afterApproval.body.items[0].approval).toMatchObject({ state: "approved", approvalId: null, approvedBy: approver.username });

    // Carried out again for the same approval (a retry): nothing changes.
    const execute = approvalExecutor("payout");
    const ctx = { env, db: createDb(env.DB), approverId: approver.id, requesterId: asker.id, approvalId };
    expect(await execute(ctx, { payoutId: id })).toBe(String(id));
    expect(await payoutRow(id)).toMatchObject({ approved_by: approver.id, approved_at: approvedAt });

    const file = await exportFile(asker.cookie, [id]);
    expect(file.status, file.text).toBe(200);
    expect(readAchFile(file.text).entries[0]!.amountCents).toBe(100_001);
    expect(await auditRows("approval.approve", "approval", approvalId)).toHaveLength(1);
  });

  it("only large pending payouts are sent for approval; an approval of a payout failed since stays pending", async () => {
    const asker = await makeOperator();
    const approver = await makeOperator();
    const u = await player();
    const small = await payoutOf(u.cookie, 1_000);
    const notNeeded = await call(`/api/admin/payouts/${small}/request-approval`, { cookie: asker.cookie, method: "POST" });
    expect(notNeeded.status).toBe(409);
    expect(notNeeded.body).toEqual({ code: "approval_not_required", message: PAYOUTS.approvalNotRequired("$1000.00") });
    expect((await exportFile(asker.cookie, [small])).status).toBe(200);

    const large = await payoutOf(u.cookie, 2_000);
    const { approvalId } = (await call(`/api/admin/payouts/${large}/request-approval`, { cookie: asker.cookie, method: "POST" })).body;
    await call(`/api/admin/payouts/${large}/failed`, { cookie: asker.cookie, body: { reason: "Player asked to cancel" } });
    const settled = await call(`/api/admin/payouts/${large}/request-approval`, { cookie: asker.cookie, method: "POST" });
    expect(settled.body.code).toBe("payout_already_settled");
    const approve = await call(`/api/admin/approvals/${approvalId}/approve`, { cookie: approver.cookie, body: {} });
    expect(approve.status).toBe(409);
    expect(approve.body.code).toBe("approval_failed");
    expect(approve.body.message).toContain(MONEY.payoutAlready("failed"));
    expect((await payoutRow(large))!.approved_by).toBeNull();
  });
});

describe("batches paid, payouts failed", () => {
  it("marks a batch paid once: every payout in it paid, the money already gone, one audit row", async () => {
    const op = await makeOperator();
    const other = await makeOperator();
    const u = await player(10_000);
    const ids = [await payoutOf(u.cookie, 10), await payoutOf(u.cookie, 20)];
    const batchId = Number((await exportFile(op.cookie, ids)).headers.get("x-payout-batch-id"));
    expect(await balanceCents(u.user.id)).toBe(7_000);

    const [one, two] = await Promise.all([
      call(`/api/admin/payout-batches/${batchId}/mark-paid`, { cookie: op.cookie, method: "POST" }),
      call(`/api/admin/payout-batches/${batchId}/mark-paid`, { cookie: other.cookie, method: "POST" }),
    ]);
    expect([one.status, two.status]).toEqual([200, 200]);
    expect([one.body.paid, two.body.paid].sort()).toEqual([0, 2]);
    expect(one.body.batch).toMatchObject({ id: batchId, status: "paid", payouts: { pending: 0, paid: 2, failed: 0 } });
    const again = await call(`/api/admin/payout-batches/${batchId}/mark-paid`, { cookie: op.cookie, method: "POST" });
    expect(again.body.paid).toBe(0);

    expect(await balanceCents(u.user.id)).toBe(7_000);
    for (const id of ids) {
      expect((await payoutRow(id))!.status).toBe("paid");
      expect(await countRows("SELECT 1 FROM transactions WHERE reference = ? AND status = 'completed'", `payout:${id}`)).toBe(1);
    }
    const audits = await auditRows("payout_batch.mark_paid", "payout_batch", batchId);
    expect(audits).toHaveLength(1);
    expect(JSON.parse(audits[0]!.after)).toEqual({ status: "paid", paidPayoutIds: ids });

    // A payout of a paid batch cannot fail any more.
    const late = await call(`/api/admin/payouts/${ids[0]}/failed`, { cookie: op.cookie, body: { reason: "bank return" } });
    expect(late.status).toBe(409);
    expect(late.body).toEqual({ code: "payout_already_settled", message: MONEY.payoutAlready("paid") });
    expect(await balanceCents(u.user.id)).toBe(7_000);
    expect((await call(`/api/admin/payout-batches/999999/mark-paid`, { cookie: op.cookie, method: "POST" })).body.code).toBe(
      "payout_batch_not_found",
    );
  });

  it("fails one exported payout with the bank's return: refunded once, the player told once, audited; the batch pays the rest", async () => {
    const op = await makeOperator();
    const u = await player(10_000);
    const returned = await payoutOf(u.cookie, 30);
    const kept = await payoutOf(u.cookie, 15);
    const batchId = Number((await exportFile(op.cookie, [returned, kept])).headers.get("x-payout-batch-id"));
    const file = (await call(`/api/admin/payout-batches/${batchId}/file`, { cookie: op.cookie })).text;

    // In a file the bank received, it fails with the bank's return, once a second operator approves (two clicks: once).
    const returnDate = new Date().toISOString().slice(0, 10);
    const reason = `Returned by the bank: R02 Account closed, ${returnDate}`;
    const asked = await call(`/api/admin/payouts/${returned}/failed`, { cookie: op.cookie, body: { returnCode: "R02", returnDate } });
    expect(asked.status, asked.text).toBe(202);
    const second = await makeOperator();
    const results = await Promise.all(
      [1, 2].map(() => call(`/api/admin/approvals/${asked.body.approvalId}/approve`, { cookie: second.cookie, body: {} })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(await balanceCents(u.user.id)).toBe(10_000 - 1_500);
    const notes = await call("/api/notifications", { cookie: u.cookie });
    expect(notes.body.items.filter((n: any) => n.message === NOTIFY.payoutFailed("30.00", reason))).toHaveLength(1);
    const audits = await auditRows("payout.mark_failed", "payout", returned);
    expect(audits).toHaveLength(1);
    expect(audits[0]).toMatchObject({ actor_user_id: second.id, note: reason });
    expect(JSON.parse(audits[0]!.after)).toEqual({ status: "failed" });

    const paid = await call(`/api/admin/payout-batches/${batchId}/mark-paid`, { cookie: op.cookie, method: "POST" });
    expect(paid.body).toMatchObject({ paid: 1, batch: { status: "paid", payouts: { pending: 0, paid: 1, failed: 1 } } });
    expect((await payoutRow(returned))!.status).toBe("failed");
    expect(await balanceCents(u.user.id)).toBe(10_000 - 1_500);
    // The file stays what was sent to the bank.
    expect((await call(`/api/admin/payout-batches/${batchId}/file`, { cookie: op.cookie })).text).toBe(file);
  });

  it("the sealed account number in the file is the one the player gave", async () => {
    const op = await makeOperator();
    const u = await player();
    const id = await payoutOf(u.cookie, 10, { ...validBank(), accountNumber: "31415926535" });
    const row = (await payoutRow(id))!;
    const context = payoutSealContext({ userId: row.user_id, routingNumber: row.routing_number, accountLast4: row.account_last4 });
    expect(await open(env, row.account_number_sealed, context)).toBe("31415926535");
    const res = await exportFile(op.cookie, [id]);
    expect(readAchFile(res.text).entries[0]!.account).toBe("31415926535");
  });
});
