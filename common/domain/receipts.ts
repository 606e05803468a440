// The signed text of an answer receipt (docs/decisions/009-answer-receipts.md). The Worker signs
// and verifies it with HMAC-SHA256; this only fixes what is signed, so both sides agree.
import type { AnswerReceipt } from "../api/fair-play";

/** The fields in a fixed order, as JSON: every field but the signature. */
export function receiptMessage(r: Omit<AnswerReceipt, "signature">): string {
  return JSON.stringify([r.v, r.tournamentId, r.userId, r.questionId, r.answer, r.receivedAt, r.responseMs, r.points]);
}
