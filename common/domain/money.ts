// One money type: integer cents inside, USD numbers with 2 decimals at the API's edge
// (docs/decisions/006-typed-contract.md). Every name says the unit it takes.

export type Cents = number;

/**
 * USD number (at most 2 decimals) to cents; null when it is not a whole number of cents. The
 * tolerance is relative (a few units in the last place of usd * 100): enough for binary noise
 * such as 0.1 + 0.2, never enough to round 0.000000001 to 0 cents or 5.000000001 to 500.
 */
export function dollarsToCentsExact(usd: number): Cents | null {
  if (!Number.isFinite(usd)) return null;
  const exact = usd * 100;
  const cents = Math.round(exact);
  return Math.abs(cents - exact) <= Math.abs(exact) * 8 * Number.EPSILON ? cents : null;
}

/** Numeric text with a non-zero digit past the cents ("5.0000000000000001" parses to exactly 5). */
export const hasDigitsPastCents = (text: string): boolean => /\.\d{2}\d*[1-9]/.test(text);

export const centsToDollars = (cents: Cents): number => cents / 100;

/** "12.50" from cents: the 2-decimal form the screens and messages show. */
export function formatCents(cents: Cents): string {
  const sign = cents < 0 ? "-" : "";
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, "0")}`;
}

/** Cents of a USD amount as the API sends it (at most 2 decimals). */
export const dollarsToCents = (usd: number): Cents => dollarsToCentsExact(usd) ?? Math.round(usd * 100);

/** "$12.50", or "-$3.00", from a USD amount as the API sends it. */
export function formatDollars(usd: number): string {
  const cents = dollarsToCents(usd);
  return `${cents < 0 ? "-" : ""}$${formatCents(Math.abs(cents))}`;
}
