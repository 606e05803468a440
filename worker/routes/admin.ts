// The operators' API (users.role = 'admin', granted with `npm run admin:grant`): the payout queue.
import { Hono } from "hono";
import { createMiddleware } from "hono/factory";
import { asc, desc, eq } from "drizzle-orm";
import { payoutFailSchema, payoutListQuerySchema } from "../../common/api/money";
import { MONEY } from "../../common/messages";
import { payouts, users } from "../db/schema";
import { conflict, describeError, forbidden, notFound } from "../http/errors";
import { currentUser, requireUser } from "../http/middleware";
import { idParam, jsonBody, parse } from "../http/validate";
import type { AppEnv } from "../http/app-env";
import type { Db } from "../db/client";
import { payoutFailedFrame, presentAdminPayout, settlePayout } from "../money/payouts";
import { pushNotification } from "../durable/hub-client";
import type { NotificationFrame } from "../../common/api/tournaments";

const LIST_LIMIT = 500;

/** Guards the operators' routes: 403 for a signed-in player (behind requireUser). */
export const requireAdmin = createMiddleware<AppEnv>(async (c, next) => {
  if (currentUser(c).role !== "admin") throw forbidden();
  return next();
});

async function loadPayout(db: Db, id: number) {
  const row = await db.select({ payout: payouts, username: users.username }).from(payouts).innerJoin(users, eq(users.id, payouts.userId)).where(eq(payouts.id, id)).get();
  if (!row) throw notFound(MONEY.payoutNotFound);
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
  if (after.payout.status !== outcome) throw conflict(MONEY.payoutAlready(after.payout.status));
  if (moved && outcome === "failed") await pushQuietly(env, after.payout.userId, payoutFailedFrame(after.payout, reason ?? ""));
  return presentAdminPayout(after.payout, after.username);
}

/** The notification row is already stored, so a push that fails loses nothing: the list still shows it. */
async function pushQuietly(env: Env, userId: number, frame: NotificationFrame) {
  try {
    await pushNotification(env, [userId], frame);
  } catch (e) {
    console.error("notification push failed", describeError(e));
  }
}

export const adminRoutes = new Hono<AppEnv>()
  .use(requireUser, requireAdmin)
  .get("/payouts", async (c) => {
    const { status } = parse(payoutListQuerySchema, c.req.query());
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
  .post("/payouts/:id/paid", async (c) => {
    return c.json(await settle(c.env, c.get("db"), idParam(c), "paid", null));
  })
  .post("/payouts/:id/failed", async (c) => {
    const { reason } = await jsonBody(c, payoutFailSchema);
    return c.json(await settle(c.env, c.get("db"), idParam(c), "failed", reason));
  });
