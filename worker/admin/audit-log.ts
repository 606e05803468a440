// Reading the audit log: filtered, newest first, paged by id (ids only grow, so a page never
// repeats or skips a row written while an operator pages).
import type { AuditPage } from "../../common/api/console";
import { iso } from "../db/present";

const DAY_MS = 86_400_000;
const DEFAULT_PAGE = 50;

export interface AuditFilters {
  action?: string;
  actor?: string;
  targetType?: string;
  targetId?: string;
  from?: string;
  to?: string;
  cursor?: number;
  limit?: number;
}

interface Row {
  id: number;
  actor_user_id: number;
  actor: string | null;
  action: string;
  target_type: string;
  target_id: string | null;
  before: string | null;
  after: string | null;
  note: string | null;
  created_at: number;
}

const parse = (v: string | null): unknown => (v === null ? null : (JSON.parse(v) as unknown));

export async function listAudit(d1: D1Database, f: AuditFilters): Promise<AuditPage> {
  const where: string[] = [];
  const binds: (string | number)[] = [];
  const add = (clause: string, value: string | number) => {
    where.push(clause);
    binds.push(value);
  };
  if (f.action) add("a.action = ?", f.action);
  if (f.actor) add("lower(u.username) = lower(?)", f.actor);
  if (f.targetType) add("a.target_type = ?", f.targetType);
  if (f.targetId) add("a.target_id = ?", f.targetId);
  // Dates are UTC days, both ends included.
  if (f.from) add("a.created_at >= ?", Date.parse(`${f.from}T00:00:00Z`));
  if (f.to) add("a.created_at < ?", Date.parse(`${f.to}T00:00:00Z`) + DAY_MS);
  if (f.cursor !== undefined) add("a.id < ?", f.cursor);
  const limit = f.limit ?? DEFAULT_PAGE;
  const { results } = await d1
    .prepare(
      `SELECT a.*, u.username AS actor FROM audit_log a LEFT JOIN users u ON u.id = a.actor_user_id
       ${where.length ? `WHERE ${where.join(" AND ")}` : ""} ORDER BY a.id DESC LIMIT ?`,
    )
    .bind(...binds, limit + 1)
    .all<Row>();
  const page = results.slice(0, limit);
  return {
    entries: page.map((r) => ({
      id: r.id,
      actor: { id: r.actor_user_id, username: r.actor ?? `#${r.actor_user_id}` },
      action: r.action,
      targetType: r.target_type,
      targetId: r.target_id,
      before: parse(r.before),
      after: parse(r.after),
      note: r.note,
      createdAt: iso(r.created_at),
    })),
    nextCursor: results.length > limit ? page.at(-1)!.id : null,
  };
}
