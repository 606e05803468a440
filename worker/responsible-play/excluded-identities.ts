// A self-exclusion outlives the account (docs/responsible-play.md, "Deleting an account"). When
// a self-excluded player deletes their account, keyed hashes of their normalised email, the
// fingerprints of the cards they paid with and the bank accounts they were paid to are kept in
// excluded_identities with the exclusion's end. A new account that registers with that email,
// pays with such a card or withdraws to such an account takes the exclusion over, until that end.
//
// The hashes are HMAC-SHA256 under a key of their own, derived from RECEIPT_SECRET
// (HMAC-SHA256(RECEIPT_SECRET, "excluded-identities/v1")), as the collusion check's device and
// network hashes are keyed by it (worker/fair-play/identity.ts): a plain SHA-256 of an email or
// of a card or bank number can be reversed by trying every likely value, a keyed one cannot
// without the secret, so the table names nobody to whoever reads it. The derived key keeps these
// hashes apart from every other use of the secret (receipts, device hashes, idempotency keys).
// Rotating RECEIPT_SECRET makes the kept rows unmatchable (docs/responsible-play.md says so).
import { createHmac } from "node:crypto";
import { RESPONSIBLE } from "../../common/messages";
import type { excludedIdentityKinds } from "../db/schema";
import { open, payoutSealContext, type SealEnv } from "../crypto/sealed";
import { HttpError } from "../http/errors";

type KeyEnv = { RECEIPT_SECRET?: string };
export type ExcludedIdentityKind = (typeof excludedIdentityKinds)[number];

function identityKey(env: KeyEnv): Buffer {
  if (!env.RECEIPT_SECRET) throw new Error("RECEIPT_SECRET is not set");
  return createHmac("sha256", env.RECEIPT_SECRET).update("excluded-identities/v1").digest();
}

const keyed = (env: KeyEnv, kind: ExcludedIdentityKind, value: string) =>
  createHmac("sha256", identityKey(env)).update(`${kind}:${value}`).digest("hex");

/**
 * One address however it is written: trimmed, lower-cased, without a "+tag" in the local part;
 * at Gmail (and googlemail.com, the same mailboxes) without the dots it ignores.
 */
export function normaliseEmail(email: string): string {
  const address = email.trim().toLowerCase();
  const at = address.lastIndexOf("@");
  if (at < 1) return address;
  let local = address.slice(0, at).replace(/\+.*$/, "");
  let domain = address.slice(at + 1);
  if (domain === "googlemail.com") domain = "gmail.com";
  if (domain === "gmail.com") local = local.replaceAll(".", "");
  return `${local}@${domain}`;
}

export const emailHash = (env: KeyEnv, email: string) => keyed(env, "email", normaliseEmail(email));

/** A card, from the provider's fingerprint of it (Stripe's card.fingerprint; the sandbox's stand-in). */
export const cardHash = (env: KeyEnv, fingerprint: string) => keyed(env, "card", fingerprint);

/** A bank account: routing number and account number, digits only (leading zeros kept). */
export const bankAccountHash = (env: KeyEnv, routingNumber: string, accountNumber: string) =>
  keyed(env, "bank_account", `${routingNumber.replace(/\D/g, "")}:${accountNumber.replace(/\D/g, "")}`);

/**
 * Gives user ?1 the kept self-exclusion that matches any of `hashes` and has not ended at `now`
 * (the longest one), starting now and ending when the original ends; changes nothing when none
 * matches or the player already has that very exclusion. Runs inside the caller's batch.
 */
export function inheritExclusionStatement(
  d1: D1Database,
  userId: number,
  kind: ExcludedIdentityKind,
  hashes: string[],
  now: number,
): D1PreparedStatement {
  return d1
    .prepare(
      `INSERT INTO exclusions (user_id, kind, starts_at, ends_at)
       SELECT ?1, 'self_exclusion', ?2, k.ends_at FROM excluded_identities k
       WHERE k.kind = ?3 AND k.hash IN (SELECT value FROM json_each(?4)) AND (k.ends_at IS NULL OR k.ends_at > ?2)
         AND NOT EXISTS (SELECT 1 FROM exclusions e WHERE e.user_id = ?1 AND e.kind = 'self_exclusion' AND e.ends_at IS k.ends_at)
       ORDER BY k.ends_at IS NULL DESC, k.ends_at DESC LIMIT 1`,
    )
    .bind(userId, now, kind, JSON.stringify(hashes));
}

/** The self-exclusion of user `userId` in force at `now` (the longest), if any: what their deletion keeps. */
const ACTIVE_SELF_EXCLUSION = `SELECT e.ends_at FROM exclusions e
  WHERE e.user_id = ?1 AND e.kind = 'self_exclusion' AND e.starts_at <= ?2 AND (e.ends_at IS NULL OR e.ends_at > ?2)
  ORDER BY e.ends_at IS NULL DESC, e.ends_at DESC LIMIT 1`;

/**
 * The statement that keeps a self-excluded player's identities when their account is deleted:
 * run in the deletion's batch after the anonymisation, it writes only when the account is
 * deleted by then and a self-exclusion (not a cool-off) is in force, with that exclusion's end.
 * Null when the player has no self-exclusion in force (nothing to hash or unseal).
 *
 * Cards: the fingerprints the provider reported for their deposits (deposit_intents), and the
 * sandbox's for cards confirmed there. Bank accounts: the hash each payout kept when it was made
 * (payouts.bank_hash); a payout from before that column is unsealed here to hash it.
 */
export async function keepIdentitiesStatement(
  env: KeyEnv & SealEnv & { DB: D1Database },
  user: { id: number; email: string },
  now: number,
): Promise<D1PreparedStatement | null> {
  const d1 = env.DB;
  const active = await d1.prepare(ACTIVE_SELF_EXCLUSION).bind(user.id, now).first();
  if (!active) return null;
  const [cards, banks] = await d1.batch<{
    fingerprint?: string;
    bank_hash?: string | null;
    sealed?: string | null;
    routing?: string;
    last4?: string;
  }>([
    d1
      .prepare(
        `SELECT card_fingerprint AS fingerprint FROM deposit_intents WHERE user_id = ?1 AND card_fingerprint IS NOT NULL
         UNION SELECT card_fingerprint FROM sandbox_payment_intents WHERE user_id = ?1 AND card_fingerprint IS NOT NULL`,
      )
      .bind(user.id),
    d1
      .prepare(
        "SELECT DISTINCT bank_hash, account_number_sealed AS sealed, routing_number AS routing, account_last4 AS last4 FROM payouts WHERE user_id = ? AND (bank_hash IS NOT NULL OR account_number_sealed IS NOT NULL)",
      )
      .bind(user.id),
  ]);
  const rows: [ExcludedIdentityKind, string][] = [["email", emailHash(env, user.email)]];
  for (const c of cards!.results) rows.push(["card", cardHash(env, c.fingerprint!)]);
  for (const b of banks!.results) {
    if (b.bank_hash) rows.push(["bank_account", b.bank_hash]);
    else {
      const context = payoutSealContext({ userId: user.id, routingNumber: b.routing!, accountLast4: b.last4! });
      rows.push(["bank_account", bankAccountHash(env, b.routing!, await open(env, b.sealed!, context))]);
    }
  }
  const unique = [...new Map(rows.map((r) => [r.join(":"), r])).values()];
  return d1
    .prepare(
      `INSERT INTO excluded_identities (kind, hash, ends_at)
       SELECT j.value ->> 0, j.value ->> 1, x.ends_at FROM json_each(?3) AS j, (${ACTIVE_SELF_EXCLUSION}) AS x
       WHERE EXISTS (SELECT 1 FROM users WHERE id = ?1 AND deleted_at IS NOT NULL)
         AND NOT EXISTS (SELECT 1 FROM excluded_identities k WHERE k.kind = j.value ->> 0 AND k.hash = j.value ->> 1 AND k.ends_at IS x.ends_at)`,
    )
    .bind(user.id, now, JSON.stringify(unique));
}

/** The 403 a matched checkout gets: the exclusion the account has just taken over. */
export const inheritedExclusionRefusal = (endsAt: number | null) => new HttpError(403, "self_excluded", RESPONSIBLE.selfExcluded(endsAt));
