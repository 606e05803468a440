// Sessions: a random 256-bit token in an HttpOnly cookie; D1 keeps only its SHA-256.
import type { Context } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import { and, eq, getTableColumns, ne } from "drizzle-orm";
import type { Db } from "../db/client";
import { sessions, users } from "../db/schema";
import { OPERATOR_SESSION_ABSOLUTE_MS, OPERATOR_SESSION_IDLE_MS } from "../../common/spec";
import { randomToken, sha256Hex } from "./bytes";

/**
 * `__Host-sid` on a real host: the prefix makes browsers refuse it unless it is Secure, for
 * Path=/ and without a Domain, so no sibling subdomain can set or shadow it. Browsers refuse
 * Secure cookies over plain http, so loopback hosts (local development, tests) use `sid`.
 */
export const SESSION_COOKIE = "sid";
export const HOST_SESSION_COOKIE = "__Host-sid";
const IDLE_MS = 7 * 24 * 60 * 60 * 1000;
const ABSOLUTE_MS = 30 * 24 * 60 * 60 * 1000;
/** last_seen_at is refreshed at most this often, to keep reads from turning into writes. */
const TOUCH_EVERY_MS = 60 * 60 * 1000;
/** An operator's idle limit is 30 minutes, so their last_seen_at is kept to the minute. */
const OPERATOR_TOUCH_EVERY_MS = 60 * 1000;

/**
 * Whether the session has ended by time: players' after 7 idle days or 30 days in all; operators'
 * (role admin) after 30 idle minutes or 12 hours in all (docs/operating.md), since an operator's
 * session moves other people's money.
 */
export function sessionExpired(s: { role: string; createdAt: number; lastSeenAt: number; expiresAt: number }, now: number): boolean {
  if (s.expiresAt <= now || s.lastSeenAt + IDLE_MS <= now) return true;
  return s.role === "admin" && (s.createdAt + OPERATOR_SESSION_ABSOLUTE_MS <= now || s.lastSeenAt + OPERATOR_SESSION_IDLE_MS <= now);
}

/**
 * The signed-in user as every request loads it: the whole row but the avatar, an image of up to
 * ~150 KB that only GET /api/user needs, so answers and joins do not read it from D1 each time.
 */
const { avatar: _avatar, ...sessionUserColumns } = getTableColumns(users);
export type SessionUser = Omit<typeof users.$inferSelect, "avatar">;

/** The session row behind this request's cookie. */
export interface SessionInfo {
  /** SHA-256 hex of the token: the row's id. */
  id: string;
  /** When the owner last confirmed the password in this session (step-up), or null. */
  stepUpAt: number | null;
}

export function isLocalhost(url: string): boolean {
  const host = new URL(url).hostname;
  return host === "localhost" || host === "127.0.0.1" || host === "[::1]";
}

export const sessionCookieName = (url: string) => (isLocalhost(url) ? SESSION_COOKIE : HOST_SESSION_COOKIE);

const tokenOf = (c: Context) => getCookie(c, sessionCookieName(c.req.url));

/** Opens a session with a fresh token; `stepUpAt` carries a step-up over when a session is rotated. */
export async function createSession(c: Context, db: Db, userId: number, stepUpAt: number | null = null): Promise<SessionInfo> {
  const token = randomToken(32);
  const now = Date.now();
  const id = sha256Hex(token);
  await db.insert(sessions).values({ id, userId, createdAt: now, lastSeenAt: now, expiresAt: now + ABSOLUTE_MS, stepUpAt });
  setCookie(c, sessionCookieName(c.req.url), token, {
    httpOnly: true,
    sameSite: "Lax",
    secure: !isLocalhost(c.req.url),
    path: "/",
    maxAge: ABSOLUTE_MS / 1000,
  });
  return { id, stepUpAt };
}

/** The signed-in user and session for this request's cookie, or null. Expired sessions are removed. */
export async function readSession(c: Context, db: Db): Promise<{ user: SessionUser; session: SessionInfo } | null> {
  const token = tokenOf(c);
  if (!token || token.length > 100) return null;
  const id = sha256Hex(token);
  const now = Date.now();
  const row = await db
    .select({
      user: sessionUserColumns,
      createdAt: sessions.createdAt,
      lastSeenAt: sessions.lastSeenAt,
      expiresAt: sessions.expiresAt,
      stepUpAt: sessions.stepUpAt,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(eq(sessions.id, id))
    .get();
  if (!row) return null;
  if (sessionExpired({ role: row.user.role, createdAt: row.createdAt, lastSeenAt: row.lastSeenAt, expiresAt: row.expiresAt }, now)) {
    await db.delete(sessions).where(eq(sessions.id, id));
    return null;
  }
  if (now - row.lastSeenAt > (row.user.role === "admin" ? OPERATOR_TOUCH_EVERY_MS : TOUCH_EVERY_MS)) {
    await db.update(sessions).set({ lastSeenAt: now }).where(eq(sessions.id, id));
  }
  return { user: row.user, session: { id, stepUpAt: row.stepUpAt } };
}

export async function endSession(c: Context, db: Db): Promise<void> {
  const token = tokenOf(c);
  if (token) await db.delete(sessions).where(eq(sessions.id, sha256Hex(token)));
  deleteCookie(c, sessionCookieName(c.req.url), { path: "/", secure: !isLocalhost(c.req.url) });
}

/** Ends every session of a user except (optionally) the current one. */
export async function endOtherSessions(c: Context, db: Db, userId: number): Promise<void> {
  const token = tokenOf(c);
  const keep = token ? sha256Hex(token) : "";
  await db.delete(sessions).where(and(eq(sessions.userId, userId), ne(sessions.id, keep)));
}

/**
 * After a password or second-factor change: every other session ends and this one continues
 * under a new token, so a token copied before the change (a stolen cookie) stops working. The
 * step-up the change was made under carries over.
 */
export async function rotateSession(c: Context, db: Db, userId: number, current: SessionInfo): Promise<void> {
  await db.delete(sessions).where(eq(sessions.userId, userId));
  await createSession(c, db, userId, current.stepUpAt);
}
