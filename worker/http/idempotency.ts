// Idempotency keys on the requests that move money, as Stripe does them (docs/payments.md,
// "Retrying a money request"; docs/decisions/010-idempotency-keys.md). A route wraps its work in
// idempotent(): the first request with a key claims it, moves the money in a batch that also
// records the key's ledger reference (worker/money/idempotency.ts), and stores its answer; a
// retry gets that answer back, or, when the process died between the batch and storing the
// answer, an answer rebuilt from what the batch committed. Refusals and failures release the key.
import { createHmac } from "node:crypto";
import type { Context, TypedResponse } from "hono";
import { IDEMPOTENCY } from "../../common/messages";
import { IDEMPOTENCY_CLAIM_STALE_MS, IDEMPOTENCY_KEY_HEADER, IDEMPOTENCY_KEY_PATTERN, IDEMPOTENCY_KEY_TTL_MS } from "../../common/spec";
import { canonicalJson } from "../../common/domain/canonical-json";
import { isClaimLost, type KeyClaim } from "../money/idempotency";
import type { AppEnv } from "./app-env";
import { badRequest, conflict } from "./errors";
import { currentUser } from "./middleware";

export interface IdempotentOperation<T> {
  /** The operation: withdrawal, deposit_intent, join:{id}, leave:{id}. A key used for another one is refused. */
  scope: string;
  /** What makes two requests the same request (the validated body, minus one-time tokens). */
  request: unknown;
  /** Refuse a request without a key (withdrawals); otherwise it runs as if keys did not exist. */
  required?: boolean;
  /**
   * Does the work and answers. With a claim, the batch that moves the money must carry
   * claimGuardStatement and claimReferenceStatement; `reference` is the ledger reference it committed.
   */
  run: (claim: KeyClaim | null) => Promise<{ reference: string; answer: T }>;
  /** The answer of a committed reference whose answer was never stored (needed where run records the reference in its batch). */
  rebuild?: (reference: string) => Promise<T>;
}

type KeyRow = {
  scope: string;
  fingerprint: string;
  reference: string | null;
  response_status: number | null;
  response_body: string | null;
  created_at: number;
};

export type IdempotentResponse<T> = Response & TypedResponse<T, 200, "json">;

/** The stored text as it is, so every answer for a key is the same bytes; the route keeps its response type. */
function send<T>(c: Context<AppEnv>, text: string): IdempotentResponse<T> {
  const response: Response = c.body(text, 200, { "content-type": "application/json; charset=UTF-8" });
  return response as IdempotentResponse<T>;
}

const inProgress = () => conflict(IDEMPOTENCY.inProgress, "idempotency_key_in_progress");

/** The key the request carries, null when it carries none (and may). */
function keyOf(c: Context<AppEnv>, required: boolean): string | null {
  const key = c.req.header(IDEMPOTENCY_KEY_HEADER);
  if (key === undefined) {
    if (required) throw badRequest(IDEMPOTENCY.required, "idempotency_key_required");
    return null;
  }
  if (!IDEMPOTENCY_KEY_PATTERN.test(key)) throw badRequest(IDEMPOTENCY.invalid);
  return key;
}

/**
 * Keyed, so the row cannot be used to guess what the request held (a withdrawal's full account
 * number, of which only the last 4 digits are stored anywhere else).
 */
function fingerprintOf(env: Env, request: unknown): string {
  if (!env.RECEIPT_SECRET) throw new Error("RECEIPT_SECRET is not set: idempotency fingerprints need it");
  return createHmac("sha256", env.RECEIPT_SECRET)
    .update(`idempotency:${canonicalJson(request)}`)
    .digest("hex");
}

const selectRow = (d1: D1Database, userId: number, key: string) =>
  d1
    .prepare(
      "SELECT scope, fingerprint, reference, response_status, response_body, created_at FROM idempotency_keys WHERE user_id = ? AND key = ?",
    )
    .bind(userId, key);

/** Runs `op` at most once per (user, key) within the key's lifetime and answers every retry the same. */
export async function idempotent<T>(c: Context<AppEnv>, op: IdempotentOperation<T>): Promise<IdempotentResponse<T>> {
  const key = keyOf(c, op.required ?? false);
  if (key === null) return send<T>(c, JSON.stringify((await op.run(null)).answer));

  const d1 = c.env.DB;
  const userId = currentUser(c).id;
  const fingerprint = fingerprintOf(c.env, op.request);
  const now = Date.now();
  const [, inserted, existing] = await d1.batch([
    // Expired keys are forgotten first, so an old key is a new request.
    d1.prepare("DELETE FROM idempotency_keys WHERE user_id = ? AND created_at < ?").bind(userId, now - IDEMPOTENCY_KEY_TTL_MS),
    d1
      .prepare("INSERT INTO idempotency_keys (user_id, key, scope, fingerprint, created_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING")
      .bind(userId, key, op.scope, fingerprint, now),
    selectRow(d1, userId, key),
  ]);
  let claim: KeyClaim = { userId, key, claimedAt: now };
  if ((inserted?.meta.changes ?? 0) === 0) {
    const row = existing?.results[0] as KeyRow | undefined;
    if (!row) throw inProgress();
    if (row.scope !== op.scope || row.fingerprint !== fingerprint) throw conflict(IDEMPOTENCY.reused, "idempotency_key_reused");
    if (row.response_body !== null) return send<T>(c, row.response_body);
    if (row.reference !== null) {
      // The money moved and the answer was lost with its process: rebuild it from what was committed.
      if (!op.rebuild) throw new Error(`idempotency scope ${op.scope} committed a reference without storing its answer`);
      return store(c, userId, key, null, row.reference, await op.rebuild(row.reference));
    }
    if (row.created_at > now - IDEMPOTENCY_CLAIM_STALE_MS) throw inProgress();
    // Claimed long ago and nothing moved: its process died before its batch. Take the claim over;
    // the guard in that batch keeps the old request from moving money should it wake up.
    const taken = await d1
      .prepare(
        "UPDATE idempotency_keys SET created_at = ? WHERE user_id = ? AND key = ? AND created_at = ? AND reference IS NULL AND response_status IS NULL",
      )
      .bind(now, userId, key, row.created_at)
      .run();
    if ((taken.meta.changes ?? 0) === 0) throw inProgress();
    claim = { userId, key, claimedAt: now };
  }

  let result: { reference: string; answer: T };
  try {
    result = await op.run(claim);
  } catch (e) {
    // Nothing moved (a refusal, a failure before the batch, a batch that failed whole): the key is free again.
    // A batch that did commit has recorded its reference, and the condition keeps that row.
    await d1
      .prepare(
        "DELETE FROM idempotency_keys WHERE user_id = ? AND key = ? AND created_at = ? AND reference IS NULL AND response_status IS NULL",
      )
      .bind(userId, key, claim.claimedAt)
      .run();
    if (isClaimLost(e)) throw inProgress();
    throw e;
  }
  return store(c, userId, key, claim.claimedAt, result.reference, result.answer);
}

/**
 * Stores the answer unless another request stored one first, and sends whichever is stored, so
 * every answer for a key is the same text. `claimedAt` null: a rebuild, which stores over any claim.
 */
async function store<T>(
  c: Context<AppEnv>,
  userId: number,
  key: string,
  claimedAt: number | null,
  reference: string,
  answer: T,
): Promise<IdempotentResponse<T>> {
  const d1 = c.env.DB;
  const text = JSON.stringify(answer);
  const [updated, row] = await d1.batch([
    d1
      .prepare(
        `UPDATE idempotency_keys SET reference = coalesce(reference, ?1), response_status = 200, response_body = ?2
         WHERE user_id = ?3 AND key = ?4 AND response_status IS NULL AND (?5 IS NULL OR created_at = ?5)`,
      )
      .bind(reference, text, userId, key, claimedAt),
    selectRow(d1, userId, key),
  ]);
  if ((updated?.meta.changes ?? 0) > 0) return send<T>(c, text);
  const stored = (row?.results[0] as KeyRow | undefined)?.response_body;
  // No stored answer and not ours to store: the claim was taken over while this request ran
  // without moving money (nothing in it needed a batch). Its own answer is still true.
  return send<T>(c, stored ?? text);
}
