// The console's first screen: the business at a glance and the reconciliation.
import { Hono } from "hono";
import { demoQuestionReuse } from "../questions/usage";
import { buildOverview } from "../admin/overview";
import { requireAdmin, requireUser } from "../http/middleware";
import type { AppEnv } from "../http/app-env";

export const adminOverviewRoutes = new Hono<AppEnv>()
  .use(requireUser, requireAdmin)
  .get("/", async (c) => c.json(await buildOverview(c.env.DB, Date.now(), demoQuestionReuse(c.env))));
