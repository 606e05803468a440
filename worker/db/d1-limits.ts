// The size of what one D1 statement carries. D1 rejects a statement whose SQL is over 100 KB or
// that binds more than 100 parameters (developers.cloudflare.com/d1/platform/limits); large
// per-row data travels as bound JSON, and a statement of megabytes would fail on every retry.
// Statements whose bound data grows with the number of players are bound through bindWithin.

/** The most bytes of bound values one statement may carry: D1's 100 KB statement limit. */
export const D1_MAX_BOUND_BYTES = 100_000;
/** The most bound parameters one D1 statement accepts. */
export const D1_MAX_BOUND_PARAMS = 100;

/** Bytes of one bound value as it travels: UTF-8 text, 8-byte numbers, raw blobs. */
export function boundValueBytes(v: unknown): number {
  if (v === null || v === undefined) return 1;
  if (typeof v === "string") return utf8Length(v);
  if (typeof v === "number" || typeof v === "bigint") return 8;
  if (typeof v === "boolean") return 1;
  if (v instanceof ArrayBuffer) return v.byteLength;
  if (ArrayBuffer.isView(v)) return v.byteLength;
  return utf8Length(JSON.stringify(v));
}

/** Bytes of a statement's bound values together. */
export const boundBytes = (values: readonly unknown[]): number => values.reduce<number>((n, v) => n + boundValueBytes(v), 0);

/**
 * Binds values, refusing a statement D1 would reject: more than D1_MAX_BOUND_PARAMS values or
 * more than D1_MAX_BOUND_BYTES of them. A refusal is a bug in the caller's chunking, found
 * before anything is sent.
 */
export function bindWithin<S extends { bind(...values: unknown[]): S }>(statement: S, ...values: unknown[]): S {
  if (values.length > D1_MAX_BOUND_PARAMS) throw new Error(`D1 statement binds ${values.length} values (limit ${D1_MAX_BOUND_PARAMS})`);
  const bytes = boundBytes(values);
  if (bytes > D1_MAX_BOUND_BYTES) throw new Error(`D1 statement binds ${bytes} bytes (limit ${D1_MAX_BOUND_BYTES})`);
  return statement.bind(...values);
}

/** UTF-8 length of a string without encoding it. */
export function utf8Length(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) continue;
    if (c < 0x800) n += 1;
    else if (c >= 0xd800 && c <= 0xdbff) {
      // A surrogate pair: two UTF-16 units, four UTF-8 bytes.
      n += 2;
      i++;
    } else n += 2;
  }
  return n;
}

/**
 * Items as JSON arrays of at most `budget` bytes each, in order. An item larger than the budget
 * alone is an array of its own (bindWithin then refuses it).
 */
export function packJson(items: readonly unknown[], budget: number): string[] {
  const out: string[] = [];
  let group: string[] = [];
  // "[" and "]", plus a comma before every item but the first.
  let size = 2;
  for (const item of items) {
    const json = JSON.stringify(item);
    const bytes = utf8Length(json);
    if (group.length > 0 && size + 1 + bytes > budget) {
      out.push(`[${group.join(",")}]`);
      group = [];
      size = 2;
    }
    size += (group.length > 0 ? 1 : 0) + bytes;
    group.push(json);
  }
  if (group.length > 0) out.push(`[${group.join(",")}]`);
  return out;
}
