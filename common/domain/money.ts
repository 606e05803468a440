// One money type: integer cents inside, USD numbers with 2 decimals at the edges.

export type Cents = number;

/** USD number (at most 2 decimals) to cents; null when it is not a whole number of cents. */
export function usdToCents(usd: number): Cents | null {
  if (!Number.isFinite(usd)) return null;
  const cents = Math.round(usd * 100);
  return Math.abs(cents - usd * 100) < 1e-6 ? cents : null;
}

export const centsToUsd = (cents: Cents): number => cents / 100;

/** "12.50" — the 2-decimal form SPEC.md shows everywhere. */
export function formatUsd(cents: Cents): string {
  const sign = cents < 0 ? "-" : "";
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, "0")}`;
}

/** Cents of a USD amount as the API sends it (at most 2 decimals). */
export const dollarsToCents = (usd: number): Cents => usdToCents(usd) ?? Math.round(usd * 100);

/** "$12.50", or "-$3.00", from a USD amount as the API sends it. */
export function formatDollars(usd: number): string {
  const cents = dollarsToCents(usd);
  return `${cents < 0 ? "-" : ""}$${formatUsd(Math.abs(cents))}`;
}
