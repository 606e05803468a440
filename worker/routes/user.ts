// The signed-in user's account: profile, password, ledger.
import { Hono } from "hono";
import { desc, eq, sql } from "drizzle-orm";
import type { SQLiteUpdateSetSource } from "drizzle-orm/sqlite-core";
import { passwordChangeSchema, profileUpdateSchema } from "../../common/api/accounts";
import { AUTH } from "../../common/messages";
import { transactions, users } from "../db/schema";
import { parseJsonObject, presentTransaction, presentUser } from "../db/present";
import { endOtherSessions } from "../auth/session";
import { hashPassword, scryptParamsFromEnv, verifyPassword } from "../auth/password";
import { badRequest, isUniqueViolation } from "../http/errors";
import { currentUser, requireUser } from "../http/middleware";
import { jsonBody } from "../http/validate";
import type { AppEnv } from "../http/app-env";
import { assertUnique } from "./auth";

export const userRoutes = new Hono<AppEnv>()
  .get("/", async (c) => {
    const me = currentUser(c);
    const row = await c.get("db").select({ avatar: users.avatar }).from(users).where(eq(users.id, me.id)).get();
    return c.json(presentUser({ ...me, avatar: row?.avatar ?? null }));
  })
  .use(requireUser)
  .patch("/profile", async (c) => {
    const db = c.get("db");
    const me = currentUser(c);
    const body = await jsonBody(c, profileUpdateSchema);
    await assertUnique(db, body.username, body.email, me.id);
    const changes: SQLiteUpdateSetSource<typeof users> = { username: body.username, email: body.email };
    // Fields left out of the body stay as they are (the dashboard form sends only username and email).
    if (body.bio !== undefined) changes.bio = body.bio || null;
    if (body.location !== undefined) changes.location = body.location || null;
    if (body.avatar !== undefined) {
      changes.avatar = body.avatar;
      // A changed picture gets a new version, so its URL changes and no cache keeps the old one.
      changes.avatarVersion = sql`CASE WHEN ${users.avatar} IS ${body.avatar} THEN ${users.avatarVersion} ELSE ${users.avatarVersion} + 1 END`;
    }
    if (body.country !== undefined) changes.country = body.country;
    if (body.socialLinks !== undefined) changes.socialLinks = body.socialLinks ? JSON.stringify(body.socialLinks) : null;
    if (body.preferences) {
      changes.preferences = JSON.stringify({ ...parseJsonObject(me.preferences), ...body.preferences });
    }
    try {
      const updated = await db.update(users).set(changes).where(eq(users.id, me.id)).returning().get();
      return c.json(presentUser(updated));
    } catch (e) {
      if (isUniqueViolation(e)) await assertUnique(db, body.username, body.email, me.id);
      throw e;
    }
  })
  .patch("/password", async (c) => {
    const db = c.get("db");
    const me = currentUser(c);
    const body = await jsonBody(c, passwordChangeSchema);
    if (!(await verifyPassword(body.currentPassword, me.passwordHash))) throw badRequest(AUTH.currentPasswordWrong);
    const passwordHash = await hashPassword(body.newPassword, scryptParamsFromEnv(c.env));
    await db.update(users).set({ passwordHash }).where(eq(users.id, me.id));
    // Anyone else holding a session (a stolen cookie, another device) is signed out.
    await endOtherSessions(c, db, me.id);
    return c.json({ message: "Password updated" });
  })
  .get("/transactions", async (c) => {
    const rows = await c
      .get("db")
      .select()
      .from(transactions)
      .where(eq(transactions.userId, currentUser(c).id))
      .orderBy(desc(transactions.createdAt), desc(transactions.id))
      .all();
    return c.json(rows.map(presentTransaction));
  });
