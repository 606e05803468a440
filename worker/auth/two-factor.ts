// Checking a second factor spends it: a TOTP code's time step is recorded and never accepted
// again (nor any older step), and a recovery code is removed, each with one conditional UPDATE,
// so two requests racing with the same code cannot both succeed.
import { and, eq, isNull, lt, or, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { users } from "../db/schema";
import { isSealed, open, seal, type SealEnv } from "../crypto/sealed";
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

/** Removes one recovery code if it is still there; true when this call removed it. */
async function spendRecoveryCode(db: Db, userId: number, code: string): Promise<boolean> {
  const digest = sha256Hex(code.trim().toUpperCase());
  const spent = await db
    .update(users)
    .set({
      recoveryCodes: sql`(SELECT json_group_array(value) FROM json_each(${users.recoveryCodes}) WHERE value <> ${digest})`,
    })
    .where(and(eq(users.id, userId), sql`EXISTS (SELECT 1 FROM json_each(${users.recoveryCodes}) WHERE value = ${digest})`))
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
  return spendRecoveryCode(db, user.id, code);
}
