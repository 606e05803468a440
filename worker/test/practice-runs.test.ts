// Practice: every press of Start gives the player a run of their own with fresh questions, its
// own result in their history and XP for correct answers; runs end, and never hold a player back.
import { afterAll, describe, expect, it } from "vitest";
import { JOIN, PLAY } from "../../common/messages";
import { PRACTICE_RUN_DURATION_MS } from "../../common/spec";
import { call } from "./helpers";
import {
  all,
  answer,
  complete,
  join,
  keepForPractice,
  ledgerMismatches,
  makeCategory,
  makePlayer,
  makePractice,
  next,
  one,
  play,
  roomSql,
  runAlarm,
  type CategoryFixture,
  type Player,
  type TournamentFixture,
} from "./tournament-fixtures";

/** Starts practice and returns the run the server answered with, ready for `play`. */
async function startRun(p: Player, practice: TournamentFixture, category: CategoryFixture): Promise<TournamentFixture> {
  const res = await join(p, practice.id);
  expect(res.status, res.text).toBe(200);
  expect(res.body.tournament).toMatchObject({ kind: "practice_run", status: "live", entryFee: 0 });
  return { id: res.body.tournament.id, title: res.body.tournament.title, questions: category.questions };
}

async function playThrough(p: Player, run: TournamentFixture, rightAnswers: number) {
  const asked: number[] = [];
  let xp = 0;
  for (let i = 0; i < 10; i++) {
    const q = await next(p, run.id);
    expect(q.status, q.text).toBe(200);
    asked.push(q.body.id);
    const question = run.questions.find((x) => x.id === q.body.id)!;
    const res = await answer(p, run.id, q.body.id, i < rightAnswers ? question.correct : question.options[1]!);
    expect(res.status, res.text).toBe(200);
    xp += res.body.xpEarned;
  }
  expect((await complete(p, run.id)).status).toBe(200);
  return { asked, xp };
}

const difficultyOf = (category: CategoryFixture, id: number) => category.questions.find((q) => q.id === id)!.difficulty;

describe("practice runs", () => {
  it("can be played again and again, each run with fresh questions on the ramp and its own result", async () => {
    const category = await makeCategory(8);
    await keepForPractice(category);
    const practice = await makePractice(category);
    const p = await makePlayer({ xp: 0 });

    const first = await startRun(p, practice, category);
    expect(first.id).not.toBe(practice.id);
    const one1 = await playThrough(p, first, 10);
    const second = await startRun(p, practice, category);
    expect(second.id).not.toBe(first.id);
    const two = await playThrough(p, second, 3);

    // 24 questions in the category: the second run has none of the first run's.
    expect(two.asked.filter((id) => one1.asked.includes(id))).toEqual([]);
    for (const asked of [one1.asked, two.asked]) {
      expect(asked.map((id) => difficultyOf(category, id))).toEqual([1, 1, 1, 2, 2, 2, 2, 3, 3, 3]);
    }

    const history = await call("/api/user/tournaments", { cookie: p.cookie });
    const runs = history.body.filter((e: any) => e.id === first.id || e.id === second.id);
    expect(runs).toHaveLength(2);
    expect(runs.every((e: any) => e.kind === "practice_run" && e.finished && e.status === "completed")).toBe(true);
    expect(runs.find((e: any) => e.id === second.id).score).toBeLessThan(runs.find((e: any) => e.id === first.id).score);

    // XP for the correct answers of both runs, once each; practice is not a tournament played.
    const user = await one<any>("SELECT experience_points, tournaments_played FROM users WHERE id = ?", p.id);
    expect(user).toEqual({ experience_points: one1.xp + two.xp, tournaments_played: 0 });
    expect(one1.xp).toBeGreaterThan(two.xp);
    expect(two.xp).toBeGreaterThan(0);
  });

  it("resumes the open run when Start is pressed again, even twice at once", async () => {
    const category = await makeCategory();
    await keepForPractice(category);
    const practice = await makePractice(category);
    const p = await makePlayer();
    const [a, b] = await Promise.all([join(p, practice.id), join(p, practice.id)]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(a.body.tournament.id).toBe(b.body.tournament.id);
    const run = { id: a.body.tournament.id, title: "", questions: category.questions };
    const q = (await play(p, run, true, 1000)) as { isCorrect: boolean };
    expect(q.isCorrect).toBe(true);
    const again = await join(p, practice.id);
    expect(again.body.tournament.id).toBe(run.id);
    expect((await next(p, run.id)).body.index).toBe(1);
    expect(await all("SELECT id FROM tournaments WHERE owner_user_id = ?", p.id)).toHaveLength(1);
  });

  it("is the player's own: another player cannot join or play it", async () => {
    const category = await makeCategory();
    await keepForPractice(category);
    const practice = await makePractice(category);
    const owner = await makePlayer();
    const run = await startRun(owner, practice, category);
    const other = await makePlayer();
    const res = await join(other, run.id);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ code: "tournament_not_found", message: PLAY.notFound });
    expect((await next(other, run.id)).body.message).toBe(PLAY.notJoined);
  });

  it("closes a run nobody finishes at its end time, crediting the XP already earned", async () => {
    const category = await makeCategory();
    await keepForPractice(category);
    const practice = await makePractice(category);
    const p = await makePlayer({ xp: 0 });
    const run = await startRun(p, practice, category);
    const r = (await play(p, run, true, 1000)) as { xpEarned: number };
    const stored = await one<any>("SELECT start_time, end_time FROM tournaments WHERE id = ?", run.id);
    expect(stored.end_time - stored.start_time).toBe(PRACTICE_RUN_DURATION_MS);

    await roomSql(run.id, "UPDATE meta SET end_time = ? WHERE id = 1", Date.now() - 1);
    await runAlarm(run.id);
    expect(await one<any>("SELECT status FROM tournaments WHERE id = ?", run.id)).toEqual({ status: "completed" });
    expect(await one<any>("SELECT has_completed, questions_answered FROM tournament_participants WHERE tournament_id = ?", run.id)).toEqual(
      {
        has_completed: 1,
        questions_answered: 1,
      },
    );
    expect((await one<any>("SELECT experience_points FROM users WHERE id = ?", p.id)).experience_points).toBe(r.xpEarned);
    // The next press starts a new run.
    expect((await join(p, practice.id)).body.tournament.id).not.toBe(run.id);
  });

  it("never appears in public lists or category counts", async () => {
    const category = await makeCategory();
    await keepForPractice(category);
    const practice = await makePractice(category);
    const run = await startRun(await makePlayer(), practice, category);
    const listed = (await call(`/api/tournaments?category=${category.slug}`)).body.items as { id: number }[];
    expect(listed.map((t) => t.id)).toEqual([practice.id]);
    expect(run.id).not.toBe(practice.id);
    // Neither the always-open practice entry nor the run is a tournament to count.
    const counted = (await call("/api/categories")).body.find((c: { id: number }) => c.id === category.id);
    expect(counted.activeTournaments).toBe(0);
  });

  it("says so when the category has too few questions for a run", async () => {
    const category = await makeCategory(1);
    await keepForPractice(category);
    const practice = await makePractice({ ...category, questions: [...category.questions, ...(await makeCategory()).questions] });
    const res = await join(await makePlayer(), practice.id);
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ code: "practice_unavailable", message: JOIN.practiceUnavailable });
  });
});

afterAll(async () => {
  expect(await ledgerMismatches()).toEqual([]);
});
