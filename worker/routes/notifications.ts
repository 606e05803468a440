// Stored notifications (the bar's real unread count) and the /ws socket that pushes new ones.
import { Hono } from "hono";
import { and, count, desc, eq, inArray } from "drizzle-orm";
import { notificationActions, notificationsReadSchema, type NotificationItem, type NotificationList } from "../../common/api/tournaments";
import { NOTIFICATIONS_PAGE_SIZE } from "../../common/spec";
import type { Db } from "../db/client";
import { createDb } from "../db/client";
import { notifications } from "../db/schema";
import { iso } from "../db/present";
import { readSession } from "../auth/session";
import { hubFor, USER_ID_HEADER } from "../durable/hub-client";
import { unauthorized } from "../http/errors";
import { currentUser, requireUser } from "../http/middleware";
import { assertSameOriginSocket, assertSocketUpgrade } from "../http/sockets";
import { jsonBody } from "../http/validate";
import type { AppEnv } from "../http/app-env";

const unreadCount = async (db: Db, userId: number) =>
  (await db.select({ n: count() }).from(notifications).where(and(eq(notifications.userId, userId), eq(notifications.read, false))).get())?.n ?? 0;

export const notificationRoutes = new Hono<AppEnv>()
  .use(requireUser)
  .get("/", async (c) => {
    const db = c.get("db");
    const me = currentUser(c);
    const [rows, unread] = await Promise.all([
      db
        .select()
        .from(notifications)
        .where(eq(notifications.userId, me.id))
        .orderBy(desc(notifications.createdAt), desc(notifications.id))
        .limit(NOTIFICATIONS_PAGE_SIZE)
        .all(),
      unreadCount(db, me.id),
    ]);
    const items: NotificationItem[] = rows.map((n) => ({
      id: n.id,
      message: n.message,
      data: { action: notificationActions.find((a) => a === n.action) ?? null, tournamentId: n.tournamentId, status: n.status },
      read: n.read,
      createdAt: iso(n.createdAt),
    }));
    const list: NotificationList = { unread, items };
    return c.json(list);
  })
  .post("/read", async (c) => {
    const db = c.get("db");
    const me = currentUser(c);
    const { ids } = await jsonBody(c, notificationsReadSchema);
    const mine = eq(notifications.userId, me.id);
    await db
      .update(notifications)
      .set({ read: true })
      .where(ids === undefined ? mine : and(mine, inArray(notifications.id, ids.length > 0 ? ids : [0])));
    return c.json({ unread: await unreadCount(db, me.id) });
  });

/** GET /ws: the notification socket, authenticated by the session cookie before it reaches the hub. */
export const notificationSocketRoutes = new Hono<AppEnv>().get("/ws", async (c) => {
  assertSocketUpgrade(c);
  const user = await readSession(c, createDb(c.env.DB));
  if (!user) throw unauthorized();
  assertSameOriginSocket(c);
  const headers = new Headers({ upgrade: "websocket", [USER_ID_HEADER]: String(user.id) });
  return hubFor(c.env, user.id).fetch(new Request(c.req.url, { headers }));
});
