// Stored notifications: the bar's list and its real unread count (the /ws socket pushes new ones).
import { Hono } from "hono";
import { and, count, desc, eq, inArray } from "drizzle-orm";
import { notificationActions, notificationsReadSchema, type NotificationItem, type NotificationList } from "../../common/api/tournaments";
import { NOTIFICATIONS_PAGE_SIZE } from "../../common/spec";
import type { Db } from "../db/client";
import { notifications } from "../db/schema";
import { iso } from "../db/present";
import { currentUser, requireUser } from "../http/middleware";
import { validate } from "../http/validate";
import type { AppEnv } from "../http/app-env";

const unreadCount = async (db: Db, userId: number) =>
  (
    await db
      .select({ n: count() })
      .from(notifications)
      .where(and(eq(notifications.userId, userId), eq(notifications.read, false)))
      .get()
  )?.n ?? 0;

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
    return c.json({ unread, items } satisfies NotificationList);
  })
  .post("/read", validate("json", notificationsReadSchema), async (c) => {
    const db = c.get("db");
    const me = currentUser(c);
    const { ids } = c.req.valid("json");
    const mine = eq(notifications.userId, me.id);
    await db
      .update(notifications)
      .set({ read: true })
      .where(ids === undefined ? mine : and(mine, inArray(notifications.id, ids.length > 0 ? ids : [0])));
    return c.json({ unread: await unreadCount(db, me.id) });
  });
