// The operators' view of the house ledger, newest first: prize shares nobody qualified for and
// prizes forfeited after a fair-play review.
import { Hono } from "hono";
import { desc } from "drizzle-orm";
import type { HouseLedgerEntry } from "../../common/api/admin";
import { centsToDollars } from "../../common/domain/money";
import { houseLedger } from "../db/schema";
import { iso } from "../db/present";
import { requireAdmin, requireUser } from "../http/middleware";
import type { AppEnv } from "../http/app-env";

const LIST_LIMIT = 500;

export const adminHouseLedgerRoutes = new Hono<AppEnv>().use(requireUser, requireAdmin).get("/", async (c) => {
  const rows = await c
    .get("db")
    .select()
    .from(houseLedger)
    .orderBy(desc(houseLedger.createdAt), desc(houseLedger.id))
    .limit(LIST_LIMIT)
    .all();
  const entries: HouseLedgerEntry[] = rows.map((r) => ({
    id: r.id,
    amount: centsToDollars(r.amountCents),
    type: r.type,
    tournamentId: r.tournamentId,
    reference: r.reference,
    description: r.description,
    createdAt: iso(r.createdAt),
  }));
  return c.json(entries);
});
