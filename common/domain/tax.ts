// Tax details of US winners (docs/identity-and-tax.md, "Tax"): who counts as a US payee, the
// calendar year a prize falls in, when the reporting threshold is reached, the W-9's taxpayer
// identification number (SSN or EIN) and the 1099-MISC export's rows. Pure: no I/O.
import type { Cents } from "./money";
import { formatCents } from "./money";

/** The threshold when the setting is empty: $2,000, the 1099-MISC reporting amount for payments after 2025. */
export const DEFAULT_TAX_REPORTING_THRESHOLD_CENTS = 200_000;

/**
 * Whether a player is a US person for tax reporting. A W-9 on file says so (its certification is
 * "I am a U.S. citizen or other U.S. person", wherever they live). Otherwise a verified identity's
 * country, when the caller has one, decides; without one, the account's country (request.cf at
 * sign-up and sign-in, or chosen in the profile) or the country the request comes from: a player
 * cannot leave the US checks by choosing another country in the profile while playing from the US.
 */
export function isUsTaxPayee(p: {
  country: string | null;
  verifiedCountry?: string | null;
  requestCountry?: string | null;
  formOnFile?: boolean;
}): boolean {
  if (p.formOnFile) return true;
  const us = (c: string | null | undefined) => (c ?? "").trim().toUpperCase() === "US";
  // A verified US document makes a US payee; a foreign one does not unmake one: a US resident may
  // hold another country's passport, so the account's and the request's country still count.
  return us(p.verifiedCountry) || us(p.country) || us(p.requestCountry);
}

/** The calendar year (UTC) a moment falls in: prizes are bucketed by when the ledger credited them. */
export const taxYearOf = (at: number): number => new Date(at).getUTCFullYear();

/** [start, end) of a calendar year in UTC epoch ms. */
export const taxYearBounds = (year: number): { from: number; to: number } => ({
  from: Date.UTC(year, 0, 1),
  to: Date.UTC(year + 1, 0, 1),
});

/** A year the export accepts: four digits, from 2000 to next year. */
export const isTaxYear = (year: number, now = Date.now()): boolean => Number.isInteger(year) && year >= 2000 && year <= taxYearOf(now) + 1;

/**
 * The threshold setting (whole or decimal USD, e.g. "2000" or "600.00") in cents; empty means the
 * default. A malformed or non-positive value throws: a silent fallback could stop asking for W-9s.
 */
export function thresholdCentsOf(setting: string | undefined): Cents {
  const text = (setting ?? "").trim();
  if (text === "") return DEFAULT_TAX_REPORTING_THRESHOLD_CENTS;
  if (!/^\d{1,9}(\.\d{1,2})?$/.test(text)) throw new Error(`TAX_REPORTING_THRESHOLD_USD must be a positive USD amount, not "${text}"`);
  const [whole, fraction = ""] = text.split(".");
  const cents = Number(whole) * 100 + Number(fraction.padEnd(2, "0"));
  if (cents <= 0) throw new Error("TAX_REPORTING_THRESHOLD_USD must be above zero");
  return cents;
}

/** "2,000" or "600.50": the threshold as the player reads it. */
export const formatThresholdUsd = (cents: Cents): string =>
  cents % 100 === 0
    ? (cents / 100).toLocaleString("en-US")
    : `${Math.floor(cents / 100).toLocaleString("en-US")}.${String(cents % 100).padStart(2, "0")}`;

/** Reached at the threshold itself ("reach $2,000"), not only above it. */
export const thresholdReached = (prizesCents: Cents, thresholdCents: Cents): boolean => prizesCents >= thresholdCents;

/**
 * Whether a withdrawal needs a W-9 first: a US payee whose prizes this calendar year reached the
 * threshold and who has none on file.
 */
export const taxFormRequired = (p: { usPayee: boolean; yearPrizesCents: Cents; thresholdCents: Cents; formOnFile: boolean }): boolean =>
  p.usPayee && !p.formOnFile && thresholdReached(p.yearPrizesCents, p.thresholdCents);

export const TIN_TYPES = ["ssn", "ein"] as const;
export type TinType = (typeof TIN_TYPES)[number];

/** The W-9's line 3a, federal tax classification. */
export const TAX_CLASSIFICATIONS = ["individual", "c_corporation", "s_corporation", "partnership", "trust_estate", "llc", "other"] as const;
export type TaxClassification = (typeof TAX_CLASSIFICATIONS)[number];

export const TAX_CLASSIFICATION_LABELS: Record<TaxClassification, string> = {
  individual: "Individual/sole proprietor or single-member LLC",
  c_corporation: "C corporation",
  s_corporation: "S corporation",
  partnership: "Partnership",
  trust_estate: "Trust/estate",
  llc: "Limited liability company (taxed as C, S or partnership)",
  other: "Other",
};

/** The digits of a TIN as typed ("123-45-6789", "12 3456789"): dashes and spaces dropped; anything else keeps it invalid. */
export const tinDigits = (text: string): string => text.replace(/[\s-]/g, "");

export type TinProblem = "format" | "ssn_area" | "ssn_group" | "ssn_serial" | "ein_prefix";

/**
 * An SSN the Social Security Administration can have issued: 9 digits, area (first 3) not 000,
 * 666 or 900-999 (those are ITINs or never issued), group (next 2) not 00, serial (last 4) not 0000.
 */
export function ssnProblem(digits: string): TinProblem | null {
  if (!/^\d{9}$/.test(digits)) return "format";
  const area = digits.slice(0, 3);
  if (area === "000" || area === "666" || area.startsWith("9")) return "ssn_area";
  if (digits.slice(3, 5) === "00") return "ssn_group";
  if (digits.slice(5) === "0000") return "ssn_serial";
  return null;
}

/**
 * The two-digit prefixes the IRS assigns EINs under (its campuses and the online application);
 * 00, 07-09, 17-19, 28, 29, 49, 69, 70, 78, 79, 89, 96 and 97 are never issued.
 */
const EIN_PREFIXES = new Set(
  [
    [1, 6],
    [10, 16],
    [20, 27],
    [30, 48],
    [50, 68],
    [71, 77],
    [80, 88],
    [90, 95],
    [98, 99],
  ].flatMap(([from, to]) => Array.from({ length: to! - from! + 1 }, (_, i) => String(from! + i).padStart(2, "0"))),
);

export function einProblem(digits: string): TinProblem | null {
  if (!/^\d{9}$/.test(digits)) return "format";
  if (!EIN_PREFIXES.has(digits.slice(0, 2))) return "ein_prefix";
  return null;
}

export const tinProblem = (type: TinType, digits: string): TinProblem | null => (type === "ssn" ? ssnProblem(digits) : einProblem(digits));

/** As the IRS writes them: SSN 123-45-6789, EIN 12-3456789. */
export const formatTin = (type: TinType, digits: string): string =>
  type === "ssn" ? `${digits.slice(0, 3)}-${digits.slice(3, 5)}-${digits.slice(5)}` : `${digits.slice(0, 2)}-${digits.slice(2)}`;

/** All that is ever shown again: the last 4 digits, in the TIN's own shape. */
export const maskedTin = (type: TinType, last4: string): string => (type === "ssn" ? `***-**-${last4}` : `**-***${last4}`);

/** US states, DC and the territories (USPS codes) a W-9 address may name. */
export const US_STATE_CODES = [
  "AL", "AK", "AZ", "AR", "CA", "CO", "CT", "DE", "DC", "FL", "GA", "HI", "ID", "IL", "IN", "IA", "KS", "KY", "LA", "ME",
  "MD", "MA", "MI", "MN", "MS", "MO", "MT", "NE", "NV", "NH", "NJ", "NM", "NY", "NC", "ND", "OH", "OK", "OR", "PA", "RI",
  "SC", "SD", "TN", "TX", "UT", "VT", "VA", "WA", "WV", "WI", "WY", "AS", "GU", "MP", "PR", "VI", "AA", "AE", "AP",
] as const; // prettier-ignore

/** The W-9's certification, as the form shows it above its checkbox (the W-9's Part II, without its instructions). */
export const W9_CERTIFICATION = [
  "Under penalties of perjury, I certify that:",
  "1. The number shown on this form is my correct taxpayer identification number (or I am waiting for a number to be issued to me);",
  "2. I am not subject to backup withholding because (a) I am exempt from backup withholding, or (b) I have not been notified by the IRS that I am subject to backup withholding as a result of a failure to report all interest or dividends, or (c) the IRS has notified me that I am no longer subject to backup withholding;",
  "3. I am a U.S. citizen or other U.S. person; and",
  "4. The FATCA code(s) entered on this form (if any) indicating that I am exempt from FATCA reporting is correct.",
] as const;

export const isUsZip = (zip: string): boolean => /^\d{5}(-\d{4})?$/.test(zip);

// ---------------------------------------------------------------------------------------------
// The 1099-MISC export: one payer row, one row per payee, one summary row, in the order of the
// IRS's information-return records (Publication 1220: "A" payer, "B" payee, "C" end of payer).

export interface TaxPayer {
  name: string;
  /** EIN digits. */
  tin: string;
  street: string;
  city: string;
  state: string;
  zip: string;
}

export interface TaxPayee {
  userId: number;
  /** From the W-9 in force; null without one (then `name` is the account's username and the row is flagged). */
  tinType: TinType | null;
  tin: string | null;
  name: string;
  businessName: string | null;
  street: string;
  city: string;
  state: string;
  zip: string;
  /** Box 3, other income: the year's prizes. */
  cents: Cents;
}

/** Publication 1220's payee TIN type: 1 an EIN, 2 an SSN; blank when unknown. */
const tinTypeCode = (type: TinType | null) => (type === "ein" ? "1" : type === "ssn" ? "2" : "");

export const FORM_1099_COLUMNS = [
  "record_type",
  "payment_year",
  "type_of_return",
  "amount_codes",
  "tin_type",
  "tin",
  "account_number",
  "name",
  "second_name",
  "address",
  "city",
  "state",
  "zip",
  "payment_amount_3_cents",
  "box_3_other_income_usd",
  "number_of_payees",
  "w9_on_file",
  "note",
] as const;

/** A field as CSV: quoted when it holds a comma, quote or line break; a leading =+-@ is prefixed so a spreadsheet never runs it. */
export function csvField(value: string | number): string {
  let text = String(value);
  if (/^[=+\-@\t\r]/.test(text) && typeof value === "string") text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export const MISSING_W9_NOTE = "no W-9 on file: TIN missing, backup withholding applies";

/**
 * The export's rows (header first). Type of return "A" and amount code "3" are Publication 1220's
 * codes for a 1099-MISC reporting box 3; TIN type 1 is an EIN, 2 an SSN. Amounts are cents (as
 * the IRS's records carry them) and USD.
 */
export function form1099MiscRows(year: number, payer: TaxPayer, payees: TaxPayee[]): string[][] {
  const blank = (n: number) => Array<string>(n).fill("");
  const total = payees.reduce((sum, p) => sum + p.cents, 0);
  const rows: (string | number)[][] = [
    [...FORM_1099_COLUMNS],
    ["A", year, "A", "3", "1", payer.tin, "", payer.name, "", payer.street, payer.city, payer.state, payer.zip, ...blank(5)],
    ...payees.map((p) => [
      "B",
      year,
      "A",
      "3",
      tinTypeCode(p.tinType),
      p.tin ?? "",
      String(p.userId),
      p.name,
      p.businessName ?? "",
      p.street,
      p.city,
      p.state,
      p.zip,
      p.cents,
      formatCents(p.cents),
      "",
      p.tin ? "yes" : "no",
      p.tin ? "" : MISSING_W9_NOTE,
    ]),
    ["C", year, "A", "3", ...blank(9), total, formatCents(total), payees.length, "", ""],
  ] as const;
  return rows.map((r) => r.map(String));
}

export const toCsv = (rows: string[][]): string => rows.map((r) => r.map(csvField).join(",")).join("\r\n") + "\r\n";
