// The question supply as the console reads it (docs/questions.md): per category the fresh
// questions (by difficulty), those prize tournaments hold, those burned in the last days, the
// practice pool and the days of the schedule the fresh ones last; the scheduler's refused slot; the
// overview's warning; the bank's filter by supply state; and an operator keeping a question for
// practice (or giving it back: a burned one stays burned).
import { describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import type { AdminQuestion, CategorySupply, QuestionSupply } from "../../common/api/admin";
import type { AdminOverview } from "../../common/api/console";
import { QUESTION_SUPPLY_STATES } from "../../common/domain/question-supply";
import { AUTH } from "../../common/messages";
import { QUESTION_BANK } from "../../common/console-messages";
import { SUPPLY_BURN_WINDOW_DAYS, SUPPLY_WARN_DAYS } from "../../common/spec";
import { call, registerUser } from "./helpers";
import { makeOperator } from "./fair-play-fixtures";
import { all, makeCategory, makePlayer, one, type CategoryFixture, type Player } from "./tournament-fixtures";

const DAY = 86_400_000;

const set = (sql: string, ...params: unknown[]) =>
  env.DB.prepare(`UPDATE questions SET ${sql}`)
    .bind(...params)
    .run();

async function supplyOf(op: Player, categoryId: number, opts: Parameters<typeof call>[1] = {}) {
  const res = await call<QuestionSupply>("/api/admin/questions/supply", { cookie: op.cookie, ...opts });
  expect(res.status, res.text).toBe(200);
  return { ...res.body, category: res.body.categories.find((c) => c.categoryId === categoryId) };
}

async function lowInOverview(op: Player, categoryId: number) {
  const res = await call<AdminOverview>("/api/admin/overview", { cookie: op.cookie });
  expect(res.status, res.text).toBe(200);
  return res.body.lowQuestionSupply.find((c) => c.categoryId === categoryId);
}

const idsIn = async (op: Player, cat: CategoryFixture, status: string) => {
  const res = await call(`/api/admin/questions?categoryId=${cat.id}&status=${status}&pageSize=50`, { cookie: op.cookie });
  expect(res.status, res.text).toBe(200);
  return (res.body.items as AdminQuestion[]).map((q) => ({ id: q.id, state: q.state }));
};

const practiceOnly = (op: Player, id: number, body: unknown) =>
  call<AdminQuestion>(`/api/admin/questions/${id}/practice-only`, { cookie: op.cookie, body });

const auditRows = (id: number) =>
  all<{ actor_user_id: number; before: string; after: string; note: string | null }>(
    "SELECT actor_user_id, before, after, note FROM audit_log WHERE action = 'question.practice_only' AND target_type = 'question' AND target_id = ? ORDER BY id",
    String(id),
  );

/**
 * A category with a question in every state: 4 per difficulty, so q[0..3] easy, q[4..7] medium,
 * q[8..11] hard. Fresh: q2, q3 (easy), q6, q7 (medium), no hard one.
 */
async function categoryInEveryState(now: number) {
  const cat = await makeCategory(4);
  const q = cat.questions.map((x) => x.id);
  await set("paid_uses = 1 WHERE id = ?", q[0]); // held
  await set("answer_shown_at = ? WHERE id = ?", now - DAY, q[1]); // burned yesterday
  await set("paid_uses = 1, answer_shown_at = ? WHERE id = ?", now - 3_600_000, q[4]); // issued and burned an hour ago
  await set("answer_shown_at = ? WHERE id = ?", now - (SUPPLY_BURN_WINDOW_DAYS + 23) * DAY, q[5]); // burned a month ago
  await set("practice_only = 1 WHERE id = ?", q[8]); // practice only
  await set("practice_only = 1, paid_uses = 1 WHERE id = ?", q[9]); // held, then kept for practice
  await set("retired_at = ? WHERE id = ?", now, q[10]); // retired
  await set("retired_at = ?, practice_only = 1 WHERE id = ?", now, q[11]); // kept for practice, then retired
  return { cat, q };
}

describe("GET /api/admin/questions/supply", () => {
  it("counts each category's fresh questions by difficulty, the held ones, those burned in the window and the practice pool", async () => {
    const op = await makeOperator();
    const now = Date.now();
    const { cat, q } = await categoryInEveryState(now);

    const supply = await supplyOf(op, cat.id);
    expect(supply).toMatchObject({ demoReuse: false, burnWindowDays: SUPPLY_BURN_WINDOW_DAYS, warnBelowDays: SUPPLY_WARN_DAYS });
    expect(Date.parse(supply.generatedAt)).toBeGreaterThanOrEqual(now);
    expect(supply.category).toEqual<CategorySupply>({
      categoryId: cat.id,
      name: cat.name,
      fresh: 4,
      freshByDifficulty: { 1: 2, 2: 2, 3: 0 },
      held: 2, // q0, and q9: marked for practice while a prize tournament holds it, it is held until that one ends
      burnedRecently: 2, // q1 and q4; not q5, burned before the window
      practicePool: 4, // burned q1, q4, q5 and practice-only q8; not the held q9 nor the retired q11
      daysLeft: 0, // four questions are not one live show
      low: true,
      shortfall: null,
    });

    // Every state the bank's filter knows, exactly: each question in one, as its card says.
    const byState = Object.fromEntries(await Promise.all(QUESTION_SUPPLY_STATES.map(async (s) => [s, await idsIn(op, cat, s)])));
    const expected = {
      fresh: [q[2], q[3], q[6], q[7]],
      held: [q[0], q[9]],
      burned: [q[1], q[4], q[5]],
      practice_only: [q[8]],
      retired: [q[10], q[11]],
    };
    for (const s of QUESTION_SUPPLY_STATES) expect(byState[s], s).toEqual(expected[s].map((id) => ({ id, state: s })));
    const burned = (await call(`/api/admin/questions?categoryId=${cat.id}&status=burned`, { cookie: op.cookie })).body
      .items as AdminQuestion[];
    expect(burned[0]).toMatchObject({ id: q[1], answerShownAt: new Date(now - DAY).toISOString(), retiredAt: null });
  });

  it("says how many days of the schedule the fresh questions last, and warns under the threshold (also on the overview)", async () => {
    const op = await makeOperator();
    const cat = await makeCategory(0);
    // 560 fresh questions: 56 live shows, 7 days at 8 shows a day, exactly the threshold.
    await env.DB.prepare(
      `WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 559)
       INSERT INTO questions (category_id, question, difficulty_level, correct_answer, options, explanation)
       SELECT ?1, 'Supply question ' || i || '?', i % 3 + 1, 'Right', '["Right","A","B","C"]', 'Because.' FROM n`,
    )
      .bind(cat.id)
      .run();
    const full = await supplyOf(op, cat.id);
    expect(full.category).toMatchObject({ fresh: 560, freshByDifficulty: { 1: 187, 2: 187, 3: 186 }, daysLeft: 7, low: false });
    expect(await lowInOverview(op, cat.id)).toBeUndefined();

    // One kept for practice: 559 fresh, 55 shows, 6.8 days (rounded down): low.
    const first = await one<{ id: number }>("SELECT min(id) AS id FROM questions WHERE category_id = ?", cat.id);
    expect((await practiceOnly(op, first!.id, { practiceOnly: true })).status).toBe(200);
    const short = await supplyOf(op, cat.id);
    expect(short.category).toMatchObject({ fresh: 559, practicePool: 1, daysLeft: 6.8, low: true, shortfall: null });
    expect(await lowInOverview(op, cat.id)).toEqual({ categoryId: cat.id, name: cat.name, fresh: 559, daysLeft: 6.8, refusedSlot: false });
  });

  it("shows the scheduler's refused slot, on the supply and on the overview", async () => {
    const op = await makeOperator();
    const cat = await makeCategory(1); // 3 fresh questions
    const slotStart = Date.UTC(2026, 10, 26, 15);
    const notedAt = slotStart - 3 * 3_600_000;
    await env.DB.prepare("INSERT INTO question_shortfalls (category_id, slot_start, needed, available, noted_at) VALUES (?, ?, 10, 3, ?)")
      .bind(cat.id, slotStart, notedAt)
      .run();
    const supply = await supplyOf(op, cat.id);
    expect(supply.category).toMatchObject({
      fresh: 3,
      daysLeft: 0,
      low: true,
      shortfall: { slotStart: new Date(slotStart).toISOString(), needed: 10, available: 3, notedAt: new Date(notedAt).toISOString() },
    });
    expect(await lowInOverview(op, cat.id)).toEqual({ categoryId: cat.id, name: cat.name, fresh: 3, daysLeft: 0, refusedSlot: true });
  });

  it("says when the deployment reuses the demo bank, where the overview warns only of a skipped slot", async () => {
    const op = await makeOperator();
    const cat = await makeCategory(1);
    const reuse = { env: { DEMO_QUESTION_REUSE: "on" } };
    expect((await supplyOf(op, cat.id, reuse)).demoReuse).toBe(true);
    const overview = async () =>
      (await call<AdminOverview>("/api/admin/overview", { cookie: op.cookie, ...reuse })).body.lowQuestionSupply.find(
        (c) => c.categoryId === cat.id,
      );
    expect(await lowInOverview(op, cat.id)).toMatchObject({ fresh: 3, refusedSlot: false });
    expect(await overview()).toBeUndefined();
    await env.DB.prepare("INSERT INTO question_shortfalls (category_id, slot_start, needed, available, noted_at) VALUES (?, ?, 10, 3, ?)")
      .bind(cat.id, Date.now() + DAY, Date.now())
      .run();
    expect(await overview()).toMatchObject({ refusedSlot: true });
  });
});

describe("POST /api/admin/questions/:id/practice-only", () => {
  it("keeps a fresh question for practice once (one audit row; asking again changes nothing), and gives it back", async () => {
    const op = await makeOperator();
    const cat = await makeCategory(1);
    const id = cat.questions[0]!.id;

    const marked = await practiceOnly(op, id, { practiceOnly: true, note: "Too easy to look up" });
    expect(marked.status, marked.text).toBe(200);
    expect(marked.body).toMatchObject({ id, state: "practice_only", answerShownAt: null });
    const again = await practiceOnly(op, id, { practiceOnly: true });
    expect(again.status).toBe(200);
    expect(again.body.state).toBe("practice_only");
    expect(await auditRows(id)).toEqual([
      {
        actor_user_id: op.id,
        before: JSON.stringify({ practiceOnly: false }),
        after: JSON.stringify({ practiceOnly: true }),
        note: "Too easy to look up",
      },
    ]);
    expect(await idsIn(op, cat, "practice_only")).toEqual([{ id, state: "practice_only" }]);
    expect((await supplyOf(op, cat.id)).category).toMatchObject({ fresh: 2, practicePool: 1 });

    const back = await practiceOnly(op, id, { practiceOnly: false });
    expect(back.body).toMatchObject({ id, state: "fresh" });
    expect((await auditRows(id)).map((r) => r.after)).toEqual([
      JSON.stringify({ practiceOnly: true }),
      JSON.stringify({ practiceOnly: false }),
    ]);
    expect((await supplyOf(op, cat.id)).category).toMatchObject({ fresh: 3, practicePool: 0 });
  });

  it("marks a held question for practice, which it joins only once its prize tournament has ended; given back, it is held", async () => {
    const op = await makeOperator();
    const cat = await makeCategory(1);
    const id = cat.questions[0]!.id;
    await set("paid_uses = 1 WHERE id = ?", id);
    expect((await practiceOnly(op, id, { practiceOnly: true })).body).toMatchObject({ state: "held", practiceOnly: true });
    expect((await practiceOnly(op, id, { practiceOnly: false })).body).toMatchObject({ state: "held", practiceOnly: false });
    await practiceOnly(op, id, { practiceOnly: true });
    await set("paid_uses = 0 WHERE id = ?", id); // its tournament ended without asking it
    expect(await idsIn(op, cat, "practice_only")).toEqual([{ id, state: "practice_only" }]);
  });

  it("leaves a burned question burned whatever the mark", async () => {
    const op = await makeOperator();
    const cat = await makeCategory(1);
    const id = cat.questions[0]!.id;
    const shownAt = Date.now() - DAY;
    await set("answer_shown_at = ? WHERE id = ?", shownAt, id);

    // Not marked: taking the mark off changes nothing and records nothing.
    expect((await practiceOnly(op, id, { practiceOnly: false })).body).toMatchObject({ state: "burned" });
    expect(await auditRows(id)).toEqual([]);
    expect((await practiceOnly(op, id, { practiceOnly: true })).body).toMatchObject({ state: "burned" });
    const unmarked = await practiceOnly(op, id, { practiceOnly: false });
    expect(unmarked.body).toMatchObject({ state: "burned", answerShownAt: new Date(shownAt).toISOString() });
    expect(await auditRows(id)).toHaveLength(2);
    expect(await one("SELECT practice_only, answer_shown_at, paid_uses FROM questions WHERE id = ?", id)).toEqual({
      practice_only: 0,
      answer_shown_at: shownAt,
      paid_uses: 0,
    });
    expect(await idsIn(op, cat, "burned")).toEqual([{ id, state: "burned" }]);
  });

  it("refuses an unknown question and a body without a true or false", async () => {
    const op = await makeOperator();
    const cat = await makeCategory(1);
    const missing = await practiceOnly(op, 999_999_999, { practiceOnly: true });
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ code: "question_not_found", message: QUESTION_BANK.notFound });
    const bad = await practiceOnly(op, cat.questions[0]!.id, { practiceOnly: "yes" });
    expect(bad.status).toBe(400);
    expect(await one("SELECT practice_only FROM questions WHERE id = ?", cat.questions[0]!.id)).toEqual({ practice_only: 0 });
  });
});

describe("who may read the supply and mark questions", () => {
  it("answers 401 without a session, 403 to a player and to an operator without 2FA, and changes nothing", async () => {
    const cat = await makeCategory(1);
    const id = cat.questions[0]!.id;
    const player = await makePlayer();
    const noTwoFactor = await registerUser();
    await env.DB.prepare("UPDATE users SET role = 'admin' WHERE id = ?").bind(noTwoFactor.user.id).run();
    const routes: [string, string, unknown?][] = [
      ["GET", "/api/admin/questions/supply"],
      ["GET", "/api/admin/questions?status=fresh"],
      ["POST", `/api/admin/questions/${id}/practice-only`, { practiceOnly: true }],
    ];
    for (const [method, path, body] of routes) {
      expect((await call(path, { method, body })).status, `${method} ${path}`).toBe(401);
      expect((await call(path, { method, body, cookie: player.cookie })).status, `${method} ${path}`).toBe(403);
      const asOperator = await call(path, { method, body, cookie: noTwoFactor.cookie });
      expect(asOperator.status, `${method} ${path}`).toBe(403);
      expect(asOperator.body).toEqual({ code: "admin_two_factor_required", message: AUTH.adminTwoFactorRequired });
    }
    expect(await one("SELECT practice_only FROM questions WHERE id = ?", id)).toEqual({ practice_only: 0 });
    expect(await auditRows(id)).toEqual([]);
  });
});
