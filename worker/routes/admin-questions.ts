// Operators' question bank: import a CSV or JSON file of questions (upserted by text within a
// category, like the seed); search and filter the bank with each question's usage and real
// correct rate; create and edit by the import's rules; retire from every draw and restore.
// Every change writes its audit row in the change's own batch.
import { Hono, type Context } from "hono";
import { and, asc, count, eq, gt, inArray, isNotNull, isNull, sql, type SQL } from "drizzle-orm";
import {
  ADMIN_TOURNAMENT,
  adminQuestionListQuerySchema,
  practiceOnlySchema,
  type AdminQuestionStatus,
  questionImportSchema,
  type AdminQuestionPage,
  type QuestionSupply,
  type QuestionImportReport,
} from "../../common/api/admin";
import { questionFormSchema, questionRetireSchema, type QuestionForm } from "../../common/api/question-bank";
import { QUESTION_BANK, QUESTION_IMPORT } from "../../common/console-messages";
import { TOURNAMENT_PAGE_SIZE } from "../../common/spec";
import { checkQuestion, parseQuestionImport } from "../../common/domain/question-import";
import { auditLog, categories, questions } from "../db/schema";
import { currentUser, requireAdmin, requireUser } from "../http/middleware";
import { idParam, validate } from "../http/validate";
import { conflict, HttpError, isUniqueViolation, notFound } from "../http/errors";
import { auditStatementIf } from "../admin/audit";
import { questionSupply } from "../questions/supply";
import { demoQuestionReuse } from "../questions/usage";
import { auditView, presentAdminQuestion, unfinishedTournamentsHolding, unfinishedTournamentsHoldingAny, usageOf } from "../questions/bank";
import type { Db } from "../db/client";
import type { AppEnv } from "../http/app-env";

export const adminQuestionRoutes = new Hono<AppEnv>()
  .use(requireUser, requireAdmin)
  .post("/import", validate("json", questionImportSchema), async (c) => {
    const { format, content } = c.req.valid("json");
    const db = c.get("db");
    const cats = await db.select({ id: categories.id, slug: categories.slug }).from(categories).all();
    const parsed = parseQuestionImport(
      format,
      content,
      cats.map((k) => k.slug),
    );
    const idOf = new Map(cats.map((k) => [k.slug, k.id]));
    const key = (r: { categoryId: number; question: string }) => `${r.categoryId}\n${r.question}`;
    const candidates = parsed.accepted.map((q) => ({ ...q, categoryId: idOf.get(q.category)! }));

    // Which texts exist already, to tell updates from new questions (read per category touched),
    // and which of those an unfinished prize tournament holds: an update would not reach its
    // committed copy (as with an edit), so that row is refused.
    const touched = [...new Set(candidates.map((r) => r.categoryId))];
    const existingRows =
      touched.length === 0
        ? []
        : await db
            .select({ id: questions.id, categoryId: questions.categoryId, question: questions.question })
            .from(questions)
            .where(inArray(questions.categoryId, touched))
            .all();
    const idOfText = new Map(existingRows.map((e) => [key(e), e.id]));
    const rejected = [...parsed.rejected];
    const rows: typeof candidates = [];
    const holding = await unfinishedTournamentsHoldingAny(
      c.env.DB,
      candidates.flatMap((r) => idOfText.get(key(r)) ?? []),
    );
    for (const r of candidates) {
      const ids = holding.get(idOfText.get(key(r)) ?? 0);
      if (ids) rejected.push({ row: r.row, reasons: [QUESTION_BANK.committed(ids)] });
      else rows.push(r);
    }
    rejected.sort((a, b) => a.row - b.row);
    if (rows.length === 0) {
      const report: QuestionImportReport = { imported: 0, updated: 0, rejected };
      return c.json({ code: "invalid_request" as const, message: QUESTION_IMPORT.nothingValid, ...report }, 400);
    }
    const updated = rows.filter((r) => idOfText.has(key(r))).length;

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
    const report: QuestionImportReport = { imported: rows.length - updated, updated, rejected };
    await db.batch([
      first!,
      ...rest,
      db.insert(auditLog).values({
        actorUserId: currentUser(c).id,
        action: "question.import",
        targetType: "question_import",
        targetId: null,
        after: JSON.stringify({ ...report, format }),
      }),
    ]);
    return c.json(report);
  })
  .get("/", validate("query", adminQuestionListQuerySchema), async (c) => {
    const query = c.req.valid("query");
    const db = c.get("db");
    const page = query.page ?? 1;
    const pageSize = query.pageSize ?? TOURNAMENT_PAGE_SIZE;
    const filters: SQL[] = [];
    if (query.q !== undefined) filters.push(sql`instr(lower(${questions.question}), lower(${query.q})) > 0`);
    if (query.categoryId !== undefined) filters.push(eq(questions.categoryId, query.categoryId));
    if (query.difficulty !== undefined) filters.push(eq(questions.difficultyLevel, query.difficulty));
    if (query.status !== undefined) filters.push(STATE_FILTERS[query.status]);
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
    const usage = await usageOf(
      db,
      items.map((q) => q.id),
    );
    const total = counted[0]?.n ?? 0;
    const body: AdminQuestionPage = {
      items: items.map((q) => presentAdminQuestion(q, usage.get(q.id)!)),
      total,
      page,
      pageSize,
      nextPage: page * pageSize < total ? page + 1 : null,
    };
    return c.json(body);
  })
  .post("/", validate("json", questionFormSchema), async (c) => {
    const form = await checkedForm(c.get("db"), c.req.valid("json"));
    const db = c.get("db");
    const actor = currentUser(c).id;
    let inserted: { id: number } | undefined;
    try {
      [[inserted]] = await db.batch([
        db
          .insert(questions)
          .values({
            categoryId: form.categoryId,
            question: form.question,
            difficultyLevel: form.difficulty,
            correctAnswer: form.correctAnswer,
            options: JSON.stringify(form.options),
            explanation: form.explanation,
            tags: JSON.stringify([form.category]),
            generatedBy: "console",
          })
          .returning({ id: questions.id }),
        // The newest question id is the one just inserted (AUTOINCREMENT, one writer at a time).
        db.insert(auditLog).values({
          actorUserId: actor,
          action: "question.create",
          targetType: "question",
          targetId: sql`(SELECT CAST(max(id) AS TEXT) FROM questions)`,
          after: JSON.stringify(auditViewOf({ ...form, retiredAt: null })),
        }),
      ]);
    } catch (e) {
      if (isUniqueViolation(e)) throw conflict(QUESTION_BANK.duplicate, "question_duplicate");
      throw e;
    }
    return c.json(await loadAdminQuestion(c, inserted!.id), 201);
  })
  .put("/:id", idParam, validate("json", questionFormSchema), async (c) => {
    const { id } = c.req.valid("param");
    const db = c.get("db");
    const before = await db.select().from(questions).where(eq(questions.id, id)).get();
    if (!before) throw notFound(QUESTION_BANK.notFound, "question_not_found");
    const form = await checkedForm(db, c.req.valid("json"));
    const holding = await unfinishedTournamentsHolding(c.env.DB, id);
    if (holding.length > 0) throw conflict(QUESTION_BANK.committed(holding), "question_committed");
    try {
      await db.batch([
        db
          .update(questions)
          .set({
            categoryId: form.categoryId,
            question: form.question,
            difficultyLevel: form.difficulty,
            correctAnswer: form.correctAnswer,
            options: JSON.stringify(form.options),
            explanation: form.explanation,
          })
          .where(eq(questions.id, id)),
        db.insert(auditLog).values({
          actorUserId: currentUser(c).id,
          action: "question.update",
          targetType: "question",
          targetId: String(id),
          before: JSON.stringify(auditView(before)),
          after: JSON.stringify(auditViewOf({ ...form, retiredAt: before.retiredAt })),
        }),
      ]);
    } catch (e) {
      if (isUniqueViolation(e)) throw conflict(QUESTION_BANK.duplicate, "question_duplicate");
      throw e;
    }
    return c.json(await loadAdminQuestion(c, id));
  })
  .get("/supply", async (c) => {
    const body: QuestionSupply = { ...(await questionSupply(c.env.DB, Date.now())), demoReuse: demoQuestionReuse(c.env) };
    return c.json(body);
  })
  .post("/:id/practice-only", idParam, validate("json", practiceOnlySchema), async (c) => {
    const { id } = c.req.valid("param");
    const { practiceOnly, note } = c.req.valid("json");
    const before = await c.get("db").select().from(questions).where(eq(questions.id, id)).get();
    if (!before) throw notFound(QUESTION_BANK.notFound, "question_not_found");
    // Taking the mark off a burned question leaves it burned: only a fresh one goes back to prize play.
    const d1 = c.env.DB;
    const pending = `practice_only = ${practiceOnly ? 0 : 1}`;
    await d1.batch([
      auditStatementIf(
        d1,
        currentUser(c).id,
        {
          action: "question.practice_only",
          targetType: "question",
          targetId: id,
          before: { practiceOnly: before.practiceOnly },
          after: { practiceOnly },
          note: note ?? null,
        },
        `EXISTS (SELECT 1 FROM questions WHERE id = ? AND ${pending})`,
        id,
      ),
      d1.prepare(`UPDATE questions SET practice_only = ? WHERE id = ? AND ${pending}`).bind(practiceOnly ? 1 : 0, id),
    ]);
    return c.json(await loadAdminQuestion(c, id));
  })
  .post("/:id/retire", idParam, validate("json", questionRetireSchema), (c) =>
    setRetired(c, c.req.valid("param").id, c.req.valid("json").note, true),
  )
  .post("/:id/restore", idParam, validate("json", questionRetireSchema), (c) =>
    setRetired(c, c.req.valid("param").id, c.req.valid("json").note, false),
  );

type Ctx = Context<AppEnv>;

/** The list's status filter, by the same precedence as supplyState (common/domain/question-supply.ts). */
const STATE_FILTERS: Record<AdminQuestionStatus, SQL> = {
  retired: isNotNull(questions.retiredAt),
  burned: and(isNull(questions.retiredAt), isNotNull(questions.answerShownAt))!,
  held: and(isNull(questions.retiredAt), isNull(questions.answerShownAt), gt(questions.paidUses, 0))!,
  practice_only: and(
    isNull(questions.retiredAt),
    isNull(questions.answerShownAt),
    eq(questions.paidUses, 0),
    eq(questions.practiceOnly, true),
  )!,
  fresh: and(isNull(questions.retiredAt), isNull(questions.answerShownAt), eq(questions.paidUses, 0), eq(questions.practiceOnly, false))!,
};

/** The form by the import's rules (every reason in one 400), with its category's slug. */
async function checkedForm(db: Db, form: QuestionForm) {
  const category = await db.select({ slug: categories.slug }).from(categories).where(eq(categories.id, form.categoryId)).get();
  if (!category) throw notFound(ADMIN_TOURNAMENT.categoryNotFound, "category_not_found");
  const checked = checkQuestion({ ...form, category: category.slug }, [category.slug]);
  if ("reasons" in checked)
    throw new HttpError(400, "question_invalid", QUESTION_BANK.invalid(checked.reasons), { reasons: checked.reasons });
  return { ...checked, categoryId: form.categoryId };
}

const auditViewOf = (q: {
  categoryId: number;
  question: string;
  options: string[];
  correctAnswer: string;
  difficulty: number;
  explanation: string | null;
  retiredAt: number | null;
}) => ({
  categoryId: q.categoryId,
  question: q.question,
  options: q.options,
  correctAnswer: q.correctAnswer,
  difficulty: q.difficulty,
  explanation: q.explanation,
  retiredAt: q.retiredAt,
});

async function loadAdminQuestion(c: Ctx, id: number) {
  const db = c.get("db");
  const row = await db.select().from(questions).where(eq(questions.id, id)).get();
  if (!row) throw notFound(QUESTION_BANK.notFound, "question_not_found");
  return presentAdminQuestion(row, (await usageOf(db, [id])).get(id)!);
}

/**
 * Retires (no draw takes it: scheduler, operators' tournaments, practice) or restores a question.
 * Tournaments already made keep it: their questions are committed. Asking for the state it is in
 * changes nothing and records nothing; the change and its audit row share one conditional batch.
 */
async function setRetired(c: Ctx, id: number, note: string | undefined, retire: boolean) {
  const before = await c.get("db").select().from(questions).where(eq(questions.id, id)).get();
  if (!before) throw notFound(QUESTION_BANK.notFound, "question_not_found");
  const stamp = Date.now();
  const d1 = c.env.DB;
  const pending = retire ? "retired_at IS NULL" : "retired_at IS NOT NULL";
  await d1.batch([
    auditStatementIf(
      d1,
      currentUser(c).id,
      {
        action: retire ? "question.retire" : "question.restore",
        targetType: "question",
        targetId: id,
        before: { retiredAt: before.retiredAt },
        after: { retiredAt: retire ? stamp : null },
        note: note ?? null,
      },
      `EXISTS (SELECT 1 FROM questions WHERE id = ? AND ${pending})`,
      id,
    ),
    d1.prepare(`UPDATE questions SET retired_at = ? WHERE id = ? AND ${pending}`).bind(retire ? stamp : null, id),
  ]);
  return c.json(await loadAdminQuestion(c, id));
}
