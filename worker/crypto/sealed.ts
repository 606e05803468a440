// Secrets at rest (TOTP secrets, payouts' bank account numbers): AES-256-GCM through WebCrypto.
// A sealed value reads `<version>:<keyId>:<iv b64url>:<ciphertext b64url>`; the version and key id
// are authenticated with it, so neither can be swapped. Version v2 also authenticates a context
// the caller names (what the value belongs to, e.g. its payout's user, routing number and last 4
// digits) that is not stored with it: a v2 value copied to another row does not open there. v1
// values (no context, sealed before v2) still open. DATA_ENCRYPTION_KEYS lists
// `keyId:base64key[,keyId:base64key…]`: the first key seals, every listed key opens, so a key is
// rotated by putting a new one first and keeping the old one until its values are re-sealed.
// The same keys, through HKDF with a purpose label, give the HMAC keys of keyed hashes
// (recovery codes, worker/auth/two-factor.ts), so the AES keys themselves only ever do AES-GCM.
import { fromBase64, toBase64Url } from "../auth/bytes";

const VERSION = "v1";
/** Sealed with a context (authenticated data the caller supplies again to open). */
const BOUND_VERSION = "v2";
const IV_BYTES = 12;

interface KeyRing {
  sealWith: { id: string; key: CryptoKey };
  byId: Map<string, CryptoKey>;
  /** The raw keys, for deriving purpose keys (never exported elsewhere). */
  rawById: Map<string, Uint8Array>;
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
  const rawById = new Map<string, Uint8Array>();
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
    rawById.set(id, raw);
    first ??= { id, key };
  }
  return { sealWith: first!, byId, rawById };
}

/** v1: version and key id; v2: those and the caller's context. */
const additionalData = (version: string, keyId: string, context?: string) =>
  new TextEncoder().encode(version === VERSION ? `${VERSION}:${keyId}` : `${version}:${keyId}:${context}`);

const fromBase64Url = (text: string) => fromBase64(text.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (text.length % 4)) % 4));

export const isSealed = (value: string) => value.startsWith(`${VERSION}:`) || value.startsWith(`${BOUND_VERSION}:`);

/**
 * Seals `plaintext`; with a `context` (v2), opening needs the same context, so the value is bound
 * to what it belongs to. The context must be known when sealing and never change afterwards.
 */
export async function seal(env: SealEnv, plaintext: string, context?: string): Promise<string> {
  const { sealWith } = await ringOf(env);
  const version = context === undefined ? VERSION : BOUND_VERSION;
  const iv = crypto.getRandomValues(new Uint8Array(IV_BYTES));
  const ciphertext = await crypto.subtle.encrypt(
    { name: "AES-GCM", iv, additionalData: additionalData(version, sealWith.id, context) },
    sealWith.key,
    new TextEncoder().encode(plaintext),
  );
  return [version, sealWith.id, toBase64Url(iv), toBase64Url(new Uint8Array(ciphertext))].join(":");
}

/** Opens a sealed value; a v2 value needs the context it was sealed with (a v1 value has none and ignores it). */
export async function open(env: SealEnv, sealed: string, context?: string): Promise<string> {
  const parts = sealed.split(":");
  if (parts.length !== 4 || (parts[0] !== VERSION && parts[0] !== BOUND_VERSION)) throw new Error("not a sealed value");
  const [version, keyId, iv, ciphertext] = parts as [string, string, string, string];
  if (version === BOUND_VERSION && context === undefined) throw new Error("sealed value is bound to a context: name it to open");
  const key = (await ringOf(env)).byId.get(keyId);
  if (!key) throw new Error(`sealed under unknown key "${keyId}": keep it in DATA_ENCRYPTION_KEYS until its values are re-sealed`);
  try {
    const plain = await crypto.subtle.decrypt(
      { name: "AES-GCM", iv: fromBase64Url(iv), additionalData: additionalData(version, keyId, context) },
      key,
      fromBase64Url(ciphertext),
    );
    return new TextDecoder().decode(plain);
  } catch {
    throw new Error("sealed value could not be opened: wrong key or changed data");
  }
}

/** HMAC-SHA256 keys per key id, derived (HKDF-SHA256) from DATA_ENCRYPTION_KEYS for one purpose. */
const macRings = new Map<string, Promise<{ firstId: string; byId: Map<string, CryptoKey> }>>();

/**
 * The keyed-hash keys for `purpose`: one per DATA_ENCRYPTION_KEYS key, derived with HKDF so
 * neither the AES key nor another purpose's key is ever used for it. `firstId` hashes new values;
 * every listed key checks old ones, so rotating the keys keeps hashes made before checkable.
 */
export function macKeys(env: SealEnv, purpose: string): Promise<{ firstId: string; byId: Map<string, CryptoKey> }> {
  const cacheKey = `${purpose}\n${(env.DATA_ENCRYPTION_KEYS ?? "").trim()}`;
  let keys = macRings.get(cacheKey);
  if (!keys) {
    keys = (async () => {
      const ring = await ringOf(env);
      const byId = new Map<string, CryptoKey>();
      for (const [id, raw] of ring.rawById) {
        const base = await crypto.subtle.importKey("raw", raw, "HKDF", false, ["deriveKey"]);
        const key = await crypto.subtle.deriveKey(
          { name: "HKDF", hash: "SHA-256", salt: new Uint8Array(0), info: new TextEncoder().encode(`trivia-arena:${purpose}`) },
          base,
          { name: "HMAC", hash: "SHA-256", length: 256 },
          false,
          ["sign"],
        );
        byId.set(id, key);
      }
      return { firstId: ring.sealWith.id, byId };
    })();
    keys.catch(() => macRings.delete(cacheKey));
    macRings.set(cacheKey, keys);
  }
  return keys;
}

/**
 * What a payout's sealed account number is bound to (worker/crypto/sealed.ts, v2): its player,
 * routing number and last 4 digits, all known before the row exists (the payout id is not) and
 * never changed after. A sealed number copied onto another player's payout, or one to another
 * bank or account, does not open there.
 */
export const payoutSealContext = (p: { userId: number; routingNumber: string; accountLast4: string }) =>
  `payout-account:user=${p.userId};routing=${p.routingNumber};last4=${p.accountLast4}`;
