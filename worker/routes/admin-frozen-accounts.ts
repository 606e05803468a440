// GET /api/admin/frozen-accounts: accounts a card refund or dispute left owing money, with what
// is owed, why, since when, and the reversals behind it, longest frozen first.
import { Hono } from "hono";
import { asc, desc, inArray, isNotNull } from "drizzle-orm";
import type { FrozenAccount } from "../../common/api/admin";
import { centsToDollars } from "../../common/domain/money";
import { paymentReversals, users } from "../db/schema";
import { iso } from "../db/present";
import { requireAdmin, requireUser } from "../http/middleware";
import type { AppEnv } from "../http/app-env";

const LIST_LIMIT = 500;

export const adminFrozenAccountRoutes = new Hono<AppEnv>().use(requireUser, requireAdmin).get("/", async (c) => {
  const db = c.get("db");
  const frozen = await db
    .select({
      id: users.id,
      username: users.username,
      email: users.email,
      balanceCents: users.balanceCents,
      owedCents: users.owedCents,
      frozenAt: users.frozenAt,
      frozenReason: users.frozenReason,
    })
    .from(users)
    .where(isNotNull(users.frozenAt))
    .orderBy(asc(users.frozenAt), asc(users.id))
    .limit(LIST_LIMIT)
    .all();
  const reversals =
    frozen.length === 0
      ? []
      : await db
          .select()
          .from(paymentReversals)
          .where(
            inArray(
              paymentReversals.userId,
              frozen.map((u) => u.id),
            ),
          )
          .orderBy(desc(paymentReversals.id))
          .all();
  const accounts: FrozenAccount[] = frozen.map((u) => ({
    userId: u.id,
    username: u.username,
    email: u.email,
    balance: centsToDollars(u.balanceCents),
    owed: centsToDollars(u.owedCents),
    reason: u.frozenReason,
    since: iso(u.frozenAt!),
    reversals: reversals
      .filter((r) => r.userId === u.id)
      .map((r) => ({
        eventId: r.eventId,
        kind: r.kind,
        objectId: r.objectId,
        paymentIntentId: r.paymentIntentId,
        amount: centsToDollars(r.amountCents),
        fromBalance: centsToDollars(r.balanceCents),
        owed: centsToDollars(r.owedCents),
        createdAt: iso(r.createdAt),
      })),
  }));
  return c.json(accounts);
});
