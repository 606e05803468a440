// Sealed values (AES-256-GCM under DATA_ENCRYPTION_KEYS): what a database dump would show, and
// what a wrong key, a changed byte or a key rotation does.
import { describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import { isSealed, open, seal } from "../crypto/sealed";

const key = (byte: number) => btoa(String.fromCharCode(...new Uint8Array(32).fill(byte)));
const keys = (spec: string) => ({ DATA_ENCRYPTION_KEYS: spec });

describe("seal and open", () => {
  it("round-trips under the configured key, with a fresh IV each time and no plaintext in the sealed text", async () => {
    const a = await seal(env, "JBSWY3DPEHPK3PXP");
    const b = await seal(env, "JBSWY3DPEHPK3PXP");
    expect(a).toMatch(/^v1:[A-Za-z0-9_-]+:[A-Za-z0-9_-]{16}:[A-Za-z0-9_-]+$/);
    expect(a).not.toBe(b);
    expect(a).not.toContain("JBSWY3DPEHPK3PXP");
    expect(isSealed(a)).toBe(true);
    expect(isSealed("JBSWY3DPEHPK3PXP")).toBe(false);
    expect(await open(env, a)).toBe("JBSWY3DPEHPK3PXP");
    expect(await open(env, await seal(env, "çà 🔐"))).toBe("çà 🔐");
  });

  it("names the key it used, the first one listed", async () => {
    const sealed = await seal(keys(`k2:${key(2)},k1:${key(1)}`), "x");
    expect(sealed.split(":")[1]).toBe("k2");
  });

  it("refuses a wrong key under the same id", async () => {
    const sealed = await seal(keys(`k1:${key(1)}`), "secret");
    await expect(open(keys(`k1:${key(9)}`), sealed)).rejects.toThrow(/could not be opened/);
  });

  it("refuses a value whose key id is not configured", async () => {
    const sealed = await seal(keys(`old:${key(1)}`), "secret");
    await expect(open(keys(`new:${key(2)}`), sealed)).rejects.toThrow(/unknown key "old"/);
  });

  it("refuses a tampered ciphertext, IV or key id", async () => {
    const spec = keys(`k1:${key(1)},k2:${key(1)}`);
    const sealed = await seal(spec, "secret");
    const [v, id, iv, ct] = sealed.split(":") as [string, string, string, string];
    const flip = (s: string) => (s[0] === "A" ? "B" : "A") + s.slice(1);
    await expect(open(spec, [v, id, iv, flip(ct)].join(":"))).rejects.toThrow(/could not be opened/);
    await expect(open(spec, [v, id, flip(iv), ct].join(":"))).rejects.toThrow(/could not be opened/);
    // The same key bytes under another id: the id is authenticated too.
    await expect(open(spec, [v, "k2", iv, ct].join(":"))).rejects.toThrow(/could not be opened/);
    await expect(open(spec, "v3:k1:abc:def")).rejects.toThrow(/not a sealed value/);
  });

  it("binds a value to a context when asked (v2): it opens only with that context, and v1 values open as before", async () => {
    const spec = keys(`k1:${key(1)}`);
    const bound = await seal(spec, "55501234567890", "payout-account:user=1;routing=021000021;last4=7890");
    expect(bound).toMatch(/^v2:k1:/);
    expect(isSealed(bound)).toBe(true);
    expect(await open(spec, bound, "payout-account:user=1;routing=021000021;last4=7890")).toBe("55501234567890");
    await expect(open(spec, bound, "payout-account:user=2;routing=021000021;last4=7890")).rejects.toThrow(/could not be opened/);
    await expect(open(spec, bound)).rejects.toThrow(/bound to a context/);
    // The version is authenticated: relabelling a bound value as v1 does not open it without its context.
    await expect(open(spec, bound.replace(/^v2:/, "v1:"))).rejects.toThrow(/could not be opened/);
    const legacy = await seal(spec, "old");
    expect(legacy).toMatch(/^v1:k1:/);
    expect(await open(spec, legacy)).toBe("old");
    expect(await open(spec, legacy, "any context")).toBe("old");
  });

  it("rotates: a new first key seals, the old one still opens what it sealed", async () => {
    const before = await seal(keys(`2025:${key(1)}`), "old secret");
    const rotated = keys(`2026:${key(2)},2025:${key(1)}`);
    expect(await open(rotated, before)).toBe("old secret");
    const after = await seal(rotated, "new secret");
    expect(after.split(":")[1]).toBe("2026");
    expect(await open(rotated, after)).toBe("new secret");
  });

  it("refuses to work without keys, or with a malformed or short key", async () => {
    await expect(seal({ DATA_ENCRYPTION_KEYS: "" }, "x")).rejects.toThrow(/DATA_ENCRYPTION_KEYS/);
    await expect(seal({}, "x")).rejects.toThrow(/DATA_ENCRYPTION_KEYS/);
    await expect(seal(keys("no-colon"), "x")).rejects.toThrow(/DATA_ENCRYPTION_KEYS/);
    await expect(seal(keys(`k1:${btoa("short")}`), "x")).rejects.toThrow(/32 bytes/);
  });
});
