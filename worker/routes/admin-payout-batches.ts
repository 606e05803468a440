// Payout batches (docs/operating.md, "Payouts and the ACH file"): the ACH files exported from the
// payout queue, each downloadable again, and marked paid once the bank has paid it.
import { Hono } from "hono";
import { currentUser, requireAdmin, requireUser } from "../http/middleware";
import { recordAudit } from "../admin/audit";
import { sha256Hex } from "../auth/bytes";
import { idParam, noFields } from "../http/validate";
import type { AppEnv } from "../http/app-env";
import { batchFile, batchView, listBatches, markBatchPaid } from "../payouts/batches";

export const adminPayoutBatchRoutes = new Hono<AppEnv>()
  .use(requireUser, requireAdmin)
  .get("/", async (c) => c.json(await listBatches(c.env.DB)))
  .get("/:id", idParam, async (c) => c.json(await batchView(c.env.DB, c.req.valid("param").id)))
  .get("/:id/file", idParam, async (c) => {
    const { id } = c.req.valid("param");
    const { fileName, file } = await batchFile(c.env, c.get("db"), id);
    // Every copy of a file of account numbers that leaves the site is on record (the export's own: payout.export).
    await recordAudit(c, {
      action: "payout_batch.download",
      targetType: "payout_batch",
      targetId: id,
      after: { fileName, sha256: sha256Hex(file) },
    });
    return c.text(file, 200, { "content-disposition": `attachment; filename="${fileName}"` });
  })
  .post("/:id/mark-paid", idParam, noFields, async (c) => {
    return c.json(await markBatchPaid(c.env, c.get("db"), currentUser(c).id, c.req.valid("param").id));
  });
