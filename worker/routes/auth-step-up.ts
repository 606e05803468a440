// POST /api/auth/step-up: re-confirms the password (and a code with 2FA on) in the current
// session, which then may withdraw, set up 2FA or change its email for STEP_UP_TTL_MS.
import { Hono } from "hono";
import { eq } from "drizzle-orm";
import { stepUpSchema, type StepUpResponse } from "../../common/api/sessions";
import { ACCOUNT, AUTH } from "../../common/messages";
import { STEP_UP_TTL_MS } from "../../common/spec";
import { verifyPassword } from "../auth/password";
import { checkSecondFactor } from "../auth/second-factor";
import { sessions } from "../db/schema";
import { badRequest, HttpError } from "../http/errors";
import { currentSession, currentUser, requireUser } from "../http/middleware";
import { hit, SENSITIVE_LIMIT, sensitiveKey } from "../http/rate-limit";
import { validate } from "../http/validate";
import type { AppEnv } from "../http/app-env";

export const stepUpRoutes = new Hono<AppEnv>().post("/", requireUser, validate("json", stepUpSchema), async (c) => {
  const me = currentUser(c);
  const session = currentSession(c);
  const db = c.get("db");
  const body = c.req.valid("json");
  await hit(db, sensitiveKey(me.id), SENSITIVE_LIMIT);
  if (!(await verifyPassword(body.password, me.passwordHash))) throw badRequest(ACCOUNT.passwordWrong, "wrong_password");
  if (me.totpEnabled) {
    // 400, not 401: the session is fine, only this confirmation is incomplete.
    if (!body.totpCode) throw new HttpError(400, "two_factor_required", AUTH.stepUpTwoFactorRequired, { twoFactorRequired: true });
    if (!(await checkSecondFactor(c, me, body.totpCode))) {
      throw new HttpError(400, "two_factor_invalid", AUTH.twoFactorInvalid, { twoFactorRequired: true });
    }
  }
  const now = Date.now();
  await db.update(sessions).set({ stepUpAt: now }).where(eq(sessions.id, session.id));
  return c.json({ stepUpUntil: now + STEP_UP_TTL_MS } satisfies StepUpResponse);
});
