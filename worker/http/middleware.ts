import { createMiddleware } from "hono/factory";
import { eq } from "drizzle-orm";
import { bodyLimit } from "hono/body-limit";
import { secureHeaders } from "hono/secure-headers";
import type { ApiErrorBody } from "../../common/api/errors";
import { AUTH, ERRORS } from "../../common/messages";
import { createDb } from "../db/client";
import { readSession } from "../auth/session";
import { sessions } from "../db/schema";
import { accountBanned } from "../admin/account-state";
import { recordOperatorSeen } from "../fair-play/staff";
import { isSteppedUp, stepUpRequired } from "../auth/step-up";
import { OPERATOR_STEP_UP_TTL_MS } from "../../common/spec";
import { badRequest, forbidden, unauthorized } from "./errors";
import type { AppEnv } from "./app-env";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);
/** Called by servers, not browsers, and authenticated by their own signature instead of a cookie. */
const SIGNED_WEBHOOK_PATHS = new Set(["/api/webhooks/stripe"]);

/**
 * CSRF defence for cookie-authenticated state changes: the request must come from our own
 * origin (Origin header, or Sec-Fetch-Site for browsers that omit it) and carry JSON if it
 * carries anything. Hono's csrf() only looks at form content types, which is not enough.
 */
export const sameOriginJson = createMiddleware<AppEnv>(async (c, next) => {
  if (SAFE_METHODS.has(c.req.method) || SIGNED_WEBHOOK_PATHS.has(c.req.path)) return next();
  const origin = c.req.header("origin");
  const own = new URL(c.req.url).origin;
  const allowed = (c.env.ALLOWED_ORIGINS ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  if (origin) {
    if (origin !== own && !allowed.includes(origin)) throw forbidden("Cross-origin request refused", "cross_origin");
  } else if (c.req.header("sec-fetch-site") !== "same-origin") {
    throw forbidden("Cross-origin request refused", "cross_origin");
  }
  const length = c.req.header("content-length");
  const hasBody = (length !== undefined && length !== "0") || c.req.header("transfer-encoding") !== undefined;
  const type = c.req.header("content-type") ?? "";
  if (hasBody && !/^application\/json\b/i.test(type)) {
    throw badRequest("Request body must be JSON (Content-Type: application/json)", "json_required");
  }
  return next();
});

/** Puts the database and the session's user (or null) on the context. */
export const loadSession = createMiddleware<AppEnv>(async (c, next) => {
  const db = createDb(c.env.DB);
  c.set("db", db);
  const signedIn = await readSession(c, db);
  // A ban ends the account's sessions; one that slipped through (a sign-in racing the ban) ends here.
  if (signedIn && signedIn.user.bannedAt !== null) {
    await db.delete(sessions).where(eq(sessions.userId, signedIn.user.id));
    throw accountBanned();
  }
  c.set("user", signedIn?.user ?? null);
  c.set("session", signedIn?.session ?? null);
  // Every device and network an operator works from is linked to staff (docs/fair-play.md).
  if (signedIn && signedIn.user.role === "admin") await recordOperatorSeen(c, signedIn.user.id);
  return next();
});

/** Guards a route: 401 when signed out. */
export const requireUser = createMiddleware<AppEnv>(async (c, next) => {
  if (!c.get("user")) throw unauthorized();
  return next();
});

/**
 * Guards the operators' routes (users.role = 'admin', granted with `npm run admin:grant`): 403 for
 * a player, and for an operator without 2FA (an operator's password alone moves other people's
 * money); every request that changes something (not GET) also needs a step-up in this session
 * within OPERATOR_STEP_UP_TTL_MS (403 step_up_required), so a stolen operator cookie alone changes
 * nothing. Behind requireUser.
 */
export const requireAdmin = createMiddleware<AppEnv>(async (c, next) => {
  const user = currentUser(c);
  if (user.role !== "admin") throw forbidden();
  if (!user.totpEnabled) throw forbidden(AUTH.adminTwoFactorRequired, "admin_two_factor_required");
  if (!SAFE_METHODS.has(c.req.method) && !isSteppedUp(c.get("session"), Date.now(), OPERATOR_STEP_UP_TTL_MS)) throw stepUpRequired();
  return next();
});

/** Operators' answers (money, players' data) are never kept by a browser or a proxy. */
export const noStore = createMiddleware<AppEnv>(async (c, next) => {
  await next();
  c.res.headers.set("Cache-Control", "no-store");
});

/** The signed-in user; only call behind requireUser. */
export function currentUser(c: { get(key: "user"): AppEnv["Variables"]["user"] }) {
  const user = c.get("user");
  if (!user) throw unauthorized();
  return user;
}

/** The signed-in session; only call behind requireUser. */
export function currentSession(c: { get(key: "session"): AppEnv["Variables"]["session"] }) {
  const session = c.get("session");
  if (!session) throw unauthorized();
  return session;
}

/**
 * Refuses a body larger than `maxBytes` with 413 before it is read (the declared length, or
 * while a streamed body is read), so nobody can make the Worker buffer megabytes.
 */
export const limitBody = (maxBytes: number) =>
  bodyLimit({
    maxSize: maxBytes,
    onError: (c) => c.json({ code: "payload_too_large", message: ERRORS.payloadTooLarge } satisfies ApiErrorBody, 413),
  });

/**
 * Headers for every API answer: nothing in it may be framed, sniffed as another type, or run as
 * a document; HSTS keeps browsers on HTTPS once they have been there (ignored over http).
 */
const secure = secureHeaders({
  contentSecurityPolicy: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] },
  xFrameOptions: "DENY",
  referrerPolicy: "strict-origin-when-cross-origin",
  strictTransportSecurity: "max-age=31536000; includeSubDomains",
  crossOriginResourcePolicy: "same-origin",
});

/** The headers above, except on a WebSocket upgrade: its 101 answer's headers cannot change. */
export const apiSecurityHeaders = createMiddleware<AppEnv>(async (c, next) =>
  c.req.header("upgrade")?.toLowerCase() === "websocket" ? next() : secure(c, next),
);
