// GET /api/user/terms: the legal documents in force and which the player has yet to accept.
// POST /api/user/terms/accept: accepts them, only with the versions in force (a page read before a
// new version came out is refused, 409 terms_version_stale). docs/player-data.md.
import { Hono } from "hono";
import { termsAcceptSchema, type TermsStatus } from "../../common/api/legal";
import { staleDocuments } from "../../common/domain/legal";
import { CURRENT_LEGAL_VERSIONS, LEGAL_DOCUMENTS } from "../../common/legal/documents";
import { LEGAL_CATALOG } from "../../common/legal/legal-catalog";
import { LEGAL } from "../../common/legal-messages";
import { conflict } from "../http/errors";
import { currentUser, requireUser } from "../http/middleware";
import { validate } from "../http/validate";
import type { AppEnv } from "../http/app-env";
import { acceptanceStatement, outstandingFor } from "../legal/terms";

const current = () =>
  LEGAL_CATALOG.map((d) => ({ ...d, version: LEGAL_DOCUMENTS[d.id].version, effectiveDate: LEGAL_DOCUMENTS[d.id].effectiveDate }));

export const userTermsRoutes = new Hono<AppEnv>()
  .use(requireUser)
  .get("/", async (c) =>
    c.json({ current: current(), outstanding: await outstandingFor(c.get("db"), currentUser(c).id) } satisfies TermsStatus),
  )
  .post("/accept", validate("json", termsAcceptSchema), async (c) => {
    if (staleDocuments(CURRENT_LEGAL_VERSIONS, c.req.valid("json").versions).length > 0) throw conflict(LEGAL.stale, "terms_version_stale");
    const db = c.get("db");
    const me = currentUser(c);
    await acceptanceStatement(c, db, me.id, CURRENT_LEGAL_VERSIONS);
    return c.json({ current: current(), outstanding: await outstandingFor(db, me.id) } satisfies TermsStatus);
  });
