// GET /api/legal/:doc: a legal document as in force, for its page (/terms, /rules, /privacy).
// Public. The void regions, minimum ages and support address are filled in from this deployment's
// settings as the page is asked for, so the text always says what the money doors enforce.
import { Hono } from "hono";
import { legalDocParamSchema, type LegalDocumentView } from "../../common/api/legal";
import { fillLegalText, legalValues } from "../../common/domain/legal";
import { LEGAL_DOCUMENTS } from "../../common/legal/documents";
import { validate } from "../http/validate";
import type { AppEnv } from "../http/app-env";

export const legalRoutes = new Hono<AppEnv>().get("/:doc", validate("param", legalDocParamSchema), (c) => {
  const d = LEGAL_DOCUMENTS[c.req.valid("param").doc];
  const values = legalValues({
    barredRegions: c.env.BARRED_REGIONS,
    regionMinAges: c.env.REGION_MIN_AGES,
    supportEmail: c.env.SUPPORT_EMAIL,
  });
  return c.json({
    id: d.id,
    title: d.title,
    version: d.version,
    effectiveDate: d.effectiveDate,
    text: fillLegalText(d.body, values),
  } satisfies LegalDocumentView);
});
