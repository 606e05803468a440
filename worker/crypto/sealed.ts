// Secrets at rest (TOTP secrets, later bank account numbers): AES-256-GCM through WebCrypto.
// A sealed value reads `v1:<keyId>:<iv b64url>:<ciphertext b64url>`; the version and key id are
// authenticated with it, so neither can be swapped. DATA_ENCRYPTION_KEYS lists
// `keyId:base64key[,keyId:base64key…]`: the first key seals, every listed key opens, so a key is
// rotated by putting a new one first and keeping the old one until its values are re-sealed.
import { fromBase64, toBase64Url } from "../auth/bytes";

const VERSION = "v1";
const IV_BYTES = 12;

interface KeyRing {
  sealWith: { id: string; key: CryptoKey };
  byId: Map<string, CryptoKey>;
}

export interface SealEnv {
  DATA_ENCRYPTION_KEYS?: string;
}

/** Imported keys per configuration string: importing costs more than the encryption itself. */
const rings = new Map<string, Promise<KeyRing>>();

async function ringOf(env: SealEnv): Promise<KeyRing> {
  const spec = (env.DATA_ENCRYPTION_KEYS ?? "").trim();
  let ring = rings.get(spec);
  if (!ring) {
    ring = buildRing(spec);
    // A malformed configuration is not cached, so fixing the secret takes effect at once.
    ring.catch(() => rings.delete(spec));
    rings.set(spec, ring);
  }
  return ring;
}

async function buildRing(spec: string): Promise<KeyRing> {
  if (!spec) throw new Error("DATA_ENCRYPTION_KEYS is not set: secrets at rest cannot be sealed or opened");
  const byId = new Map<string, CryptoKey>();
  let first: KeyRing["sealWith"] | undefined;
  for (const entry of spec.split(",")) {
    const [id, b64, ...rest] = entry.trim().split(":");
    if (!id || !b64 || rest.length > 0 || !/^[A-Za-z0-9_-]+$/.test(id)) {
      throw new Error("DATA_ENCRYPTION_KEYS must read keyId:base64key[,keyId:base64key...]");
    }
    const raw = fromBase64(b64);
    if (raw.length !== 32) throw new Error(`DATA_ENCRYPTION_KEYS: key "${id}" must be 32 bytes (base64 of 32 random bytes)`);
    const key = await crypto.subtle.importKey("raw", raw, "AES-GCM", false, ["encrypt", "decrypt"]);
    byId.set(id, key);
    first ??= { id, key };
  }
  return { sealWith: first!, byId };
}

const additionalData = (keyId: string) => new TextEncoder().encode(`${VERSION}:${keyId}`);

const fromBase64Url = (text: string) => fromBase64(text.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (text.length % 4)) % 4));

export const isSealed = (value: string) => value.startsWith(`${VERSION}:`);

export async function seal(env: SealEnv, plaintext: string): Promise<string> {
  const { sealWith } = await ringOf(env);
  const iv = crypto.getRandomValues(new Uint8Array(IV_BYTES));
  const ciphertext = await crypto.subtle.encrypt(
    { name: "AES-GCM", iv, additionalData: additionalData(sealWith.id) },
    sealWith.key,
    new TextEncoder().encode(plaintext),
  );
  return [VERSION, sealWith.id, toBase64Url(iv), toBase64Url(new Uint8Array(ciphertext))].join(":");
}

export async function open(env: SealEnv, sealed: string): Promise<string> {
  const parts = sealed.split(":");
  if (parts.length !== 4 || parts[0] !== VERSION) throw new Error("not a sealed value");
  const [, keyId, iv, ciphertext] = parts as [string, string, string, string];
  const key = (await ringOf(env)).byId.get(keyId);
  if (!key) throw new Error(`sealed under unknown key "${keyId}": keep it in DATA_ENCRYPTION_KEYS until its values are re-sealed`);
  try {
    const plain = await crypto.subtle.decrypt(
      { name: "AES-GCM", iv: fromBase64Url(iv), additionalData: additionalData(keyId) },
      key,
      fromBase64Url(ciphertext),
    );
    return new TextDecoder().decode(plain);
  } catch {
    throw new Error("sealed value could not be opened: wrong key or changed data");
  }
}
