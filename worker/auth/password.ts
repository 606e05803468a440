// scrypt from workerd's native node:crypto (same bytes as a pure-JS scrypt at less than half the
// CPU). Parameters travel with each hash so they can be raised later.
import { randomBytes, scrypt } from "node:crypto";
import { fromBase64, timingSafeEqual, toBase64 } from "./bytes";

export interface ScryptParams {
  N: number;
  r: number;
  p: number;
}

/** OWASP-equivalent at 16 MiB (128 x N x r bytes); more would crowd a 128 MB isolate when several sign-ins hash at once. */
export const DEFAULT_SCRYPT: ScryptParams = { N: 2 ** 14, r: 8, p: 5 };
const KEY_LENGTH = 32;

/** The derived key; memory allowed is what N and r need plus headroom (node's default cap is 32 MiB). */
function derive(password: string, salt: Uint8Array, params: ScryptParams, length: number): Promise<Uint8Array> {
  const maxmem = 256 * params.N * params.r + 1024 * 1024;
  return new Promise((resolve, reject) =>
    scrypt(password.normalize("NFKC"), salt, length, { N: params.N, r: params.r, p: params.p, maxmem }, (err, key) =>
      err ? reject(err) : resolve(new Uint8Array(key.buffer, key.byteOffset, key.byteLength)),
    ),
  );
}

export async function hashPassword(password: string, params: ScryptParams = DEFAULT_SCRYPT): Promise<string> {
  const salt = new Uint8Array(randomBytes(16));
  const key = await derive(password, salt, params, KEY_LENGTH);
  return `scrypt$${params.N}$${params.r}$${params.p}$${toBase64(salt)}$${toBase64(key)}`;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, key] = stored.split("$");
  if (scheme !== "scrypt" || !n || !r || !p || !salt || !key) return false;
  const expected = fromBase64(key);
  const actual = await derive(password, fromBase64(salt), { N: Number(n), r: Number(r), p: Number(p) }, expected.length);
  return timingSafeEqual(actual, expected);
}

/** Cost parameters from the environment (tests lower them), else the defaults. */
export function scryptParamsFromEnv(env: { SCRYPT_N?: string }): ScryptParams {
  const n = Number(env.SCRYPT_N);
  return Number.isInteger(n) && n >= 2 && (n & (n - 1)) === 0 ? { ...DEFAULT_SCRYPT, N: n } : DEFAULT_SCRYPT;
}
