// Who may see a tournament at all. A practice run is one player's own: to anyone else (signed in
// or not) it answers exactly as an id that does not exist, so nobody learns who practised.
import type { TournamentKind } from "../../common/api/types";

export const visibleTo = (t: { kind: TournamentKind; ownerUserId: number | null }, userId: number | null | undefined): boolean =>
  t.kind !== "practice_run" || (userId != null && t.ownerUserId === userId);
