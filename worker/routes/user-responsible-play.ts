// Responsible play under /api/user/responsible-play: the player's limits, cool-off and
// self-exclusion (docs/responsible-play.md). The checks that enforce them: worker/responsible-play/checks.ts.
import { Hono } from "hono";
import { coolOffSchema, selfExclusionSchema, limitsUpdateSchema, type ResponsiblePlayState } from "../../common/api/responsible-play";
import { RESPONSIBLE } from "../../common/messages";
import { COOL_OFF_PERIODS_MS } from "../../common/spec";
import {
  activeExclusion,
  changeLimit,
  LIMIT_KINDS,
  selfExclusionEnd,
  type Exclusion,
  type LimitKind,
  type LimitState,
} from "../../common/domain/responsible-play";
import type { Db } from "../db/client";
import { exclusions } from "../db/schema";
import { verifyPassword } from "../auth/password";
import { hit, SENSITIVE_LIMIT, sensitiveKey } from "../http/rate-limit";
import { badRequest, conflict } from "../http/errors";
import { currentUser, requireUser } from "../http/middleware";
import { validate } from "../http/validate";
import type { AppEnv } from "../http/app-env";
import { loadExclusions, loadLimits, saveLimits } from "../responsible-play/state";
import { responsiblePlayState } from "../responsible-play/view";
import { settleIntoBreak } from "../responsible-play/break";
import { excludeLinkedAccounts } from "../identity/linked";

/**
 * Starts a cool-off or self-exclusion. It must outlast the one in force (a shorter one would
 * change nothing). The player's open checkouts are cancelled. The player's entries in tournaments that have not started are left, with
 * their fees refunded, so nothing draws them back to play during the break; a tournament
 * already under way is theirs to finish.
 */
async function startExclusion(
  c: { env: Env; get(key: "db"): Db; url: string },
  userId: number,
  kind: Exclusion["kind"],
  endsAt: number | null,
  now: number,
): Promise<void> {
  const db = c.get("db");
  const current = activeExclusion(await loadExclusions(db, userId), now);
  const outlasts = current !== null && (current.endsAt === null || (endsAt !== null && endsAt <= current.endsAt));
  if (outlasts) throw conflict(RESPONSIBLE.exclusionActive(current.endsAt), "exclusion_active");
  await db.insert(exclusions).values({ userId, kind, startsAt: now, endsAt });
  await settleIntoBreak(c, userId);
  // Self-exclusion follows the person: the other accounts verified as them are excluded too.
  if (kind === "self_exclusion") await excludeLinkedAccounts(c, userId, endsAt, now);
}

export const userResponsiblePlayRoutes = new Hono<AppEnv>()
  .use(requireUser)
  .get("/", async (c) => c.json(await responsiblePlayState(c.get("db"), currentUser(c), Date.now())))
  .put("/limits", validate("json", limitsUpdateSchema), async (c) => {
    const db = c.get("db");
    const me = currentUser(c);
    const body = c.req.valid("json");
    const now = Date.now();
    const current = await loadLimits(db, me.id, now);
    const changed = LIMIT_KINDS.filter((k) => body[k] !== undefined).map((k): [LimitKind, LimitState] => [
      k,
      changeLimit(current.get(k)!, body[k] ?? null, now),
    ]);
    await saveLimits(db, me.id, changed, now);
    return c.json({ ...(await responsiblePlayState(db, me, now)), message: RESPONSIBLE.limitsSaved } satisfies ResponsiblePlayState);
  })
  .post("/cool-off", validate("json", coolOffSchema), async (c) => {
    const db = c.get("db");
    const me = currentUser(c);
    const body = c.req.valid("json");
    await hit(db, sensitiveKey(me.id), SENSITIVE_LIMIT);
    if (!(await verifyPassword(body.password, me.passwordHash))) throw badRequest(RESPONSIBLE.passwordWrong, "wrong_password");
    const now = Date.now();
    const endsAt = now + COOL_OFF_PERIODS_MS[body.period];
    await startExclusion({ env: c.env, get: () => db, url: c.req.url }, me.id, "cool_off", endsAt, now);
    return c.json({
      ...(await responsiblePlayState(db, me, now)),
      message: RESPONSIBLE.coolOffStarted(endsAt),
    } satisfies ResponsiblePlayState);
  })
  .post("/self-exclusion", validate("json", selfExclusionSchema), async (c) => {
    const db = c.get("db");
    const me = currentUser(c);
    const body = c.req.valid("json");
    await hit(db, sensitiveKey(me.id), SENSITIVE_LIMIT);
    if (!(await verifyPassword(body.password, me.passwordHash))) throw badRequest(RESPONSIBLE.passwordWrong, "wrong_password");
    const now = Date.now();
    const endsAt = selfExclusionEnd(body.period, now);
    await startExclusion({ env: c.env, get: () => db, url: c.req.url }, me.id, "self_exclusion", endsAt, now);
    return c.json({
      ...(await responsiblePlayState(db, me, now)),
      message: RESPONSIBLE.selfExclusionStarted(endsAt),
    } satisfies ResponsiblePlayState);
  });
