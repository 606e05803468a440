// GET /ws: the notification socket, authenticated by the session cookie before it reaches the hub.
import { Hono } from "hono";
import { hubFor, USER_ID_HEADER } from "../durable/hub-client";
import { currentUser, loadSession } from "../http/middleware";
import { socketUpgrade } from "../http/sockets";
import type { AppEnv } from "../http/app-env";

export const wsRoutes = new Hono<AppEnv>().get("/", loadSession, socketUpgrade, async (c) => {
  const user = currentUser(c);
  const headers = new Headers({ upgrade: "websocket", [USER_ID_HEADER]: String(user.id) });
  return hubFor(c.env, user.id).fetch(new Request(c.req.url, { headers }));
});
