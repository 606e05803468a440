// The verification as the player and as operators see it.
import { desc, eq, inArray } from "drizzle-orm";
import type { AdminIdentityView, IdentityState } from "../../common/api/identity";
import { centsToDollars } from "../../common/domain/money";
import type { Db } from "../db/client";
import { iso } from "../db/present";
import { identityNameMismatches, users } from "../db/schema";
import { legalNameOf } from "./gate";
import { linkedUserIds } from "./linked";
import { canStart, loadVerification, type VerificationRow } from "./store";

function stateOf(row: VerificationRow | undefined, duplicateOf: number | null): IdentityState {
  if (!row) {
    return {
      state: "not_started",
      reason: null,
      legalName: null,
      verifiedAt: null,
      verifyAgain: false,
      duplicateAccount: false,
      canStart: true,
    };
  }
  const verified = row.verifiedCount > 0;
  return {
    state: row.status,
    reason: row.status === "requires_input" || row.status === "refused" ? row.reason : null,
    legalName: verified ? legalNameOf(row) : null,
    verifiedAt: row.verifiedAt === null ? null : iso(row.verifiedAt),
    verifyAgain: row.reverifyRequestedAt !== null,
    duplicateAccount: duplicateOf !== null,
    canStart: canStart(row),
  };
}

export async function identityState(db: Db, user: { id: number; identityDuplicateOf: number | null }): Promise<IdentityState> {
  return stateOf(await loadVerification(db, user.id), user.identityDuplicateOf);
}

export async function adminIdentityView(
  env: Env,
  db: Db,
  user: { id: number; identityDuplicateOf: number | null },
): Promise<AdminIdentityView> {
  const [row, mismatches, linked] = await Promise.all([
    loadVerification(db, user.id),
    db
      .select()
      .from(identityNameMismatches)
      .where(eq(identityNameMismatches.userId, user.id))
      .orderBy(desc(identityNameMismatches.createdAt))
      .limit(20)
      .all(),
    linkedUserIds(env.DB, user.id),
  ]);
  const ids = [...new Set([...linked, ...(user.identityDuplicateOf === null ? [] : [user.identityDuplicateOf])])];
  const names = ids.length
    ? await db.select({ id: users.id, username: users.username }).from(users).where(inArray(users.id, ids)).all()
    : [];
  const byId = new Map(names.map((n) => [n.id, n]));
  return {
    ...stateOf(row, user.identityDuplicateOf),
    provider: row?.provider ?? null,
    reference: row?.sessionId ?? null,
    dateOfBirth: row?.verifiedCount ? row.dateOfBirth : null,
    documentCountry: row?.verifiedCount ? row.documentCountry : null,
    documentType: row?.verifiedCount ? row.documentType : null,
    verifiedCount: row?.verifiedCount ?? 0,
    duplicateOf: user.identityDuplicateOf === null ? null : (byId.get(user.identityDuplicateOf) ?? null),
    linkedAccounts: linked.flatMap((id) => (byId.has(id) ? [byId.get(id)!] : [])),
    nameMismatches: mismatches.map((m) => ({
      holderName: m.holderName,
      legalName: m.legalName,
      amount: centsToDollars(m.amountCents),
      at: iso(m.createdAt),
    })),
  };
}
