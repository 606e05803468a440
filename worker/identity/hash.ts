// The keyed hash of one person (docs/identity-and-tax.md, "One person, one account"): HMAC-SHA256
// of the identity key (common/domain/identity.ts: document number and country, else name and date
// of birth) under a key derived with HKDF-SHA256 from RECEIPT_SECRET for this purpose only. A plain
// hash of a document number could be reversed by trying numbers; without the secret this cannot.
// RECEIPT_SECRET rather than DATA_ENCRYPTION_KEYS: those rotate by adding keys, and a hash must stay
// the same for the same person for as long as accounts are compared. Rotating RECEIPT_SECRET makes
// existing hashes unmatchable (a returning person is then not recognised as a second account).
import { createHmac } from "node:crypto";
import { hkdf } from "@noble/hashes/hkdf.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { identityKeyInput } from "../../common/domain/identity";
import type { VerifiedIdentity } from "./provider";

const encoder = new TextEncoder();

function personKey(env: { RECEIPT_SECRET?: string }): Uint8Array {
  if (!env.RECEIPT_SECRET) throw new Error("RECEIPT_SECRET is not set");
  return hkdf(sha256, encoder.encode(env.RECEIPT_SECRET), new Uint8Array(0), encoder.encode("trivia-arena:identity-person/v1"), 32);
}

export const personHash = (env: { RECEIPT_SECRET?: string }, v: VerifiedIdentity) =>
  createHmac("sha256", personKey(env)).update(identityKeyInput(v)).digest("hex");
