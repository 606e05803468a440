// An audit row written only when a condition holds inside the same batch: for changes that are
// themselves conditional (a prize still held, an attempt not yet reviewed), so a change that did
// not happen leaves no row claiming it did.
import type { AuditEntry } from "./audit";

const json = (v: unknown) => (v === undefined || v === null ? null : JSON.stringify(v));

/**
 * `condition` is SQL evaluated when the statement runs, e.g. `changes() > 0` right after the
 * change's UPDATE (changes() counts the previous statement of the batch, never trigger writes).
 */
export function auditWhenStatement(
  d1: D1Database,
  actorUserId: number,
  entry: AuditEntry,
  condition: string,
  ...conditionBinds: unknown[]
): D1PreparedStatement {
  return d1
    .prepare(
      `INSERT INTO audit_log (actor_user_id, action, target_type, target_id, before, after, note)
       SELECT ?, ?, ?, ?, ?, ?, ? WHERE ${condition}`,
    )
    .bind(
      actorUserId,
      entry.action,
      entry.targetType,
      entry.targetId === null ? null : String(entry.targetId),
      json(entry.before),
      json(entry.after),
      entry.note ?? null,
      ...conditionBinds,
    );
}
