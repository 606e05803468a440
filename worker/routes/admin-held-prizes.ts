// The operators' fair-play review of held prizes: the queue, and release or forfeit of each.
import { Hono } from "hono";
import { forfeitPrizeSchema, heldPrizeListQuerySchema } from "../../common/api/admin";
import { listHeldPrizes, reviewPrize, type Review } from "../money/held-prizes";
import { pushStoredNotification } from "../durable/hub-client";
import { currentUser, requireAdmin, requireUser } from "../http/middleware";
import { idParam, noFields, validate } from "../http/validate";
import type { AppEnv } from "../http/app-env";
import type { Db } from "../db/client";

/** The move, the player's stored notification and the audit row are one batch; the live push follows it. */
async function review(env: Env, db: Db, id: number, r: Review, actorUserId: number) {
  const { prize, frame } = await reviewPrize(env.DB, db, id, r, actorUserId);
  await pushStoredNotification(env, prize.userId, frame);
  return prize;
}

export const adminHeldPrizeRoutes = new Hono<AppEnv>()
  .use(requireUser, requireAdmin)
  .get("/", validate("query", heldPrizeListQuerySchema), async (c) => {
    return c.json(await listHeldPrizes(c.get("db"), c.req.valid("query").status));
  })
  .post("/:id/release", idParam, noFields, async (c) => {
    return c.json(await review(c.env, c.get("db"), c.req.valid("param").id, { outcome: "release" }, currentUser(c).id));
  })
  .post("/:id/forfeit", idParam, validate("json", forfeitPrizeSchema), async (c) => {
    const { reason } = c.req.valid("json");
    return c.json(await review(c.env, c.get("db"), c.req.valid("param").id, { outcome: "forfeit", reason }, currentUser(c).id));
  });
