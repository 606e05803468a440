// GET /api/session: who is signed in, for the web app. 200 with the user, or with null for a
// visitor: a visitor is an answer, not a refusal, so a visitor's page logs no failed request.
// GET /api/user keeps answering 401 when signed out, for API clients.
import { Hono } from "hono";
import { eq } from "drizzle-orm";
import type { User } from "../../common/api/types";
import { users } from "../db/schema";
import type { Db } from "../db/client";
import { presentUser } from "../db/present";
import type { SessionUser } from "../auth/session";
import type { AppEnv } from "../http/app-env";

/** The signed-in user as the API presents them; the session's row leaves the picture out, so it is read here. */
export async function presentSignedIn(db: Db, me: SessionUser): Promise<User> {
  const row = await db.select({ avatar: users.avatar }).from(users).where(eq(users.id, me.id)).get();
  return presentUser({ ...me, avatar: row?.avatar ?? null });
}

export const sessionRoutes = new Hono<AppEnv>().get("/", async (c) => {
  const me = c.get("user");
  const user: User | null = me ? await presentSignedIn(c.get("db"), me) : null;
  return c.json({ user });
});
