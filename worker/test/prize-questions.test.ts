// A question decides at most one prize, and never once its answer has been shown to a player
// (docs/questions.md, "Fresh, burned and practice-only"): practice cannot walk the prize bank, and
// every way an answer comes out (a live show's reveal, a self-paced end, a cancellation after the
// start) burns the question for every later prize draw, scheduled or made by an operator.
import { afterEach, describe, expect, it, vi } from "vitest";
import { env } from "cloudflare:workers";
import { LIVE_SHOW_WINDOW_MS } from "../../common/domain/live-show";
import { REVEAL_PAUSE_MS } from "../../common/spec";
import { runSchedule } from "../schedule/run-schedule";
import { call } from "./helpers";
import { makeOperator } from "./fair-play-fixtures";
import {
  all,
  answer,
  burn,
  complete,
  endNow,
  join,
  keepForPractice,
  makeCategory,
  makePlayer,
  makePractice,
  next,
  one,
  startNow,
  type CategoryFixture,
  type Player,
  stepShow,
} from "./tournament-fixtures";

type State = { id: number; paid_uses: number; burned: number; practice_only: number };

const statesOf = async (category: CategoryFixture) =>
  new Map(
    (
      await all<State>(
        "SELECT id, paid_uses, answer_shown_at IS NOT NULL AS burned, practice_only FROM questions WHERE category_id = ?",
        category.id,
      )
    ).map((r) => [r.id, r]),
  );

const questionsOf = async (tournamentId: number) =>
  (
    await all<{ id: number }>('SELECT question_id AS id FROM tournament_questions WHERE tournament_id = ? ORDER BY "order"', tournamentId)
  ).map((r) => r.id);

const inAnHour = () => new Date(Date.now() + 60 * 60_000).toISOString();

const tournamentBody = (categoryId: number) => ({
  title: `Prize Cup ${Math.random().toString(36).slice(2, 8)}`,
  description: "A one-off tournament.",
  categoryId,
  entryFee: 0,
  isFree: true,
  prizePool: 50,
  maxParticipants: 20,
  minLevel: 1,
  startTime: inAnHour(),
});

/** An operator's tournament in the category, its questions drawn at random (or picked). */
const create = (op: Player, categoryId: number, o: Record<string, unknown> = {}) =>
  call("/api/admin/tournaments", { cookie: op.cookie, body: { ...tournamentBody(categoryId), ...o } });

/** Plays a player's whole self-paced run, wrong answers throughout; returns the ids they were asked. */
async function playAll(p: Player, tournamentId: number, wrong: (id: number) => string): Promise<number[]> {
  const asked: number[] = [];
  for (let i = 0; i < 10; i++) {
    const q = await next(p, tournamentId);
    expect(q.status, q.text).toBe(200);
    asked.push(q.body.id);
    expect((await answer(p, tournamentId, q.body.id, wrong(q.body.id))).status).toBe(200);
  }
  expect((await complete(p, tournamentId)).status).toBe(200);
  return asked;
}

afterEach(() => vi.restoreAllMocks());

describe("practice never teaches a question that can still decide a prize", () => {
  it("draws only burned and kept questions however often a player practises, and prize play still has every fresh one", async () => {
    const category = await makeCategory(8); // 24 fresh
    const practiceSet = await makeCategory(4); // 12 kept for practice, moved into the category
    await env.DB.prepare("UPDATE questions SET category_id = ? WHERE category_id = ?").bind(category.id, practiceSet.id).run();
    await keepForPractice(practiceSet);
    const burned = category.questions.filter((_, i) => i % 8 === 0).map((q) => q.id); // 3 burned earlier
    await burn(burned);
    const practiceIds = new Set([...practiceSet.questions.map((q) => q.id), ...burned]);
    const all42 = [...category.questions, ...practiceSet.questions];
    const practice = await makePractice({ ...category, questions: all42 });

    const p = await makePlayer();
    const seen = new Set<number>();
    const revealed = new Set<number>();
    for (let run = 0; run < 6; run++) {
      const started = await join(p, practice.id);
      expect(started.status, started.text).toBe(200);
      const runId = started.body.tournament.id as number;
      for (let i = 0; i < 10; i++) {
        const q = await next(p, runId);
        expect(q.status, q.text).toBe(200);
        seen.add(q.body.id);
        const r = await answer(p, runId, q.body.id, all42.find((x) => x.id === q.body.id)!.options[1]!);
        expect(r.status, r.text).toBe(200);
        // Practice shows the answer at once: that is what must never be a prize question's.
        if (r.body.correctAnswer) revealed.add(q.body.id);
      }
      expect((await complete(p, runId)).status).toBe(200);
    }
    expect(revealed.size).toBeGreaterThan(0);
    expect([...seen].filter((id) => !practiceIds.has(id))).toEqual([]);

    // Every one of the 21 fresh questions is still fresh: a prize tournament may take any of them.
    const states = await statesOf(category);
    const fresh = category.questions.map((q) => q.id).filter((id) => !burned.includes(id));
    expect(fresh.filter((id) => states.get(id)!.paid_uses !== 0 || states.get(id)!.burned !== 0)).toEqual([]);
    const op = await makeOperator();
    const prize = await create(op, category.id, { format: "self_paced" });
    expect(prize.status, prize.text).toBe(201);
    const drawn = await questionsOf(prize.body.id);
    expect(drawn).toHaveLength(20);
    expect(drawn.filter((id) => seen.has(id) || practiceIds.has(id))).toEqual([]);
  }, 30_000); // six runs of ten questions: well over a hundred requests

  it("keeps a question that a prize tournament holds out of practice even when an operator marks it practice-only", async () => {
    const category = await makeCategory(4); // 12
    const op = await makeOperator();
    const made = await create(op, category.id, { format: "live_show" });
    expect(made.status, made.text).toBe(201);
    await keepForPractice(category); // all twelve marked, ten of them held by the upcoming show
    const practice = await makePractice(category);
    const p = await makePlayer();
    const refused = await join(p, practice.id);
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe("practice_unavailable");
    // The show is cancelled before its start: its questions come back, and practice may use them now.
    expect((await call(`/api/admin/tournaments/${made.body.id}/cancel`, { cookie: op.cookie, body: { reason: "Moved" } })).status).toBe(
      200,
    );
    expect((await join(p, practice.id)).status).toBe(200);
  });

  it("refuses a practice run where nothing but fresh questions exist", async () => {
    const category = await makeCategory(8);
    const practice = await makePractice(category);
    const res = await join(await makePlayer(), practice.id);
    expect(res.status).toBe(409);
    expect(res.body.code).toBe("practice_unavailable");
  });
});

describe("a question whose answer was shown never enters prize play again", () => {
  it("a finished live show burns its ten questions: the scheduler and operators' draws and picks refuse them", async () => {
    vi.spyOn(console, "warn").mockImplementation(() => {});
    const category = await makeCategory(7); // 21 fresh: one live show, then 11 left
    const op = await makeOperator();
    const made = await create(op, category.id, { format: "live_show" });
    expect(made.status, made.text).toBe(201);
    const show = made.body.id as number;
    const shown = await questionsOf(show);
    expect((await join(await makePlayer(), show)).status).toBe(200);
    await startNow(show);
    for (let i = 0; i < 10; i++) {
      await stepShow({ id: show }, LIVE_SHOW_WINDOW_MS); // the reveal
      await stepShow({ id: show }, REVEAL_PAUSE_MS); // the next question, or the end
    }
    expect(await one<{ status: string }>("SELECT status FROM tournaments WHERE id = ?", show)).toEqual({ status: "completed" });
    const states = await statesOf(category);
    for (const id of shown) expect(states.get(id)).toMatchObject({ paid_uses: 1, burned: 1 });

    // Operators: a random draw never takes them; picking them is refused, naming them.
    const again = await create(op, category.id, { format: "live_show" });
    expect(again.status, again.text).toBe(201);
    expect((await questionsOf(again.body.id)).filter((id) => shown.includes(id))).toEqual([]);
    const picked = await create(op, category.id, { format: "live_show", questionIds: shown });
    expect(picked.status).toBe(400);
    expect(picked.body.code).toBe("question_not_usable");
    expect(picked.body.message).toContain(String(shown[0]));

    // The scheduler: one fresh question is left, too few for a slot, and it says so.
    await runSchedule(env, Date.now());
    const scheduled = await all<{ id: number }>("SELECT id FROM tournaments WHERE category_id = ? AND entry_fee_cents > 0", category.id);
    expect(scheduled).toEqual([]);
    expect(await one("SELECT available FROM question_shortfalls WHERE category_id = ?", category.id)).toEqual({ available: 1 });
  });

  it("a self-paced pool burns the questions players drew and gives back the ones nobody was asked", async () => {
    const category = await makeCategory(7); // 21 questions: a pool of 2 per slot
    const op = await makeOperator();
    const made = await create(op, category.id, { format: "self_paced" });
    expect(made.status, made.text).toBe(201);
    const t = made.body.id as number;
    const pool = await questionsOf(t);
    expect(pool).toHaveLength(20);
    const p = await makePlayer();
    expect((await join(p, t)).status).toBe(200);
    await startNow(t);
    const wrong = (id: number) => category.questions.find((q) => q.id === id)!.options[1]!;
    const asked = await playAll(p, t, wrong);
    await endNow(t);
    expect(await one<{ status: string }>("SELECT status FROM tournaments WHERE id = ?", t)).toEqual({ status: "completed" });

    const states = await statesOf(category);
    const undrawn = pool.filter((id) => !asked.includes(id));
    expect(undrawn).toHaveLength(10);
    for (const id of asked) expect(states.get(id), `asked ${id}`).toMatchObject({ burned: 1 });
    for (const id of undrawn) expect(states.get(id), `undrawn ${id}`).toMatchObject({ burned: 0, paid_uses: 0 });

    // The undrawn ones (and the one never pooled) are fresh again: a live show can be made of them.
    const next = await create(op, category.id, { format: "live_show" });
    expect(next.status, next.text).toBe(201);
    expect((await questionsOf(next.body.id)).filter((id) => asked.includes(id))).toEqual([]);
  });

  it("a live show cancelled mid-show burns what went out and gives back what did not; cancelled before the start, everything comes back", async () => {
    const category = await makeCategory(10);
    const op = await makeOperator();
    const early = await create(op, category.id, { format: "live_show" });
    const earlyQuestions = await questionsOf(early.body.id);
    const cancelEarly = await call(`/api/admin/tournaments/${early.body.id}/cancel`, {
      cookie: op.cookie,
      body: { reason: "Changed plans" },
    });
    expect(cancelEarly.status, cancelEarly.text).toBe(200);
    let states = await statesOf(category);
    for (const id of earlyQuestions) expect(states.get(id)).toMatchObject({ paid_uses: 0, burned: 0 });

    const made = await create(op, category.id, { format: "live_show" });
    const show = made.body.id as number;
    const questions = await questionsOf(show);
    expect((await join(await makePlayer(), show)).status).toBe(200);
    await startNow(show); // question 1 out
    await stepShow({ id: show }, LIVE_SHOW_WINDOW_MS); // revealed
    await stepShow({ id: show }, REVEAL_PAUSE_MS); // question 2 out, not yet revealed
    const cancel = await call(`/api/admin/tournaments/${show}/cancel`, { cookie: op.cookie, body: { reason: "Stream failed" } });
    expect(cancel.status, cancel.text).toBe(200);
    // A repeat changes nothing.
    await call(`/api/admin/tournaments/${show}/cancel`, { cookie: op.cookie, body: { reason: "Stream failed" } });
    states = await statesOf(category);
    expect(questions.slice(0, 2).map((id) => states.get(id)!.burned)).toEqual([1, 1]);
    expect(questions.slice(2).map((id) => [states.get(id)!.burned, states.get(id)!.paid_uses])).toEqual(Array(8).fill([0, 0]));
  });
});

describe("demo reuse (local runs of the public demo bank)", () => {
  it("lets prize draws take burned questions, fresh ones first, and practice the whole bank; never a retired one", async () => {
    const category = await makeCategory(4); // 12
    const ids = category.questions.map((q) => q.id);
    await burn(ids.slice(0, 8)); // 4 fresh left
    await env.DB.prepare("UPDATE questions SET retired_at = 1 WHERE id = ?").bind(ids[11]).run();
    const op = await makeOperator();
    const reuse = { DEMO_QUESTION_REUSE: "on" };
    expect((await create(op, category.id, { format: "live_show" })).status).toBe(409);
    const made = await call("/api/admin/tournaments", {
      cookie: op.cookie,
      env: reuse,
      body: { ...tournamentBody(category.id), format: "live_show" },
    });
    expect(made.status, made.text).toBe(201);
    const drawn = await questionsOf(made.body.id);
    expect(drawn).not.toContain(ids[11]);
    expect(drawn.filter((id) => ids.slice(8, 11).includes(id))).toHaveLength(3); // every fresh one that is not retired
    const practice = await makePractice(category);
    expect((await join(await makePlayer(), practice.id)).status).toBe(409);
    expect(
      (await call(`/api/tournaments/${practice.id}/join`, { method: "POST", cookie: (await makePlayer()).cookie, env: reuse })).status,
    ).toBe(200);
  });
});
