// Checking a second factor spends it: a TOTP code's time step is recorded and never accepted
// again (nor any older step), and a recovery code is removed, each with one conditional UPDATE,
// so two requests racing with the same code cannot both succeed.
import { and, eq, isNull, lt, or, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { users } from "../db/schema";
import { bytesToHex } from "@noble/hashes/utils.js";
import { isSealed, macKeys, open, seal, type SealEnv } from "../crypto/sealed";
import { sha256Hex } from "./bytes";
import { totpStepOf } from "./totp";
import type { SessionUser } from "./session";

type TwoFactorUser = Pick<SessionUser, "id" | "totpSecret" | "recoveryCodes">;

/** The TOTP secret as stored (sealed, or plaintext from before sealing) opened for use. */
export const openTotpSecret = (env: SealEnv, stored: string) => (isSealed(stored) ? open(env, stored) : Promise.resolve(stored));

/**
 * Records `step` as used if no later or equal step was; true when this call won. A secret still
 * in plaintext is sealed in the same write.
 */
export async function spendTotpStep(env: SealEnv, db: Db, userId: number, stored: string, secret: string, step: number): Promise<boolean> {
  const spent = await db
    .update(users)
    .set({ totpLastStep: step, ...(isSealed(stored) ? {} : { totpSecret: await seal(env, secret) }) })
    .where(and(eq(users.id, userId), or(isNull(users.totpLastStep), lt(users.totpLastStep, step))))
    .returning({ id: users.id })
    .get();
  return spent !== undefined;
}

/**
 * Recovery codes are stored as `rc1:<keyId>:<HMAC-SHA256 hex>` of the upper-cased code, under a
 * key derived from DATA_ENCRYPTION_KEYS (worker/crypto/sealed.ts, macKeys): 50 random bits behind
 * a plain SHA-256 could be searched through offline by whoever gets a copy of the database; behind
 * a keyed hash they need the Worker's secret too.
 */
const RECOVERY_PURPOSE = "recovery-codes";
const normaliseCode = (code: string) => code.trim().toUpperCase();

async function hmacHex(key: CryptoKey, text: string): Promise<string> {
  return bytesToHex(new Uint8Array(await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(text))));
}

/** How a new recovery code is stored. */
export async function recoveryCodeDigest(env: SealEnv, code: string): Promise<string> {
  const { firstId, byId } = await macKeys(env, RECOVERY_PURPOSE);
  return `rc1:${firstId}:${await hmacHex(byId.get(firstId)!, normaliseCode(code))}`;
}

/**
 * Every form `code` may be stored in: its keyed hash under each listed key (so rotating the keys
 * keeps older codes working), and the plain SHA-256 that codes were stored as before. A plain
 * one is removed when used like any other; the others are not rewritten, since only their hashes are known.
 */
async function recoveryCodeForms(env: SealEnv, code: string): Promise<string[]> {
  const normal = normaliseCode(code);
  const { byId } = await macKeys(env, RECOVERY_PURPOSE);
  const keyed = await Promise.all([...byId].map(async ([id, key]) => `rc1:${id}:${await hmacHex(key, normal)}`));
  return [...keyed, sha256Hex(normal)];
}

/** Removes one recovery code if it is still there; true when this call removed it. */
async function spendRecoveryCode(env: SealEnv, db: Db, userId: number, code: string): Promise<boolean> {
  const forms = JSON.stringify(await recoveryCodeForms(env, code));
  const spent = await db
    .update(users)
    .set({
      recoveryCodes: sql`(SELECT json_group_array(value) FROM json_each(${users.recoveryCodes}) WHERE value NOT IN (SELECT value FROM json_each(${forms})))`,
    })
    .where(
      and(
        eq(users.id, userId),
        sql`EXISTS (SELECT 1 FROM json_each(${users.recoveryCodes}) WHERE value IN (SELECT value FROM json_each(${forms})))`,
      ),
    )
    .returning({ id: users.id })
    .get();
  return spent !== undefined;
}

/** A current TOTP code not used before, or an unused recovery code; either is spent. */
export async function verifySecondFactor(env: SealEnv, db: Db, user: TwoFactorUser, code: string, now = Date.now()): Promise<boolean> {
  if (user.totpSecret) {
    const secret = await openTotpSecret(env, user.totpSecret);
    const step = totpStepOf(secret, code.replace(/\s/g, ""), now);
    if (step !== null) return spendTotpStep(env, db, user.id, user.totpSecret, secret, step);
  }
  if (!user.recoveryCodes) return false;
  return spendRecoveryCode(env, db, user.id, code);
}
