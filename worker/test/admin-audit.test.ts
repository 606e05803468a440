// The audit log as operators read it: rows for their actions, newest first, filtered and paged;
// and the database itself refusing to change or delete a row.
import { describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import type { AuditPage } from "../../common/api/console";
import { call } from "./helpers";
import { makeOperator } from "./fair-play-fixtures";
import { makePlayer } from "./tournament-fixtures";

const DAY = 86_400_000;

async function audit(
  actorId: number,
  action: string,
  targetType: string,
  targetId: string,
  at = Date.now(),
  extra: { before?: object; after?: object } = {},
) {
  const row = await env.DB.prepare(
    "INSERT INTO audit_log (actor_user_id, action, target_type, target_id, before, after, note, created_at) VALUES (?, ?, ?, ?, ?, ?, 'why', ?) RETURNING id",
  )
    .bind(
      actorId,
      action,
      targetType,
      targetId,
      extra.before ? JSON.stringify(extra.before) : null,
      extra.after ? JSON.stringify(extra.after) : null,
      at,
    )
    .first<{ id: number }>();
  return row!.id;
}

const list = (cookie: string, query = "") => call<AuditPage>(`/api/admin/audit${query}`, { cookie });

describe("GET /api/admin/audit", () => {
  it("records an operator's action: rejecting an approval shows up with who, what, before and after", async () => {
    const asker = await makeOperator();
    const rejecter = await makeOperator();
    const approval = await env.DB.prepare(
      "INSERT INTO approvals (kind, payload, summary, amount_cents, requested_by) VALUES ('adjustment', '{}', 'Credit $1.00', 100, ?) RETURNING id",
    )
      .bind(asker.id)
      .first<{ id: number }>();
    const rejected = await call(`/api/admin/approvals/${approval!.id}/reject`, { cookie: rejecter.cookie, body: { note: "no ticket" } });
    expect(rejected.status).toBe(200);

    const res = await list(rejecter.cookie, `?actor=${rejecter.username.toUpperCase()}`);
    expect(res.status, res.text).toBe(200);
    expect(res.body.entries).toHaveLength(1);
    expect(res.body.entries[0]).toMatchObject({
      actor: { id: rejecter.id, username: rejecter.username },
      action: "approval.reject",
      targetType: "approval",
      targetId: String(approval!.id),
      before: { status: "pending", kind: "adjustment" },
      after: { status: "rejected" },
      note: "no ticket",
    });
    expect(res.body.entries[0]!.createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T/);
  });

  it("filters by action, target and dates, newest first, and pages with a cursor", async () => {
    const op = await makeOperator();
    const target = `t-${crypto.randomUUID()}`;
    const old = await audit(op.id, "user.suspend", "user", target, Date.now() - 10 * DAY, {
      before: { suspended: false },
      after: { suspended: true },
    });
    const mid = await audit(op.id, "user.unsuspend", "user", target, Date.now() - 2 * DAY);
    const recent = await audit(op.id, "user.suspend", "user", target);
    await audit(op.id, "user.suspend", "user", `other-${crypto.randomUUID()}`);

    const byTarget = await list(op.cookie, `?targetType=user&targetId=${target}`);
    expect(byTarget.body.entries.map((e) => e.id)).toEqual([recent, mid, old]);
    expect(byTarget.body.entries[2]).toMatchObject({ before: { suspended: false }, after: { suspended: true } });

    const suspends = await list(op.cookie, `?action=user.suspend&targetId=${target}`);
    expect(suspends.body.entries.map((e) => e.id)).toEqual([recent, old]);

    const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
    const ranged = await list(op.cookie, `?targetId=${target}&from=${day(Date.now() - 3 * DAY)}&to=${day(Date.now() - 2 * DAY)}`);
    expect(ranged.body.entries.map((e) => e.id)).toEqual([mid]);

    const first = await list(op.cookie, `?targetId=${target}&limit=2`);
    expect(first.body.entries.map((e) => e.id)).toEqual([recent, mid]);
    expect(first.body.nextCursor).toBe(mid);
    const second = await list(op.cookie, `?targetId=${target}&limit=2&cursor=${first.body.nextCursor}`);
    expect(second.body.entries.map((e) => e.id)).toEqual([old]);
    expect(second.body.nextCursor).toBeNull();
  });

  it("refuses a bad filter with 400 and a reason", async () => {
    const op = await makeOperator();
    const res = await list(op.cookie, "?action=user.fly&from=yesterday");
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toMatch(/action must be one of/);
  });

  it("is append only: the database refuses UPDATE and DELETE", async () => {
    const op = await makeOperator();
    const id = await audit(op.id, "user.ban", "user", "1");
    await expect(env.DB.prepare("UPDATE audit_log SET note = 'rewritten' WHERE id = ?").bind(id).run()).rejects.toThrow(/append only/);
    await expect(env.DB.prepare("DELETE FROM audit_log WHERE id = ?").bind(id).run()).rejects.toThrow(/append only/);
    const row = await env.DB.prepare("SELECT note FROM audit_log WHERE id = ?").bind(id).first<{ note: string }>();
    expect(row?.note).toBe("why");
  });

  it("is for operators with 2FA only", async () => {
    const player = await makePlayer();
    expect((await list(player.cookie)).status).toBe(403);
  });
});
