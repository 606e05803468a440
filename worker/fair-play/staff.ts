// Staff out of prize play (docs/fair-play.md): operators see every answer, so neither they nor
// accounts on a device or network an operator recently used may play for prizes. This file keeps
// where operators are seen (staff_fingerprints) and says whether a join is staff's.
import type { Context } from "hono";
import { JOIN } from "../../common/messages";
import { STAFF_DEVICE_LINK_MS, STAFF_NETWORK_LINK_MS, STAFF_SEEN_REFRESH_MS } from "../../common/spec";
import { HttpError } from "../http/errors";
import type { AppEnv } from "../http/app-env";
import { joinIdentity } from "./identity";

export interface JoinIdentity {
  deviceHash: string | null;
  networkHash: string | null;
}

export const staffExcluded = () =>
  new HttpError(403, "staff_excluded", JOIN.staffExcluded.description, { title: JOIN.staffExcluded.title });

/** An integer literal, so the conditions below can sit in statements whose parameters are numbered already. */
const cutoff = (now: number, ms: number) => String(Math.floor(now - ms));

/**
 * SQL: the device or network hash (SQL expressions) is one an operator was seen on within its link
 * window before `now` (a null hash links nothing).
 */
export function staffLinkSql(device: string, network: string, now: number): string {
  return `EXISTS (SELECT 1 FROM staff_fingerprints f
    WHERE (f.kind = 'device' AND f.hash = ${device} AND f.seen_at >= ${cutoff(now, STAFF_DEVICE_LINK_MS)})
       OR (f.kind = 'network' AND f.hash = ${network} AND f.seen_at >= ${cutoff(now, STAFF_NETWORK_LINK_MS)}))`;
}

/** SQL: the user (an expression for their id) is an operator now, or the hashes link them to one. */
export function staffSql(user: string, device: string, network: string, now: number): string {
  return `(EXISTS (SELECT 1 FROM users s WHERE s.id = ${user} AND s.role = 'admin') OR ${staffLinkSql(device, network, now)})`;
}

/** Refuses an operator, or a join from a device or network an operator was recently seen on (403 staff_excluded). */
export async function assertNotStaff(db: D1Database, user: { role: string }, identity: JoinIdentity, now = Date.now()): Promise<void> {
  if (user.role === "admin") throw staffExcluded();
  const linked = await db
    .prepare(`SELECT 1 AS linked WHERE ${staffLinkSql("?1", "?2", now)}`)
    .bind(identity.deviceHash, identity.networkHash)
    .first();
  if (linked) throw staffExcluded();
}

/**
 * Records the device and network an operator's request comes from (a browser without the device
 * cookie gets one). Each pair is written again at most every STAFF_SEEN_REFRESH_MS. WebSocket
 * upgrades are skipped: their answer cannot carry a cookie, and the page that opened them was seen.
 */
export async function recordOperatorSeen(c: Context<AppEnv>, userId: number, now = Date.now()): Promise<void> {
  if (c.req.header("upgrade")?.toLowerCase() === "websocket") return;
  const { deviceHash, networkHash: hashed } = joinIdentity(c);
  // A loopback address names no network: under `wrangler dev` (npm start, the e2e journeys) every
  // request comes from it, and linking it would shut every local player out of prize play.
  const networkHash = isLoopback(c.req.header("cf-connecting-ip")) ? null : hashed;
  const seen = (kind: "device" | "network", hash: string) =>
    c.env.DB.prepare(
      `INSERT INTO staff_fingerprints (kind, hash, user_id, seen_at) VALUES (?1, ?2, ?3, ?4)
       ON CONFLICT (kind, hash, user_id) DO UPDATE SET seen_at = excluded.seen_at WHERE staff_fingerprints.seen_at < ?4 - ?5`,
    ).bind(kind, hash, userId, now, STAFF_SEEN_REFRESH_MS);
  await c.env.DB.batch([seen("device", deviceHash), ...(networkHash ? [seen("network", networkHash)] : [])]);
}

/** 127.0.0.0/8 and ::1, also IPv4-mapped. */
export const isLoopback = (address: string | undefined) =>
  address !== undefined && /^(?:127\.|::1$|::ffff:127\.|0:0:0:0:0:0:0:1$)/i.test(address.trim());
