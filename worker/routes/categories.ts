// Categories with a live count of their upcoming and live tournaments: real ones, not the
// category's always-open practice entry nor a player's own practice run.
import { Hono } from "hono";
import { and, asc, count, eq, inArray, isNull, notInArray, sql } from "drizzle-orm";
import { categories, tournaments } from "../db/schema";
import { presentCategory } from "../db/present-tournament";
import type { AppEnv } from "../http/app-env";

export const categoryRoutes = new Hono<AppEnv>().get("/", async (c) => {
  const db = c.get("db");
  // The practice entry is always live, a practice run is one player's own and a private (custom)
  // tournament its invitees': none makes a category active.
  const active = db
    .select({ categoryId: tournaments.categoryId, n: count().as("n") })
    .from(tournaments)
    .where(
      and(
        inArray(tournaments.status, ["upcoming", "live"]),
        notInArray(tournaments.kind, ["practice", "practice_run"]),
        isNull(tournaments.inviteCode),
      ),
    )
    .groupBy(tournaments.categoryId)
    .as("active");
  const rows = await db
    .select({ category: categories, active: sql<number>`coalesce(${active.n}, 0)` })
    .from(categories)
    .leftJoin(active, eq(active.categoryId, categories.id))
    .orderBy(asc(categories.id))
    .all();
  return c.json(rows.map((r) => presentCategory(r.category, r.active)));
});
