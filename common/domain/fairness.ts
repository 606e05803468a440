// The commitment a tournament publishes before its start and opens after settlement
// (docs/fair-play.md, "Checking a tournament"). Pure, and the same code runs in the Worker and in
// the browser's "Verify fairness" panel: both hash the commitment with WebCrypto.
import { sha256 } from "@noble/hashes/sha2.js";

/** Names the encoding, so a future change of it cannot be mistaken for this one. */
export const FAIRNESS_ENCODING = "trivia-arena/fairness/v1";

export interface CommittedQuestion {
  questionId: number;
  correctAnswer: string;
}

/**
 * The exact text that is hashed: a JSON array of the encoding's name, the tournament id, the
 * salt and the [question id, correct answer] pairs in committed order. JSON fixes the escaping
 * of any character an answer may hold.
 */
export function fairnessPreimage(tournamentId: number, salt: string, questions: readonly CommittedQuestion[]): string {
  return JSON.stringify([FAIRNESS_ENCODING, tournamentId, salt, questions.map((q) => [q.questionId, q.correctAnswer])]);
}

/** Lowercase hex SHA-256 of the preimage. */
export async function fairnessCommitment(tournamentId: number, salt: string, questions: readonly CommittedQuestion[]): Promise<string> {
  const bytes = new TextEncoder().encode(fairnessPreimage(tournamentId, salt, questions));
  const digest = await crypto.subtle.digest("SHA-256", bytes);
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * Which candidate of a ramp slot a player draws when each player gets their own questions: a
 * byte of SHA-256(salt, player, slot). The salt is secret until settlement, so nobody can predict
 * a draw, and afterwards anyone can check that no player was handed chosen questions.
 */
export function drawCandidate(salt: string, userId: number, slot: number, width: number): number {
  if (width <= 1) return 0;
  // Synchronous (the room draws on its hot path), hence @noble/hashes rather than WebCrypto.
  const digest = sha256(new TextEncoder().encode(JSON.stringify([FAIRNESS_ENCODING, "draw", salt, userId, slot])));
  const value = ((digest[0]! << 24) | (digest[1]! << 16) | (digest[2]! << 8) | digest[3]!) >>> 0;
  return value % width;
}
