// The commitment to a tournament's questions (docs/decisions/015-per-question-commitment.md): made when
// the room first loads them, published to D1 before anyone can join, opened after settlement.
import { questionTree } from "../../../common/domain/fairness";
import type { RoomCore } from "./core";
import { commitmentStatement } from "./d1";
import { randomHex } from "./sockets";

/** The scheme every new commitment is made under (decision 015); rooms keep the version they were committed with. */
export const FAIRNESS_VERSION = 2;

export const committedOf = (questions: readonly { question_id: number; correct_answer: string }[]) =>
  questions.map((q) => ({ questionId: q.question_id, correctAnswer: q.correct_answer }));

/**
 * A fresh secret salt and the commitment to these questions under it: the root of their Merkle
 * tree, one leaf per question in committed order (common/domain/fairness.ts, decision 015).
 */
export async function commitTo(
  tournamentId: number,
  questions: readonly { question_id: number; correct_answer: string }[],
): Promise<{ salt: string; commitment: string; commitment_version: number }> {
  const salt = randomHex(32);
  const commitment = questionTree(tournamentId, salt, committedOf(questions)).tree.root;
  return { salt, commitment, commitment_version: FAIRNESS_VERSION };
}

/**
 * Puts the commitment in D1, where GET /api/tournaments/{id} shows it. A room from before
 * commitments existed gets one now, while its questions are still unseen.
 */
export async function publishCommitment(core: RoomCore): Promise<void> {
  const { store } = core;
  const meta = core.meta();
  // A play shard publishes nothing: the coordinator's commitment is the tournament's.
  if (meta.practice || meta.commitment_published || core.shard !== null) return;
  if (meta.commitment === null) {
    if (meta.phase !== "upcoming") return;
    const fresh = await commitTo(meta.tournament_id, store.questions());
    store.setCommitment(fresh.salt, fresh.commitment, false, fresh.commitment_version);
  }
  const { salt, commitment, commitment_version } = core.meta();
  await commitmentStatement(core.env.DB, meta.tournament_id, commitment!).run();
  store.setCommitment(salt!, commitment!, true, commitment_version);
}
