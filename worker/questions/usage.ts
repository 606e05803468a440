// Where the question rules (common/domain/question-supply.ts) meet D1: the demo-reuse setting,
// the columns a rule reads, and the statements that burn a finished tournament's questions and
// give back the ones it never issued (docs/questions.md).
import type { QuestionState } from "../../common/domain/question-supply";

/**
 * DEMO_QUESTION_REUSE: local runs of the public demo bank may reuse questions (on in
 * .dev.vars.example, so `npm start` keeps a playable schedule). `npm run deploy` refuses it.
 */
export function demoQuestionReuse(env: { DEMO_QUESTION_REUSE?: string }): boolean {
  return ["on", "true", "1", "yes"].includes((env.DEMO_QUESTION_REUSE ?? "").trim().toLowerCase());
}

/** The columns the supply rules read, under the names they use. */
export const SUPPLY_COLUMNS =
  "paid_uses AS paidUses, answer_shown_at AS answerShownAt, practice_only AS practiceOnly, retired_at AS retiredAt";

/** D1 gives booleans as 0/1. */
export const asState = <T extends Omit<QuestionState, "practiceOnly"> & { practiceOnly: number | boolean }>(
  row: T,
): Omit<T, "practiceOnly"> & QuestionState => ({
  ...row,
  practiceOnly: row.practiceOnly === true || row.practiceOnly === 1,
});

/**
 * A finished prize tournament's questions: those issued to anyone are burned (their answers are
 * shown at the end, or they were seen); those never issued (undrawn candidates of a pool, or all of
 * a tournament cancelled before its start) give their use back and may be drawn again. Guarded by
 * `guard` so that a statement re-run by a retried batch changes nothing.
 */
export function settleQuestionStatements(
  db: D1Database,
  q: { issued: number[]; unissued: number[]; at: number },
  guard: { sql: string; params: unknown[] },
): D1PreparedStatement[] {
  const out: D1PreparedStatement[] = [];
  if (q.unissued.length > 0)
    out.push(
      db
        .prepare(`UPDATE questions SET paid_uses = max(paid_uses - 1, 0) WHERE id IN (SELECT value FROM json_each(?)) AND ${guard.sql}`)
        .bind(JSON.stringify(q.unissued), ...guard.params),
    );
  if (q.issued.length > 0) out.push(burnStatement(db, q.issued, q.at, guard));
  return out;
}

/** Burns these questions (keeps the first time they were burned). */
export function burnStatement(
  db: D1Database,
  ids: number[],
  at: number,
  guard = { sql: "1", params: [] as unknown[] },
): D1PreparedStatement {
  return db
    .prepare(
      `UPDATE questions SET answer_shown_at = coalesce(answer_shown_at, ?) WHERE id IN (SELECT value FROM json_each(?)) AND ${guard.sql}`,
    )
    .bind(at, JSON.stringify(ids), ...guard.params);
}
