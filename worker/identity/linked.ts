// Accounts of one person (docs/identity-and-tax.md, "One person, one account"): every account
// whose verification has the same keyed hash. Self-exclusion follows the person: one account's
// self-exclusion is written to the others, and an account linked later takes over the one in force.
import type { Db } from "../db/client";
import { settleIntoBreak } from "../responsible-play/break";

type Ctx = { env: Env; get(key: "db"): Db; url: string };

const LINKED = `SELECT v.user_id FROM identity_verifications v
  WHERE v.identity_hash IS NOT NULL AND v.user_id <> ?1
    AND v.identity_hash IN (SELECT identity_hash FROM identity_verifications WHERE user_id = ?1)`;

export async function linkedUserIds(d1: D1Database, userId: number): Promise<number[]> {
  const { results } = await d1.prepare(LINKED).bind(userId).all<{ user_id: number }>();
  return results.map((r) => r.user_id);
}

/** Writes the self-exclusion to user ?1 unless one at least as long is already there. */
const EXCLUDE_UNLESS_OUTLASTED = `INSERT INTO exclusions (user_id, kind, starts_at, ends_at)
  SELECT ?1, 'self_exclusion', ?2, ?3
  WHERE NOT EXISTS (SELECT 1 FROM exclusions x WHERE x.user_id = ?1 AND x.kind = 'self_exclusion' AND x.starts_at <= ?2
    AND (x.ends_at IS NULL OR (?3 IS NOT NULL AND x.ends_at >= ?3)))`;

/** A self-exclusion that `userId` just started, written to every linked account too, each settled into its break. */
export async function excludeLinkedAccounts(c: Ctx, userId: number, endsAt: number | null, now: number): Promise<void> {
  const linked = await linkedUserIds(c.env.DB, userId);
  for (const id of linked) {
    const r = await c.env.DB.prepare(EXCLUDE_UNLESS_OUTLASTED).bind(id, now, endsAt).run();
    if ((r.meta.changes ?? 0) > 0) await settleIntoBreak(c, id);
  }
}

/** A newly linked account takes over the longest self-exclusion in force on the person's other accounts. */
export async function inheritLinkedExclusion(c: Ctx, userId: number, now: number): Promise<void> {
  const longest = await c.env.DB.prepare(
    `SELECT e.ends_at FROM exclusions e WHERE e.user_id IN (${LINKED}) AND e.kind = 'self_exclusion'
       AND e.starts_at <= ?2 AND (e.ends_at IS NULL OR e.ends_at > ?2)
     ORDER BY e.ends_at IS NULL DESC, e.ends_at DESC LIMIT 1`,
  )
    .bind(userId, now)
    .first<{ ends_at: number | null }>();
  if (!longest) return;
  const r = await c.env.DB.prepare(EXCLUDE_UNLESS_OUTLASTED).bind(userId, now, longest.ends_at).run();
  if ((r.meta.changes ?? 0) > 0) await settleIntoBreak(c, userId);
}
