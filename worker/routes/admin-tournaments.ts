// Operators create one-off tournaments (special events, house-funded free tournaments) beside
// the ones the cron schedules: the row and its 10 questions in one batch, then the room's alarm.
import { Hono } from "hono";
import { eq } from "drizzle-orm";
import { ADMIN_TOURNAMENT, createTournamentSchema } from "../../common/api/admin";
import { DIFFICULTY_RAMP } from "../../common/spec";
import { pickQuestionsForRamp, type QuestionCandidate } from "../../common/domain/questions";
import { tournaments } from "../db/schema";
import { presentTournament } from "../db/present-tournament";
import { roomFor } from "../durable/room-client";
import { badRequest, conflict, notFound } from "../http/errors";
import { requireUser } from "../http/middleware";
import { jsonBody } from "../http/validate";
import type { AppEnv } from "../http/app-env";
import { requireAdmin } from "./admin";

export const adminTournamentRoutes = new Hono<AppEnv>().use(requireUser, requireAdmin).post("/", async (c) => {
  const body = await jsonBody(c, createTournamentSchema);
  const now = Date.now();
  if (body.startTime <= now) throw badRequest(ADMIN_TOURNAMENT.startInPast);
  const db = c.env.DB;

  const category = await db.prepare("SELECT id, name FROM categories WHERE id = ?").bind(body.categoryId).first<{ id: number; name: string }>();
  if (!category) throw notFound(ADMIN_TOURNAMENT.categoryNotFound);
  const { results: pool } = await db
    .prepare("SELECT id, difficulty_level AS difficulty FROM questions WHERE category_id = ?")
    .bind(category.id)
    .all<QuestionCandidate>();
  const picked = pickQuestionsForRamp(pool, DIFFICULTY_RAMP);
  if (!picked) throw conflict(ADMIN_TOURNAMENT.categoryTooFewQuestions);

  // One transaction: the tournament never exists without its questions. Inside the batch the
  // newest tournament id is the one just inserted (AUTOINCREMENT, one writer at a time).
  const [inserted] = await db.batch([
    db
      .prepare(
        `INSERT INTO tournaments (title, description, category_id, entry_fee_cents, prize_pool_cents, max_participants, min_level, start_time, end_time, status, is_free)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'upcoming', ?) RETURNING id`,
      )
      .bind(
        body.title, body.description, category.id, body.entryFee, body.isFree ? (body.prizePool ?? 0) : 0, body.maxParticipants, body.minLevel,
        body.startTime, body.startTime + body.durationMinutes * 60_000, body.isFree ? 1 : 0,
      ),
    db
      .prepare(
        `INSERT INTO tournament_questions (tournament_id, question_id, "order")
         SELECT (SELECT max(id) FROM tournaments), j.value, j.key FROM json_each(?) AS j`,
      )
      .bind(JSON.stringify(picked.map((q) => q.id))),
  ]);
  const id = (inserted!.results as { id: number }[])[0]!.id;

  // Arms the first alarm (the start time); the cron's init would otherwise do it within 5 minutes.
  await roomFor(c.env, id).init(id);

  const row = await c.get("db").select().from(tournaments).where(eq(tournaments.id, id)).get();
  return c.json(presentTournament(row!, category.name), 201);
});
