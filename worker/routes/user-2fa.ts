// Two-factor authentication under /api/user/2fa: TOTP enrolment (setup, then enable with a code) and disabling.
// Setup needs a step-up; disabling carries the password and a code itself, which is one. Enabling
// and disabling rotate the session's token and end the account's other sessions.
import { Hono } from "hono";
import { and, eq } from "drizzle-orm";
import { randomBytes } from "@noble/hashes/utils.js";
import {
  twoFactorDisableSchema,
  twoFactorEnableSchema,
  type TwoFactorEnableResponse,
  type TwoFactorSetupResponse,
} from "../../common/api/account-security";
import { ACCOUNT, AUTH } from "../../common/messages";
import { RECOVERY_CODE_COUNT } from "../../common/spec";
import { verifyPassword } from "../auth/password";
import { hit, SENSITIVE_LIMIT, sensitiveKey } from "../http/rate-limit";
import { rotateSession } from "../auth/session";
import { requireStepUp } from "../auth/step-up";
import { base32Encode, newTotpSecret, otpauthUri, totpStepOf } from "../auth/totp";
import { openTotpSecret, recoveryCodeDigest } from "../auth/two-factor";
import { checkSecondFactor } from "../auth/second-factor";
import { closeSocketsOf } from "../durable/close-sockets";
import { seal } from "../crypto/sealed";
import { users } from "../db/schema";
import { badRequest, conflict } from "../http/errors";
import { currentSession, currentUser, requireUser } from "../http/middleware";
import { validate } from "../http/validate";
import type { AppEnv } from "../http/app-env";
import { sendSecurityNotice } from "../email/account-mail";

/** 10 base32 characters (50 bits) each, shown once; stored as a keyed hash (HMAC) of the upper-cased code, as two-factor.ts checks. */
const newRecoveryCodes = () => Array.from({ length: RECOVERY_CODE_COUNT }, () => base32Encode(randomBytes(7)).slice(0, 10));

export const userTwoFactorRoutes = new Hono<AppEnv>()
  .use(requireUser)
  .post("/setup", requireStepUp, async (c) => {
    const me = currentUser(c);
    if (me.totpEnabled) throw conflict(ACCOUNT.twoFactorAlreadyEnabled, "two_factor_already_enabled");
    // Pending until /2fa/enable proves the app has it; login ignores a secret that is not enabled.
    const secret = newTotpSecret();
    const stored = await c
      .get("db")
      .update(users)
      .set({ totpSecret: await seal(c.env, secret), recoveryCodes: null, totpLastStep: null })
      .where(and(eq(users.id, me.id), eq(users.totpEnabled, false)))
      .returning({ id: users.id })
      .get();
    if (!stored) throw conflict(ACCOUNT.twoFactorAlreadyEnabled, "two_factor_already_enabled");
    const res: TwoFactorSetupResponse = { secret, otpauthUri: otpauthUri(secret, me.username) };
    return c.json(res);
  })
  .post("/enable", validate("json", twoFactorEnableSchema), async (c) => {
    const me = currentUser(c);
    const db = c.get("db");
    const { code } = c.req.valid("json");
    if (me.totpEnabled) throw conflict(ACCOUNT.twoFactorAlreadyEnabled, "two_factor_already_enabled");
    if (!me.totpSecret) throw badRequest(ACCOUNT.twoFactorSetupFirst, "two_factor_setup_required");
    const step = totpStepOf(await openTotpSecret(c.env, me.totpSecret), code.replace(/\s/g, ""));
    if (step === null) throw badRequest(AUTH.twoFactorInvalid, "two_factor_invalid");
    const recoveryCodes = newRecoveryCodes();
    const digests = await Promise.all(recoveryCodes.map((r) => recoveryCodeDigest(c.env, r)));
    const enabled = await db
      .update(users)
      // The code that enabled it is spent like any other.
      .set({ totpEnabled: true, totpLastStep: step, recoveryCodes: JSON.stringify(digests) })
      .where(and(eq(users.id, me.id), eq(users.totpEnabled, false), eq(users.totpSecret, me.totpSecret)))
      .returning({ id: users.id })
      .get();
    // A concurrent setup replaced the secret this code was checked against.
    if (!enabled) throw conflict(ACCOUNT.twoFactorSetupFirst, "two_factor_setup_required");
    // Sessions opened before the second factor existed are ended, as after a password change.
    await rotateSession(c, db, me.id, currentSession(c));
    // Sockets opened under the old sessions close too; this tab's reconnect with its new token.
    await closeSocketsOf(c.env, db, me.id);
    sendSecurityNotice(c, me, { kind: "two_factor_enabled" });
    const res: TwoFactorEnableResponse = { recoveryCodes };
    return c.json(res);
  })
  .post("/disable", validate("json", twoFactorDisableSchema), async (c) => {
    const me = currentUser(c);
    const db = c.get("db");
    const body = c.req.valid("json");
    if (!me.totpEnabled) throw conflict(ACCOUNT.twoFactorNotEnabled, "two_factor_not_enabled");
    await hit(db, sensitiveKey(me.id), SENSITIVE_LIMIT);
    if (!(await verifyPassword(body.password, me.passwordHash))) throw badRequest(ACCOUNT.passwordWrong, "wrong_password");
    if (!(await checkSecondFactor(c, me, body.code))) throw badRequest(AUTH.twoFactorInvalid, "two_factor_invalid");
    await db
      .update(users)
      .set({ totpEnabled: false, totpSecret: null, recoveryCodes: null, totpLastStep: null })
      .where(eq(users.id, me.id));
    await rotateSession(c, db, me.id, currentSession(c));
    await closeSocketsOf(c.env, db, me.id);
    sendSecurityNotice(c, me, { kind: "two_factor_disabled" });
    return c.json({ message: "Two-factor authentication disabled" });
  });
