// How the rest of the Worker reaches the NotificationHub. Users are spread over HUB_SHARDS hub
// objects by id; the shard of a user is chosen here only
// (docs/decisions/005-notification-hub-sharding.md).
import type { NotificationFrame } from "../../common/api/tournaments";
import { describeError } from "../http/errors";

/**
 * Number of hub objects. One object runs on one thread and holds at most 32,768 sockets; with 8 a
 * notification to every signed-in user is eight sends in parallel, each to an eighth of them.
 * Changing it moves users to other objects, which takes a deploy, and a deploy closes every
 * socket anyway (clients reconnect to their new shard).
 */
export const HUB_SHARDS = 8;

/** Header carrying the signed-in user's id from the Worker to a Durable Object's fetch. */
export const USER_ID_HEADER = "x-trivia-user-id";
/** Header naming the tournament a room socket is for. */
export const TOURNAMENT_ID_HEADER = "x-trivia-tournament-id";

export const hubShardOf = (userId: number) => userId % HUB_SHARDS;

const hubShard = (env: Env, shard: number) => env.NOTIFICATION_HUB.get(env.NOTIFICATION_HUB.idFromName(`hub-${shard}`));

/** The hub object that holds this user's sockets. */
export const hubFor = (env: Env, userId: number) => hubShard(env, hubShardOf(userId));

/** Pushes a notification to whichever of these users are connected, one call per shard, all at once; returns the sockets reached. */
export async function pushNotification(env: Env, userIds: number[], frame: NotificationFrame): Promise<number> {
  const byShard = new Map<number, number[]>();
  for (const id of userIds) {
    const shard = hubShardOf(id);
    const ids = byShard.get(shard);
    if (ids) ids.push(id);
    else byShard.set(shard, [id]);
  }
  const sent = await Promise.all([...byShard].map(([shard, ids]) => hubShard(env, shard).deliver(ids, frame)));
  return sent.reduce((a, b) => a + b, 0);
}

/** For a notification already stored: a push that fails loses nothing (the list still shows it), so it is logged, not thrown. */
export async function pushStoredNotification(env: Env, userId: number, frame: NotificationFrame): Promise<void> {
  try {
    await pushNotification(env, [userId], frame);
  } catch (e) {
    console.error("notification push failed", describeError(e));
  }
}
