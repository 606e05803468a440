// The Worker's side of the TournamentRoom RPC: which object, and refusals as HTTP errors.
import { regionOf, shardOf } from "../../common/domain/shards";
import { HttpError } from "../http/errors";
import type { RoomFailure } from "./room/results";

/** The tournament's room: the one room of a tournament, or the coordinator of a sharded live show (decision 011). */
export const roomFor = (env: Env, tournamentId: number) => env.TOURNAMENT_ROOM.get(env.TOURNAMENT_ROOM.idFromName(String(tournamentId)));

/** The name of play shard `k` of a tournament; the room reads its role back from it (worker/durable/room/shards.ts). */
export const shardName = (tournamentId: number, k: number) => `${tournamentId}:shard:${k}`;

/** Play shard `k` of `n`, created in its home region (a location hint only counts when the object is first made). */
export const shardRoomFor = (env: Env, tournamentId: number, k: number, n: number) =>
  env.TOURNAMENT_ROOM.get(env.TOURNAMENT_ROOM.idFromName(shardName(tournamentId, k)), { locationHint: regionOf(k, n) });

/** Shard counts never change after creation (decision 011), so each isolate reads a tournament's once. */
const shardCounts = new Map<number, number>();
const SHARD_COUNT_CACHE_MAX = 10_000;

async function shardCountOf(env: Env, tournamentId: number): Promise<number> {
  const known = shardCounts.get(tournamentId);
  if (known !== undefined) return known;
  const row = await env.DB.prepare("SELECT shard_count AS n FROM tournaments WHERE id = ?").bind(tournamentId).first<{ n: number }>();
  const n = row?.n ?? 1;
  if (row) {
    if (shardCounts.size >= SHARD_COUNT_CACHE_MAX) shardCounts.clear();
    shardCounts.set(tournamentId, n);
  }
  return n;
}

/**
 * Where a player plays: the tournament's room, or in a sharded live show the play shard their
 * seat names (chosen at the join). Anyone without a seat goes to the coordinator, which refuses
 * play to them as the room does and serves spectators the merged board.
 */
export async function playRoomFor(env: Env, tournamentId: number, userId: number) {
  return seatRoomFor(env, tournamentId, userId, () => null);
}

/** The room of a player's seat in a sharded show (read from D1), else `unseated(n)`'s shard, else the coordinator. */
async function seatRoomFor(env: Env, tournamentId: number, userId: number, unseated: (n: number) => number | null) {
  const n = await shardCountOf(env, tournamentId);
  if (n <= 1) return roomFor(env, tournamentId);
  const seat = await env.DB.prepare("SELECT shard FROM tournament_participants WHERE tournament_id = ? AND user_id = ?")
    .bind(tournamentId, userId)
    .first<{ shard: number }>();
  const k = seat ? seat.shard : unseated(n);
  return k === null ? roomFor(env, tournamentId) : shardRoomFor(env, tournamentId, k, n);
}

/**
 * Where a join (or a leave) goes: the tournament's room, or in a sharded live show a play shard,
 * which seats against its lease (./room/leases.ts): the seat's shard for a player who has one
 * (they hear "already joined" there; a leave is refunded there), else the shard their region and
 * id pick. Two presses from two regions at once may reach two shards: D1's one seat per player and
 * the entry's one ledger reference keep them to one seat and one charge (./room/join-group.ts).
 */
export async function joinRoomFor(env: Env, tournamentId: number, userId: number, continent: string | null) {
  return seatRoomFor(env, tournamentId, userId, (n) => shardOf(userId, continent, n));
}

/** The value of a room's answer, or its refusal thrown as the `{code, message}` error the client sees. */
export function unwrap<T>(result: { ok: true; value: T } | RoomFailure): T {
  if (result.ok) return result.value;
  throw new HttpError(result.status, result.code, result.message, result.title === undefined ? undefined : { title: result.title });
}
