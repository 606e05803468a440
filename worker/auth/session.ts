// Sessions: a random 256-bit token in an HttpOnly cookie; D1 keeps only its SHA-256.
import type { Context } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import { and, eq, getTableColumns, ne } from "drizzle-orm";
import type { Db } from "../db/client";
import { sessions, users } from "../db/schema";
import { randomToken, sha256Hex } from "./bytes";

export const SESSION_COOKIE = "sid";
const IDLE_MS = 7 * 24 * 60 * 60 * 1000;
const ABSOLUTE_MS = 30 * 24 * 60 * 60 * 1000;
/** last_seen_at is refreshed at most this often, to keep reads from turning into writes. */
const TOUCH_EVERY_MS = 60 * 60 * 1000;

/**
 * The signed-in user as every request loads it: the whole row but the avatar, an image of up to
 * ~150 KB that only GET /api/user needs, so answers and joins do not read it from D1 each time.
 */
const { avatar: _avatar, ...sessionUserColumns } = getTableColumns(users);
export type SessionUser = Omit<typeof users.$inferSelect, "avatar">;

export async function createSession(c: Context, db: Db, userId: number): Promise<void> {
  const token = randomToken(32);
  const now = Date.now();
  await db.insert(sessions).values({ id: sha256Hex(token), userId, createdAt: now, lastSeenAt: now, expiresAt: now + ABSOLUTE_MS });
  setCookie(c, SESSION_COOKIE, token, {
    httpOnly: true,
    sameSite: "Lax",
    secure: !isLocalhost(c.req.url),
    path: "/",
    maxAge: ABSOLUTE_MS / 1000,
  });
}

/** The signed-in user for this request's cookie, or null. Expired sessions are removed. */
export async function readSession(c: Context, db: Db): Promise<SessionUser | null> {
  const token = getCookie(c, SESSION_COOKIE);
  if (!token || token.length > 100) return null;
  const id = sha256Hex(token);
  const now = Date.now();
  const row = await db
    .select({ user: sessionUserColumns, lastSeenAt: sessions.lastSeenAt, expiresAt: sessions.expiresAt })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(eq(sessions.id, id))
    .get();
  if (!row) return null;
  if (row.expiresAt <= now || row.lastSeenAt + IDLE_MS <= now) {
    await db.delete(sessions).where(eq(sessions.id, id));
    return null;
  }
  if (now - row.lastSeenAt > TOUCH_EVERY_MS) {
    await db.update(sessions).set({ lastSeenAt: now }).where(eq(sessions.id, id));
  }
  return row.user;
}

export async function endSession(c: Context, db: Db): Promise<void> {
  const token = getCookie(c, SESSION_COOKIE);
  if (token) await db.delete(sessions).where(eq(sessions.id, sha256Hex(token)));
  deleteCookie(c, SESSION_COOKIE, { path: "/", secure: !isLocalhost(c.req.url) });
}

/** Ends every session of a user except (optionally) the current one. */
export async function endOtherSessions(c: Context, db: Db, userId: number): Promise<void> {
  const token = getCookie(c, SESSION_COOKIE);
  const keep = token ? sha256Hex(token) : "";
  await db.delete(sessions).where(and(eq(sessions.userId, userId), ne(sessions.id, keep)));
}

export function isLocalhost(url: string): boolean {
  const host = new URL(url).hostname;
  return host === "localhost" || host === "127.0.0.1" || host === "[::1]";
}
