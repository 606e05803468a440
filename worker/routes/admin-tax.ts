// /api/admin/tax: the year's 1099-MISC (docs/identity-and-tax.md, "Tax"). The summary holds no TIN;
// the CSV holds every listed payee's, so it needs a recent step-up even though it is a GET, and
// every copy that leaves the site is in the audit log.
import { Hono } from "hono";
import { taxYearQuerySchema } from "../../common/api/tax";
import { recordAudit } from "../admin/audit";
import { requireOperatorStepUp } from "../auth/step-up";
import { sha256Hex } from "../auth/bytes";
import { requireAdmin, requireUser } from "../http/middleware";
import { validate } from "../http/validate";
import type { AppEnv } from "../http/app-env";
import { form1099MiscFile, yearReport } from "../tax/export";

const yearQuery = validate("query", taxYearQuerySchema);

export const adminTaxRoutes = new Hono<AppEnv>()
  .use(requireUser, requireAdmin)
  .get("/1099-misc/summary", yearQuery, async (c) => {
    const { year } = c.req.valid("query");
    return c.json((await yearReport(c.env, c.get("db"), year)).summary);
  })
  .get("/1099-misc", requireOperatorStepUp, yearQuery, async (c) => {
    const { year } = c.req.valid("query");
    const { fileName, csv, summary } = await form1099MiscFile(c.env, c.get("db"), year);
    await recordAudit(c, {
      action: "tax.export_1099",
      targetType: "tax_year",
      targetId: year,
      after: { fileName, sha256: sha256Hex(csv), payees: summary.payees, reportedTotal: summary.reportedTotal },
    });
    return c.body(csv, 200, { "content-type": "text/csv; charset=utf-8", "content-disposition": `attachment; filename="${fileName}"` });
  });
