// An operator's tournament, from the validated request to D1: the category and questions checked
// (picked from the bank, or drawn at random from the category), then the statements that create
// it or change it together with their audit row. Plain data in and out, so the room can run the
// edit inside its own serial order (a join cannot slip in between the check and the change).
import type { TournamentDraft } from "../../common/api/admin";
import { ADMIN_TOURNAMENT, defaultFormat } from "../../common/api/admin";
import type { TournamentFormat } from "../../common/api/types";
import { ADMIN_TOURNAMENTS } from "../../common/console-messages";
import { DIFFICULTY_RAMP, QUESTION_DRAW_WIDTHS } from "../../common/spec";
import { pickQuestionPool } from "../../common/domain/questions";
import { shardCount } from "../../common/domain/shards";
import { badRequest, conflict, notFound } from "../http/errors";
import { preferFresh, usableForPrize, type QuestionState } from "../../common/domain/question-supply";
import { asState, demoQuestionReuse, SUPPLY_COLUMNS } from "../questions/usage";

/** A draft whose category and questions were checked: what goes into D1. */
export interface ResolvedDraft {
  title: string;
  description: string;
  categoryId: number;
  categoryName: string;
  entryFeeCents: number;
  prizePoolCents: number;
  maxParticipants: number | null;
  minLevel: number;
  startTime: number;
  endTime: number;
  isFree: boolean;
  format: TournamentFormat;
  questionDraw: number;
  /** In stored order (slot-major when players draw). */
  questionIds: number[];
}

/** What the audit log keeps of a tournament, before and after a change. */
export type TournamentSnapshot = Omit<ResolvedDraft, "categoryName">;

interface BankRow extends QuestionState {
  id: number;
  category_id: number;
  difficulty: number;
}

/**
 * Checks the category and the questions; throws the refusal the operator sees. An edit passes the
 * tournament's id: the questions it holds itself stay usable for it.
 */
export async function resolveDraft(env: Env, draft: TournamentDraft, editing: number | null = null): Promise<ResolvedDraft> {
  const d1 = env.DB;
  const category = await d1
    .prepare("SELECT id, name FROM categories WHERE id = ?")
    .bind(draft.categoryId)
    .first<{ id: number; name: string }>();
  if (!category) throw notFound(ADMIN_TOURNAMENT.categoryNotFound, "category_not_found");
  // Every operator's tournament is prize play for its questions (docs/questions.md): fresh ones only.
  const reuse = demoQuestionReuse(env);
  const own = new Set<number>();
  if (editing !== null) {
    const { results } = await d1
      .prepare("SELECT question_id FROM tournament_questions WHERE tournament_id = ?")
      .bind(editing)
      .all<{ question_id: number }>();
    for (const r of results) own.add(r.question_id);
  }
  const usable = (q: BankRow) => (own.has(q.id) && q.retiredAt === null) || usableForPrize(q, reuse);
  const format = defaultFormat(draft);
  let questionIds: number[];
  let questionDraw = 1;
  if (draft.questionIds) {
    const { results } = await d1
      .prepare(
        `SELECT id, category_id, difficulty_level AS difficulty, ${SUPPLY_COLUMNS} FROM questions WHERE id IN (SELECT value FROM json_each(?))`,
      )
      .bind(JSON.stringify(draft.questionIds))
      .all<BankRow>();
    const byId = new Map(results.map((q) => [q.id, asState(q)]));
    const missing = draft.questionIds.filter((id) => !byId.has(id));
    if (missing.length > 0) throw badRequest(ADMIN_TOURNAMENTS.questionNotFound(missing), "question_not_usable");
    const elsewhere = draft.questionIds.filter((id) => byId.get(id)!.category_id !== category.id);
    if (elsewhere.length > 0) throw badRequest(ADMIN_TOURNAMENTS.questionWrongCategory(elsewhere), "question_not_usable");
    const retired = draft.questionIds.filter((id) => !usable(byId.get(id)!));
    if (retired.length > 0) throw badRequest(ADMIN_TOURNAMENTS.questionRetired(retired), "question_not_usable");
    questionIds = draft.questionIds;
  } else {
    const { results } = await d1
      .prepare(`SELECT id, category_id, difficulty_level AS difficulty, ${SUPPLY_COLUMNS} FROM questions WHERE category_id = ?`)
      .bind(category.id)
      .all<BankRow>();
    // A live show asks everyone the same question on one clock; self-paced players each draw theirs.
    const picked = pickQuestionPool(
      preferFresh(results.map(asState).filter(usable)),
      DIFFICULTY_RAMP,
      format === "live_show" ? [1] : QUESTION_DRAW_WIDTHS,
    );
    if (!picked) throw conflict(ADMIN_TOURNAMENT.categoryTooFewQuestions, "not_enough_questions");
    questionIds = picked.questions.map((q) => q.id);
    questionDraw = picked.width;
  }
  return {
    title: draft.title,
    description: draft.description,
    categoryId: category.id,
    categoryName: category.name,
    entryFeeCents: draft.entryFee,
    prizePoolCents: draft.isFree ? (draft.prizePool ?? 0) : 0,
    maxParticipants: draft.maxParticipants,
    minLevel: draft.minLevel,
    startTime: draft.startTime,
    endTime: draft.startTime + draft.durationMinutes * 60_000,
    isFree: draft.isFree,
    format,
    questionDraw,
    questionIds,
  };
}

export const snapshotOf = ({ categoryName: _, ...rest }: ResolvedDraft): TournamentSnapshot => rest;

/** The tournament as D1 has it now, in the draft's terms; null when it does not exist. */
export async function loadSnapshot(d1: D1Database, tournamentId: number): Promise<TournamentSnapshot | null> {
  const [t, qs] = await d1.batch([
    d1.prepare("SELECT * FROM tournaments WHERE id = ?").bind(tournamentId),
    d1.prepare('SELECT question_id FROM tournament_questions WHERE tournament_id = ? ORDER BY "order"').bind(tournamentId),
  ]);
  const row = t?.results[0] as Record<string, unknown> | undefined;
  if (!row) return null;
  return {
    title: row.title as string,
    description: row.description as string,
    categoryId: row.category_id as number,
    entryFeeCents: row.entry_fee_cents as number,
    prizePoolCents: row.prize_pool_cents as number,
    maxParticipants: row.max_participants as number | null,
    minLevel: row.min_level as number,
    startTime: row.start_time as number,
    endTime: row.end_time as number,
    isFree: row.is_free === 1,
    format: row.format as TournamentFormat,
    questionDraw: row.question_draw as number,
    questionIds: (qs!.results as { question_id: number }[]).map((q) => q.question_id),
  };
}

/** Who asked and who approved, for a tournament a second operator let through. */
export interface ApprovalOrigin {
  approvalId: number;
  requestedBy: number;
}

const NEWEST = "(SELECT max(id) FROM tournaments)";

/** A draft's tournaments columns, in the order the INSERT and the UPDATE below name them. */
const columnValues = (t: ResolvedDraft) => [
  t.title,
  t.description,
  t.categoryId,
  t.entryFeeCents,
  t.prizePoolCents,
  t.maxParticipants,
  t.minLevel,
  t.startTime,
  t.endTime,
  t.isFree ? 1 : 0,
  t.format,
  t.questionDraw,
];

/**
 * Creates the tournament, its questions, their paid uses and the audit row in one batch. With an
 * approval, every statement runs only while no tournament was created for that approval yet (its
 * audit row says so), so a repeated or concurrent approval creates nothing more. Inside the batch
 * the newest tournament id is the one just inserted (AUTOINCREMENT, one writer at a time).
 */
export function createStatements(
  d1: D1Database,
  t: ResolvedDraft,
  actorId: number,
  origin: ApprovalOrigin | null,
  shardSize: number,
): D1PreparedStatement[] {
  const guard = origin
    ? `NOT EXISTS (SELECT 1 FROM audit_log WHERE action = 'tournament.create' AND target_type = 'tournament'
                   AND json_extract(after, '$.approvalId') = ${Number(origin.approvalId)})`
    : "1";
  const after = { ...snapshotOf(t), ...(origin ?? {}) };
  return [
    d1
      .prepare(
        `INSERT INTO tournaments (title, description, category_id, entry_fee_cents, prize_pool_cents, max_participants, min_level,
           start_time, end_time, status, is_free, format, question_draw, shard_count)
         SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, 'upcoming', ?, ?, ?, ? WHERE ${guard} RETURNING id`,
      )
      .bind(...columnValues(t), shardCount(t.format, t.maxParticipants, shardSize)),
    // "order" = slot * width + candidate, as pickQuestionPool returns them.
    d1
      .prepare(
        `INSERT INTO tournament_questions (tournament_id, question_id, "order") SELECT ${NEWEST}, value, key FROM json_each(?) WHERE ${guard}`,
      )
      .bind(JSON.stringify(t.questionIds)),
    d1
      .prepare(`UPDATE questions SET paid_uses = paid_uses + 1 WHERE id IN (SELECT value FROM json_each(?)) AND ${guard}`)
      .bind(JSON.stringify(t.questionIds)),
    d1
      .prepare(
        `INSERT INTO audit_log (actor_user_id, action, target_type, target_id, after, note)
         SELECT ?, 'tournament.create', 'tournament', ${NEWEST}, ?, ? WHERE ${guard}`,
      )
      .bind(actorId, JSON.stringify(after), origin ? `approval #${origin.approvalId}` : null),
  ];
}

/** The tournament an approval created, if it did. */
export async function createdForApproval(d1: D1Database, approvalId: number): Promise<number | null> {
  const row = await d1
    .prepare(
      "SELECT target_id FROM audit_log WHERE action = 'tournament.create' AND target_type = 'tournament' AND json_extract(after, '$.approvalId') = ?",
    )
    .bind(approvalId)
    .first<{ target_id: string }>();
  return row ? Number(row.target_id) : null;
}

/**
 * Changes a tournament nobody has joined: the row (only while it is upcoming and empty), and
 * when the questions change, their paid uses and the published commitment (the room commits to
 * the new questions before anyone can join). With the audit row, one batch.
 */
export function editStatements(
  d1: D1Database,
  tournamentId: number,
  before: TournamentSnapshot,
  t: ResolvedDraft,
  actorId: number,
): D1PreparedStatement[] {
  const questionsChanged = JSON.stringify(before.questionIds) !== JSON.stringify(t.questionIds);
  const statements = [
    d1
      .prepare(
        `UPDATE tournaments SET title = ?, description = ?, category_id = ?, entry_fee_cents = ?, prize_pool_cents = ?,
           max_participants = ?, min_level = ?, start_time = ?, end_time = ?, is_free = ?, format = ?, question_draw = ?
           ${questionsChanged ? ", fairness_commitment = NULL" : ""}
         WHERE id = ? AND status = 'upcoming' AND current_participants = 0`,
      )
      .bind(...columnValues(t), tournamentId),
  ];
  if (questionsChanged) {
    statements.push(
      d1
        .prepare("UPDATE questions SET paid_uses = max(paid_uses - 1, 0) WHERE id IN (SELECT value FROM json_each(?))")
        .bind(JSON.stringify(before.questionIds)),
      d1.prepare("DELETE FROM tournament_questions WHERE tournament_id = ?").bind(tournamentId),
      d1
        .prepare('INSERT INTO tournament_questions (tournament_id, question_id, "order") SELECT ?, value, key FROM json_each(?)')
        .bind(tournamentId, JSON.stringify(t.questionIds)),
      d1
        .prepare("UPDATE questions SET paid_uses = paid_uses + 1 WHERE id IN (SELECT value FROM json_each(?))")
        .bind(JSON.stringify(t.questionIds)),
    );
  }
  return statements.concat(
    d1
      .prepare(
        "INSERT INTO audit_log (actor_user_id, action, target_type, target_id, before, after) VALUES (?, 'tournament.update', 'tournament', ?, ?, ?)",
      )
      .bind(actorId, String(tournamentId), JSON.stringify(before), JSON.stringify(snapshotOf(t))),
  );
}
