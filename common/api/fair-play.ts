// Fair play over the API: answer receipts, the fairness reveal of a settled tournament, the
// flags the room raises, held prizes, and the operators' question import. The rules behind them
// are in docs/fair-play.md; the checks themselves are pure functions in common/domain/.
import { z } from "zod";

// ---- Receipts ----

/**
 * What the server signs for every answer it accepts (HMAC-SHA256 under RECEIPT_SECRET). Anyone
 * holding one can ask POST /api/receipts/verify whether it is genuine. What a receipt proves:
 * docs/decisions/009-answer-receipts.md.
 */
export const answerReceiptSchema = z.object({
  v: z.literal(1),
  tournamentId: z.number().int().positive(),
  userId: z.number().int().positive(),
  questionId: z.number().int().positive(),
  answer: z.string().max(1000),
  /** When the server received the answer (ISO). */
  receivedAt: z.iso.datetime(),
  /** The response time the server counted, in ms. */
  responseMs: z.number().int().min(0),
  /** Points scored; null until the verdict is revealed (a live show's question, a self-paced prize tournament's end). */
  points: z.number().int().min(0).nullable(),
  /** Lowercase hex HMAC-SHA256 of receiptMessage(). */
  signature: z.string().regex(/^[0-9a-f]{64}$/),
});
export type AnswerReceipt = z.infer<typeof answerReceiptSchema>;

export interface ReceiptVerification {
  genuine: boolean;
}

/** GET /api/user/tournaments/{id}/receipts: the signed-in player's receipts of a tournament, in question order. */
export interface TournamentReceipts {
  tournamentId: number;
  receipts: (AnswerReceipt & { question: string })[];
}

// ---- The fairness reveal ----

/** One committed question as revealed after settlement. */
export interface RevealedQuestion {
  questionId: number;
  question: string;
  correctAnswer: string;
  /** Slot of the difficulty ramp (0-based). */
  slot: number;
  /** When it went out (a live show: to everyone; self-paced: first issue to anyone); null if never issued. */
  issuedAt: string | null;
  /** When its answer window closed (self-paced: the last close of anyone's); null if never issued. */
  closedAt: string | null;
  /** How many players were issued it. */
  timesIssued: number;
  /** The host voided it (it counted for nobody); the commitment still covers it. Absent otherwise. */
  voided?: true;
}

/** A drawn question of a v2 (Merkle) reveal: the question, its leaf's salt and its proof. */
export interface RevealedLeafQuestion extends RevealedQuestion {
  /** Its place in the pool and leaf index: slot * drawWidth + candidate. */
  order: number;
  /** Lowercase hex; derived from the room's secret salt, telling nothing about other leaves. */
  leafSalt: string;
  /** Sibling hashes from the leaf up to the root (lowercase hex). */
  proof: string[];
}

/**
 * GET /api/tournaments/{id}/fairness, once the tournament is settled: everything needed to check
 * the commitment published before the start (common/domain/fairness.ts). Which of the two
 * schemes the tournament was committed under is named by `scheme` (decision 015).
 */
export type FairnessReport = FlatFairnessReport | MerkleFairnessReport;

/** v1, tournaments committed before decision 015: one hash over every question, so all are revealed. */
export interface FlatFairnessReport {
  scheme: "flat-v1";
  tournamentId: number;
  commitment: string;
  salt: string;
  /** Candidates per ramp slot: 1 when everyone got the same questions, more when each player drew one per slot. */
  drawWidth: number;
  /** Every committed question (the whole pool when players drew), in committed order. */
  questions: RevealedQuestion[];
}

/**
 * v2: the commitment is the root of a Merkle tree with one leaf per question. Only the questions
 * issued to at least one player are revealed, each with its proof; the others stay secret.
 */
export interface MerkleFairnessReport {
  scheme: "merkle-v2";
  tournamentId: number;
  commitment: string;
  /** How many questions the tree commits to (the whole pool). */
  leafCount: number;
  drawWidth: number;
  /** The key every player's draw came from (lowercase hex); the room's salt itself stays secret. */
  drawKey: string;
  /** The drawn questions, in committed order. */
  questions: RevealedLeafQuestion[];
}

// ---- Flags and held prizes ----

export const FAIR_PLAY_FLAG_KINDS = ["inhuman_speed", "robotic_timing", "sub_second_perfect", "shared_device", "shared_network"] as const;
export type FairPlayFlagKind = (typeof FAIR_PLAY_FLAG_KINDS)[number];

/** A flag the room raised on a participant at settlement. */
export interface FairPlayFlag {
  kind: FairPlayFlagKind;
  /** For operators: the figures behind it (e.g. "3 correct answers under the reading floor"). */
  detail: string;
  /** The other account, for the shared device and network flags. */
  otherUserId?: number;
}

/** What a player is told about a review: the category, never the rule. */
export const REVIEW_REASON = {
  answer_timing: "Unusual answer timing",
  shared_connection: "Shared device or network with another player",
} as const;
export type ReviewReason = keyof typeof REVIEW_REASON;

export const reviewReasonOf = (flags: readonly FairPlayFlag[]): ReviewReason | null =>
  flags.length === 0
    ? null
    : flags.some((f) => f.kind === "inhuman_speed" || f.kind === "robotic_timing" || f.kind === "sub_second_perfect")
      ? "answer_timing"
      : "shared_connection";

export type PrizeStatus = "none" | "paid" | "held" | "forfeited";

/** A prize held for review, as operators see it. */
/** A release that waits for a second operator (the two-person rule): 202. */
export interface HeldPrizeReleaseRequested {
  approvalId: number;
  message: string;
}

export interface HeldPrize {
  /** The ledger row's id. */
  id: number;
  userId: number;
  username: string;
  tournamentId: number;
  tournamentTitle: string;
  /** USD. */
  amount: number;
  status: "held" | "completed" | "forfeited";
  flags: FairPlayFlag[];
  createdAt: string;
}

export interface CheatAttemptRow {
  id: number;
  userId: number;
  username: string;
  tournamentId: number;
  tournamentTitle: string;
  reason: string;
  timestamp: string;
  /** An operator looked at it (POST /api/admin/cheat-attempts/{id}/review) and wrote what came of it. */
  reviewed: boolean;
  resolution: string | null;
  /**
   * Refused answers by the same player in the same tournament after this one, counted instead of
   * stored: a player's rows stop at CHEAT_ATTEMPTS_STORED_MAX and the last one counts the rest.
   */
  suppressed: number;
}

export interface FlaggedParticipant {
  userId: number;
  username: string;
  tournamentId: number;
  tournamentTitle: string;
  rank: number | null;
  /** USD. */
  prize: number;
  prizeStatus: PrizeStatus;
  flags: FairPlayFlag[];
}

/** GET /api/admin/tournaments/{id}/integrity and /api/admin/users/{id}/integrity. */
export interface IntegrityReport {
  cheatAttempts: CheatAttemptRow[];
  flagged: FlaggedParticipant[];
}
