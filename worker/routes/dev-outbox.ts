// GET /api/dev/outbox: the mail a local server kept instead of sending (no provider configured).
// It exists only for a request to a loopback host on a server without a provider key; anywhere
// else it is an unknown route, since the mails hold live reset and verification links.
import { Hono } from "hono";
import { isLocalhost } from "../auth/session";
import { emailProviderConfigured } from "../email/mailer";
import { listOutbox } from "../email/outbox";
import { notFound } from "../http/errors";
import type { AppEnv } from "../http/app-env";

export const devOutboxRoutes = new Hono<AppEnv>().get("/", async (c) => {
  if (!isLocalhost(c.req.url) || emailProviderConfigured(c.env)) throw notFound();
  return c.json(await listOutbox(c.get("db")));
});
