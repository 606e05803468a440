// The year's 1099-MISC export for operators (docs/identity-and-tax.md, "Tax"): the payer from the
// TAX_PAYER_* variables, one payee per US player whose year's prizes reached the threshold (box 3,
// other income), and a summary that reconciles with the ledger. TINs are opened only here.
import { inArray, sql } from "drizzle-orm";
import type { Tax1099Summary } from "../../common/api/tax";
import { TAX_CONSOLE } from "../../common/console-messages";
import { centsToDollars, type Cents } from "../../common/domain/money";
import {
  einProblem,
  form1099MiscRows,
  isUsTaxPayee,
  isUsZip,
  thresholdReached,
  tinDigits,
  toCsv,
  US_STATE_CODES,
  type TaxPayee,
  type TaxPayer,
} from "../../common/domain/tax";
import { open } from "../crypto/sealed";
import type { Db } from "../db/client";
import { taxForms } from "../db/schema";
import { HttpError } from "../http/errors";
import { taxFormSealContext, taxThresholdCents, yearPrizesByPlayer, type TaxFormRow } from "./forms";

const notConfigured = (name: string, rule: string) =>
  new HttpError(503, "tax_payer_not_configured", TAX_CONSOLE.payerNotConfigured(name, rule));

type PayerVar = "TAX_PAYER_NAME" | "TAX_PAYER_TIN" | "TAX_PAYER_STREET" | "TAX_PAYER_CITY" | "TAX_PAYER_STATE" | "TAX_PAYER_ZIP";

function payerText(env: Env, name: PayerVar, max: number): string {
  const value = (env[name] ?? "").trim();
  if (!/^[\x20-\x7e]+$/.test(value) || value.length > max) throw notConfigured(name, `must be 1-${max} printable ASCII characters`);
  return value;
}

/** The payer, from the TAX_PAYER_* variables; a missing or malformed one is a 503 naming it. */
export function taxPayer(env: Env): TaxPayer {
  const tin = tinDigits((env.TAX_PAYER_TIN ?? "").trim());
  if (einProblem(tin)) throw notConfigured("TAX_PAYER_TIN", "must be your EIN, 9 digits under a prefix the IRS assigns");
  const state = payerText(env, "TAX_PAYER_STATE", 2).toUpperCase();
  if (!(US_STATE_CODES as readonly string[]).includes(state)) throw notConfigured("TAX_PAYER_STATE", "must be a US state's 2-letter code");
  const zip = payerText(env, "TAX_PAYER_ZIP", 10);
  if (!isUsZip(zip)) throw notConfigured("TAX_PAYER_ZIP", "must be a ZIP code, 12345 or 12345-6789");
  return {
    name: payerText(env, "TAX_PAYER_NAME", 80),
    tin,
    street: payerText(env, "TAX_PAYER_STREET", 80),
    city: payerText(env, "TAX_PAYER_CITY", 40),
    state,
    zip,
  };
}

/** Each player's W-9 in force (the newest filing), in chunks that keep under D1's bound-parameter limit. */
async function currentForms(db: Db, userIds: number[]): Promise<Map<number, TaxFormRow>> {
  const forms = new Map<number, TaxFormRow>();
  for (let i = 0; i < userIds.length; i += 90) {
    const ids = userIds.slice(i, i + 90);
    const rows = await db
      .select()
      .from(taxForms)
      .where(sql`${taxForms.id} IN (SELECT max(id) FROM tax_forms WHERE ${inArray(taxForms.userId, ids)} GROUP BY user_id)`)
      .all();
    for (const r of rows) forms.set(r.userId, r);
  }
  return forms;
}

interface YearReport {
  summary: Tax1099Summary;
  /** The listed payees, with each one's W-9 in force (if any). */
  listed: { userId: number; username: string; cents: Cents; form: TaxFormRow | null }[];
}

/**
 * Who the year's export lists and what it leaves out. Listed: US payees (a W-9 on file, or the
 * account's country now) whose paid prizes credited in the year (UTC) reached the threshold.
 */
export async function yearReport(env: Env, db: Db, year: number): Promise<YearReport> {
  const thresholdCents = taxThresholdCents(env);
  const players = await yearPrizesByPlayer(env.DB, year);
  const forms = await currentForms(
    db,
    players.map((p) => p.userId),
  );
  let totalCents = 0;
  let notUsCents = 0;
  let belowCents = 0;
  const chosen: { userId: number; username: string; cents: Cents }[] = [];
  for (const p of players) {
    totalCents += p.cents;
    if (!isUsTaxPayee({ country: p.country, verifiedCountry: p.verifiedCountry, formOnFile: forms.has(p.userId) })) notUsCents += p.cents;
    else if (!thresholdReached(p.cents, thresholdCents)) belowCents += p.cents;
    else chosen.push(p);
  }
  const listed = chosen.map((p) => ({ ...p, form: forms.get(p.userId) ?? null }));
  const reportedCents = listed.reduce((s, p) => s + p.cents, 0);
  return {
    listed,
    summary: {
      year,
      threshold: centsToDollars(thresholdCents),
      totalPrizes: centsToDollars(totalCents),
      reportedTotal: centsToDollars(reportedCents),
      payees: listed.length,
      payeesWithoutForm: listed.filter((p) => p.form === null).length,
      withoutForm: listed
        .filter((p) => p.form === null)
        .sort((x, y) => y.cents - x.cents || x.userId - y.userId)
        .slice(0, 100)
        .map((p) => ({ userId: p.userId, username: p.username, prizes: centsToDollars(p.cents) })),
      belowThreshold: centsToDollars(belowCents),
      notUs: centsToDollars(notUsCents),
    },
  };
}

/** The CSV file of the year and its name; the payees' TINs are opened here, and only here. */
export async function form1099MiscFile(
  env: Env,
  db: Db,
  year: number,
): Promise<{ fileName: string; csv: string; summary: Tax1099Summary }> {
  const payer = taxPayer(env);
  const { listed, summary } = await yearReport(env, db, year);
  const payees: TaxPayee[] = [];
  for (const p of listed) {
    const f = p.form;
    let tin: string | null = null;
    if (f) {
      try {
        tin = await open(env, f.tinSealed, taxFormSealContext(f));
      } catch {
        throw new HttpError(500, "internal", TAX_CONSOLE.sealedUnreadable(p.userId));
      }
    }
    payees.push({
      userId: p.userId,
      tinType: f?.tinType ?? null,
      tin,
      // Without a W-9 the legal name is unknown: the username stands in, and the row is flagged.
      name: f?.legalName ?? p.username,
      businessName: f?.businessName ?? null,
      street: f?.street ?? "",
      city: f?.city ?? "",
      state: f?.state ?? "",
      zip: f?.zip ?? "",
      cents: p.cents,
    });
  }
  return { fileName: `1099-misc-${year}.csv`, csv: toCsv(form1099MiscRows(year, payer, payees)), summary };
}
