// The answers of a finished crowd, written straight into a room's storage by the bench entry
// (bench/worker/entry.ts) so that a 10,000-player settlement can be measured without playing
// 100,000 answers first. Every player answered every question, about one in four wrong, with
// response times that vary by player and question; the harness computes the same figures here.
// Imported by the bench's Worker entry too: no Node modules.

const wrong = (userId: number, ord: number) => (userId + ord) % 4 === 0;
const responseMs = (userId: number, ord: number) => 1200 + ((userId * 37 + ord * 101) % 9000);
const points = (userId: number, ord: number) => (wrong(userId, ord) ? 0 : 100 + ((userId * 7 + ord * 13) % 50));

/** One player's totals over `questions` questions, as the room will rank them. */
export function seededTotals(userId: number, questions: number): { score: number; totalResponseMs: number; correct: number } {
  let score = 0;
  let totalResponseMs = 0;
  let correct = 0;
  for (let ord = 0; ord < questions; ord++) {
    score += points(userId, ord);
    totalResponseMs += responseMs(userId, ord);
    if (!wrong(userId, ord)) correct++;
  }
  return { score, totalResponseMs, correct };
}

/** The same answers in the room's SQLite: ?1 is when the first question was issued. */
export const SEED_PLAYS_SQL = `
INSERT INTO plays (user_id, ord, issued_at, answer, is_correct, response_ms, points, xp, answered_at)
SELECT p.user_id, q.ord, ?1 + q.ord * 40000,
       CASE WHEN (p.user_id + q.ord) % 4 = 0
            THEN (SELECT o.value FROM json_each(q.options) AS o WHERE o.value <> q.correct_answer LIMIT 1)
            ELSE q.correct_answer END,
       CASE WHEN (p.user_id + q.ord) % 4 = 0 THEN 0 ELSE 1 END,
       1200 + (p.user_id * 37 + q.ord * 101) % 9000,
       CASE WHEN (p.user_id + q.ord) % 4 = 0 THEN 0 ELSE 100 + (p.user_id * 7 + q.ord * 13) % 50 END,
       CASE WHEN (p.user_id + q.ord) % 4 = 0 THEN 0 ELSE 12 END,
       ?1 + q.ord * 40000 + 1200 + (p.user_id * 37 + q.ord * 101) % 9000
FROM participants p CROSS JOIN questions q`;
