// Who may see a tournament at all. A practice run is one player's own: to anyone else (signed in
// or not) it answers exactly as an id that does not exist, so nobody learns who practised. A
// private (custom) tournament is the same to everyone but its creator and its players: the rest
// reach it only through its invite code (docs/custom-tournaments.md), never by its id.
import type { TournamentKind } from "../../common/api/types";

export const visibleTo = (t: { kind: TournamentKind; ownerUserId: number | null }, userId: number | null | undefined): boolean =>
  t.kind !== "practice_run" || (userId != null && t.ownerUserId === userId);

/** A private tournament's creator and players see it by its id; nobody else does. Public ones: everyone. */
export async function privateVisibleTo(
  d1: D1Database,
  t: { id: number; inviteCode: string | null; creatorUserId: number | null },
  userId: number | null | undefined,
): Promise<boolean> {
  if (t.inviteCode === null) return true;
  if (userId == null) return false;
  if (t.creatorUserId === userId) return true;
  const seat = await d1.prepare("SELECT 1 FROM tournament_participants WHERE tournament_id = ? AND user_id = ?").bind(t.id, userId).first();
  return seat !== null;
}

/** Constant-time comparison of an invite code someone gave with the tournament's own. */
export function sameInviteCode(given: string | undefined, actual: string): boolean {
  if (given === undefined || given.length !== actual.length) return false;
  let diff = 0;
  for (let i = 0; i < actual.length; i++) diff |= given.charCodeAt(i) ^ actual.charCodeAt(i);
  return diff === 0;
}
