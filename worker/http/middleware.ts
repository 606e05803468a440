import { createMiddleware } from "hono/factory";
import { createDb } from "../db/client";
import { readSession } from "../auth/session";
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
  c.set("user", await readSession(c, db));
  return next();
});

/** Guards a route: 401 when signed out. */
export const requireUser = createMiddleware<AppEnv>(async (c, next) => {
  if (!c.get("user")) throw unauthorized();
  return next();
});

/** Guards the operators' routes (users.role = 'admin', granted with `npm run admin:grant`): 403 for a player; behind requireUser. */
export const requireAdmin = createMiddleware<AppEnv>(async (c, next) => {
  if (currentUser(c).role !== "admin") throw forbidden();
  return next();
});

/** The signed-in user; only call behind requireUser. */
export function currentUser(c: { get(key: "user"): AppEnv["Variables"]["user"] }) {
  const user = c.get("user");
  if (!user) throw unauthorized();
  return user;
}
