/** A positive USD number from a route segment such as /checkout/25.50, else null. */
export function amountFromParam(raw: string | undefined): number | null {
  if (!raw || !/^\d*\.?\d+$/.test(raw.trim())) return null;
  const n = Number(raw);
  return Number.isFinite(n) && n > 0 ? n : null;
}
