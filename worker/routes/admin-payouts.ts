// The operators' payout queue: list the payouts, mark one paid or failed.
import { Hono } from "hono";
import { asc, desc, eq } from "drizzle-orm";
import { payoutFailSchema, payoutListQuerySchema } from "../../common/api/money";
import { MONEY } from "../../common/messages";
import { payouts, users } from "../db/schema";
import { conflict, notFound } from "../http/errors";
import { requireAdmin, requireUser } from "../http/middleware";
import { idParam, validate } from "../http/validate";
import type { AppEnv } from "../http/app-env";
import type { Db } from "../db/client";
import { payoutFailedFrame, presentAdminPayout, settlePayout } from "../money/payouts";
import { pushStoredNotification } from "../durable/hub-client";

const LIST_LIMIT = 500;

async function loadPayout(db: Db, id: number) {
  const row = await db
    .select({ payout: payouts, username: users.username })
    .from(payouts)
    .innerJoin(users, eq(users.id, payouts.userId))
    .where(eq(payouts.id, id))
    .get();
  if (!row) throw notFound(MONEY.payoutNotFound, "payout_not_found");
  return row;
}

/**
 * Settles a payout, idempotently: asking for the state it is already in answers 200; the other
 * final state is a 409. The call that fails a payout pushes the player's notification (already
 * stored with the move) to their open /ws sockets.
 */
async function settle(env: Env, db: Db, id: number, outcome: "paid" | "failed", reason: string | null) {
  const before = await loadPayout(db, id);
  const moved = await settlePayout(env.DB, before.payout, outcome, reason);
  const after = await loadPayout(db, id);
  if (after.payout.status !== outcome) throw conflict(MONEY.payoutAlready(after.payout.status), "payout_already_settled");
  if (moved && outcome === "failed") await pushStoredNotification(env, after.payout.userId, payoutFailedFrame(after.payout, reason ?? ""));
  return presentAdminPayout(after.payout, after.username);
}

export const adminPayoutRoutes = new Hono<AppEnv>()
  .use(requireUser, requireAdmin)
  .get("/", validate("query", payoutListQuerySchema), async (c) => {
    const { status } = c.req.valid("query");
    const rows = await c
      .get("db")
      .select({ payout: payouts, username: users.username })
      .from(payouts)
      .innerJoin(users, eq(users.id, payouts.userId))
      .where(status ? eq(payouts.status, status) : undefined)
      // The pending queue is worked oldest first; history reads newest first.
      .orderBy(...(status === "pending" ? [asc(payouts.createdAt), asc(payouts.id)] : [desc(payouts.createdAt), desc(payouts.id)]))
      .limit(LIST_LIMIT)
      .all();
    return c.json(rows.map((r) => presentAdminPayout(r.payout, r.username)));
  })
  .post("/:id/paid", idParam, async (c) => {
    return c.json(await settle(c.env, c.get("db"), c.req.valid("param").id, "paid", null));
  })
  .post("/:id/failed", idParam, validate("json", payoutFailSchema), async (c) => {
    return c.json(await settle(c.env, c.get("db"), c.req.valid("param").id, "failed", c.req.valid("json").reason));
  });
