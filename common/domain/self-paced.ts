// Self-paced play's one-frame answer (docs/decisions/004-tournament-room.md, "One frame per
// answer"): an answer's reply may carry the player's next question. Which question that is must
// not depend on when the reply is asked for, so that a resent answer (its first reply lost) gets
// the very question the first reply carried, with the clock it started, and never skips one.
// Pure: the room applies it to its stored plays.

/** What an accepted answer's reply carries as the player's next question. */
export type CarriedNext<P> =
  /** Already issued after the answered one (this answer's earlier reply, or a `next`): the same question, its clock unchanged. */
  | { kind: "issued"; play: P }
  /** Nothing after it yet: issue the next slot now (its clock starts with this reply). */
  | { kind: "issue"; slot: number }
  /** The answered question was the player's last: nothing left but completing. */
  | { kind: "none" };

/**
 * `plays`: the player's issued questions in ord order (one per slot, each issued only once the
 * one before it was answered or had timed out); `answeredOrd`: the question just answered (or
 * answered before, for a resent answer); `slotOf`: a question's slot; `slots`: questions per player.
 */
export function carriedNext<P extends { ord: number }>(
  plays: readonly P[],
  answeredOrd: number,
  slotOf: (ord: number) => number,
  slots: number,
): CarriedNext<P> {
  const i = plays.findIndex((p) => p.ord === answeredOrd);
  const after = i >= 0 ? plays[i + 1] : undefined;
  if (after) return { kind: "issued", play: after };
  const slot = slotOf(answeredOrd) + 1;
  return slot >= slots ? { kind: "none" } : { kind: "issue", slot };
}

/**
 * The ramp slot (the player's question number, 0-based) of a question of the pool: the pool holds
 * `drawWidth` candidates per slot, in slot order, and each player draws one of them (docs/fair-play.md).
 */
export const slotOfQuestion = (ord: number, drawWidth: number) => Math.floor(ord / drawWidth);
