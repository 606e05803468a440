// POST /api/admin/cheat-attempts/{id}/review: an operator marks a recorded cheat attempt reviewed
// with what came of it (a warning, a forfeit, nothing), once; the audit log keeps who and when.
import { Hono } from "hono";
import { eq } from "drizzle-orm";
import { cheatReviewSchema } from "../../common/api/console-players";
import { MODERATION } from "../../common/messages";
import { auditStatementIf } from "../admin/audit";
import { cheatAttemptRows, presentCheatAttempt } from "../fair-play/integrity";
import type { Db } from "../db/client";
import { cheatAttempts } from "../db/schema";
import { conflict, notFound } from "../http/errors";
import { currentUser, requireAdmin, requireUser } from "../http/middleware";
import { idParam, validate } from "../http/validate";
import type { AppEnv } from "../http/app-env";

async function loadAttempt(db: Db, id: number) {
  const row = await cheatAttemptRows(db, eq(cheatAttempts.id, id)).get();
  if (!row) throw notFound(MODERATION.cheatAttemptNotFound, "cheat_attempt_not_found");
  return row;
}

export const adminCheatAttemptRoutes = new Hono<AppEnv>()
  .use(requireUser, requireAdmin)
  .post("/:id/review", idParam, validate("json", cheatReviewSchema), async (c) => {
    const { id } = c.req.valid("param");
    const { resolution } = c.req.valid("json");
    const db = c.get("db");
    const d1 = c.env.DB;
    const before = await loadAttempt(db, id);
    if (before.reviewed) throw conflict(MODERATION.cheatAttemptReviewed, "cheat_attempt_reviewed");
    // Conditional on not yet reviewed, so of two racing reviews only the first is kept and audited.
    const [marked] = await d1.batch([
      d1.prepare("UPDATE cheat_attempts SET reviewed = 1, resolution = ? WHERE id = ? AND reviewed = 0").bind(resolution, id),
      auditStatementIf(
        d1,
        currentUser(c).id,
        {
          action: "cheat_attempt.review",
          targetType: "cheat_attempt",
          targetId: id,
          before: { reviewed: false, resolution: null },
          after: { reviewed: true, resolution },
        },
        "changes() > 0",
      ),
    ]);
    if ((marked?.meta.changes ?? 0) === 0) throw conflict(MODERATION.cheatAttemptReviewed, "cheat_attempt_reviewed");
    return c.json(presentCheatAttempt(await loadAttempt(db, id)));
  });
