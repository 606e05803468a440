// Private custom tournaments (docs/custom-tournaments.md): the questions drawn for one, and the
// batch that creates it. The creator picks nothing but the category: questions are drawn by the
// rules of every tournament. A paid one is prize play and takes fresh questions only, each once;
// a free one has no prize and draws from the practice pool (what can no longer decide a prize).
// Either way the tournament holds its questions (paid_uses) until it ends, when the room burns
// the ones it issued and gives back the others, as for every tournament.
import type { CustomTournamentDraft } from "../../common/api/custom-tournaments";
import { CUSTOM } from "../../common/messages";
import { DIFFICULTY_RAMP, INVITE_CODE_BYTES, QUESTION_DRAW_WIDTHS, TOURNAMENT_DURATION_MS } from "../../common/spec";
import { pickQuestionPool } from "../../common/domain/questions";
import { preferFresh, supplyState, usableForPractice, usableForPrize, type QuestionState } from "../../common/domain/question-supply";
import { base32, customMinLevel } from "../../common/domain/custom-tournaments";
import { formatCents } from "../../common/domain/money";
import { shardCount, shardSizeFrom } from "../../common/domain/shards";
import { conflict, notFound } from "../http/errors";
import { asState, SUPPLY_COLUMNS } from "../questions/usage";
import { claimGuardStatement, type KeyClaim } from "../money/idempotency";

/** A fresh invite code: 128 random bits in base32 (26 letters). */
export function newInviteCode(): string {
  return base32(crypto.getRandomValues(new Uint8Array(INVITE_CODE_BYTES)));
}

/** The ledger-free reference an idempotent create commits under: its invite code names the tournament. */
export const createReference = (inviteCode: string) => `custom_tournament:${inviteCode}`;
export const inviteCodeOfReference = (reference: string) => reference.slice("custom_tournament:".length);

interface BankRow extends QuestionState {
  id: number;
  difficulty: number;
}

/** The category's name and the questions drawn for the tournament (slot-major with the draw's width). */
async function drawQuestions(env: Env, draft: CustomTournamentDraft, demoReuse: boolean) {
  const d1 = env.DB;
  const category = await d1
    .prepare("SELECT id, name FROM categories WHERE id = ?")
    .bind(draft.categoryId)
    .first<{ id: number; name: string }>();
  if (!category) throw notFound("Category not found", "category_not_found");
  const { results } = await d1
    .prepare(`SELECT id, difficulty_level AS difficulty, ${SUPPLY_COLUMNS} FROM questions WHERE category_id = ?`)
    .bind(category.id)
    .all<BankRow>();
  const paid = draft.entryFeeCents > 0;
  const usable = results.map(asState).filter((q) => (paid ? usableForPrize(q, demoReuse) : usableForPractice(q, demoReuse)));
  // A live show asks everyone the same question on one clock; self-paced players each draw theirs.
  // A free one prefers burned questions: one kept for practice but never shown is held while the
  // tournament is upcoming (practice runs skip it meanwhile), a burned one stays in practice.
  const ranked = paid ? preferFresh(usable) : usable.map((q) => ({ ...q, seen: supplyState(q) !== "burned" }));
  const picked = pickQuestionPool(ranked, DIFFICULTY_RAMP, draft.format === "live_show" ? [1] : QUESTION_DRAW_WIDTHS);
  if (!picked) throw conflict(paid ? CUSTOM.tooFewQuestions : CUSTOM.tooFewPracticeQuestions, "not_enough_questions");
  return { category, questionIds: picked.questions.map((q) => q.id), width: picked.width };
}

/**
 * Creates the tournament, its questions and their use in one batch, conditional on the creator
 * having fewer than `openMax` upcoming custom tournaments (so two creates at once cannot pass the
 * cap together). With an idempotency claim the batch also records the key's reference. Returns the
 * new id, or null when the cap refused it.
 */
export async function createCustomTournament(
  env: Env,
  draft: CustomTournamentDraft,
  creatorId: number,
  inviteCode: string,
  o: { demoReuse: boolean; openMax: number; claim: KeyClaim | null },
): Promise<number | null> {
  const { category, questionIds, width } = await drawQuestions(env, draft, o.demoReuse);
  const d1 = env.DB;
  const room = `(SELECT count(*) FROM tournaments WHERE creator_user_id = ? AND status = 'upcoming') < ?`;
  const mine = "(SELECT id FROM tournaments WHERE invite_code = ?)";
  const fee = draft.entryFeeCents;
  const description = CUSTOM.description(category.name, fee > 0 ? formatCents(fee) : null, draft.format);
  const ids = JSON.stringify(questionIds);
  const statements = [
    ...(o.claim ? [claimGuardStatement(d1, o.claim)] : []),
    // The house adds nothing: the pool is 85% of the entry fees paid (none for a free one).
    d1
      .prepare(
        `INSERT INTO tournaments (title, description, category_id, entry_fee_cents, prize_pool_cents, max_participants, min_level,
           start_time, end_time, status, is_free, kind, format, question_draw, creator_user_id, invite_code, shard_count)
         SELECT ?, ?, ?, ?, 0, ?, ?, ?, ?, 'upcoming', ?, 'standard', ?, ?, ?, ?, ? WHERE ${room} RETURNING id`,
      )
      .bind(
        draft.title,
        description,
        category.id,
        fee,
        draft.seats,
        customMinLevel(fee),
        draft.startTime,
        draft.startTime + TOURNAMENT_DURATION_MS,
        fee === 0 ? 1 : 0,
        draft.format,
        width,
        creatorId,
        inviteCode,
        shardCount(draft.format, draft.seats, shardSizeFrom(env.TOURNAMENT_SHARD_SIZE)),
        creatorId,
        o.openMax,
      ),
    d1
      .prepare(
        `INSERT INTO tournament_questions (tournament_id, question_id, "order") SELECT ${mine}, value, key FROM json_each(?) WHERE ${mine} IS NOT NULL`,
      )
      .bind(inviteCode, ids, inviteCode),
    d1
      .prepare(`UPDATE questions SET paid_uses = paid_uses + 1 WHERE id IN (SELECT value FROM json_each(?)) AND ${mine} IS NOT NULL`)
      .bind(ids, inviteCode),
    // The key's reference only when the tournament was made: a refused create leaves the key free.
    ...(o.claim
      ? [
          d1
            .prepare(`UPDATE idempotency_keys SET reference = ? WHERE user_id = ? AND key = ? AND created_at = ? AND ${mine} IS NOT NULL`)
            .bind(createReference(inviteCode), o.claim.userId, o.claim.key, o.claim.claimedAt, inviteCode),
        ]
      : []),
  ];
  const results = await d1.batch<{ id: number }>(statements);
  const inserted = results[o.claim ? 1 : 0]?.results[0];
  return inserted?.id ?? null;
}
