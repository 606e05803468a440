// Step-up: sensitive actions (withdrawing, setting up 2FA, changing the email address or the
// password) need the password, and a code when 2FA is on, confirmed in this session within
// STEP_UP_TTL_MS, so a stolen session cookie alone can neither take money out nor lock the owner out.
import { createMiddleware } from "hono/factory";
import { AUTH } from "../../common/messages";
import { OPERATOR_STEP_UP_TTL_MS, STEP_UP_TTL_MS } from "../../common/spec";
import type { AppEnv } from "../http/app-env";
import { forbidden } from "../http/errors";
import type { SessionInfo } from "./session";

export const isSteppedUp = (session: SessionInfo | null, now = Date.now(), ttlMs = STEP_UP_TTL_MS) =>
  session?.stepUpAt != null && now - session.stepUpAt < ttlMs;

export const stepUpRequired = () => forbidden(AUTH.stepUpRequired, "step_up_required");

/** Refuses with 403 step_up_required unless the session stepped up recently; behind requireUser. */
export function assertSteppedUp(c: { get(key: "session"): SessionInfo | null }): void {
  if (!isSteppedUp(c.get("session"))) throw stepUpRequired();
}

export const requireStepUp = createMiddleware<AppEnv>(async (c, next) => {
  assertSteppedUp(c);
  return next();
});

/**
 * For an operator's read that hands out players' data in bulk (the 1099-MISC file, a tournament's
 * results with every answer and receipt): a GET, so requireAdmin lets it through without a
 * step-up; this asks for one within OPERATOR_STEP_UP_TTL_MS, like every operator write.
 */
export const requireOperatorStepUp = createMiddleware<AppEnv>(async (c, next) => {
  if (!isSteppedUp(c.get("session"), Date.now(), OPERATOR_STEP_UP_TTL_MS)) throw stepUpRequired();
  return next();
});
