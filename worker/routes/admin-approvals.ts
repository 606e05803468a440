// The two-person rule's queue: what waits for a second operator, and approving or rejecting it.
import { Hono } from "hono";
import { approvalListQuerySchema, approveSchema, rejectSchema } from "../../common/api/console";
import { approve, listApprovals, reject } from "../admin/approval-decisions";
import { currentUser, requireAdmin, requireUser } from "../http/middleware";
import { idParam, validate } from "../http/validate";
import type { AppEnv } from "../http/app-env";

export const adminApprovalRoutes = new Hono<AppEnv>()
  .use(requireUser, requireAdmin)
  .get("/", validate("query", approvalListQuerySchema), async (c) => {
    return c.json(await listApprovals(c.env.DB, currentUser(c).id, c.req.valid("query").status));
  })
  .post("/:id/approve", idParam, validate("json", approveSchema), async (c) => {
    const note = c.req.valid("json").note || null;
    return c.json(await approve(c.env, c.get("db"), c.req.valid("param").id, currentUser(c).id, note));
  })
  .post("/:id/reject", idParam, validate("json", rejectSchema), async (c) => {
    return c.json(await reject(c.env.DB, c.req.valid("param").id, currentUser(c).id, c.req.valid("json").note));
  });
