// Account security under /api/user: TOTP two-factor enrolment and account deletion.
import { Hono } from "hono";
import { and, eq, sql } from "drizzle-orm";
import { randomBytes } from "@noble/hashes/utils.js";
import {
  deleteAccountSchema,
  twoFactorDisableSchema,
  twoFactorEnableSchema,
  type TwoFactorEnableResponse,
  type TwoFactorSetupResponse,
} from "../../common/api/account-security";
import { ACCOUNT, AUTH } from "../../common/messages";
import { RECOVERY_CODE_COUNT } from "../../common/spec";
import { formatCents } from "../../common/domain/money";
import { sha256Hex } from "../auth/bytes";
import { verifyPassword } from "../auth/password";
import { hit } from "../auth/rate-limit";
import { endOtherSessions, endSession } from "../auth/session";
import { base32Encode, newTotpSecret, otpauthUri, verifyTotp } from "../auth/totp";
import { verifySecondFactor } from "../auth/two-factor";
import { payouts, users } from "../db/schema";
import type { Db } from "../db/client";
import { badRequest, conflict } from "../http/errors";
import { currentUser, requireUser } from "../http/middleware";
import { jsonBody } from "../http/validate";
import type { AppEnv } from "../http/app-env";

/** Password and code guesses with a stolen session stay slow. */
const SENSITIVE_LIMIT = { max: 10, windowMs: 15 * 60_000 };

/** 10 base32 characters (50 bits) each, shown once; stored as SHA-256 of the upper-cased code like two-factor.ts checks. */
const newRecoveryCodes = () => Array.from({ length: RECOVERY_CODE_COUNT }, () => base32Encode(randomBytes(7)).slice(0, 10));

/** Why this account cannot be deleted yet, or null. */
async function deletionBlocker(db: Db, userId: number): Promise<string | null> {
  const user = await db.select({ balanceCents: users.balanceCents }).from(users).where(eq(users.id, userId)).get();
  if (user && user.balanceCents > 0) return ACCOUNT.deleteBalance(formatCents(user.balanceCents));
  const pending = await db.select({ id: payouts.id }).from(payouts).where(and(eq(payouts.userId, userId), eq(payouts.status, "pending"))).get();
  if (pending) return ACCOUNT.deletePendingWithdrawal;
  const active = await db.get<{ n: number }>(sql`
    SELECT count(*) AS n FROM tournament_participants p JOIN tournaments t ON t.id = p.tournament_id
    WHERE p.user_id = ${userId} AND t.status IN ('upcoming', 'live') AND t.kind = 'standard'`);
  if (active && active.n > 0) return ACCOUNT.deleteActiveTournament;
  return null;
}

export const accountSecurityRoutes = new Hono<AppEnv>()
  .use(requireUser)
  .post("/2fa/setup", async (c) => {
    const me = currentUser(c);
    if (me.totpEnabled) throw conflict(ACCOUNT.twoFactorAlreadyEnabled);
    // Pending until /2fa/enable proves the app has it; login ignores a secret that is not enabled.
    const secret = newTotpSecret();
    const stored = await c
      .get("db")
      .update(users)
      .set({ totpSecret: secret, recoveryCodes: null })
      .where(and(eq(users.id, me.id), eq(users.totpEnabled, false)))
      .returning({ id: users.id })
      .get();
    if (!stored) throw conflict(ACCOUNT.twoFactorAlreadyEnabled);
    const res: TwoFactorSetupResponse = { secret, otpauthUri: otpauthUri(secret, me.username) };
    return c.json(res);
  })
  .post("/2fa/enable", async (c) => {
    const me = currentUser(c);
    const db = c.get("db");
    const { code } = await jsonBody(c, twoFactorEnableSchema);
    if (me.totpEnabled) throw conflict(ACCOUNT.twoFactorAlreadyEnabled);
    if (!me.totpSecret) throw badRequest(ACCOUNT.twoFactorSetupFirst);
    if (!verifyTotp(me.totpSecret, code.replace(/\s/g, ""))) throw badRequest(AUTH.twoFactorInvalid);
    const recoveryCodes = newRecoveryCodes();
    const enabled = await db
      .update(users)
      .set({ totpEnabled: true, recoveryCodes: JSON.stringify(recoveryCodes.map((r) => sha256Hex(r.toUpperCase()))) })
      .where(and(eq(users.id, me.id), eq(users.totpEnabled, false), eq(users.totpSecret, me.totpSecret)))
      .returning({ id: users.id })
      .get();
    // A concurrent setup replaced the secret this code was checked against.
    if (!enabled) throw conflict(ACCOUNT.twoFactorSetupFirst);
    // Sessions opened before the second factor existed are ended, as after a password change.
    await endOtherSessions(c, db, me.id);
    const res: TwoFactorEnableResponse = { recoveryCodes };
    return c.json(res);
  })
  .post("/2fa/disable", async (c) => {
    const me = currentUser(c);
    const db = c.get("db");
    const body = await jsonBody(c, twoFactorDisableSchema);
    if (!me.totpEnabled) throw conflict(ACCOUNT.twoFactorNotEnabled);
    await hit(db, `sensitive:user:${me.id}`, SENSITIVE_LIMIT);
    if (!(await verifyPassword(body.password, me.passwordHash))) throw badRequest(ACCOUNT.passwordWrong);
    if (!(await verifySecondFactor(db, me, body.code))) throw badRequest(AUTH.twoFactorInvalid);
    await db.update(users).set({ totpEnabled: false, totpSecret: null, recoveryCodes: null }).where(eq(users.id, me.id));
    return c.json({ message: "Two-factor authentication disabled" });
  })
  /**
   * Deleting erases the personal data and every session but keeps the row, anonymised: the
   * ledger, payouts and tournament results reference it (ON DELETE CASCADE would erase a money
   * trail we must keep). Refused while money is still owed either way.
   */
  .delete("/", async (c) => {
    const me = currentUser(c);
    const db = c.get("db");
    const body = await jsonBody(c, deleteAccountSchema);
    await hit(db, `sensitive:user:${me.id}`, SENSITIVE_LIMIT);
    if (!(await verifyPassword(body.password, me.passwordHash))) throw badRequest(ACCOUNT.passwordWrong);
    const blocker = await deletionBlocker(db, me.id);
    if (blocker) throw conflict(blocker);
    // The same conditions again inside the write, so a deposit or withdrawal racing this request cannot slip past.
    const [anonymised] = await c.env.DB.batch([
      c.env.DB.prepare(
        `UPDATE users SET username = ?, email = ?, password_hash = '!deleted', avatar = NULL, bio = NULL, location = NULL,
           social_links = NULL, preferences = NULL, country = NULL, avatar_version = avatar_version + 1, totp_secret = NULL, totp_enabled = 0, recovery_codes = NULL, deleted_at = ?
         WHERE id = ? AND deleted_at IS NULL AND balance_cents = 0
           AND NOT EXISTS (SELECT 1 FROM payouts WHERE user_id = users.id AND status = 'pending')
           AND NOT EXISTS (SELECT 1 FROM tournament_participants p JOIN tournaments t ON t.id = p.tournament_id
                           WHERE p.user_id = users.id AND t.status IN ('upcoming', 'live') AND t.kind = 'standard')`,
      )
        // Neither name nor address passes registration's rules, so they can never collide with a real account.
        .bind(`Deleted player ${me.id}`, `deleted:${me.id}`, Date.now(), me.id),
      c.env.DB.prepare("DELETE FROM sessions WHERE user_id = ? AND EXISTS (SELECT 1 FROM users WHERE id = ? AND deleted_at IS NOT NULL)").bind(me.id, me.id),
    ]);
    if (!anonymised?.meta.changes) throw conflict((await deletionBlocker(db, me.id)) ?? ACCOUNT.deleteRetry);
    await endSession(c, db);
    return c.json({ message: ACCOUNT.deleted });
  });
