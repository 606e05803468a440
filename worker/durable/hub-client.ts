// How the rest of the Worker reaches the NotificationHub. Today one hub object holds every /ws
// socket; the shard of a user is chosen here only, so splitting the hub later is a change to
// HUB_SHARDS and nothing else (docs/decisions/005-notification-hub-sharding.md).
import type { NotificationFrame } from "../../common/api/tournaments";
import { describeError } from "../http/errors";

/** Number of hub objects. Raise it (and never lower it while sockets are open) when one hub is not enough. */
export const HUB_SHARDS = 1;

/** Header carrying the signed-in user's id from the Worker to a Durable Object's fetch. */
export const USER_ID_HEADER = "x-trivia-user-id";
/** Header naming the tournament a room socket is for. */
export const TOURNAMENT_ID_HEADER = "x-trivia-tournament-id";

const shardOf = (userId: number) => userId % HUB_SHARDS;

/** The name "hub" is kept for shard 0 so existing sockets stay where they are when shards are added. */
const shardName = (shard: number) => (shard === 0 ? "hub" : `hub:${shard}`);

export function hubFor(env: Env, userId: number) {
  return env.NOTIFICATION_HUB.get(env.NOTIFICATION_HUB.idFromName(shardName(shardOf(userId))));
}

/** Pushes a notification to whichever of these users are connected, one call per shard. */
export async function pushNotification(env: Env, userIds: number[], frame: NotificationFrame): Promise<void> {
  const byShard = new Map<number, number[]>();
  for (const id of userIds) byShard.set(shardOf(id), [...(byShard.get(shardOf(id)) ?? []), id]);
  await Promise.all(
    [...byShard.entries()].map(([shard, ids]) =>
      env.NOTIFICATION_HUB.get(env.NOTIFICATION_HUB.idFromName(shardName(shard))).deliver(ids, frame),
    ),
  );
}

/** For a notification already stored: a push that fails loses nothing (the list still shows it), so it is logged, not thrown. */
export async function pushStoredNotification(env: Env, userId: number, frame: NotificationFrame): Promise<void> {
  try {
    await pushNotification(env, [userId], frame);
  } catch (e) {
    console.error("notification push failed", describeError(e));
  }
}
