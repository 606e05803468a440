// The audit log: one append-only row per operator action, written in the same D1 batch as the
// change it records whenever the change is a batch (so neither exists without the other).
import type { Context } from "hono";
import type { AuditAction } from "../../common/api/console";
import type { AppEnv } from "../http/app-env";
import { currentUser } from "../http/middleware";

export interface AuditEntry {
  action: AuditAction;
  targetType: string;
  targetId: string | number | null;
  /** The target as it was and as it is; stored as JSON. */
  before?: unknown;
  after?: unknown;
  note?: string | null;
}

const json = (v: unknown) => (v === undefined || v === null ? null : JSON.stringify(v));

const COLUMNS = "actor_user_id, action, target_type, target_id, before, after, note";

function values(actorUserId: number, entry: AuditEntry): unknown[] {
  const targetId = entry.targetId === null ? null : String(entry.targetId);
  return [actorUserId, entry.action, entry.targetType, targetId, json(entry.before), json(entry.after), entry.note ?? null];
}

/** The statement that records `entry` as done by `actorUserId`; put it in the change's own batch. */
export function auditStatement(d1: D1Database, actorUserId: number, entry: AuditEntry): D1PreparedStatement {
  return d1.prepare(`INSERT INTO audit_log (${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?)`).bind(...values(actorUserId, entry));
}

/** Records an action of the signed-in operator on its own (when the change was not a batch of ours). */
export async function recordAudit(c: Context<AppEnv>, entry: AuditEntry): Promise<void> {
  await auditStatement(c.env.DB, currentUser(c).id, entry).run();
}

/**
 * The same row, written only when `guardSql` (a condition, with its own parameters) holds when the
 * batch reaches it: for a change made conditional in the same batch (a prize still held, a report
 * still open), so a change that did not happen leaves no row claiming it did. `changes() > 0` right
 * after the change's UPDATE counts that statement only, never trigger writes.
 */
export function auditStatementIf(
  d1: D1Database,
  actorUserId: number,
  entry: AuditEntry,
  guardSql: string,
  ...guardParams: unknown[]
): D1PreparedStatement {
  return d1
    .prepare(`INSERT INTO audit_log (${COLUMNS}) SELECT ?, ?, ?, ?, ?, ?, ? WHERE ${guardSql}`)
    .bind(...values(actorUserId, entry), ...guardParams);
}
