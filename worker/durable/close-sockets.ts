// Signing a user out everywhere they hold a socket: the /ws hub and the rooms of the tournaments
// they are in. Each socket closes with SESSION_ENDED_CLOSE_CODE, after which the web app checks
// its session and goes to the sign-in page if it has none.
import { and, eq, inArray } from "drizzle-orm";
import { SESSION_ENDED_CLOSE_CODE } from "../../common/spec";
import type { Db } from "../db/client";
import { tournamentParticipants, tournaments } from "../db/schema";
import { describeError } from "../http/errors";
import { hubFor } from "./hub-client";
import { roomFor, shardRoomFor } from "./room-client";

const REASON = "Signed out";

/**
 * Closes the user's sockets; a room or hub that cannot be reached is logged, not thrown: the
 * session is already gone, and a socket left open is refused at its next HTTP fallback.
 */
export async function closeSocketsOf(env: Env, db: Db, userId: number): Promise<void> {
  const rooms = await db
    .select({ id: tournamentParticipants.tournamentId, shard: tournamentParticipants.shard, shards: tournaments.shardCount })
    .from(tournamentParticipants)
    .innerJoin(tournaments, eq(tournaments.id, tournamentParticipants.tournamentId))
    .where(and(eq(tournamentParticipants.userId, userId), inArray(tournaments.status, ["upcoming", "live"])))
    .all();
  const closing = [
    hubFor(env, userId).closeUser(userId, SESSION_ENDED_CLOSE_CODE, REASON),
    ...rooms.map(({ id }) => roomFor(env, id).closeUserSockets(userId, SESSION_ENDED_CLOSE_CODE, REASON)),
    // A sharded live show: the player's sockets are on their play shard (decision 011).
    ...rooms
      .filter(({ shards }) => shards > 1)
      .map(({ id, shard, shards }) => shardRoomFor(env, id, shard, shards).closeUserSockets(userId, SESSION_ENDED_CLOSE_CODE, REASON)),
  ];
  for (const result of await Promise.allSettled(closing)) {
    if (result.status === "rejected") console.error("closing a signed-out user's sockets failed", describeError(result.reason));
  }
}
