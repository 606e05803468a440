// WebSocket upgrades are GET requests, so the CSRF middleware does not see them: a page on any
// site could open one with the player's cookie. Upgrades are accepted only from our own origin.
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "./app-env";
import { forbidden, HttpError, unauthorized } from "./errors";

/** Guards a socket route, in this order: a WebSocket upgrade (426), a signed-in user (401), our own origin (403). */
export const socketUpgrade = createMiddleware<AppEnv>(async (c, next) => {
  if (c.req.header("upgrade")?.toLowerCase() !== "websocket") throw new HttpError(426, "upgrade_required", "Expected a WebSocket upgrade");
  if (!c.get("user")) throw unauthorized();
  if (c.req.header("origin") !== new URL(c.req.url).origin) throw forbidden("Cross-origin socket refused", "cross_origin");
  return next();
});
