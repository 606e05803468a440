// Categories with a live count of their upcoming and live tournaments.
import { Hono } from "hono";
import { asc, sql } from "drizzle-orm";
import { categories } from "../db/schema";
import { presentCategory } from "../db/present-tournament";
import type { AppEnv } from "../http/app-env";

export const categoryRoutes = new Hono<AppEnv>().get("/", async (c) => {
  const rows = await c
    .get("db")
    .select({
      category: categories,
      // Written out: drizzle renders a column in a select list unqualified, which the subquery would read as t.id.
      active: sql<number>`(SELECT count(*) FROM tournaments t WHERE t.category_id = categories.id AND t.status IN ('upcoming', 'live') AND t.kind <> 'practice_run')`,
    })
    .from(categories)
    .orderBy(asc(categories.id))
    .all();
  return c.json(rows.map((r) => presentCategory(r.category, r.active)));
});
