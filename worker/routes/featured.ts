// Featured events for players (docs/featured-events.md): the coming ones home and the tournaments
// page show, and "Remind me" (set and unset, each any number of times with the same result).
// Mounted under /api/tournaments before the tournaments' own routes, so /featured is not an id.
import { Hono } from "hono";
import { and, asc, eq, gt, isNotNull, lte, sql } from "drizzle-orm";
import type { FeaturedEvent, ReminderState } from "../../common/api/featured";
import { FEATURED, PLAY } from "../../common/messages";
import { FEATURED_LIST_HORIZON_MS, FEATURED_MIN_NOTICE_MS } from "../../common/spec";
import { categories, tournamentReminders, tournaments } from "../db/schema";
import { presentTournament } from "../db/present-tournament";
import { conflict, notFound } from "../http/errors";
import { currentUser, requireUser } from "../http/middleware";
import { idParam, noFields } from "../http/validate";
import { registrationFor, remindersOf } from "../tournaments/featured";
import type { Db } from "../db/client";
import type { AppEnv } from "../http/app-env";

/** At most this many on a page: a handful of special events, not a second list. */
const FEATURED_LIST_MAX = 12;

/** The tournament a reminder is for: it must exist (404), be featured (409) and not have started (409). */
async function remindable(db: Db, id: number, now: number) {
  const t = await db
    .select({ featuredAt: tournaments.featuredAt, status: tournaments.status, startTime: tournaments.startTime, kind: tournaments.kind })
    .from(tournaments)
    .where(eq(tournaments.id, id))
    .get();
  if (!t || t.kind !== "standard") throw notFound(PLAY.notFound, "tournament_not_found");
  if (t.featuredAt === null) throw conflict(FEATURED.notFeatured, "tournament_not_featured");
  if (t.status !== "upcoming" || t.startTime <= now) throw conflict(FEATURED.closed, "reminder_closed");
}

export const featuredRoutes = new Hono<AppEnv>()
  .get("/featured", async (c) => {
    const db = c.get("db");
    const user = c.get("user");
    const now = Date.now();
    const rows = await db
      .select({ t: tournaments, categoryName: categories.name })
      .from(tournaments)
      .innerJoin(categories, eq(categories.id, tournaments.categoryId))
      .where(
        and(
          isNotNull(tournaments.featuredAt),
          eq(tournaments.status, "upcoming"),
          eq(tournaments.kind, "standard"),
          gt(tournaments.startTime, now),
          lte(tournaments.startTime, now + FEATURED_LIST_HORIZON_MS),
          // Only what was announced a week or more before its start is shown as announced.
          sql`${tournaments.startTime} - ${tournaments.featuredAt} >= ${FEATURED_MIN_NOTICE_MS}`,
        ),
      )
      .orderBy(asc(tournaments.startTime), asc(tournaments.id))
      .limit(FEATURED_LIST_MAX)
      .all();
    const reminded = await remindersOf(
      db,
      user?.id,
      rows.map((r) => r.t.id),
    );
    const items: FeaturedEvent[] = rows.map(({ t, categoryName }) => ({
      ...presentTournament(t, categoryName),
      registration: registrationFor(t, user, reminded.has(t.id), now)!,
    }));
    return c.json(items);
  })
  .post("/:id/reminder", requireUser, idParam, noFields, async (c) => {
    const { id } = c.req.valid("param");
    const db = c.get("db");
    await remindable(db, id, Date.now());
    await db
      .insert(tournamentReminders)
      .values({ userId: currentUser(c).id, tournamentId: id })
      .onConflictDoNothing();
    return c.json({ tournamentId: id, reminderSet: true } satisfies ReminderState);
  })
  .delete("/:id/reminder", requireUser, idParam, async (c) => {
    const { id } = c.req.valid("param");
    const db = c.get("db");
    const exists = await db.select({ id: tournaments.id }).from(tournaments).where(eq(tournaments.id, id)).get();
    if (!exists) throw notFound(PLAY.notFound, "tournament_not_found");
    await db
      .delete(tournamentReminders)
      .where(and(eq(tournamentReminders.userId, currentUser(c).id), eq(tournamentReminders.tournamentId, id)));
    return c.json({ tournamentId: id, reminderSet: false } satisfies ReminderState);
  });
