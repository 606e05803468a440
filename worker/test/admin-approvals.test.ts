// The two-person rule: a pending approval is carried out only when another operator approves
// it, once, whoever clicks first; a failed execution leaves it pending.
import { describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import { APPROVALS } from "../../common/console-messages";
import { registerApprovalExecutor } from "../admin/approvals";
import { badRequest } from "../http/errors";
import { call } from "./helpers";
import { makeOperator } from "./fair-play-fixtures";
import { makePlayer } from "./tournament-fixtures";

// What the test executor did, by approval id; a payload { fail: "…" } makes it refuse.
const executed: { approvalId: number; payload: unknown; approverId: number; requesterId: number }[] = [];
registerApprovalExecutor("adjustment", async (ctx, payload) => {
  const p = payload as { fail?: string; slow?: boolean };
  if (p.slow) await new Promise((r) => setTimeout(r, 50));
  if (p.fail) throw badRequest(p.fail);
  executed.push({ approvalId: ctx.approvalId, payload, approverId: ctx.approverId, requesterId: ctx.requesterId });
  return `test:${ctx.approvalId}`;
});

async function pendingApproval(requestedBy: number, payload: object = { userId: 1, amountCents: 2500 }) {
  const row = await env.DB.prepare(
    "INSERT INTO approvals (kind, payload, summary, amount_cents, requested_by) VALUES ('adjustment', ?, 'Credit $25.00 to someone', 2500, ?) RETURNING id",
  )
    .bind(JSON.stringify(payload), requestedBy)
    .first<{ id: number }>();
  return row!.id;
}

const approval = (id: number) => env.DB.prepare("SELECT * FROM approvals WHERE id = ?").bind(id).first<Record<string, unknown>>();
const auditOf = (id: number) =>
  env.DB.prepare("SELECT * FROM audit_log WHERE target_type = 'approval' AND target_id = ? ORDER BY id")
    .bind(String(id))
    .all<Record<string, unknown>>()
    .then((r) => r.results);

describe("approvals", () => {
  it("lists pending ones first, with who asked and whether it is mine", async () => {
    const asker = await makeOperator();
    const other = await makeOperator();
    const decided = await pendingApproval(asker.id);
    await env.DB.prepare("UPDATE approvals SET status = 'rejected', decided_by = ?, decided_at = ? WHERE id = ?")
      .bind(other.id, Date.now(), decided)
      .run();
    const pending = await pendingApproval(asker.id);

    const all = await call("/api/admin/approvals", { cookie: other.cookie });
    expect(all.status).toBe(200);
    const ids = all.body.map((a: { id: number }) => a.id);
    expect(ids.indexOf(pending)).toBeLessThan(ids.indexOf(decided));
    const mine = await call("/api/admin/approvals?status=pending", { cookie: asker.cookie });
    const row = mine.body.find((a: { id: number }) => a.id === pending);
    expect(row).toMatchObject({
      kind: "adjustment",
      summary: "Credit $25.00 to someone",
      amount: 25,
      status: "pending",
      requestedBy: { id: asker.id, username: asker.username },
      mine: true,
    });
    expect(mine.body.every((a: { status: string }) => a.status === "pending")).toBe(true);
  });

  it("refuses the requester's own decision with 403 own_approval", async () => {
    const asker = await makeOperator();
    const id = await pendingApproval(asker.id);
    for (const action of ["approve", "reject"]) {
      const res = await call(`/api/admin/approvals/${id}/${action}`, { cookie: asker.cookie, body: { note: "looks right to me" } });
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ code: "own_approval", message: APPROVALS.own });
    }
    expect(await approval(id)).toMatchObject({ status: "pending", decided_by: null });
    expect(executed.some((e) => e.approvalId === id)).toBe(false);
  });

  it("approving runs the executor once, stores the result and audits it; a second decision is 409 approval_decided", async () => {
    const asker = await makeOperator();
    const approver = await makeOperator();
    const third = await makeOperator();
    const id = await pendingApproval(asker.id);

    const res = await call(`/api/admin/approvals/${id}/approve`, { cookie: approver.cookie, body: { note: "checked the ticket" } });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ id, status: "approved", resultRef: `test:${id}`, decidedBy: { id: approver.id } });
    expect(executed.filter((e) => e.approvalId === id)).toEqual([
      { approvalId: id, payload: { userId: 1, amountCents: 2500 }, approverId: approver.id, requesterId: asker.id },
    ]);
    expect(await approval(id)).toMatchObject({
      status: "approved",
      decided_by: approver.id,
      result_ref: `test:${id}`,
      note: "checked the ticket",
    });
    const audit = await auditOf(id);
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ actor_user_id: approver.id, action: "approval.approve", note: "checked the ticket" });
    expect(JSON.parse(audit[0]!.before as string)).toMatchObject({ status: "pending" });
    expect(JSON.parse(audit[0]!.after as string)).toMatchObject({ status: "approved", resultRef: `test:${id}` });

    for (const action of ["approve", "reject"]) {
      const again = await call(`/api/admin/approvals/${id}/${action}`, { cookie: third.cookie, body: { note: "me too" } });
      expect(again.status).toBe(409);
      expect(again.body).toEqual({ code: "approval_decided", message: APPROVALS.decided("approved") });
    }
    expect(executed.filter((e) => e.approvalId === id)).toHaveLength(1);
  });

  it("two operators approving at once: one executes, the other is told it was decided", async () => {
    const asker = await makeOperator();
    const a = await makeOperator();
    const b = await makeOperator();
    const id = await pendingApproval(asker.id, { slow: true });
    const results = await Promise.all([
      call(`/api/admin/approvals/${id}/approve`, { cookie: a.cookie, body: {} }),
      call(`/api/admin/approvals/${id}/approve`, { cookie: b.cookie, body: {} }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(executed.filter((e) => e.approvalId === id)).toHaveLength(1);
    expect((await auditOf(id)).filter((r) => r.action === "approval.approve")).toHaveLength(1);
  });

  it("an executor that fails leaves the approval pending and says so", async () => {
    const asker = await makeOperator();
    const approver = await makeOperator();
    const id = await pendingApproval(asker.id, { fail: "The player's account is closed." });
    const res = await call(`/api/admin/approvals/${id}/approve`, { cookie: approver.cookie, body: {} });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ code: "approval_failed", message: APPROVALS.failed("The player's account is closed.") });
    expect(await approval(id)).toMatchObject({ status: "pending", decided_by: null, decided_at: null, result_ref: null });
    expect(await auditOf(id)).toHaveLength(0);
  });

  it("a request that cannot be carried out (its stored payload is malformed) stays pending with 409 approval_failed, not a server error", async () => {
    const asker = await makeOperator();
    const approver = await makeOperator();
    const row = await env.DB.prepare(
      "INSERT INTO approvals (kind, payload, summary, amount_cents, requested_by) VALUES ('house_pool', '{}', 'Fund a $600.00 pool', 60000, ?) RETURNING id",
    )
      .bind(asker.id)
      .first<{ id: number }>();
    const res = await call(`/api/admin/approvals/${row!.id}/approve`, { cookie: approver.cookie, body: {} });
    expect(res.status, res.text).toBe(409);
    expect(res.body.code).toBe("approval_failed");
    expect(await approval(row!.id)).toMatchObject({ status: "pending", decided_by: null });
  });

  it("rejecting needs a note, runs nothing and audits it", async () => {
    const asker = await makeOperator();
    const rejecter = await makeOperator();
    const id = await pendingApproval(asker.id);
    const noNote = await call(`/api/admin/approvals/${id}/reject`, { cookie: rejecter.cookie, body: {} });
    expect(noNote.status).toBe(400);
    const res = await call(`/api/admin/approvals/${id}/reject`, { cookie: rejecter.cookie, body: { note: "No ticket for this" } });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ status: "rejected", note: "No ticket for this", decidedBy: { id: rejecter.id } });
    expect(executed.some((e) => e.approvalId === id)).toBe(false);
    const audit = await auditOf(id);
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ actor_user_id: rejecter.id, action: "approval.reject", note: "No ticket for this" });
    const again = await call(`/api/admin/approvals/${id}/approve`, { cookie: asker.cookie, body: {} });
    expect(again.status).toBe(403);
  });

  it("answers 404 for an unknown approval, and a player 403", async () => {
    const op = await makeOperator();
    const res = await call("/api/admin/approvals/999999/approve", { cookie: op.cookie, body: {} });
    expect(res.status).toBe(404);
    expect(res.body.code).toBe("approval_not_found");
    const player = await makePlayer();
    expect((await call("/api/admin/approvals", { cookie: player.cookie })).status).toBe(403);
  });
});
