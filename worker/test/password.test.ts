// Password hashing with workerd's native scrypt: the same bytes as the pure-JS scrypt that made
// the hashes already stored, at the production cost as well as the tests' lowered one.
import { describe, expect, it } from "vitest";
import { scryptAsync } from "@noble/hashes/scrypt.js";
import { DEFAULT_SCRYPT, hashPassword, verifyPassword } from "../auth/password";
import { fromBase64, toBase64 } from "../auth/bytes";

const SALT = Uint8Array.from({ length: 16 }, (_, i) => i * 7 + 3);

/** A hash as the earlier, pure-JS implementation stored it. */
async function storedByPureJs(password: string, params: { N: number; r: number; p: number }) {
  const key = await scryptAsync(password.normalize("NFKC"), SALT, { ...params, dkLen: 32 });
  return `scrypt$${params.N}$${params.r}$${params.p}$${toBase64(SALT)}$${toBase64(key)}`;
}

describe("password hashing", () => {
  it("verifies hashes the pure-JS scrypt stored, and refuses a wrong password", async () => {
    const stored = await storedByPureJs("correct horse", { N: 1024, r: 8, p: 5 });
    expect(await verifyPassword("correct horse", stored)).toBe(true);
    expect(await verifyPassword("correct hors3", stored)).toBe(false);
  });

  it("makes hashes the pure-JS scrypt agrees with", async () => {
    const params = { N: 1024, r: 8, p: 5 };
    const stored = await hashPassword("Fünf Äpfel", params);
    const [, , , , salt, key] = stored.split("$");
    const again = await scryptAsync("Fünf Äpfel".normalize("NFKC"), fromBase64(salt!), { ...params, dkLen: 32 });
    expect(toBase64(again)).toBe(key);
  });

  it("hashes and verifies at the production cost (its 16 MiB fit the memory allowed)", { timeout: 30_000 }, async () => {
    const stored = await hashPassword("correct horse", DEFAULT_SCRYPT);
    expect(stored.split("$").slice(1, 4).map(Number)).toEqual([DEFAULT_SCRYPT.N, DEFAULT_SCRYPT.r, DEFAULT_SCRYPT.p]);
    expect(await verifyPassword("correct horse", stored)).toBe(true);
  });

  it("refuses a stored value that is not an scrypt hash", async () => {
    expect(await verifyPassword("x", "!deleted")).toBe(false);
  });
});
