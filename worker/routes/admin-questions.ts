// Operators' question supply: import a CSV or JSON file of questions (upserted by text within a
// category, like the seed) and list the bank with each question's prize use and retirement.
import { Hono } from "hono";
import { and, asc, count, eq, gte, inArray, lt, type SQL } from "drizzle-orm";
import {
  adminQuestionListQuerySchema,
  questionImportSchema,
  type AdminQuestionPage,
  type QuestionImportReport,
} from "../../common/api/admin";
import { QUESTION_IMPORT } from "../../common/messages";
import { TOURNAMENT_PAGE_SIZE } from "../../common/spec";
import { parseQuestionImport } from "../../common/domain/question-import";
import { categories, questions } from "../db/schema";
import { requireAdmin, requireUser } from "../http/middleware";
import { validate } from "../http/validate";
import { questionRetireAfter } from "../questions/usage";
import type { AppEnv } from "../http/app-env";

export const adminQuestionRoutes = new Hono<AppEnv>()
  .use(requireUser, requireAdmin)
  .post("/import", validate("json", questionImportSchema), async (c) => {
    const { format, content } = c.req.valid("json");
    const db = c.get("db");
    const cats = await db.select({ id: categories.id, slug: categories.slug }).from(categories).all();
    const { accepted, rejected } = parseQuestionImport(
      format,
      content,
      cats.map((k) => k.slug),
    );
    if (accepted.length === 0) {
      const report: QuestionImportReport = { imported: 0, updated: 0, rejected };
      return c.json({ code: "invalid_request" as const, message: QUESTION_IMPORT.nothingValid, ...report }, 400);
    }
    const idOf = new Map(cats.map((k) => [k.slug, k.id]));
    const rows = accepted.map((q) => ({ ...q, categoryId: idOf.get(q.category)! }));

    // Which texts exist already, to tell updates from new questions (read per category touched).
    const touched = [...new Set(rows.map((r) => r.categoryId))];
    const existing = new Set(
      (
        await db
          .select({ categoryId: questions.categoryId, question: questions.question })
          .from(questions)
          .where(inArray(questions.categoryId, touched))
          .all()
      ).map((e) => `${e.categoryId}\n${e.question}`),
    );
    const updated = rows.filter((r) => existing.has(`${r.categoryId}\n${r.question}`)).length;

    // One batch: the file goes in whole or not at all. An existing text keeps its id, uses and source.
    const [first, ...rest] = rows.map((r) =>
      db
        .insert(questions)
        .values({
          categoryId: r.categoryId,
          question: r.question,
          difficultyLevel: r.difficulty,
          correctAnswer: r.correctAnswer,
          options: JSON.stringify(r.options),
          explanation: r.explanation,
          tags: JSON.stringify([r.category]),
          generatedBy: "import",
        })
        .onConflictDoUpdate({
          target: [questions.categoryId, questions.question],
          set: {
            difficultyLevel: r.difficulty,
            correctAnswer: r.correctAnswer,
            options: JSON.stringify(r.options),
            explanation: r.explanation,
          },
        }),
    );
    await db.batch([first!, ...rest]);
    const report: QuestionImportReport = { imported: rows.length - updated, updated, rejected };
    return c.json(report);
  })
  .get("/", validate("query", adminQuestionListQuerySchema), async (c) => {
    const query = c.req.valid("query");
    const db = c.get("db");
    const retireAfter = questionRetireAfter(c.env);
    const page = query.page ?? 1;
    const pageSize = query.pageSize ?? TOURNAMENT_PAGE_SIZE;
    const filters: SQL[] = [];
    if (query.categoryId !== undefined) filters.push(eq(questions.categoryId, query.categoryId));
    if (query.status === "active") filters.push(lt(questions.paidUses, retireAfter));
    if (query.status === "retired") filters.push(gte(questions.paidUses, retireAfter));
    const where = filters.length > 0 ? and(...filters) : undefined;
    const [items, counted] = await Promise.all([
      db
        .select()
        .from(questions)
        .where(where)
        .orderBy(asc(questions.categoryId), asc(questions.id))
        .limit(pageSize)
        .offset((page - 1) * pageSize)
        .all(),
      db.select({ n: count() }).from(questions).where(where).all(),
    ]);
    const total = counted[0]?.n ?? 0;
    const body: AdminQuestionPage = {
      items: items.map((q) => ({
        id: q.id,
        categoryId: q.categoryId,
        question: q.question,
        options: JSON.parse(q.options) as string[],
        correctAnswer: q.correctAnswer,
        difficulty: q.difficultyLevel,
        explanation: q.explanation,
        source: q.generatedBy,
        paidUses: q.paidUses,
        retired: q.paidUses >= retireAfter,
      })),
      total,
      page,
      pageSize,
      nextPage: page * pageSize < total ? page + 1 : null,
    };
    return c.json(body);
  });
