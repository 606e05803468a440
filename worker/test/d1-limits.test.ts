// The guard on what one D1 statement carries: rows are packed into JSON arrays that stay within
// the limit (counted in UTF-8 bytes), and a statement over it is refused before it is sent.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { bindWithin, boundBytes, D1_MAX_BOUND_BYTES, packJson, utf8Length } from "../db/d1-limits";

describe("D1 statement limits", () => {
  it("counts text in UTF-8 bytes", () => {
    expect(utf8Length("abc")).toBe(3);
    expect(utf8Length("é")).toBe(2);
    expect(utf8Length("€")).toBe(3);
    expect(utf8Length("😀")).toBe(4);
    expect(utf8Length("a€😀é")).toBe(new TextEncoder().encode("a€😀é").byteLength);
    expect(boundBytes(["€€", 12, null])).toBe(6 + 8 + 1);
  });

  it("packs rows into JSON arrays within the budget, in order, losing none", () => {
    const rows = Array.from({ length: 5000 }, (_, i) => [i, `réponse ${i} 😀`, i % 2]);
    const packed = packJson(rows, 10_000);
    expect(packed.length).toBeGreaterThan(1);
    for (const json of packed) expect(utf8Length(json)).toBeLessThanOrEqual(10_000);
    expect(packed.flatMap((json) => JSON.parse(json) as unknown[])).toEqual(rows);
  });

  it("refuses a statement over 100 KB or 100 parameters, and binds one within them", async () => {
    const stmt = env.DB.prepare("SELECT length(?) AS n");
    expect(() => bindWithin(stmt, "x".repeat(D1_MAX_BOUND_BYTES + 1))).toThrow(/limit 100000/);
    expect(() => bindWithin(stmt, ...Array.from({ length: 101 }, () => 1))).toThrow(/limit 100/);
    expect(await bindWithin(stmt, "x".repeat(D1_MAX_BOUND_BYTES)).first<{ n: number }>()).toEqual({ n: D1_MAX_BOUND_BYTES });
  });
});
