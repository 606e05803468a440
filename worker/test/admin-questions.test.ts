// Operators' question supply: POST /api/admin/questions/import (CSV or JSON, upsert by text, a
// report of refused rows) and GET /api/admin/questions (paid uses and each question's supply state).
import { describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import { QUESTION_BANK, QUESTION_IMPORT } from "../../common/console-messages";
import { call } from "./helpers";
import { makeAdmin } from "./money-helpers";
import { all, makeCategory, makePlayer, makeTournament, one, type Player } from "./tournament-fixtures";

async function makeOperator(): Promise<Player> {
  const p = await makePlayer();
  await makeAdmin(p.id);
  return p;
}

const importFile = (who: Player | null, body: unknown) => call("/api/admin/questions/import", { cookie: who?.cookie, body });

const HEADER = "category,question,option_a,option_b,option_c,option_d,correct_answer,difficulty,explanation";

describe("POST /api/admin/questions/import", () => {
  it("is for operators only", async () => {
    const cat = await makeCategory(1);
    const body = {
      format: "csv",
      content: `${HEADER}\n${cat.slug},Which is the largest planet?,Jupiter,Mars,Venus,Earth,Jupiter,1,By far.`,
    };
    expect((await importFile(null, body)).status).toBe(401);
    expect((await importFile(await makePlayer(), body)).status).toBe(403);
    expect(
      await one<{ n: number }>("SELECT count(*) AS n FROM questions WHERE category_id = ? AND generated_by = 'import'", cat.id),
    ).toEqual({ n: 0 });
  });

  it("imports the valid CSV rows, reports the others by line, and updates a question it already has", async () => {
    const cat = await makeCategory(1);
    const op = await makeOperator();
    const csv = [
      HEADER,
      `${cat.slug},"Which planet is the largest, by mass?",Jupiter,Saturn,Neptune,Earth,Jupiter,1,"Jupiter is more than twice
as massive as all the other planets combined."`,
      `${cat.slug},Which planet has the most moons?,Saturn,Jupiter,Uranus,Mars,Pluto,4,`,
      `${cat.slug},"Which planet is known as the ""Red Planet""?",Mars,Venus,Mercury,Jupiter,Mars,2,Iron oxide on its surface.`,
    ].join("\n");
    const res = await importFile(op, { format: "csv", content: csv });
    expect(res.status, res.text).toBe(200);
    expect(
      await one("SELECT actor_user_id AS actor, after FROM audit_log WHERE action = 'question.import' ORDER BY id DESC LIMIT 1"),
    ).toEqual({ actor: op.id, after: JSON.stringify({ imported: 2, updated: 0, rejected: res.body.rejected, format: "csv" }) });
    expect(res.body).toEqual({
      imported: 2,
      updated: 0,
      rejected: [
        {
          row: 4,
          reasons: [QUESTION_IMPORT.correctNotAnOption("Pluto"), QUESTION_IMPORT.difficulty("4"), QUESTION_IMPORT.explanationEmpty],
        },
      ],
    });
    const stored = await all<{
      question: string;
      correct_answer: string;
      options: string;
      difficulty_level: number;
      generated_by: string;
      paid_uses: number;
    }>(
      "SELECT question, correct_answer, options, difficulty_level, generated_by, paid_uses FROM questions WHERE category_id = ? AND generated_by = 'import' ORDER BY id",
      cat.id,
    );
    expect(stored).toEqual([
      {
        question: "Which planet is the largest, by mass?",
        correct_answer: "Jupiter",
        options: JSON.stringify(["Jupiter", "Saturn", "Neptune", "Earth"]),
        difficulty_level: 1,
        generated_by: "import",
        paid_uses: 0,
      },
      expect.objectContaining({ question: 'Which planet is known as the "Red Planet"?', correct_answer: "Mars", difficulty_level: 2 }),
    ]);

    // The same text again (JSON this time) corrects the question in place.
    const again = await importFile(op, {
      format: "json",
      content: JSON.stringify([
        {
          category: cat.slug,
          question: "Which planet is the largest, by mass?",
          options: ["Jupiter", "Saturn", "Uranus", "Earth"],
          correctAnswer: "Jupiter",
          difficulty: 2,
          explanation: "Jupiter is the most massive planet.",
        },
      ]),
    });
    expect(again.status, again.text).toBe(200);
    expect(again.body).toEqual({ imported: 0, updated: 1, rejected: [] });
    expect(
      await one(
        "SELECT options, difficulty_level AS d, count(*) OVER () AS n FROM questions WHERE category_id = ? AND question = ?",
        cat.id,
        "Which planet is the largest, by mass?",
      ),
    ).toEqual({ options: JSON.stringify(["Jupiter", "Saturn", "Uranus", "Earth"]), d: 2, n: 1 });
  });

  it("answers 400 with the report when no row is valid, and stores nothing", async () => {
    const cat = await makeCategory(1);
    const op = await makeOperator();
    const before = await one<{ n: number }>("SELECT count(*) AS n FROM questions");
    const res = await importFile(op, {
      format: "csv",
      content: `${HEADER}\nno-such-category,Which ocean is the largest?,Pacific,Atlantic,Indian,Arctic,Pacific,1,It covers a third of Earth.`,
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: "invalid_request", message: QUESTION_IMPORT.nothingValid, imported: 0, updated: 0 });
    expect(res.body.rejected).toEqual([{ row: 2, reasons: [expect.stringMatching(/^Unknown category "no-such-category"/)] }]);
    expect(res.body.rejected[0].reasons[0]).toContain(cat.slug);
    expect(await one<{ n: number }>("SELECT count(*) AS n FROM questions")).toEqual(before);

    const bad = await importFile(op, { format: "xml", content: "<q/>" });
    expect(bad.status).toBe(400);
    const notJson = await importFile(op, { format: "json", content: "[{" });
    expect(notJson.status).toBe(400);
    expect(notJson.body.rejected[0].row).toBe(0);
  });
});

describe("GET /api/admin/questions", () => {
  it("lists a category's questions with their paid uses, filtered by supply state, a page at a time", async () => {
    const cat = await makeCategory(2); // 6 questions
    const op = await makeOperator();
    expect((await call(`/api/admin/questions?categoryId=${cat.id}`, { cookie: (await makePlayer()).cookie })).status).toBe(403);
    const [a, b] = cat.questions;
    const shownAt = Date.UTC(2026, 10, 20, 18, 30);
    await env.DB.prepare("UPDATE questions SET paid_uses = 1 WHERE id = ?").bind(a!.id).run();
    await env.DB.prepare("UPDATE questions SET paid_uses = 1, answer_shown_at = ? WHERE id = ?").bind(shownAt, b!.id).run();

    const held = await call(`/api/admin/questions?categoryId=${cat.id}&status=held`, { cookie: op.cookie });
    expect(held.status, held.text).toBe(200);
    expect(held.body).toMatchObject({ total: 1, page: 1, nextPage: null });
    expect(held.body.items).toEqual([
      expect.objectContaining({
        id: a!.id,
        question: a!.question,
        correctAnswer: a!.correct,
        options: a!.options,
        paidUses: 1,
        state: "held",
        answerShownAt: null,
        retiredAt: null,
      }),
    ]);
    const burned = await call(`/api/admin/questions?categoryId=${cat.id}&status=burned`, { cookie: op.cookie });
    expect(burned.body.items).toEqual([
      expect.objectContaining({ id: b!.id, state: "burned", answerShownAt: new Date(shownAt).toISOString() }),
    ]);

    const fresh = await call(`/api/admin/questions?categoryId=${cat.id}&status=fresh&pageSize=3`, { cookie: op.cookie });
    expect(fresh.body).toMatchObject({ total: 4, page: 1, pageSize: 3, nextPage: 2 });
    expect(fresh.body.items[0]).toMatchObject({ id: cat.questions[2]!.id, paidUses: 0, state: "fresh" });
    const second = await call(`/api/admin/questions?categoryId=${cat.id}&status=fresh&pageSize=3&page=2`, { cookie: op.cookie });
    expect(second.body).toMatchObject({ total: 4, page: 2, nextPage: null });
    expect(second.body.items).toHaveLength(1);

    expect((await call(`/api/admin/questions?status=gone`, { cookie: op.cookie })).status).toBe(400);
  });
});

describe("an import over a committed question", () => {
  it("refuses the row that would change a question an unfinished prize tournament holds, and imports the rest", async () => {
    const cat = await makeCategory(4);
    const op = await makeOperator();
    const t = await makeTournament(cat, { entryFeeCents: 500 });
    const held = t.questions[0]!;
    const csv = [
      HEADER,
      `${cat.slug},${held.question},A1,B1,C1,D1,A1,1,Changed.`,
      `${cat.slug},Which ocean is the largest of all?,Pacific,Atlantic,Indian,Arctic,Pacific,1,It covers a third of Earth.`,
    ].join("\n");
    const res = await importFile(op, { format: "csv", content: csv });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ imported: 1, updated: 0, rejected: [{ row: 2, reasons: [QUESTION_BANK.committed([t.id])] }] });
    expect(await one("SELECT correct_answer FROM questions WHERE id = ?", held.id)).toEqual({ correct_answer: held.correct });
  });
});
