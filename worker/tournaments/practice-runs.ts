// Practice: each category has one always-open practice entry that nobody joins directly. Starting
// it gives the player a run of their own (a tournament of kind practice_run) with ten questions
// drawn afresh from the category on the difficulty ramp, the ones they have not answered first.
// Practice draws only questions that can no longer decide a prize: burned ones and those operators
// keep for practice (common/domain/question-supply.ts), never one an operator retired.
// A player has at most one open run per category: pressing Start again resumes it.
import { DIFFICULTY_RAMP, PRACTICE_RUN_DURATION_MS, QUESTIONS_PER_TOURNAMENT } from "../../common/spec";
import { pickQuestionsForRamp, type QuestionCandidate } from "../../common/domain/questions";
import { usableForPractice, type QuestionState } from "../../common/domain/question-supply";
import { asState, SUPPLY_COLUMNS } from "../questions/usage";

/** The open run: live, this player's, this category's, and not yet finished by them. */
const OPEN_RUN = `kind = 'practice_run' AND owner_user_id = ?1 AND category_id = ?2 AND status = 'live'
  AND NOT EXISTS (SELECT 1 FROM tournament_participants p WHERE p.tournament_id = tournaments.id AND p.has_completed = 1)`;

/** The player's open run of this practice entry, created when there is none. Null when the category lacks questions. */
export async function openPracticeRun(
  db: D1Database,
  practice: { id: number; title: string; description: string; categoryId: number; imageUrl: string | null },
  userId: number,
  now: number,
  demoReuse: boolean,
): Promise<number | null> {
  const existing = await findOpenRun(db, userId, practice.categoryId);
  if (existing !== null) return existing;

  const { results: pool } = await db
    .prepare(
      `SELECT q.id, q.difficulty_level AS difficulty, ${SUPPLY_COLUMNS},
              EXISTS (SELECT 1 FROM user_responses r WHERE r.user_id = ?1 AND r.question_id = q.id) AS seen
       FROM questions q WHERE q.category_id = ?2`,
    )
    .bind(userId, practice.categoryId)
    .all<Omit<QuestionCandidate, "seen"> & Omit<QuestionState, "practiceOnly"> & { practiceOnly: number; seen: number }>();
  const picked = pickQuestionsForRamp(
    pool
      .map(asState)
      .filter((q) => usableForPractice(q, demoReuse))
      .map((q) => ({ id: q.id, difficulty: q.difficulty, seen: q.seen === 1 })),
    DIFFICULTY_RAMP,
  );
  if (!picked || picked.length < QUESTIONS_PER_TOURNAMENT) return null;

  // Both statements are conditional on the open run: two presses at once still make one run.
  await db.batch([
    db
      .prepare(
        `INSERT INTO tournaments (title, description, category_id, entry_fee_cents, prize_pool_cents, max_participants, min_level,
           start_time, end_time, status, image_url, is_free, kind, owner_user_id)
         SELECT ?3, ?4, ?2, 0, 0, 1, 1, ?5, ?6, 'live', ?7, 1, 'practice_run', ?1
         WHERE NOT EXISTS (SELECT 1 FROM tournaments WHERE ${OPEN_RUN})`,
      )
      .bind(userId, practice.categoryId, practice.title, practice.description, now, now + PRACTICE_RUN_DURATION_MS, practice.imageUrl),
    db
      .prepare(
        `INSERT INTO tournament_questions (tournament_id, question_id, "order")
         SELECT t.id, j.value, j.key FROM tournaments t, json_each(?3) AS j
         WHERE t.id = (SELECT max(id) FROM tournaments WHERE ${OPEN_RUN})
         ON CONFLICT (tournament_id, "order") DO NOTHING`,
      )
      .bind(userId, practice.categoryId, JSON.stringify(picked.map((q) => q.id))),
  ]);
  return findOpenRun(db, userId, practice.categoryId);
}

async function findOpenRun(db: D1Database, userId: number, categoryId: number): Promise<number | null> {
  const row = await db
    .prepare(`SELECT max(id) AS id FROM tournaments WHERE ${OPEN_RUN}`)
    .bind(userId, categoryId)
    .first<{ id: number | null }>();
  return row?.id ?? null;
}
