// Which versions of the legal documents a player accepted (terms_acceptances), and the gate the
// money doors call: no deposit, paid join or withdrawal until the versions in force are accepted
// (docs/player-data.md). Free play and reading stay open.
import type { Context } from "hono";
import { eq, sql } from "drizzle-orm";
import { outstandingDocuments } from "../../common/domain/legal";
import { CURRENT_LEGAL_VERSIONS } from "../../common/legal/documents";
import { legalTitle, type LegalDocumentId } from "../../common/legal/legal-catalog";
import { LEGAL } from "../../common/legal-messages";
import { termsAcceptances, users } from "../db/schema";
import type { Db } from "../db/client";
import { identityHash } from "../fair-play/receipts";
import { clientIp } from "../http/client-address";
import { HttpError } from "../http/errors";
import { currentUser } from "../http/middleware";
import type { AppEnv } from "../http/app-env";

type Ctx = Context<AppEnv>;

/** The same keyed hash of the address the collusion check keeps: the address itself is never stored. */
function networkHashOf(c: Ctx): string | null {
  const ip = clientIp(c.req.raw);
  return ip && c.env.RECEIPT_SECRET ? identityHash(c.env, "network", ip) : null;
}

/**
 * Sign-up's acceptance, for the account named `username` that the same D1 batch creates: an
 * account never exists without the agreement its form required.
 */
export function signUpAcceptanceStatement(c: Ctx, db: Db, username: string, versions: Readonly<Record<LegalDocumentId, string>>) {
  // Columns in the table's order (user_id, document, version, accepted_at, network_hash).
  return db
    .insert(termsAcceptances)
    .select(
      sql`SELECT ${users.id}, j.key, j.value, ${Date.now()}, ${networkHashOf(c)} FROM ${users}, json_each(${JSON.stringify(versions)}) AS j
          WHERE lower(${users.username}) = lower(${username})`,
    )
    .onConflictDoNothing();
}

/** The rows recording `versions` as accepted now; a repeated acceptance changes nothing. */
export function acceptanceStatement(c: Ctx, db: Db, userId: number, versions: Readonly<Record<LegalDocumentId, string>>) {
  const now = Date.now();
  const networkHash = networkHashOf(c);
  const rows = (Object.entries(versions) as [LegalDocumentId, string][]).map(([document, version]) => ({
    userId,
    document,
    version,
    acceptedAt: now,
    networkHash,
  }));
  return db.insert(termsAcceptances).values(rows).onConflictDoNothing();
}

/** Every acceptance the player made, oldest first. */
export const acceptancesOf = (db: Db, userId: number) =>
  db
    .select({ document: termsAcceptances.document, version: termsAcceptances.version, acceptedAt: termsAcceptances.acceptedAt })
    .from(termsAcceptances)
    .where(eq(termsAcceptances.userId, userId))
    .orderBy(termsAcceptances.acceptedAt);

/** The documents whose version in force the player has not accepted. */
export async function outstandingFor(db: Db, userId: number): Promise<LegalDocumentId[]> {
  return outstandingDocuments(CURRENT_LEGAL_VERSIONS, await acceptancesOf(db, userId).all());
}

/** "A", "A and B", "A, B and C". */
const titles = (ids: readonly LegalDocumentId[]) => {
  const names = ids.map(legalTitle);
  return names.length <= 1 ? (names[0] ?? "") : `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`;
};

export const termsNotAccepted = (ids: readonly LegalDocumentId[]) =>
  new HttpError(403, "terms_not_accepted", LEGAL.notAccepted(titles(ids)));

/** Refuses a money action (deposit, paid join, withdrawal) until the player accepted the versions in force. */
export async function assertTermsAccepted(c: Ctx): Promise<void> {
  const outstanding = await outstandingFor(c.get("db"), currentUser(c).id);
  if (outstanding.length > 0) throw termsNotAccepted(outstanding);
}
