// ACH returns (NACHA return reason codes): what the bank sends back when a credit of an exported
// file could not be paid. A payout failed for a return records the code, its meaning and the date
// the bank returned it, and the player's ledger row says so (docs/operating.md, "Fail with a reason").

/** R01-R85, the range of NACHA return reason codes. */
export const ACH_RETURN_CODE_PATTERN = /^R(0[1-9]|[1-7]\d|8[0-5])$/;

/** The common codes' meanings; any other valid code reads "ACH return". */
export const ACH_RETURN_REASONS: Readonly<Record<string, string>> = {
  R01: "Insufficient funds",
  R02: "Account closed",
  R03: "No account or unable to locate account",
  R04: "Invalid account number",
  R05: "Unauthorized debit to consumer account",
  R06: "Returned per ODFI's request",
  R07: "Authorization revoked by customer",
  R08: "Payment stopped",
  R09: "Uncollected funds",
  R10: "Customer advises not authorized",
  R11: "Customer advises entry not in accordance with the terms of the authorization",
  R12: "Account sold to another DFI",
  R13: "Invalid ACH routing number",
  R14: "Representative payee deceased or unable to continue in that capacity",
  R15: "Beneficiary or account holder deceased",
  R16: "Account frozen",
  R17: "File record edit criteria",
  R20: "Non-transaction account",
  R21: "Invalid company identification",
  R22: "Invalid individual ID number",
  R23: "Credit entry refused by receiver",
  R24: "Duplicate entry",
  R29: "Corporate customer advises not authorized",
  R31: "Permissible return entry",
  R33: "Return of XCK entry",
};

export const isAchReturnCode = (code: string) => ACH_RETURN_CODE_PATTERN.test(code);

/** A calendar date written YYYY-MM-DD that exists (2026-02-30 does not). */
export function isIsoDate(date: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) return false;
  const ms = Date.parse(`${date}T00:00:00Z`);
  return Number.isFinite(ms) && new Date(ms).toISOString().slice(0, 10) === date;
}

/**
 * Whether the bank can have returned it on `date`: not before the file was exported (its UTC day)
 * and not after today (UTC; a day's leeway for the bank's time zone).
 */
export function isPlausibleReturnDate(date: string, exportedAt: number, now: number): boolean {
  if (!isIsoDate(date)) return false;
  const day = Date.parse(`${date}T00:00:00Z`);
  const exportDay = Date.parse(`${new Date(exportedAt).toISOString().slice(0, 10)}T00:00:00Z`);
  return day >= exportDay && day <= now + 24 * 60 * 60 * 1000;
}

/** "Returned by the bank: R01 Insufficient funds, 2026-11-20": the failure's reason, on the ledger row and in the player's notice. */
export const achReturnReason = (code: string, date: string) =>
  `Returned by the bank: ${code} ${ACH_RETURN_REASONS[code] ?? "ACH return"}, ${date}`;
