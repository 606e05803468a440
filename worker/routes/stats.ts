// GET /api/stats: the home page's hero figures, counted from the system of record: prizes paid to
// players (completed prize rows of the ledger; held and forfeited ones are not paid) and
// tournaments completed (practice entries and runs are not tournaments). The page shows them as
// they are until they reach the spec's marketing claims (common/domain/hero-figures.ts). Every
// visitor's home page asks, so the answer is kept in the edge cache for HERO_FIGURES_CACHE_SECONDS.
import { Hono } from "hono";
import { and, count, eq, notInArray, sql } from "drizzle-orm";
import type { HeroFigureValues } from "../../common/domain/hero-figures";
import { HERO_FIGURES_CACHE_SECONDS } from "../../common/spec";
import { tournaments, transactions } from "../db/schema";
import type { AppEnv } from "../http/app-env";

export const statsRoutes = new Hono<AppEnv>().get("/", async (c) => {
  const key = new Request(new URL("/api/stats", c.req.url).toString());
  const cache = caches.default;
  const headers = { "Cache-Control": `public, max-age=${HERO_FIGURES_CACHE_SECONDS}` };
  const cached = await cache.match(key);
  if (cached) return c.json((await cached.json()) as HeroFigureValues, 200, headers);

  const db = c.get("db");
  const [paid, completed] = await db.batch([
    db
      .select({ cents: sql<number>`coalesce(sum(${transactions.amountCents}), 0)` })
      .from(transactions)
      .where(and(eq(transactions.type, "prize"), eq(transactions.status, "completed"))),
    db
      .select({ n: count() })
      .from(tournaments)
      .where(and(eq(tournaments.status, "completed"), notInArray(tournaments.kind, ["practice", "practice_run"]))),
  ]);
  const figures: HeroFigureValues = { paidToWinnersCents: paid[0]?.cents ?? 0, tournamentsCompleted: completed[0]?.n ?? 0 };
  c.executionCtx.waitUntil(cache.put(key, Response.json(figures, { headers })));
  return c.json(figures, 200, headers);
});
