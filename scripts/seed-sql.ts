// Builds the idempotent seed as SQL: categories always; the committed question bank (the demo
// bank: its answers are public) only when asked; demo players and tournaments in every status
// only with `demo` (local development, never production).
import { SEED_CATEGORIES } from "../worker/seed/categories";
import { QUESTION_BANK, type BankQuestion } from "../worker/seed/question-bank";
import { DIFFICULTY_RAMP, FEATURED_MIN_NOTICE_MS, TOURNAMENT_DURATION_MS } from "../common/spec";
import { prizePoolFromFees, splitPrizePool } from "../common/domain/prizes";
import { levelForXp } from "../common/domain/levels";
import { CURRENT_LEGAL_VERSIONS } from "../common/legal/documents";

const q = (v: string | number | null) => (v === null ? "NULL" : typeof v === "number" ? String(v) : `'${v.replace(/'/g, "''")}'`);

/** The categories, and with `demoQuestions` the committed bank's questions (upserted by text). */
export function catalogueSql(opts: { demoQuestions: boolean }): string[] {
  const out: string[] = [];
  for (const c of SEED_CATEGORIES) {
    out.push(
      `INSERT INTO categories (slug, name, description, icon) VALUES (${q(c.slug)}, ${q(c.name)}, ${q(c.description)}, ${q(c.icon)})
       ON CONFLICT (slug) DO UPDATE SET name = excluded.name, description = excluded.description, icon = excluded.icon;`,
    );
    if (opts.demoQuestions) for (const item of QUESTION_BANK[c.slug]) out.push(questionSql(c.slug, item));
  }
  return out;
}

/** How many statements of `sql` insert categories and questions: what a plan reports. */
export function seedSummary(statements: readonly string[]): { categories: number; questions: number; other: number } {
  const categories = statements.filter((s) => s.startsWith("INSERT INTO categories")).length;
  const questions = statements.filter((s) => s.startsWith("INSERT INTO questions")).length;
  return { categories, questions, other: statements.length - categories - questions };
}

function questionSql(slug: string, item: BankQuestion): string {
  return `INSERT INTO questions (category_id, question, difficulty_level, correct_answer, options, explanation, time_limit, points, tags, generated_by)
    SELECT id, ${q(item.question)}, ${item.difficulty}, ${q(item.correctAnswer)}, ${q(JSON.stringify(item.options))}, ${q(item.explanation)}, 30, 10, ${q(JSON.stringify([slug]))}, 'seed'
    FROM categories WHERE slug = ${q(slug)}
    ON CONFLICT (category_id, question) DO UPDATE SET difficulty_level = excluded.difficulty_level,
      correct_answer = excluded.correct_answer, options = excluded.options, explanation = excluded.explanation;`;
}

const HOUR = 3_600_000;

interface DemoTournament {
  title: string;
  slug: string;
  feeCents: number;
  minLevel: number;
  max: number | null;
  /** Start relative to now. */
  startInMs: number;
  status: "upcoming" | "live" | "completed";
  isFree: boolean;
  housePoolCents?: number;
  /** Demo players in finishing order, with scores; only for completed ones. */
  results?: { player: string; score: number; correct: number; responseMs: number }[];
  /** Announced as a featured event when first seeded (docs/featured-events.md): its start must be a week or more away. */
  featured?: boolean;
}

/** An Elite (level 10) demo player, so a newcomer can try custom tournaments (docs/custom-tournaments.md). */
export const DEMO_ELITE_PLAYER = "elite_erin";
/** XP of level 10: 9,000 reach it (levelForXp). */
const DEMO_ELITE_XP = 9_400;

export const DEMO_PLAYERS = [
  "quizmaster_ana",
  "bytebard",
  "historyhank",
  "melody_mo",
  "geo_gabi",
  "sciencesam",
  DEMO_ELITE_PLAYER,
] as const;

const DEMO_TOURNAMENTS: DemoTournament[] = [
  {
    title: "Tech Titans Showdown",
    slug: "technology",
    feeCents: 1000,
    minLevel: 1,
    max: 50,
    startInMs: 2 * HOUR,
    status: "upcoming",
    isFree: false,
  },
  {
    title: "History Buffs Evening Cup",
    slug: "history",
    feeCents: 500,
    minLevel: 1,
    max: 50,
    startInMs: 5 * HOUR,
    status: "upcoming",
    isFree: false,
  },
  {
    title: "Science Starter (Free Entry)",
    slug: "science",
    feeCents: 0,
    minLevel: 1,
    max: 100,
    startInMs: 45 * 60_000,
    status: "upcoming",
    isFree: true,
    housePoolCents: 2500,
  },
  {
    title: "Geography Grand Prix",
    slug: "geography",
    feeCents: 2000,
    minLevel: 5,
    max: 30,
    startInMs: 26 * HOUR,
    status: "upcoming",
    isFree: false,
  },
  {
    title: "Movie Night Marathon",
    slug: "movies-tv",
    feeCents: 500,
    minLevel: 1,
    max: 50,
    startInMs: -2 * 24 * HOUR,
    status: "completed",
    isFree: false,
    results: [
      { player: "quizmaster_ana", score: 3620, correct: 9, responseMs: 61_400 },
      { player: "melody_mo", score: 2890, correct: 8, responseMs: 74_900 },
      { player: "bytebard", score: 2410, correct: 7, responseMs: 88_200 },
      { player: "geo_gabi", score: 1980, correct: 6, responseMs: 95_300 },
      { player: "historyhank", score: 1120, correct: 4, responseMs: 131_000 },
    ],
  },
  {
    title: "Music Legends Gala",
    slug: "music",
    feeCents: 0,
    minLevel: 1,
    max: 500,
    startInMs: 10 * 24 * HOUR,
    status: "upcoming",
    isFree: true,
    housePoolCents: 10000,
    featured: true,
  },
  {
    title: "Sports Legends Cup",
    slug: "sports",
    feeCents: 0,
    minLevel: 1,
    max: 100,
    startInMs: -26 * HOUR,
    status: "completed",
    isFree: true,
    housePoolCents: 5000,
    results: [
      { player: "sciencesam", score: 3310, correct: 9, responseMs: 70_100 },
      { player: "historyhank", score: 3005, correct: 8, responseMs: 66_000 },
      { player: "quizmaster_ana", score: 2770, correct: 8, responseMs: 92_700 },
    ],
  },
];

/** Demo data for local development: a few players with settled results and tournaments in every status. */
export function demoSql(now: number, passwordHash: string): string[] {
  const out: string[] = [];
  for (const name of DEMO_PLAYERS) {
    out.push(
      `INSERT INTO users (username, password_hash, email, bio, location) VALUES (${q(name)}, ${q(passwordHash)}, ${q(`${name}@demo.local`)}, 'Demo player for local development.', 'Lisbon, Portugal')
       ON CONFLICT DO NOTHING;`,
    );
  }
  // Demo players signed up like anyone: with the legal documents in force accepted.
  for (const [document, version] of Object.entries(CURRENT_LEGAL_VERSIONS)) {
    out.push(
      `INSERT INTO terms_acceptances (user_id, document, version, accepted_at) SELECT id, ${q(document)}, ${q(version)}, ${now} FROM users WHERE email LIKE '%@demo.local'
       ON CONFLICT DO NOTHING;`,
    );
  }
  for (const t of DEMO_TOURNAMENTS) {
    const start = now + t.startInMs;
    const end = t.status === "completed" ? start + TOURNAMENT_DURATION_MS : null;
    const participants = t.results?.length ?? 0;
    const pool = t.isFree ? (t.housePoolCents ?? 0) : prizePoolFromFees(participants * t.feeCents);
    const category = `(SELECT id FROM categories WHERE slug = ${q(t.slug)})`;
    out.push(
      `INSERT INTO tournaments (title, description, category_id, entry_fee_cents, prize_pool_cents, max_participants, current_participants, min_level, start_time, end_time, status, is_free, settled_at)
       SELECT ${q(t.title)}, ${q(`Ten ${t.slug.replace("-", " & ")} questions, four answers each, 30 seconds per question. Fastest correct answers win.`)}, ${category},
         ${t.feeCents}, ${pool}, ${t.max ?? "NULL"}, ${participants}, ${t.minLevel}, ${start}, ${end ?? "NULL"}, ${q(t.status)}, ${t.isFree ? 1 : 0}, ${t.status === "completed" ? end : "NULL"}
       WHERE NOT EXISTS (SELECT 1 FROM tournaments WHERE title = ${q(t.title)});`,
    );
    const tid = `(SELECT id FROM tournaments WHERE title = ${q(t.title)})`;
    // Announced when it is first seeded; a later run keeps that announcement.
    if (t.featured)
      out.push(
        `UPDATE tournaments SET featured_at = ${now} WHERE title = ${q(t.title)} AND featured_at IS NULL AND start_time - ${now} >= ${FEATURED_MIN_NOTICE_MS};`,
      );
    DIFFICULTY_RAMP.forEach((difficulty, order) => {
      out.push(
        `INSERT INTO tournament_questions (tournament_id, question_id, "order")
         SELECT ${tid}, (SELECT id FROM questions WHERE category_id = ${category} AND difficulty_level = ${difficulty} ORDER BY id LIMIT 1 OFFSET ${order}), ${order}
         ON CONFLICT (tournament_id, "order") DO NOTHING;`,
      );
    });
    if (!t.results) continue;
    const prizes = splitPrizePool(pool, t.results.length);
    t.results.forEach((r, i) => {
      const uid = `(SELECT id FROM users WHERE username = ${q(r.player)})`;
      const prize = prizes[i] ?? 0;
      out.push(
        `INSERT INTO tournament_participants (tournament_id, user_id, score, has_completed, rank, prize_cents, questions_answered, correct_answers, total_response_ms, finished_at, joined_at)
         VALUES (${tid}, ${uid}, ${r.score}, 1, ${i + 1}, ${prize}, 10, ${r.correct}, ${r.responseMs}, ${end}, ${start - HOUR})
         ON CONFLICT (tournament_id, user_id) DO NOTHING;`,
      );
      // Paid demo entries go through the ledger like real ones, so balances stay equal to ledger sums.
      if (t.feeCents > 0) {
        out.push(
          `INSERT INTO transactions (user_id, amount_cents, type, reference, description, created_at) VALUES (${uid}, ${5000}, 'deposit', ${q(`demo-deposit:${r.player}:${t.slug}`)}, 'Demo deposit', ${start - 2 * HOUR}) ON CONFLICT (reference) DO NOTHING;`,
          `INSERT INTO transactions (user_id, amount_cents, type, reference, description, created_at) SELECT ${uid}, ${-t.feeCents}, 'tournament_entry', 'entry:' || ${tid} || ':' || ${uid}, ${q(`Entry: ${t.title}`)}, ${start - HOUR} ON CONFLICT (reference) DO NOTHING;`,
        );
      }
      if (prize > 0) {
        out.push(
          `INSERT INTO transactions (user_id, amount_cents, type, reference, description, created_at) SELECT ${uid}, ${prize}, 'prize', 'prize:' || ${tid} || ':' || ${uid}, ${q(`Prize: ${t.title}`)}, ${end} ON CONFLICT (reference) DO NOTHING;`,
        );
      }
    });
  }
  // Counters follow from the settled demo results, so re-running the seed does not inflate them.
  out.push(
    `UPDATE users SET
       tournaments_played = (SELECT count(*) FROM tournament_participants p JOIN tournaments t ON t.id = p.tournament_id WHERE p.user_id = users.id AND t.status = 'completed'),
       tournaments_won = (SELECT count(*) FROM tournament_participants p JOIN tournaments t ON t.id = p.tournament_id WHERE p.user_id = users.id AND t.status = 'completed' AND p.rank = 1),
       experience_points = 600 * (SELECT count(*) FROM tournament_participants p WHERE p.user_id = users.id),
       level = 1 + (600 * (SELECT count(*) FROM tournament_participants p WHERE p.user_id = users.id)) / 1000
     WHERE email LIKE '%@demo.local';`,
    // The Elite demo player's XP is their own, not from the demo results above.
    `UPDATE users SET experience_points = ${DEMO_ELITE_XP}, level = ${levelForXp(DEMO_ELITE_XP)} WHERE username = ${q(DEMO_ELITE_PLAYER)};`,
  );
  return out;
}
