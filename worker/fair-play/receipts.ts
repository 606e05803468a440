// Signing and checking answer receipts: HMAC-SHA256 under RECEIPT_SECRET over receiptMessage().
// Synchronous (node:crypto), because the room signs on its hot path. What a receipt proves and
// what it does not: docs/decisions/009-answer-receipts.md.
import { createHmac, timingSafeEqual } from "node:crypto";
import type { AnswerReceipt } from "../../common/api/fair-play";
import { receiptMessage } from "../../common/domain/receipts";
import { FAIR_PLAY } from "../../common/messages";

export type UnsignedReceipt = Omit<AnswerReceipt, "signature" | "v">;

function secretOf(env: { RECEIPT_SECRET?: string }): string {
  const secret = env.RECEIPT_SECRET;
  if (!secret) throw new Error(FAIR_PLAY.receiptUnsigned);
  return secret;
}

const mac = (secret: string, text: string) => createHmac("sha256", secret).update(text).digest("hex");

export function signReceipt(env: { RECEIPT_SECRET?: string }, r: UnsignedReceipt): AnswerReceipt {
  const body = { v: 1 as const, ...r };
  return { ...body, signature: mac(secretOf(env), receiptMessage(body)) };
}

/** Whether the receipt is one this server signed, unchanged. */
export function isGenuineReceipt(env: { RECEIPT_SECRET?: string }, r: AnswerReceipt): boolean {
  const { signature, ...body } = r;
  const expected = Buffer.from(mac(secretOf(env), receiptMessage(body)), "hex");
  const given = Buffer.from(signature, "hex");
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * A keyed hash of a device cookie or network address: the collusion check compares them, and
 * neither the cookie nor the address is stored.
 */
export function identityHash(env: { RECEIPT_SECRET?: string }, kind: "device" | "network", value: string): string {
  return mac(secretOf(env), `${kind}:${value}`).slice(0, 32);
}
