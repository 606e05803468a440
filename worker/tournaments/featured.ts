// Featured events in D1 (docs/featured-events.md): who may register when (priority access, one
// check of its own in the join route), the registration block a page shows, and featuring an
// upcoming tournament with its audit row.
import { and, eq } from "drizzle-orm";
import type { FeaturedRegistration } from "../../common/api/featured";
import { ADMIN_TOURNAMENTS } from "../../common/console-messages";
import { FEATURED, utcTime } from "../../common/messages";
import {
  featureRefusal,
  hasPriorityAccess,
  registrationOpen,
  registrationOpensFor,
  registrationOpensForAll,
  registrationTimeRefusal,
} from "../../common/domain/featured";
import type { Db } from "../db/client";
import { tournamentReminders, tournaments } from "../db/schema";
import { iso } from "../db/present";
import { FEATURED_MIN_NOTICE_MS } from "../../common/spec";
import { HttpError, badRequest } from "../http/errors";

type TermsRow = Pick<typeof tournaments.$inferSelect, "featuredAt" | "registrationOpensAt" | "startTime">;

/**
 * Refuses (403 registration_not_open) a join before registration of a featured event opened for
 * this player's level, naming when it does. A tournament that is not featured passes untouched.
 * `t` is the row the join already read (its featured columns), so the check reads nothing itself.
 */
export function assertRegistrationOpen(
  t: { featuredAt: number | null; registrationOpensAt: number | null; startTime: number } | undefined,
  level: number,
  now = Date.now(),
): void {
  if (!t || registrationOpen(t, level, now)) return;
  const opens = registrationOpensFor(t, level)!;
  throw new HttpError(403, "registration_not_open", FEATURED.registrationNotOpen(utcTime(opens), hasPriorityAccess(level)));
}

/** The registration block of a featured tournament for this viewer (null viewer: a visitor); null when not featured. */
export function registrationFor(
  t: TermsRow,
  viewer: { level: number } | null,
  reminderSet: boolean,
  now: number,
): FeaturedRegistration | null {
  const all = registrationOpensForAll(t);
  if (all === null || t.featuredAt === null) return null;
  const level = viewer?.level ?? 1;
  const mine = viewer ? registrationOpensFor(t, level)! : all;
  return {
    announcedAt: iso(t.featuredAt),
    opensAt: iso(all),
    opensForYouAt: iso(mine),
    priority: viewer !== null && hasPriorityAccess(level),
    open: now >= mine,
    reminderSet,
  };
}

/** The tournaments among `ids` the user asked to be reminded of. */
export async function remindersOf(db: Db, userId: number | undefined, ids: number[]): Promise<Set<number>> {
  if (!userId || ids.length === 0) return new Set();
  const rows = await db
    .select({ id: tournamentReminders.tournamentId })
    .from(tournamentReminders)
    .where(eq(tournamentReminders.userId, userId))
    .all();
  const wanted = new Set(ids);
  return new Set(rows.map((r) => r.id).filter((id) => wanted.has(id)));
}

export const hasReminder = async (db: Db, userId: number, tournamentId: number) =>
  (await db
    .select({ id: tournamentReminders.tournamentId })
    .from(tournamentReminders)
    .where(and(eq(tournamentReminders.userId, userId), eq(tournamentReminders.tournamentId, tournamentId)))
    .get()) !== undefined;

/**
 * Checks featuring: a week's notice from the announcement (`announcedAt`: now, or when it was
 * first featured), and a registration time with a real priority day after `now`. Throws the
 * operator's refusal; returns everyone's registration time to store (null: the default).
 */
export function checkFeaturing(
  startTime: number,
  registrationOpensAt: number | undefined,
  announcedAt: number,
  now: number,
): number | null {
  if (featureRefusal(startTime, announcedAt)) throw badRequest(ADMIN_TOURNAMENTS.featureTooSoon(utcTime(startTime)), "featured_too_soon");
  // The default (72 h before the start) always leaves its priority day after a week's notice.
  if (registrationOpensAt === undefined) return null;
  const refusal = registrationTimeRefusal(registrationOpensAt, startTime, now);
  if (refusal === "after_start") throw badRequest(ADMIN_TOURNAMENTS.registrationAfterStart, "registration_time_invalid");
  if (refusal === "too_early") throw badRequest(ADMIN_TOURNAMENTS.registrationTooEarly, "registration_time_invalid");
  return registrationOpensAt;
}

/**
 * Features (or unfeatures) an upcoming tournament with its audit row, in one batch. The UPDATE
 * holds only while the tournament is upcoming and (featuring) starts a week or more after its
 * announcement, so a change that did not happen leaves no audit row. Featuring again keeps the
 * first announcement: the week's notice counts from when players were told.
 */
export async function setFeatured(
  d1: D1Database,
  actorId: number,
  tournamentId: number,
  change: { featured: true; registrationOpensAt: number | null; now: number } | { featured: false; now: number },
  before: TermsRow,
): Promise<boolean> {
  const after = change.featured
    ? { featuredAt: before.featuredAt ?? change.now, registrationOpensAt: change.registrationOpensAt }
    : { featuredAt: null, registrationOpensAt: null };
  const update = change.featured
    ? d1
        .prepare(
          `UPDATE tournaments SET featured_at = coalesce(featured_at, ?1), registration_opens_at = ?2
           WHERE id = ?3 AND status = 'upcoming' AND invite_code IS NULL AND start_time - coalesce(featured_at, ?1) >= ?4`,
        )
        .bind(change.now, after.registrationOpensAt, tournamentId, FEATURED_MIN_NOTICE_MS)
    : d1
        .prepare("UPDATE tournaments SET featured_at = NULL, registration_opens_at = NULL WHERE id = ? AND status = 'upcoming'")
        .bind(tournamentId);
  const [updated] = await d1.batch([
    update,
    d1
      .prepare(
        `INSERT INTO audit_log (actor_user_id, action, target_type, target_id, before, after)
         SELECT ?, ?, 'tournament', ?, ?, ? WHERE changes() > 0`,
      )
      .bind(
        actorId,
        change.featured ? "tournament.feature" : "tournament.unfeature",
        String(tournamentId),
        JSON.stringify({ featuredAt: before.featuredAt, registrationOpensAt: before.registrationOpensAt }),
        JSON.stringify(after),
      ),
  ]);
  return (updated?.meta.changes ?? 0) > 0;
}
