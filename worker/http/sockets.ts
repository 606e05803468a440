// WebSocket upgrades are GET requests, so the CSRF middleware does not see them: a page on any
// site could open one with the player's cookie. Upgrades are accepted only from our own origin.
import type { Context } from "hono";
import { forbidden, HttpError } from "./errors";

export function assertSocketUpgrade(c: Context): void {
  if (c.req.header("upgrade")?.toLowerCase() !== "websocket") throw new HttpError(426, "Expected a WebSocket upgrade");
}

export function assertSameOriginSocket(c: Context): void {
  if (c.req.header("origin") !== new URL(c.req.url).origin) throw forbidden("Cross-origin socket refused");
}
