// /api/identity: the player's identity verification (docs/identity-and-tax.md). GET the state,
// POST /session to start one with the provider; with the sandbox, POST /sandbox/complete is the
// local verification page's answer (loopback and SANDBOX_HOSTS only, like sandbox payments).
import { Hono } from "hono";
import { eq } from "drizzle-orm";
import { users } from "../db/schema";
import { createMiddleware } from "hono/factory";
import { sandboxIdentitySchema, type IdentitySessionStart } from "../../common/api/identity";
import { IDENTITY } from "../../common/messages";
import { HttpError, notFound } from "../http/errors";
import { hit } from "../http/rate-limit";
import { currentUser, requireUser } from "../http/middleware";
import { validate } from "../http/validate";
import type { AppEnv } from "../http/app-env";
import { activeProvider } from "../payments/index";
import { identityNotConfigured, identityProvider } from "../identity/index";
import { SandboxIdentityProvider } from "../identity/sandbox";
import { applyResult, assertCanStart, loadVerification, startVerification } from "../identity/store";
import { identityState } from "../identity/view";

/**
 * Verification sessions a player may open per hour: enough for a few tries at a blurry photo; each
 * one is a paid check at the provider, so a loop of requests must not open hundreds.
 */
const SESSIONS_PER_HOUR = 5;

/** The sandbox page answers only where the sandbox does; with Stripe it does not exist. */
const sandboxOnly = createMiddleware<AppEnv>(async (c, next) => {
  const provider = activeProvider(c.env, c.req.url);
  if (provider === "stripe") throw notFound();
  if (provider === null) throw identityNotConfigured();
  return next();
});

export const identityRoutes = new Hono<AppEnv>()
  .use(requireUser)
  .get("/", async (c) => c.json(await identityState(c.get("db"), currentUser(c))))
  .post("/session", async (c) => {
    const me = currentUser(c);
    const db = c.get("db");
    const row = await loadVerification(db, me.id);
    const provider = identityProvider(c.env, c.req.url);
    // Checked before the provider is asked, so a verified player opens no session there.
    assertCanStart(row);
    await hit(db, `identity-session:user:${me.id}`, { max: SESSIONS_PER_HOUR, windowMs: 60 * 60_000 }).catch((e: unknown) => {
      throw e instanceof HttpError && e.code === "rate_limited" ? new HttpError(429, "rate_limited", IDENTITY.tooManySessions) : e;
    });
    const start = await provider.createSession(me.id);
    await startVerification(db, me.id, start);
    return c.json(start satisfies IdentitySessionStart);
  })
  .post("/sandbox/complete", sandboxOnly, validate("json", sandboxIdentitySchema), async (c) => {
    const me = currentUser(c);
    const body = c.req.valid("json");
    const db = c.get("db");
    const row = await loadVerification(db, me.id);
    if (!row || row.provider !== "sandbox" || row.sessionId !== body.sessionId)
      throw notFound(IDENTITY.sessionNotFound, "identity_session_not_found");
    const outcome = await applyResult({ env: c.env, db, url: c.req.url }, SandboxIdentityProvider.result(me.id, body));
    if (outcome !== "applied") throw notFound(IDENTITY.sessionNotFound, "identity_session_not_found");
    // The duplicate mark may have just been set: read it again.
    const user = await db
      .select({ id: users.id, identityDuplicateOf: users.identityDuplicateOf })
      .from(users)
      .where(eq(users.id, me.id))
      .get();
    return c.json(await identityState(db, user ?? me));
  });
