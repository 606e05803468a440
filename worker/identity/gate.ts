// The identity conditions of the money doors (docs/identity-and-tax.md): a second account of a
// verified person gets no money action; a withdrawal's bank part needs a verification that covers
// it, to an account in the verified legal name. Card refunds of recent deposits need neither: that
// money can only go back to the card that paid it.
import { and, eq, ne, sql } from "drizzle-orm";
import { IDENTITY } from "../../common/messages";
import { holderNameMatches, verificationCovers } from "../../common/domain/identity";
import type { Db } from "../db/client";
import { identityNameMismatches, identityVerifications, payouts } from "../db/schema";
import { HttpError } from "../http/errors";
import { loadVerification } from "./store";

const refuse = (code: ConstructorParameters<typeof HttpError>[1], message: string) => new HttpError(403, code, message);

/** Deposits, paid and prize joins, bank withdrawals: refused to a second account of a verified person. */
export function assertNotDuplicateAccount(user: { identityDuplicateOf: number | null }): void {
  if (user.identityDuplicateOf !== null) throw refuse("identity_duplicate_account", IDENTITY.duplicateAccount);
}

/** IDENTITY_REVERIFY_LIFETIME_USD in cents; unset, empty or not a positive number: never asks again. */
export function reverifyThresholdCents(env: Env): number | null {
  const usd = Number(env.IDENTITY_REVERIFY_LIFETIME_USD);
  return Number.isFinite(usd) && usd > 0 ? Math.round(usd * 100) : null;
}

/** What went to the player's bank accounts so far (payouts not failed). */
export async function lifetimeBankWithdrawalsCents(db: Db, userId: number): Promise<number> {
  const row = await db
    .select({ cents: sql<number>`coalesce(sum(${payouts.amountCents}), 0)` })
    .from(payouts)
    .where(and(eq(payouts.userId, userId), ne(payouts.status, "failed")))
    .get();
  return row?.cents ?? 0;
}

export const legalNameOf = (row: { firstName: string | null; lastName: string | null }) =>
  [row.firstName, row.lastName].filter(Boolean).join(" ");

/**
 * Before a withdrawal's bank part (`bankCents` > 0) is debited. A verification that no longer
 * covers lifetime withdrawals (common/domain/identity.ts, verificationCovers) is marked to be done
 * again, so the profile says so. A holder name that is not the legal name is refused and recorded
 * for operators.
 */
export async function assertIdentityForBankWithdrawal(
  env: Env,
  db: Db,
  user: { id: number; identityDuplicateOf: number | null },
  bankCents: number,
  holderName: string,
): Promise<void> {
  if (bankCents <= 0) return;
  assertNotDuplicateAccount(user);
  const row = await loadVerification(db, user.id);
  if (!row) throw refuse("identity_verification_required", IDENTITY.verificationRequired);
  if (row.status === "refused") throw refuse("identity_verification_refused", IDENTITY.refused(row.reason));
  if (row.reverifyRequestedAt !== null) throw refuse("identity_reverification_required", IDENTITY.verifyAgainRequired);
  if (row.status === "requires_input") throw refuse("identity_verification_requires_input", IDENTITY.requiresInput(row.reason));
  if (row.status === "pending") throw refuse("identity_verification_pending", IDENTITY.pending);
  const lifetime = await lifetimeBankWithdrawalsCents(db, user.id);
  if (!verificationCovers(row.verifiedCount, lifetime + bankCents, reverifyThresholdCents(env))) {
    await db
      .update(identityVerifications)
      .set({ reverifyRequestedAt: Date.now() })
      .where(and(eq(identityVerifications.userId, user.id), eq(identityVerifications.verifiedCount, row.verifiedCount)));
    throw refuse("identity_reverification_required", IDENTITY.verifyAgainRequired);
  }
  const legal = { firstName: row.firstName ?? "", lastName: row.lastName ?? "" };
  if (!holderNameMatches(holderName, legal)) {
    const legalName = legalNameOf(row);
    await db
      .insert(identityNameMismatches)
      .values({ userId: user.id, holderName: holderName.slice(0, 200), legalName, amountCents: bankCents });
    throw refuse("identity_name_mismatch", IDENTITY.nameMismatch(legalName));
  }
}
