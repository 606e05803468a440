// What the room answers across RPC: refusals travel as values (errors do not cross RPC with their
// fields), and the shapes the routes read. Shared by every module of the room and by its callers.
import type { Tournament, TournamentStatus } from "../../../common/api/types";
import type { ErrorCode } from "../../../common/api/errors";
import { IDEMPOTENCY, PLAY } from "../../../common/messages";
import { isPrizePlay } from "../../../common/domain/tournaments";
import type { MetaRow, Phase } from "./tables";

export interface RoomUser {
  userId: number;
  username: string;
  level: number;
  /** Whether others may see the level (the player's preference when joining). */
  showLevel: boolean;
  /** Keyed hashes of the device cookie and network address (the collusion check); null when unknown. */
  deviceHash: string | null;
  networkHash: string | null;
  /** Cloudflare's continent code of the join request (request.cf.continent); null when unknown (local). */
  continent?: string | null;
}

/** A refusal the Worker turns into an HTTP error; errors do not cross RPC with their fields. */
export interface RoomFailure {
  ok: false;
  status: 400 | 403 | 404 | 409;
  code: ErrorCode;
  message: string;
  title?: string;
}
export type RoomResult<T> = { ok: true; value: T } | RoomFailure;

/** What the room knows about a join before any D1 work (see TournamentRoom.admission). */
export type Admission =
  | { state: "practice" }
  | { state: "joined"; reference: string }
  /** `prize`: prize play (docs/fair-play.md), closed to staff and accounts linked to staff. */
  | { state: "open"; feeCents: number; prize: boolean };

/** A join's outcome: the entry's reference, and what the group's batch read back for the answer. */
export interface JoinOutcome {
  alreadyJoined: boolean;
  reference: string;
  answer: { balanceCents: number; tournament: Tournament } | null;
}

export const ok = <T>(value: T): RoomResult<T> => ({ ok: true, value });
export const fail = (status: RoomFailure["status"], code: ErrorCode, message: string, title?: string): RoomFailure =>
  title === undefined ? { ok: false, status, code, message } : { ok: false, status, code, message, title };
export const notFound = () => fail(404, "tournament_not_found", PLAY.notFound);
/** The request's idempotency key was taken over by a retry while it waited: that retry does the work. */
export const claimLost = () => fail(409, "idempotency_key_in_progress", IDEMPOTENCY.inProgress);

export const isPrize = (meta: MetaRow) =>
  isPrizePlay({ practice: meta.practice === 1, entryFeeCents: meta.entry_fee_cents, prizePoolCents: meta.prize_pool_cents });

/** The status the API shows: settling is still live to players. */
export const publicStatus = (phase: Phase): TournamentStatus => (phase === "settling" ? "live" : phase);
