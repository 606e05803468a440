// The question supply per category, for the console's Questions screen and the overview's
// warning (docs/questions.md, "The supply"). Three grouped reads whatever the bank's size.
import type { CategorySupply, QuestionSupply } from "../../common/api/admin";
import { daysOfSupply } from "../../common/domain/question-supply";
import { SUPPLY_BURN_WINDOW_DAYS, SUPPLY_WARN_DAYS } from "../../common/spec";
import { iso } from "../db/present";

const DAY_MS = 24 * 60 * 60 * 1000;

interface CountRow {
  category_id: number;
  name: string;
  fresh1: number;
  fresh2: number;
  fresh3: number;
  held: number;
  burned_recently: number;
  practice_pool: number;
}

export async function questionSupply(d1: D1Database, now: number): Promise<Omit<QuestionSupply, "demoReuse">> {
  const since = now - SUPPLY_BURN_WINDOW_DAYS * DAY_MS;
  const fresh = "q.retired_at IS NULL AND q.answer_shown_at IS NULL AND q.practice_only = 0 AND q.paid_uses = 0";
  const [counts, shortfalls] = await d1.batch([
    d1
      .prepare(
        `SELECT c.id AS category_id, c.name,
         count(CASE WHEN ${fresh} AND q.difficulty_level = 1 THEN 1 END) AS fresh1,
         count(CASE WHEN ${fresh} AND q.difficulty_level = 2 THEN 1 END) AS fresh2,
         count(CASE WHEN ${fresh} AND q.difficulty_level NOT IN (1, 2) THEN 1 END) AS fresh3,
         count(CASE WHEN q.retired_at IS NULL AND q.answer_shown_at IS NULL AND q.paid_uses > 0 THEN 1 END) AS held,
         count(CASE WHEN q.answer_shown_at >= ?1 THEN 1 END) AS burned_recently,
         count(CASE WHEN q.retired_at IS NULL AND (q.answer_shown_at IS NOT NULL OR (q.practice_only = 1 AND q.paid_uses = 0)) THEN 1 END)
           AS practice_pool
       FROM categories c LEFT JOIN questions q ON q.category_id = c.id
       GROUP BY c.id ORDER BY c.id`,
      )
      .bind(since),
    d1.prepare("SELECT category_id, slot_start, needed, available, noted_at FROM question_shortfalls"),
  ]);
  const refused = new Map(
    (shortfalls!.results as { category_id: number; slot_start: number; needed: number; available: number; noted_at: number }[]).map((s) => [
      s.category_id,
      { slotStart: iso(s.slot_start), needed: s.needed, available: s.available, notedAt: iso(s.noted_at) },
    ]),
  );
  const categories = (counts!.results as CountRow[]).map((r): CategorySupply => {
    const total = r.fresh1 + r.fresh2 + r.fresh3;
    const daysLeft = daysOfSupply(total);
    const shortfall = refused.get(r.category_id) ?? null;
    return {
      categoryId: r.category_id,
      name: r.name,
      fresh: total,
      freshByDifficulty: { 1: r.fresh1, 2: r.fresh2, 3: r.fresh3 },
      held: r.held,
      burnedRecently: r.burned_recently,
      practicePool: r.practice_pool,
      daysLeft,
      low: shortfall !== null || (daysLeft !== null && daysLeft < SUPPLY_WARN_DAYS),
      shortfall,
    };
  });
  return {
    generatedAt: iso(now),
    burnWindowDays: SUPPLY_BURN_WINDOW_DAYS,
    warnBelowDays: SUPPLY_WARN_DAYS,
    categories,
  };
}
