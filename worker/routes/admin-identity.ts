// /api/admin/identity: operators' view of identity verification (docs/identity-and-tax.md): a
// player's state, provider reference and result, linked accounts and refused holder names; "ask
// to verify again" (step-up like every operator write, audited in the same batch); and the
// linked accounts of every person for the fair-play screen.
import { Hono } from "hono";
import { eq } from "drizzle-orm";
import { reverifySchema, type LinkedAccountGroup } from "../../common/api/identity";
import { IDENTITY_CONSOLE } from "../../common/console-messages";
import { PLAYER } from "../../common/messages";
import { auditStatement } from "../admin/audit";
import { iso } from "../db/present";
import { users } from "../db/schema";
import { conflict, notFound } from "../http/errors";
import { currentUser, requireAdmin, requireUser } from "../http/middleware";
import { idParam, validate } from "../http/validate";
import type { AppEnv } from "../http/app-env";
import { loadVerification } from "../identity/store";
import { adminIdentityView } from "../identity/view";

async function loadPlayer(c: { get(key: "db"): AppEnv["Variables"]["db"] }, id: number) {
  const user = await c
    .get("db")
    .select({ id: users.id, identityDuplicateOf: users.identityDuplicateOf })
    .from(users)
    .where(eq(users.id, id))
    .get();
  if (!user) throw notFound(PLAYER.notFound, "player_not_found");
  return user;
}

export const adminIdentityRoutes = new Hono<AppEnv>()
  .use(requireUser, requireAdmin)
  .get("/users/:id", idParam, async (c) => {
    const user = await loadPlayer(c, c.req.valid("param").id);
    return c.json(await adminIdentityView(c.env, c.get("db"), user));
  })
  .post("/users/:id/reverify", idParam, validate("json", reverifySchema), async (c) => {
    const user = await loadPlayer(c, c.req.valid("param").id);
    const db = c.get("db");
    const row = await loadVerification(db, user.id);
    if (!row || (row.verifiedCount === 0 && row.status !== "refused")) throw conflict(IDENTITY_CONSOLE.nothingToVerify);
    if (row.reverifyRequestedAt !== null) throw conflict(IDENTITY_CONSOLE.alreadyAsked);
    const now = Date.now();
    const [update] = await c.env.DB.batch([
      c.env.DB.prepare(
        "UPDATE identity_verifications SET reverify_requested_at = ?1, updated_at = ?1 WHERE user_id = ?2 AND reverify_requested_at IS NULL",
      ).bind(now, user.id),
      auditStatement(c.env.DB, currentUser(c).id, {
        action: "user.identity_reverify",
        targetType: "user",
        targetId: user.id,
        before: { state: row.status, verifiedCount: row.verifiedCount },
        after: { verifyAgain: true },
        note: c.req.valid("json").note,
      }),
    ]);
    if ((update!.meta.changes ?? 0) === 0) throw conflict(IDENTITY_CONSOLE.alreadyAsked);
    return c.json({ ...(await adminIdentityView(c.env, db, user)), message: IDENTITY_CONSOLE.askedAgain });
  })
  .get("/linked-accounts", async (c) => {
    const { results } = await c.env.DB.prepare(
      `SELECT d.id, d.username, d.identity_duplicate_of AS first_id, f.username AS first_username, v.verified_at
       FROM users d JOIN users f ON f.id = d.identity_duplicate_of
       LEFT JOIN identity_verifications v ON v.user_id = d.id
       WHERE d.identity_duplicate_of IS NOT NULL ORDER BY d.identity_duplicate_of, d.id LIMIT 500`,
    ).all<{ id: number; username: string; first_id: number; first_username: string; verified_at: number | null }>();
    const groups = new Map<number, LinkedAccountGroup>();
    for (const r of results) {
      const g = groups.get(r.first_id) ?? { first: { id: r.first_id, username: r.first_username }, linked: [] };
      g.linked.push({ id: r.id, username: r.username, verifiedAt: r.verified_at === null ? null : iso(r.verified_at) });
      groups.set(r.first_id, g);
    }
    return c.json({ groups: [...groups.values()] });
  });
