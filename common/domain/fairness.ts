// The commitment a tournament publishes before its start and opens after settlement
// (docs/fair-play.md, "Checking a tournament"). Pure, and the same code runs in the Worker and in
// the browser's "Verify fairness" panel.
//
// Two schemes: v1 (tournaments committed before decision 015) is one SHA-256 over every question
// and answer, so its reveal must show them all; v2 is a Merkle tree with one leaf per question
// (common/domain/merkle.ts), so the reveal shows only the questions that were drawn, each with
// its proof. v1 hashes with WebCrypto (async); v2 is synchronous (@noble/hashes) throughout.
import { sha256 } from "@noble/hashes/sha2.js";
import { hmac } from "@noble/hashes/hmac.js";
import { bytesToHex, utf8ToBytes } from "@noble/hashes/utils.js";
import { merkleLeafHash, merkleRootFromProof, merkleTree, type MerkleTree } from "./merkle";

/** Names the encoding, so a future change of it cannot be mistaken for this one. */
export const FAIRNESS_ENCODING = "trivia-arena/fairness/v1";
/** The per-question (Merkle) encoding of decision 015. */
export const FAIRNESS_ENCODING_V2 = "trivia-arena/fairness/v2";

/** How a tournament's commitment was made, as its fairness report names it. */
export type FairnessScheme = "flat-v1" | "merkle-v2";

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

// ---- v2: one Merkle leaf per question (docs/decisions/015-per-question-commitment.md) ----

const hmacHex = (key: string, message: string) => bytesToHex(hmac(sha256, utf8ToBytes(key), utf8ToBytes(message)));

/**
 * A leaf's own salt: HMAC-SHA256 keyed with the room's secret salt over "…/v2/leaf|<order>".
 * Revealing one tells nothing about the salt or any other leaf's, so an unrevealed leaf's hash
 * (a sibling in some proof) cannot be tested against guessed questions and answers.
 */
export const leafSalt = (salt: string, order: number): string => hmacHex(salt, `${FAIRNESS_ENCODING_V2}/leaf|${order}`);

/**
 * Under v2 the draws come from this key, not from the salt itself: it is revealed after
 * settlement (so anyone can recompute every draw) while the salt, from which the unrevealed
 * leaves' salts follow, never is.
 */
export const drawKey = (salt: string): string => hmacHex(salt, `${FAIRNESS_ENCODING_V2}/draw`);

/** The secret a room's draws come from: the salt under v1 (as before 015), the draw key under v2. */
export const drawSecret = (version: number, salt: string): string => (version >= 2 ? drawKey(salt) : salt);

/** What every leaf of a tournament's tree repeats, so that each revealed leaf also fixes them. */
export interface TreeHeader {
  tournamentId: number;
  /** How many questions the tree commits to (the whole pool). */
  leafCount: number;
  /** Lowercase hex; see drawKey(). */
  drawKey: string;
}

export interface LeafInput {
  /** The question's place in the pool, which is also its leaf index: slot * draw width + candidate. */
  order: number;
  questionId: number;
  correctAnswer: string;
  /** Lowercase hex; see leafSalt(). */
  leafSalt: string;
}

/**
 * The exact text of a leaf (hashed as SHA-256(0x00 || UTF-8 text)): a JSON array of the
 * encoding's name, the header and the question. JSON fixes the escaping of any answer.
 */
export function leafPreimage(h: TreeHeader, leaf: LeafInput): string {
  return JSON.stringify([
    FAIRNESS_ENCODING_V2,
    h.tournamentId,
    h.leafCount,
    h.drawKey,
    leaf.order,
    leaf.questionId,
    leaf.correctAnswer,
    leaf.leafSalt,
  ]);
}

export const questionLeafHash = (h: TreeHeader, leaf: LeafInput): string => merkleLeafHash(leafPreimage(h, leaf));

export interface QuestionTree {
  header: TreeHeader;
  /** Per order. */
  leafSalts: string[];
  tree: MerkleTree;
}

/** The tree of a tournament's questions, in committed order (index = order); its root is the commitment. */
export function questionTree(tournamentId: number, salt: string, questions: readonly CommittedQuestion[]): QuestionTree {
  const header: TreeHeader = { tournamentId, leafCount: questions.length, drawKey: drawKey(salt) };
  const leafSalts = questions.map((_, order) => leafSalt(salt, order));
  const leaves = questions.map((q, order) =>
    questionLeafHash(header, { order, questionId: q.questionId, correctAnswer: q.correctAnswer, leafSalt: leafSalts[order]! }),
  );
  return { header, leafSalts, tree: merkleTree(leaves) };
}

/** A revealed leaf as a v2 report carries it. */
export interface RevealedLeaf extends LeafInput {
  /** Sibling hashes from the leaf up to the root. */
  proof: readonly string[];
}

export interface TreeReveal extends TreeHeader {
  commitment: string;
  questions: readonly RevealedLeaf[];
}

export interface TreeCheck {
  /** Per revealed question: the root its leaf and proof lead to (null: the proof cannot fit the tree). */
  roots: (string | null)[];
  /** How many revealed questions lead to the commitment. */
  verified: number;
  /** Every revealed question leads to the commitment, each at its own place. */
  ok: boolean;
}

/** Recomputes each revealed leaf and follows its proof: what the browser's "Verify fairness" does. */
export function checkTreeReveal(r: TreeReveal): TreeCheck {
  const roots = r.questions.map((q) => merkleRootFromProof(questionLeafHash(r, q), q.order, r.leafCount, q.proof));
  const verified = roots.filter((root) => root === r.commitment).length;
  const distinct = new Set(r.questions.map((q) => q.order)).size === r.questions.length;
  return { roots, verified, ok: distinct && verified === r.questions.length };
}
