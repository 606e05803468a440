// GET /api/health: liveness for the local runner and monitors.
import { Hono } from "hono";
import { categories } from "../db/schema";
import { createDb } from "../db/client";
import type { AppEnv } from "../http/app-env";

// Mounted before the session middleware, so it reaches D1 on its own: a broken binding or an
// unmigrated database shows here.
export const healthRoutes = new Hono<AppEnv>().get("/", async (c) => {
  await createDb(c.env.DB).select({ id: categories.id }).from(categories).limit(1);
  return c.json({ ok: true as const });
});
