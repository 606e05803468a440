// The Worker's side of the TournamentRoom RPC: which object, and refusals as HTTP errors.
import { HttpError } from "../http/errors";
import type { RoomFailure } from "./room/results";

export const roomFor = (env: Env, tournamentId: number) => env.TOURNAMENT_ROOM.get(env.TOURNAMENT_ROOM.idFromName(String(tournamentId)));

/** The value of a room's answer, or its refusal thrown as the `{code, message}` error the client sees. */
export function unwrap<T>(result: { ok: true; value: T } | RoomFailure): T {
  if (result.ok) return result.value;
  throw new HttpError(result.status, result.code, result.message, result.title === undefined ? undefined : { title: result.title });
}
