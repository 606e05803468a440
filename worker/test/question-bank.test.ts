// The console's question bank: search and filters with each question's usage and real correct
// rate, create and edit by the import's rules, retire and restore (a retired question is in no
// draw at all), every change in the audit log.
import { describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import { AUTH } from "../../common/messages";
import { QUESTION_BANK, QUESTION_IMPORT } from "../../common/console-messages";
import { CALIBRATION_MIN_ANSWERS } from "../../common/spec";
import { runSchedule } from "../schedule/run-schedule";
import { call, registerUser } from "./helpers";
import { makeOperator } from "./fair-play-fixtures";
import {
  all,
  join,
  makeCategory,
  makePlayer,
  makePractice,
  makeTournament,
  one,
  type CategoryFixture,
  type Player,
} from "./tournament-fixtures";

const bank = (who: Player, query = "") => call(`/api/admin/questions${query}`, { cookie: who.cookie });

const form = (cat: CategoryFixture, over: Record<string, unknown> = {}) => ({
  categoryId: cat.id,
  question: `Which planet is the largest ${crypto.randomUUID().slice(0, 8)}?`,
  options: ["Jupiter", "Mars", "Venus", "Earth"],
  correctAnswer: "Jupiter",
  difficulty: 1,
  explanation: "By far.",
  ...over,
});

const auditOf = (targetId: number, action: string) =>
  all<{ actor_user_id: number; before: string | null; after: string | null; note: string | null }>(
    "SELECT actor_user_id, before, after, note FROM audit_log WHERE target_type = 'question' AND target_id = ? AND action = ? ORDER BY id",
    String(targetId),
    action,
  );

/** Writes answers to D1 as a settled tournament does: `correct` of `answers` right. */
async function answered(cat: CategoryFixture, questionId: number, answers: number, correct: number) {
  const t = await makeTournament(cat, { status: "completed", startTime: Date.now() - 3_600_000 });
  for (let i = 0; i < answers; i++) {
    const p = await makePlayer();
    await env.DB.prepare(
      "INSERT INTO user_responses (tournament_id, user_id, question_id, answer, is_correct, response_time) VALUES (?, ?, ?, 'x', ?, 2000)",
    )
      .bind(t.id, p.id, questionId, i < correct ? 1 : 0)
      .run();
  }
}

describe("the question bank's authorization", () => {
  it("refuses players 403 and operators without 2FA 403 admin_two_factor_required on every route", async () => {
    const cat = await makeCategory(1);
    const q = cat.questions[0]!;
    const player = await makePlayer();
    const noTwoFactor = await registerUser();
    await env.DB.prepare("UPDATE users SET role = 'admin' WHERE id = ?").bind(noTwoFactor.user.id).run();
    const routes: [string, string, unknown?][] = [
      ["GET", "/api/admin/questions"],
      ["POST", "/api/admin/questions", form(cat)],
      ["PUT", `/api/admin/questions/${q.id}`, form(cat)],
      ["POST", `/api/admin/questions/${q.id}/retire`, {}],
      ["POST", `/api/admin/questions/${q.id}/restore`, {}],
    ];
    for (const [method, path, body] of routes) {
      const asPlayer = await call(path, { method, cookie: player.cookie, body });
      expect(asPlayer.status, `${method} ${path}`).toBe(403);
      const asOperator = await call(path, { method, cookie: noTwoFactor.cookie, body });
      expect(asOperator.status, `${method} ${path}`).toBe(403);
      expect(asOperator.body).toEqual({ code: "admin_two_factor_required", message: AUTH.adminTwoFactorRequired });
    }
    expect(await one("SELECT retired_at FROM questions WHERE id = ?", q.id)).toEqual({ retired_at: null });
  });
});

describe("GET /api/admin/questions", () => {
  it("searches the text and filters by category, difficulty and supply state: fresh, held by a prize tournament, retired by an operator", async () => {
    const cat = await makeCategory(2);
    const op = await makeOperator();
    const [a, b, c] = cat.questions; // a, b: difficulty 1; c: difficulty 2
    await env.DB.prepare("UPDATE questions SET paid_uses = 1 WHERE id = ?").bind(a!.id).run();
    await env.DB.prepare("UPDATE questions SET retired_at = ? WHERE id = ?").bind(Date.now(), b!.id).run();

    const search = await bank(op, `?q=${encodeURIComponent(c!.question.toUpperCase())}`);
    expect(search.status, search.text).toBe(200);
    expect(search.body.items.map((i: { id: number }) => i.id)).toEqual([c!.id]);

    const ids = async (query: string) => (await bank(op, `?categoryId=${cat.id}${query}`)).body.items.map((i: { id: number }) => i.id);
    expect(await ids("&status=held")).toEqual([a!.id]);
    expect(await ids("&status=retired")).toEqual([b!.id]);
    expect(await ids("&difficulty=1&status=fresh")).toEqual([]);
    expect(await ids("&difficulty=2&status=fresh")).toEqual([c!.id, cat.questions[3]!.id]);
    const retired = (await bank(op, `?categoryId=${cat.id}&status=retired`)).body.items[0];
    expect(retired).toMatchObject({ id: b!.id, state: "retired", answerShownAt: null, retiredAt: expect.any(String) });
    expect((await bank(op, `?difficulty=4`)).status).toBe(400);
    expect((await bank(op, `?status=gone`)).status).toBe(400);
  });

  it("shows each question's usage and real correct rate, and suggests a difficulty when the rate disagrees", async () => {
    const cat = await makeCategory(4);
    const op = await makeOperator();
    // The first of each difficulty: every fixture tournament holds both.
    const [easy, hard] = [cat.questions[0], cat.questions[8]];
    // Set hard, but 19 of 20 got it right: it plays easy.
    await answered(cat, hard!.id, CALIBRATION_MIN_ANSWERS, CALIBRATION_MIN_ANSWERS - 1);
    // Set easy; 1 of 2 right is too few answers to say anything.
    await answered(cat, easy!.id, 2, 1);
    await env.DB.prepare("UPDATE questions SET paid_uses = 2 WHERE id = ?").bind(hard!.id).run();

    const items: Record<string, unknown>[] = (await bank(op, `?categoryId=${cat.id}`)).body.items;
    const byId = new Map(items.map((i) => [i.id, i]));
    expect(byId.get(hard!.id)).toMatchObject({
      difficulty: 3,
      paidUses: 2,
      tournaments: 2, // the fixture tournament of each answered() call holds it
      answers: CALIBRATION_MIN_ANSWERS,
      correctRate: (CALIBRATION_MIN_ANSWERS - 1) / CALIBRATION_MIN_ANSWERS,
      suggestedDifficulty: 1,
    });
    expect(byId.get(easy!.id)).toMatchObject({ answers: 2, correctRate: 0.5, suggestedDifficulty: null });
    expect(byId.get(cat.questions[3]!.id)).toMatchObject({ tournaments: 0, answers: 0, correctRate: null, suggestedDifficulty: null });
  });
});

describe("create and edit", () => {
  it("creates a question by the import's rules, refuses a bad one with every reason, and audits it", async () => {
    const cat = await makeCategory(1);
    const op = await makeOperator();
    const bad = await call("/api/admin/questions", {
      cookie: op.cookie,
      body: form(cat, { options: ["A", "a", "B", "C"], correctAnswer: "D", difficulty: 3, explanation: " " }),
    });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({
      code: "question_invalid",
      reasons: [QUESTION_IMPORT.optionRepeated("a"), QUESTION_IMPORT.correctNotAnOption("D"), QUESTION_IMPORT.explanationEmpty],
    });
    expect((await call("/api/admin/questions", { cookie: op.cookie, body: form(cat, { categoryId: 999_999 }) })).body.code).toBe(
      "category_not_found",
    );

    const input = form(cat, { correctAnswer: "jupiter" });
    const made = await call("/api/admin/questions", { cookie: op.cookie, body: input });
    expect(made.status, made.text).toBe(201);
    expect(made.body).toMatchObject({
      question: input.question,
      correctAnswer: "Jupiter",
      difficulty: 1,
      source: "console",
      retiredAt: null,
    });
    const [audit] = await auditOf(made.body.id, "question.create");
    expect(audit).toMatchObject({ actor_user_id: op.id, before: null });
    expect(JSON.parse(audit!.after!)).toMatchObject({ question: input.question, correctAnswer: "Jupiter" });

    const again = await call("/api/admin/questions", { cookie: op.cookie, body: input });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe("question_duplicate");
  });

  it("edits a question with before and after in the audit log", async () => {
    const cat = await makeCategory(1);
    const op = await makeOperator();
    const q = cat.questions[0]!;
    const res = await call(`/api/admin/questions/${q.id}`, {
      method: "PUT",
      cookie: op.cookie,
      body: form(cat, { question: q.question, options: ["Uno", "Dos", "Tres", "Cuatro"], correctAnswer: "Dos", difficulty: 2 }),
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ id: q.id, correctAnswer: "Dos", difficulty: 2 });
    expect(await one("SELECT correct_answer, difficulty_level FROM questions WHERE id = ?", q.id)).toEqual({
      correct_answer: "Dos",
      difficulty_level: 2,
    });
    const [audit] = await auditOf(q.id, "question.update");
    expect(JSON.parse(audit!.before!)).toMatchObject({ correctAnswer: q.correct });
    expect(JSON.parse(audit!.after!)).toMatchObject({ correctAnswer: "Dos" });
    expect((await call(`/api/admin/questions/999999999`, { method: "PUT", cookie: op.cookie, body: form(cat) })).status).toBe(404);
  });

  it("refuses 409 to edit a question an unfinished tournament has committed to, and allows it once that tournament is over", async () => {
    const cat = await makeCategory(4);
    const op = await makeOperator();
    const t = await makeTournament(cat, { entryFeeCents: 500 });
    const q = t.questions[0]!;
    const edit = () =>
      call(`/api/admin/questions/${q.id}`, { method: "PUT", cookie: op.cookie, body: form(cat, { question: q.question }) });
    const refused = await edit();
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({ code: "question_committed", message: QUESTION_BANK.committed([t.id]) });
    expect(await one("SELECT correct_answer FROM questions WHERE id = ?", q.id)).toEqual({ correct_answer: q.correct });
    expect(await auditOf(q.id, "question.update")).toEqual([]);

    await env.DB.prepare("UPDATE tournaments SET status = 'completed' WHERE id = ?").bind(t.id).run();
    expect((await edit()).status).toBe(200);
  });
});

describe("retire and restore", () => {
  it("takes a retired question out of the prize draws (schedule, operator create) and restore brings it back", async () => {
    // 12 fresh questions, two of them retired already: the 10 left are exactly one ramp's worth, so
    // every draw needs every one of them.
    const cat = await makeCategory(4);
    await env.DB.prepare("UPDATE questions SET retired_at = 1 WHERE id IN (?, ?)").bind(cat.questions[3]!.id, cat.questions[7]!.id).run();
    const op = await makeOperator();
    const q = cat.questions[0]!;
    const retire = await call(`/api/admin/questions/${q.id}/retire`, { cookie: op.cookie, body: { note: "answer disputed" } });
    expect(retire.status, retire.text).toBe(200);
    expect(retire.body.retiredAt).toEqual(expect.any(String));
    const [audit] = await auditOf(q.id, "question.retire");
    expect(audit).toMatchObject({ actor_user_id: op.id, note: "answer disputed" });

    // The scheduler skips the category's paid slots (9 fresh questions left) and its practice entry (nothing burned yet).
    await runSchedule(env, Date.now());
    expect(await all("SELECT id FROM tournaments WHERE category_id = ?", cat.id)).toEqual([]);
    // An operator's tournament cannot be made either.
    const body = {
      title: "Special",
      description: "A special cup",
      categoryId: cat.id,
      entryFee: 0,
      maxParticipants: 10,
      minLevel: 1,
      startTime: new Date(Date.now() + 3_600_000).toISOString(),
      durationMinutes: 30,
      isFree: true,
      format: "live_show",
    };
    const created = await call("/api/admin/tournaments", { cookie: op.cookie, body });
    expect(created.status, created.text).toBe(409);

    // Restored, it is in the draws again.
    const restore = await call(`/api/admin/questions/${q.id}/restore`, { cookie: op.cookie, body: {} });
    expect(restore.status, restore.text).toBe(200);
    expect(restore.body.retiredAt).toBeNull();
    expect(await auditOf(q.id, "question.restore")).toHaveLength(1);
    const again = await call("/api/admin/tournaments", { cookie: op.cookie, body });
    expect(again.status, again.text).toBe(201);
  });

  it("takes a retired question out of practice too, and restore brings it back", async () => {
    // Practice draws burned questions: all 12 burned, two retired already, so a run needs the other 10.
    const cat = await makeCategory(4);
    await env.DB.prepare("UPDATE questions SET answer_shown_at = 1 WHERE category_id = ?").bind(cat.id).run();
    await env.DB.prepare("UPDATE questions SET retired_at = 1 WHERE id IN (?, ?)").bind(cat.questions[3]!.id, cat.questions[7]!.id).run();
    const op = await makeOperator();
    const q = cat.questions[0]!;
    expect((await call(`/api/admin/questions/${q.id}/retire`, { cookie: op.cookie, body: {} })).status).toBe(200);
    const practice = await makePractice(cat);
    const player = await makePlayer();
    expect((await join(player, practice.id)).status).not.toBe(200);

    expect((await call(`/api/admin/questions/${q.id}/restore`, { cookie: op.cookie, body: {} })).status).toBe(200);
    const run = await join(player, practice.id);
    expect(run.status, run.text).toBe(200);
  });
});
