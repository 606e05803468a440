// The cron: keeps every category supplied with upcoming paid tournaments on the fee tiers and
// one always-open Practice tournament, each with 10 questions on the difficulty ramp. Running it
// again creates nothing new: paid tournaments sit on a fixed grid of start times and each insert
// is conditional on its slot being empty, inside the same batch as its questions and their usage
// count. Paid tournaments take only fresh questions, each once; practice only what can no longer
// decide a prize (common/domain/question-supply.ts, docs/questions.md). A slot the fresh questions
// cannot fill is skipped and recorded for the console (question_shortfalls).
import { DIFFICULTY_RAMP, FEE_TIERS, PRACTICE_MARKER, QUESTIONS_PER_TOURNAMENT, TOURNAMENT_DURATION_MS } from "../../common/spec";
import { pickQuestionsForRamp, type QuestionCandidate } from "../../common/domain/questions";
import { tierForSlot, upcomingSlots } from "../../common/domain/schedule";
import { formatCents } from "../../common/domain/money";
import { shardCount, shardSizeFrom } from "../../common/domain/shards";
import { roomFor } from "../durable/room-client";
import { preferFresh, usableForPractice, usableForPrize, type QuestionState } from "../../common/domain/question-supply";
import { asState, demoQuestionReuse, SUPPLY_COLUMNS } from "../questions/usage";

type CategoryRecord = { id: number; name: string };
type PoolRow = QuestionCandidate & QuestionState;

const TIER_TITLES: Record<(typeof FEE_TIERS)[number]["name"], string> = {
  standard: "Standard Cup",
  advanced: "Advanced Challenge",
  premium: "Premium Championship",
  elite: "Elite Masters",
};

export interface ScheduleReport {
  created: number[];
  initialised: number;
}

export async function runSchedule(env: Env, now: number): Promise<ScheduleReport> {
  const db = env.DB;
  const created: number[] = [];
  const reuse = demoQuestionReuse(env);
  const { results: categories } = await db.prepare("SELECT id, name FROM categories ORDER BY id").all<CategoryRecord>();
  for (const category of categories) {
    const { results } = await db
      .prepare(`SELECT id, difficulty_level AS difficulty, ${SUPPLY_COLUMNS} FROM questions WHERE category_id = ?`)
      .bind(category.id)
      .all<PoolRow>();
    const pool = results.map(asState);
    // Practice opens once it has ten questions that can no longer decide a prize.
    const practicePool = pool.filter((q) => usableForPractice(q, reuse));
    if (practicePool.length >= QUESTIONS_PER_TOURNAMENT) created.push(...(await ensurePractice(db, category, practicePool, now)));
    let prizePool = preferFresh(pool.filter((q) => usableForPrize(q, reuse)));
    for (const start of upcomingSlots(category.id, now)) {
      const made = await ensurePaid(db, category, prizePool, start, shardSizeFrom(env.TOURNAMENT_SHARD_SIZE));
      if (made.length === 0) continue;
      created.push(...made.map((m) => m.id));
      // The next slot of this run sees the questions just taken: each decides one prize.
      const used = new Set(made[0]!.questionIds);
      prizePool = preferFresh(
        prizePool.map((q) => (used.has(q.id) ? { ...q, paidUses: q.paidUses + 1 } : q)).filter((q) => usableForPrize(q, reuse)),
      );
    }
  }
  await db
    .prepare(
      `UPDATE categories SET active_tournaments =
         (SELECT count(*) FROM tournaments t WHERE t.category_id = categories.id AND t.status IN ('upcoming', 'live') AND t.kind <> 'practice_run' AND t.invite_code IS NULL)`,
    )
    .run();
  // New rooms set their first alarm; for the others this is a cheap check that one is set.
  const { results: open } = await db.prepare("SELECT id FROM tournaments WHERE status IN ('upcoming', 'live')").all<{ id: number }>();
  await Promise.all(open.map((t) => roomFor(env, t.id).init(t.id)));
  return { created, initialised: open.length };
}

const idsJson = (picked: QuestionCandidate[]) => JSON.stringify(picked.map((q) => q.id));

/** Questions for the tournament(s) matching `where` that have none yet, in one statement. */
function questionsStatement(db: D1Database, questionIds: string, where: string, params: unknown[]): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO tournament_questions (tournament_id, question_id, "order")
       SELECT t.id, j.value, j.key FROM tournaments t, json_each(?) AS j WHERE ${where}
       ON CONFLICT (tournament_id, "order") DO NOTHING`,
    )
    .bind(questionIds, ...params);
}

/** The tournament made for the slot (none when it was already filled, or cannot be) with the questions it took. */
async function ensurePaid(
  db: D1Database,
  category: CategoryRecord,
  prizePool: PoolRow[],
  start: number,
  shardSize: number,
): Promise<{ id: number; questionIds: number[] }[]> {
  // A private custom tournament that happens to start on the grid is not the slot's scheduled one.
  const slot = "category_id = ? AND start_time = ? AND entry_fee_cents > 0 AND invite_code IS NULL";
  const picked = pickQuestionsForRamp(prizePool, DIFFICULTY_RAMP);
  if (!picked) {
    // Recorded only while the slot is empty (a filled slot needs nothing from the pool), for the console.
    const filled = await db.prepare(`SELECT 1 FROM tournaments WHERE ${slot}`).bind(category.id, start).first();
    if (!filled) {
      console.warn(
        `schedule: skipped the paid tournament of category ${category.id} (${category.name}) at ${new Date(start).toISOString()}: ` +
          `${prizePool.length} fresh questions, ${QUESTIONS_PER_TOURNAMENT} needed`,
      );
      await db
        .prepare(
          `INSERT INTO question_shortfalls (category_id, slot_start, needed, available, noted_at) VALUES (?, ?, ?, ?, ?)
           ON CONFLICT (category_id) DO UPDATE SET slot_start = excluded.slot_start, needed = excluded.needed,
             available = excluded.available, noted_at = excluded.noted_at`,
        )
        .bind(category.id, start, QUESTIONS_PER_TOURNAMENT, prizePool.length, Date.now())
        .run();
    }
    return [];
  }
  const tier = tierForSlot(category.id, start);
  const description =
    `Ten ${category.name} questions from easy to hard, four answers each, 30 seconds per question. ` +
    `Entry $${formatCents(tier.entryFeeCents)}; 85% of all entry fees go to the top three (65/25/10). Starts with at least 10 players.`;
  const ids = idsJson(picked);
  const [, inserted] = await db.batch([
    // Counted before the insert and only while the slot is empty: a run that creates nothing counts nothing.
    db
      .prepare(
        `UPDATE questions SET paid_uses = paid_uses + 1 WHERE id IN (SELECT value FROM json_each(?)) AND NOT EXISTS (SELECT 1 FROM tournaments WHERE ${slot})`,
      )
      .bind(ids, category.id, start),
    db
      .prepare(
        // Scheduled paid tournaments are live shows: one shared clock, so nobody can pass answers on.
        `INSERT INTO tournaments (title, description, category_id, entry_fee_cents, prize_pool_cents, max_participants, min_level, start_time, end_time, status, is_free, format, shard_count)
         SELECT ?, ?, ?, ?, 0, ?, ?, ?, ?, 'upcoming', 0, 'live_show', ?
         WHERE NOT EXISTS (SELECT 1 FROM tournaments WHERE ${slot}) RETURNING id`,
      )
      .bind(
        `${category.name} ${TIER_TITLES[tier.name]}`,
        description,
        category.id,
        tier.entryFeeCents,
        tier.maxParticipants,
        tier.minLevel,
        start,
        start + TOURNAMENT_DURATION_MS,
        shardCount("live_show", tier.maxParticipants, shardSize),
        category.id,
        start,
      ),
    questionsStatement(db, ids, "t.category_id = ? AND t.start_time = ? AND t.entry_fee_cents > 0 AND t.invite_code IS NULL", [
      category.id,
      start,
    ]),
    db.prepare("DELETE FROM question_shortfalls WHERE category_id = ?").bind(category.id),
  ]);
  return (inserted!.results as { id: number }[]).map((r) => ({ id: r.id, questionIds: picked.map((q) => q.id) }));
}

async function ensurePractice(db: D1Database, category: CategoryRecord, pool: QuestionCandidate[], now: number): Promise<number[]> {
  const open = "category_id = ? AND kind = 'practice' AND status = 'live'";
  const [inserted] = await db.batch([
    db
      .prepare(
        `INSERT INTO tournaments (title, description, category_id, entry_fee_cents, prize_pool_cents, max_participants, min_level, start_time, end_time, status, is_free, kind)
         SELECT ?, ?, ?, 0, 0, NULL, 1, ?, NULL, 'live', 1, 'practice'
         WHERE NOT EXISTS (SELECT 1 FROM tournaments WHERE ${open}) RETURNING id`,
      )
      .bind(
        `${category.name} ${PRACTICE_MARKER}`,
        `Warm up with ten ${category.name} questions from easy to hard, fresh ones every run. Free and always open, as often as you like: no minimum, no prizes, and your correct answers still earn XP.`,
        category.id,
        now,
        category.id,
      ),
    questionsStatement(
      db,
      idsJson(pickQuestionsForRamp(pool, DIFFICULTY_RAMP)!),
      "t.category_id = ? AND t.kind = 'practice' AND t.status = 'live'",
      [category.id],
    ),
  ]);
  return (inserted!.results as { id: number }[]).map((r) => r.id);
}
