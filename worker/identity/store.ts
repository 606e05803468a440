// A player's verification row: starting a session, and applying what the provider reports
// (the webhook for Stripe, the local page for the sandbox), once per outcome.
import { eq } from "drizzle-orm";
import type { Db } from "../db/client";
import { identityVerifications } from "../db/schema";
import type { IdentitySessionStart } from "../../common/api/identity";
import { IDENTITY } from "../../common/messages";
import { conflict } from "../http/errors";
import type { IdentityResult } from "./provider";
import { personHash } from "./hash";
import { inheritLinkedExclusion } from "./linked";

export type VerificationRow = typeof identityVerifications.$inferSelect;

export const loadVerification = (db: Db, userId: number) =>
  db.select().from(identityVerifications).where(eq(identityVerifications.userId, userId)).get();

/** Whether the player may start a verification now: none yet, one open or to try again, or a new one asked for. */
export function canStart(row: VerificationRow | undefined): boolean {
  if (!row) return true;
  if (row.reverifyRequestedAt !== null) return true;
  return row.status === "pending" || row.status === "requires_input";
}

/** Refuses a new session when there is nothing to verify (verified) or it may not be retried (refused). */
export function assertCanStart(row: VerificationRow | undefined): void {
  if (canStart(row)) return;
  if (row?.status === "refused") throw conflict(IDENTITY.refusedFinal, "identity_verification_refused");
  throw conflict(IDENTITY.alreadyVerified, "identity_already_verified");
}

/** Records the new session as the player's current one (pending). */
export async function startVerification(db: Db, userId: number, start: IdentitySessionStart) {
  const values = { provider: start.provider, sessionId: start.sessionId, status: "pending" as const, reason: null, updatedAt: Date.now() };
  await db
    .insert(identityVerifications)
    .values({ userId, ...values })
    .onConflictDoUpdate({ target: identityVerifications.userId, set: values });
}

export type ApplyOutcome = "applied" | "unchanged" | "unknown_session";

/**
 * Applies a provider's result to the player whose current session it is. A session that is not
 * the player's current one (an older one, another app's) changes nothing; nor does a result
 * arriving after that session already ended (verified or refused). Verified: the keyed hash
 * claims the person (the first account to verify it owns it; any later one is linked to it and
 * keeps free play only), the verified date of birth replaces the declared one for every age rule,
 * and a linked account takes over the person's self-exclusion.
 */
export async function applyResult(ctx: { env: Env; db: Db; url: string }, result: IdentityResult): Promise<ApplyOutcome> {
  const { env, db } = ctx;
  const row = await db.select().from(identityVerifications).where(eq(identityVerifications.sessionId, result.sessionId)).get();
  if (!row || (result.userId !== null && result.userId !== row.userId)) return "unknown_session";
  const now = Date.now();
  const open = "status IN ('pending', 'requires_input')";
  if (result.status !== "verified") {
    if (result.status === "pending" && row.status === "pending") return "unchanged";
    const reason = result.status === "pending" ? null : result.reason;
    const r = await env.DB.prepare(
      `UPDATE identity_verifications SET status = ?1, reason = ?2, updated_at = ?3 WHERE user_id = ?4 AND session_id = ?5 AND ${open}`,
    )
      .bind(result.status, reason, now, row.userId, result.sessionId)
      .run();
    return (r.meta.changes ?? 0) > 0 ? "applied" : "unchanged";
  }
  const v = result.verified;
  const hash = personHash(env, v);
  const [, updated] = await env.DB.batch([
    env.DB.prepare("INSERT INTO identity_owners (hash, user_id) VALUES (?1, ?2) ON CONFLICT (hash) DO NOTHING").bind(hash, row.userId),
    env.DB.prepare(
      `UPDATE identity_verifications SET status = 'verified', reason = NULL, first_name = ?1, last_name = ?2, date_of_birth = ?3,
         document_country = ?4, document_type = ?5, identity_hash = ?6, verified_count = verified_count + 1, verified_at = ?7,
         reverify_requested_at = NULL, updated_at = ?7
       WHERE user_id = ?8 AND session_id = ?9 AND ${open}`,
    ).bind(v.firstName, v.lastName, v.dateOfBirth, v.documentCountry, v.documentType, hash, now, row.userId, result.sessionId),
    // Guarded by the verification just written, so a replay cannot move the date of birth back.
    env.DB.prepare(
      `UPDATE users SET date_of_birth = ?1,
         identity_duplicate_of = (SELECT o.user_id FROM identity_owners o WHERE o.hash = ?2 AND o.user_id <> ?3)
       WHERE id = ?3 AND EXISTS (SELECT 1 FROM identity_verifications WHERE user_id = ?3 AND session_id = ?4 AND verified_at = ?5)`,
    ).bind(v.dateOfBirth, hash, row.userId, result.sessionId, now),
  ]);
  if ((updated!.meta.changes ?? 0) === 0) return "unchanged";
  await inheritLinkedExclusion({ env, get: () => db, url: ctx.url }, row.userId, now);
  return "applied";
}
