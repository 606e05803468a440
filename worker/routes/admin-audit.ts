// The audit log: every operator action, newest first, with filters.
import { Hono } from "hono";
import { auditListQuerySchema } from "../../common/api/console";
import { listAudit } from "../admin/audit-log";
import { requireAdmin, requireUser } from "../http/middleware";
import { validate } from "../http/validate";
import type { AppEnv } from "../http/app-env";

export const adminAuditRoutes = new Hono<AppEnv>()
  .use(requireUser, requireAdmin)
  .get("/", validate("query", auditListQuerySchema), async (c) => c.json(await listAudit(c.env.DB, c.req.valid("query"))));
