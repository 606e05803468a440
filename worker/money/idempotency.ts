// The part of an idempotency key that travels with the money: a request that claimed a key
// (worker/http/idempotency.ts) adds these statements to the very D1 batch that moves the money,
// so the key's ledger reference commits with the movement or not at all. The rest of the
// protocol (claiming, replaying, rebuilding) is in the HTTP helper.
import { IDEMPOTENCY_KEY_TTL_MS } from "../../common/spec";

/** A key this request holds: the claim row's created_at is its token. Plain data, so it crosses RPC to a room. */
export interface KeyClaim {
  userId: number;
  key: string;
  claimedAt: number;
}

/**
 * Fails the batch it is in unless the claim is still this request's (not taken over after it
 * stalled, not already committed). SQLite cannot raise an error outside a trigger, so the
 * statement inserts a row that breaks the NOT NULL on fingerprint exactly when the claim is lost.
 * Put it before the money statements.
 */
export const claimGuardStatement = (d1: D1Database, claim: KeyClaim): D1PreparedStatement =>
  d1
    .prepare(
      `INSERT INTO idempotency_keys (user_id, key, scope, fingerprint)
       SELECT ?1, ?2, 'claim_lost', NULL
       WHERE NOT EXISTS (SELECT 1 FROM idempotency_keys
                         WHERE user_id = ?1 AND key = ?2 AND created_at = ?3 AND reference IS NULL AND response_status IS NULL)`,
    )
    .bind(claim.userId, claim.key, claim.claimedAt);

/** Records the ledger reference the batch committed under the claim; `reference` is SQL when the id is only known inside the batch. */
export const claimReferenceStatement = (d1: D1Database, claim: KeyClaim, reference: string | { sql: string }): D1PreparedStatement =>
  typeof reference === "string"
    ? d1
        .prepare("UPDATE idempotency_keys SET reference = ? WHERE user_id = ? AND key = ? AND created_at = ?")
        .bind(reference, claim.userId, claim.key, claim.claimedAt)
    : d1
        .prepare(`UPDATE idempotency_keys SET reference = (${reference.sql}) WHERE user_id = ? AND key = ? AND created_at = ?`)
        .bind(claim.userId, claim.key, claim.claimedAt);

/** Both statements for a batch whose reference is known in advance: the guard first, the money in between, the record last. */
export const claimStatements = (d1: D1Database, claim: KeyClaim | null | undefined, reference: string) =>
  claim ? { before: [claimGuardStatement(d1, claim)], after: [claimReferenceStatement(d1, claim, reference)] } : { before: [], after: [] };

/** The batch failed because its claim was lost (see claimGuardStatement): nothing in it was written. */
export const isClaimLost = (e: unknown): boolean => {
  for (let x = e; x !== undefined && x !== null; x = x instanceof Error ? x.cause : undefined) {
    if (String(x instanceof Error ? x.message : x).includes("NOT NULL constraint failed: idempotency_keys.fingerprint")) return true;
    if (!(x instanceof Error)) break;
  }
  return false;
};

/** Deletes every key older than the TTL (the cron); requests also drop their own user's expired keys as they go. */
export async function deleteExpiredKeys(d1: D1Database, now: number): Promise<number> {
  const res = await d1
    .prepare("DELETE FROM idempotency_keys WHERE created_at < ?")
    .bind(now - IDEMPOTENCY_KEY_TTL_MS)
    .run();
  return res.meta.changes ?? 0;
}
