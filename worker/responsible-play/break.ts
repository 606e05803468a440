// What starting a break does besides its exclusions row: open checkouts cancelled, upcoming
// tournaments left with their fees refunded. A break the player asks for and one an account
// takes over from a deleted self-excluded account (excluded-identities.ts) do the same.
import { and, eq } from "drizzle-orm";
import type { Db } from "../db/client";
import { tournamentParticipants, tournaments } from "../db/schema";
import { roomFor } from "../durable/room-client";
import { cancelOpenCheckouts } from "../payments/deposits";
import { activeProvider, paymentProvider } from "../payments/index";
import { inheritExclusionStatement, type ExcludedIdentityKind } from "./excluded-identities";

/**
 * The player's open checkouts are cancelled (one paid all the same is refunded when it arrives),
 * and their entries in tournaments that have not started are left, with their fees refunded, so
 * nothing draws them back to play during the break; a tournament already under way is theirs to finish.
 */
export async function settleIntoBreak(c: { env: Env; get(key: "db"): Db; url: string }, userId: number): Promise<void> {
  const db = c.get("db");
  await cancelOpenCheckouts(c.env.DB, activeProvider(c.env, c.url) ? paymentProvider(c.env, db, c.url) : null, userId);
  const upcoming = await db
    .select({ id: tournaments.id })
    .from(tournamentParticipants)
    .innerJoin(tournaments, eq(tournaments.id, tournamentParticipants.tournamentId))
    .where(and(eq(tournamentParticipants.userId, userId), eq(tournaments.status, "upcoming"), eq(tournaments.kind, "standard")))
    .all();
  // A room that has just started refuses the leave (leave_closed): that entry is then played out.
  await Promise.all(upcoming.map((t) => roomFor(c.env, t.id).leave(t.id, userId)));
}

/**
 * An account meets a kept identity (its email at registration, a card at the checkout, a bank
 * account at a withdrawal): it takes the kept exclusion over, and a break it did not have yet
 * starts as one the player asks for does (settleIntoBreak). Returns the kept exclusion's end
 * when one matched (null: permanent), undefined when none did.
 */
export async function takeOverExclusion(
  c: { env: Env; get(key: "db"): Db; url: string },
  userId: number,
  kind: ExcludedIdentityKind,
  hashes: string[],
  now = Date.now(),
): Promise<{ endsAt: number | null } | undefined> {
  const [inherited, match] = await c.env.DB.batch<{ ends_at: number | null }>([
    inheritExclusionStatement(c.env.DB, userId, kind, hashes, now),
    c.env.DB.prepare(
      `SELECT k.ends_at FROM excluded_identities k
       WHERE k.kind = ?1 AND k.hash IN (SELECT value FROM json_each(?2)) AND (k.ends_at IS NULL OR k.ends_at > ?3)
       ORDER BY k.ends_at IS NULL DESC, k.ends_at DESC LIMIT 1`,
    ).bind(kind, JSON.stringify(hashes), now),
  ]);
  const row = match!.results[0];
  if (!row) return undefined;
  if ((inherited!.meta.changes ?? 0) > 0) await settleIntoBreak(c, userId);
  return { endsAt: row.ends_at };
}
