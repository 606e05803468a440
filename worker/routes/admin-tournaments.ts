// Operators create one-off tournaments (special events, house-funded free tournaments) beside
// the ones the cron schedules: the row, its questions and their usage count in one batch, then the
// room's alarm. Only unretired questions go in. A live show gets 10; a self-paced one a pool of
// QUESTION_DRAW_WIDTHS candidates per slot (question_draw), from which the room draws each player's.
import { Hono } from "hono";
import { and, eq, inArray, isNull, max, sql } from "drizzle-orm";
import { ADMIN_TOURNAMENT, createTournamentSchema, defaultFormat } from "../../common/api/admin";
import { DIFFICULTY_RAMP, QUESTION_DRAW_WIDTHS } from "../../common/spec";
import { pickQuestionPool } from "../../common/domain/questions";
import { categories, questions, tournamentQuestions, tournaments } from "../db/schema";
import { presentTournament } from "../db/present-tournament";
import { roomFor } from "../durable/room-client";
import { badRequest, conflict, notFound } from "../http/errors";
import { requireAdmin, requireUser } from "../http/middleware";
import { validate } from "../http/validate";
import { isUnretired, questionRetireAfter } from "../questions/usage";
import type { AppEnv } from "../http/app-env";

export const adminTournamentRoutes = new Hono<AppEnv>()
  .use(requireUser, requireAdmin)
  .post("/", validate("json", createTournamentSchema), async (c) => {
    const body = c.req.valid("json");
    const now = Date.now();
    if (body.startTime <= now) throw badRequest(ADMIN_TOURNAMENT.startInPast);
    const db = c.get("db");

    const category = await db
      .select({ id: categories.id, name: categories.name })
      .from(categories)
      .where(eq(categories.id, body.categoryId))
      .get();
    if (!category) throw notFound(ADMIN_TOURNAMENT.categoryNotFound, "category_not_found");
    const retireAfter = questionRetireAfter(c.env);
    const pool = (
      await db
        .select({ id: questions.id, difficulty: questions.difficultyLevel, paidUses: questions.paidUses })
        .from(questions)
        // A question an operator retired is in no draw.
        .where(and(eq(questions.categoryId, category.id), isNull(questions.retiredAt)))
        .all()
    ).filter((q) => isUnretired(q, retireAfter));
    const format = defaultFormat(body);
    // A live show asks everyone the same question on one clock; self-paced players each draw theirs.
    const picked = pickQuestionPool(pool, DIFFICULTY_RAMP, format === "live_show" ? [1] : QUESTION_DRAW_WIDTHS);
    if (!picked) throw conflict(ADMIN_TOURNAMENT.categoryTooFewQuestions, "not_enough_questions");
    const ids = picked.questions.map((q) => q.id);

    // One transaction: the tournament never exists without its questions. Inside the batch the
    // newest tournament id is the one just inserted (AUTOINCREMENT, one writer at a time).
    const newest = db.select({ id: max(tournaments.id) }).from(tournaments);
    const [[inserted]] = await db.batch([
      db
        .insert(tournaments)
        .values({
          title: body.title,
          description: body.description,
          categoryId: category.id,
          entryFeeCents: body.entryFee,
          prizePoolCents: body.isFree ? (body.prizePool ?? 0) : 0,
          maxParticipants: body.maxParticipants,
          minLevel: body.minLevel,
          startTime: body.startTime,
          endTime: body.startTime + body.durationMinutes * 60_000,
          status: "upcoming",
          isFree: body.isFree,
          format,
          questionDraw: picked.width,
        })
        .returning({ id: tournaments.id }),
      // Slot-major: "order" = slot * width + candidate, as pickQuestionPool returns them.
      db.insert(tournamentQuestions).values(ids.map((questionId, order) => ({ tournamentId: sql`${newest}`, questionId, order }))),
      db
        .update(questions)
        .set({ paidUses: sql`${questions.paidUses} + 1` })
        .where(inArray(questions.id, ids)),
    ]);
    const id = inserted!.id;

    // Arms the first alarm (the start time); the cron's init would otherwise do it within 5 minutes.
    await roomFor(c.env, id).init(id);

    const row = await db.select().from(tournaments).where(eq(tournaments.id, id)).get();
    return c.json(presentTournament(row!, category.name), 201);
  });
