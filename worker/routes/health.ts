// GET /api/health: liveness for the local runner and monitors.
import { Hono } from "hono";
import { categories } from "../db/schema";
import { createDb } from "../db/client";
import { insecureDeployment } from "../http/insecure-secrets";
import type { AppEnv } from "../http/app-env";

// Mounted before the session middleware, so it reaches D1 on its own: a broken binding or an
// unmigrated database shows here. A deployment with an example secret is unhealthy: the rest of
// the API refuses to serve it (worker/http/insecure-secrets.ts).
export const healthRoutes = new Hono<AppEnv>().get("/", async (c) => {
  if (insecureDeployment(c.env, c.req.url)) return c.json({ ok: false as const, insecureSecrets: true as const }, 503);
  await createDb(c.env.DB).select({ id: categories.id }).from(categories).limit(1);
  return c.json({ ok: true as const });
});
