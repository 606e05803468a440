// One text per value, whatever the order its object fields were written in: what an idempotency
// key's request fingerprint is computed over, so a retry that serialises the same request
// differently is still the same request.

/** JSON with every object's keys sorted, undefined fields left out (as JSON.stringify does), arrays in order. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== "object") return value;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return Object.fromEntries(entries.map(([k, v]) => [k, sortKeys(v)]));
}
