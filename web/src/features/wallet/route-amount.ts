import { hasDigitsPastCents, dollarsToCentsExact } from "@common/domain/money";

/** A positive USD amount in whole cents from a route segment such as /checkout/25.50, else null. */
export function amountFromParam(raw: string | undefined): number | null {
  if (!raw || !/^\d*\.?\d+$/.test(raw.trim())) return null;
  const n = Number(raw);
  const cents = hasDigitsPastCents(raw) ? null : dollarsToCentsExact(n);
  return cents !== null && cents > 0 ? n : null;
}
