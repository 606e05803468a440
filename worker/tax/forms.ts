// W-9s and the prizes that make them required (docs/identity-and-tax.md, "Tax"). The TIN is sealed
// bound to its player; only the 1099-MISC export (worker/tax/export.ts) opens it.
import { desc, eq, sql } from "drizzle-orm";
import type { TaxFormView, TaxStatus } from "../../common/api/tax";
import { centsToDollars, type Cents } from "../../common/domain/money";
import { isUsTaxPayee, taxFormRequired, taxYearBounds, taxYearOf, thresholdCentsOf, type TaxClassification } from "../../common/domain/tax";
import type { Db } from "../db/client";
import { taxForms } from "../db/schema";

/** Prizes the ledger paid (not held for review, not forfeited), as the statistics count them (worker/db/totals.ts). */
const PAID_PRIZE = (t: string) => `${t}type = 'prize' AND ${t}status IN ('completed', 'pending')`;

/**
 * The country an account deletion keeps (worker/routes/user.ts), as SQL over the users row being
 * deleted: a US account that was paid a prize keeps "US", because the 1099-MISC export decides by
 * it who is a US payee (worker/tax/export.ts): without it, a US winner with no W-9 and no US
 * identity document would drop out of the year's export, which then no longer reconciles with
 * the ledger. Every other account's country is erased.
 */
export const countryKeptOnDeletion = sql.raw(
  `CASE WHEN upper(trim(users.country)) = 'US' AND EXISTS (SELECT 1 FROM transactions t WHERE t.user_id = users.id AND ${PAID_PRIZE("t.")})
     THEN users.country END`,
);

/** A player's prizes credited in a calendar year (UTC), by the ledger rows' time. */
export async function yearPrizeCents(d1: D1Database, userId: number, year: number): Promise<Cents> {
  const { from, to } = taxYearBounds(year);
  const row = await d1
    .prepare(
      `SELECT coalesce(sum(amount_cents), 0) AS cents FROM transactions WHERE user_id = ? AND ${PAID_PRIZE("")} AND created_at >= ? AND created_at < ?`,
    )
    .bind(userId, from, to)
    .first<{ cents: number }>();
  return row?.cents ?? 0;
}

/** Every player's prizes in a year, with what the export needs to know of the account. */
export async function yearPrizesByPlayer(
  d1: D1Database,
  year: number,
): Promise<{ userId: number; username: string; country: string | null; verifiedCountry: string | null; cents: Cents }[]> {
  const { from, to } = taxYearBounds(year);
  const { results } = await d1
    .prepare(
      `SELECT t.user_id AS userId, u.username, u.country, (${VERIFIED_COUNTRY("t.user_id")}) AS verifiedCountry, sum(t.amount_cents) AS cents
       FROM transactions t JOIN users u ON u.id = t.user_id
       WHERE ${PAID_PRIZE("t.")} AND t.created_at >= ? AND t.created_at < ?
       GROUP BY t.user_id ORDER BY t.user_id`,
    )
    .bind(from, to)
    .all<{ userId: number; username: string; country: string | null; verifiedCountry: string | null; cents: number }>();
  return results;
}

/** The issuing country of a player's verified identity document (docs/identity-and-tax.md), as an SQL subquery. */
const VERIFIED_COUNTRY = (userIdSql: string) =>
  `SELECT document_country FROM identity_verifications WHERE user_id = ${userIdSql} AND verified_count > 0`;

/** What the sealed TIN is bound to: its player and the digits the row shows, so a value copied to another row does not open. */
export const taxFormSealContext = (f: { userId: number; tinType: string; tinLast4: string }) =>
  `tax-form-tin:user=${f.userId};type=${f.tinType};last4=${f.tinLast4}`;

/** The W-9 in force: the player's newest filing. */
export const currentTaxForm = (db: Db, userId: number) =>
  db.select().from(taxForms).where(eq(taxForms.userId, userId)).orderBy(desc(taxForms.id)).limit(1).get();

export type TaxFormRow = typeof taxForms.$inferSelect;

export const presentTaxForm = (f: TaxFormRow): TaxFormView => ({
  legalName: f.legalName,
  businessName: f.businessName,
  taxClassification: f.taxClassification as TaxClassification,
  tinType: f.tinType,
  tinLast4: f.tinLast4,
  street: f.street,
  city: f.city,
  state: f.state,
  zip: f.zip,
  certifiedAt: new Date(f.certifiedAt).toISOString(),
});

/** The threshold setting in cents (TAX_REPORTING_THRESHOLD_USD; $2,000 when empty). */
export const taxThresholdCents = (env: Env): Cents => thresholdCentsOf(env.TAX_REPORTING_THRESHOLD_USD);

/** Where a player stands now: a US payee or not, this year's prizes, and whether a withdrawal needs a W-9. */
export async function taxStatus(
  env: Env,
  db: Db,
  user: { id: number; country: string | null },
  { now = Date.now(), requestCountry = null }: { now?: number; requestCountry?: string | null } = {},
): Promise<TaxStatus & { yearPrizesCents: Cents; thresholdCents: Cents }> {
  const year = taxYearOf(now);
  const thresholdCents = taxThresholdCents(env);
  const [yearPrizesCents, form, verified] = await Promise.all([
    yearPrizeCents(env.DB, user.id, year),
    currentTaxForm(db, user.id),
    env.DB.prepare(`${VERIFIED_COUNTRY("?")}`)
      .bind(user.id)
      .first<{ document_country: string | null }>(),
  ]);
  const usPayee = isUsTaxPayee({
    country: user.country,
    verifiedCountry: verified?.document_country ?? null,
    requestCountry,
    formOnFile: form !== undefined,
  });
  return {
    usPayee,
    year,
    yearPrizes: centsToDollars(yearPrizesCents),
    threshold: centsToDollars(thresholdCents),
    formRequired: taxFormRequired({ usPayee, yearPrizesCents, thresholdCents, formOnFile: form !== undefined }),
    form: form ? presentTaxForm(form) : null,
    yearPrizesCents,
    thresholdCents,
  };
}
