// Playing: questions one at a time on the server's clock, answers scored on the measured time,
// refusals logged, resume and eviction without losing anything.
import { afterAll, describe, expect, it } from "vitest";
import { evictDurableObject } from "cloudflare:test";
import { CHEAT, PLAY } from "../../common/messages";
import { QUESTION_TIME_MS } from "../../common/spec";
import type { AnswerResult, PlayerQuestion } from "../../common/api/tournaments";
import { call } from "./helpers";
import { makeAdmin } from "./money-helpers";
import {
  all,
  answer,
  backdateCurrent,
  complete,
  correctOf,
  endNow,
  forceAlarm,
  join,
  ledgerMismatches,
  makeCategory,
  makePlayer,
  makePractice,
  keepForPractice,
  makeTournament,
  next,
  one,
  play,
  room,
  wrongOf,
  type Player,
  type TournamentFixture,
} from "./tournament-fixtures";

/** A free tournament that started a moment ago (no minimum, so it goes live on first use) with joined players. */
async function liveTournament(players = 1, extra: Parameters<typeof makeTournament>[1] = {}) {
  const t = await makeTournament(await makeCategory(), { startTime: Date.now() - 1000, ...extra });
  const ps: Player[] = [];
  for (let i = 0; i < players; i++) {
    const p = await makePlayer();
    const res = await join(p, t.id);
    expect(res.status, res.text).toBe(200);
    ps.push(p);
  }
  return { t, players: ps };
}

const cheats = (tournamentId: number, userId: number) =>
  all<{ reason: string }>("SELECT reason FROM cheat_attempts WHERE tournament_id = ? AND user_id = ? ORDER BY id", tournamentId, userId);

const questionTexts = (t: TournamentFixture) => t.questions.map((q) => q.question);

describe("questions", () => {
  it("go live on first use once the start time has passed", async () => {
    const { t } = await liveTournament(1);
    expect((await one<{ status: string }>("SELECT status FROM tournaments WHERE id = ?", t.id)).status).toBe("live");
  });

  it("are handed out one at a time, never with the answer, and not before their timer starts", async () => {
    const {
      t,
      players: [p],
    } = await liveTournament(1);
    const before = await call(`/api/tournaments/${t.id}/questions`, { cookie: p!.cookie });
    expect(before.status).toBe(200);
    expect(before.body).toEqual([]);
    const detail = await call(`/api/tournaments/${t.id}`, { cookie: p!.cookie });
    for (const text of questionTexts(t)) expect(detail.text + before.text).not.toContain(text);

    const first = await next(p!, t.id);
    expect(first.status).toBe(200);
    const q = first.body;
    expect(q).toMatchObject({ id: t.questions[0]!.id, question: t.questions[0]!.question, index: 0, total: 10, result: null });
    expect([...q.options].sort()).toEqual([...t.questions[0]!.options].sort());
    expect(q.remainingMs).toBeGreaterThan(QUESTION_TIME_MS - 2000);
    expect(q.remainingMs).toBeLessThanOrEqual(QUESTION_TIME_MS);
    expect(Date.parse(q.deadline) - Date.parse(q.issuedAt)).toBe(QUESTION_TIME_MS);
    expect(first.text).not.toMatch(/correctAnswer|explanation/);

    const listed = await call<PlayerQuestion[]>(`/api/tournaments/${t.id}/questions`, { cookie: p!.cookie });
    expect(listed.body.map((x) => x.id)).toEqual([q.id]);
    expect(listed.text).not.toMatch(/correctAnswer|explanation/);
    for (const text of questionTexts(t).slice(1)) expect(listed.text + first.text).not.toContain(text);

    // Asking again while it is open gives the same question, not the next one.
    expect((await next(p!, t.id)).body.id).toBe(q.id);
  });

  it("show each player their own option order, the same on every request", async () => {
    const {
      t,
      players: [a, b],
    } = await liveTournament(2);
    const orders = { a: [] as string[][], b: [] as string[][] };
    for (let i = 0; i < 10; i++) {
      for (const [key, p] of [
        ["a", a!],
        ["b", b!],
      ] as const) {
        const q = (await next(p, t.id)).body;
        expect((await next(p, t.id)).body.options).toEqual(q.options);
        orders[key].push(q.options);
        await answer(p, t.id, q.id, correctOf(t, q.id));
      }
    }
    expect(JSON.stringify(orders.a)).not.toBe(JSON.stringify(orders.b));
    const resumed = await call<PlayerQuestion[]>(`/api/tournaments/${t.id}/questions`, { cookie: a!.cookie });
    expect(resumed.body.map((q) => q.options)).toEqual(orders.a);
  });

  it("refuse players who did not join and tournaments that are not live", async () => {
    const { t } = await liveTournament(0);
    const outsider = await makePlayer();
    expect((await next(outsider, t.id)).body).toEqual({ code: "not_joined", message: PLAY.notJoined });
    const upcoming = await makeTournament(await makeCategory());
    const p = await makePlayer();
    await join(p, upcoming.id);
    const res = await next(p, upcoming.id);
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ code: "not_live", message: PLAY.notLive });
    expect((await call(`/api/tournaments/${t.id}/next`, { method: "POST" })).status).toBe(401);
  });

  it("run out after the last one", async () => {
    const {
      t,
      players: [p],
    } = await liveTournament(1);
    for (let i = 0; i < 10; i++) await play(p!, t, i % 2 === 0, 0);
    const res = await next(p!, t.id);
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ code: "no_more_questions", message: PLAY.noMoreQuestions });
  });
});

describe("answers", () => {
  it("score on the server-measured response time", async () => {
    const {
      t,
      players: [p],
    } = await liveTournament(1);
    const q = (await next(p!, t.id)).body;
    await backdateCurrent(t.id, p!.id, 2000);
    const res = await answer(p!, t.id, q.id, correctOf(t, q.id));
    expect(res.status).toBe(200);
    // A prize tournament keeps every verdict until it has ended: the reply says locked in, with the measured time.
    expect(res.body).toMatchObject({ locked: true, questionId: q.id, answer: correctOf(t, q.id) });
    expect(res.body.receipt).toMatchObject({
      tournamentId: t.id,
      userId: p!.id,
      questionId: q.id,
      answer: correctOf(t, q.id),
      points: null,
    });
    expect(res.body.responseTime).toBeGreaterThanOrEqual(2000);
    expect(res.body.responseTime).toBeLessThan(3000);
    await play(p!, t, false);

    await endNow(t.id);
    const [right, wrong] = (await call<PlayerQuestion[]>(`/api/tournaments/${t.id}/questions`, { cookie: p!.cookie })).body.map(
      (x) => x.result as AnswerResult,
    );
    expect(right!.isCorrect).toBe(true);
    expect(right!.responseTime).toBe(res.body.responseTime);
    // 100 + round(1000 / s): a little under 600 for a little over 2 s.
    expect(right!.pointsEarned).toBeGreaterThan(430);
    expect(right!.pointsEarned).toBeLessThanOrEqual(600);
    expect(right!.xpEarned).toBe(15);
    expect(wrong).toMatchObject({ isCorrect: false, pointsEarned: 0, xpEarned: 0 });
  });

  it("score 0 when late", async () => {
    const {
      t,
      players: [p],
    } = await liveTournament(1);
    const q = (await next(p!, t.id)).body;
    await backdateCurrent(t.id, p!.id, 40_000);
    const res = await answer(p!, t.id, q.id, correctOf(t, q.id));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ locked: true, questionId: q.id });
    expect(res.body.responseTime).toBeGreaterThanOrEqual(40_000);
    await endNow(t.id);
    const listed = await call<PlayerQuestion[]>(`/api/tournaments/${t.id}/questions`, { cookie: p!.cookie });
    expect(listed.body[0]!.result).toMatchObject({ isCorrect: false, pointsEarned: 0, xpEarned: 0 });
  });

  it("resent unchanged return the first result", async () => {
    const {
      t,
      players: [p],
    } = await liveTournament(1);
    const q = (await next(p!, t.id)).body;
    const first = await answer(p!, t.id, q.id, correctOf(t, q.id));
    const again = await answer(p!, t.id, q.id, correctOf(t, q.id));
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect(await cheats(t.id, p!.id)).toEqual([]);
  });

  it("refuse a different second answer and log it", async () => {
    const {
      t,
      players: [p],
    } = await liveTournament(1);
    const q = (await next(p!, t.id)).body;
    await answer(p!, t.id, q.id, wrongOf(t, q.id));
    const second = await answer(p!, t.id, q.id, correctOf(t, q.id));
    expect(second.status).toBe(409);
    expect(second.body).toEqual({ code: "already_answered", message: PLAY.alreadyAnswered });
    expect(await cheats(t.id, p!.id)).toEqual([{ reason: CHEAT.secondAnswer(q.id) }]);
    const listed = await call<PlayerQuestion[]>(`/api/tournaments/${t.id}/questions`, { cookie: p!.cookie });
    expect(listed.body[0]!.result).toMatchObject({ locked: true, answer: wrongOf(t, q.id) });
  });

  it("refuse and log an answer to a question not issued yet, or no longer current", async () => {
    const {
      t,
      players: [p],
    } = await liveTournament(1);
    const early = await answer(p!, t.id, t.questions[3]!.id, correctOf(t, t.questions[3]!.id));
    expect(early.status).toBe(409);
    expect(early.body).toEqual({ code: "not_issued", message: PLAY.notIssued });

    const q0 = (await next(p!, t.id)).body;
    await backdateCurrent(t.id, p!.id, 40_000); // expired unanswered
    const q1 = (await next(p!, t.id)).body;
    expect(q1.index).toBe(1);
    const stale = await answer(p!, t.id, q0.id, correctOf(t, q0.id));
    expect(stale.status).toBe(409);
    expect(stale.body).toEqual({ code: "not_current", message: PLAY.notCurrent });

    const foreign = await answer(p!, t.id, 999_999, "x");
    expect(foreign.status).toBe(409);
    expect((await cheats(t.id, p!.id)).map((c) => c.reason)).toEqual([
      CHEAT.notIssued(t.questions[3]!.id),
      CHEAT.notCurrent(q0.id),
      CHEAT.unknownQuestion(999_999),
    ]);
  });

  it("validate the body", async () => {
    const {
      t,
      players: [p],
    } = await liveTournament(1);
    const q = (await next(p!, t.id)).body;
    expect((await call(`/api/tournaments/${t.id}/answer`, { cookie: p!.cookie, body: { questionId: "x", answer: "y" } })).status).toBe(400);
    expect((await call(`/api/tournaments/${t.id}/answer`, { cookie: p!.cookie, body: { questionId: q.id } })).status).toBe(400);
    const notOption = await answer(p!, t.id, q.id, "Something else");
    expect(notOption.status).toBe(400);
    expect(notOption.body).toEqual({ code: "not_an_option", message: PLAY.notAnOption });
  });
});

describe("resume", () => {
  it("after a reload shows the open question with the time already spent counted", async () => {
    const {
      t,
      players: [p],
    } = await liveTournament(1);
    await play(p!, t, true);
    const q = (await next(p!, t.id)).body;
    await backdateCurrent(t.id, p!.id, 10_000);
    const listed = await call<PlayerQuestion[]>(`/api/tournaments/${t.id}/questions`, { cookie: p!.cookie });
    expect(listed.body).toHaveLength(2);
    expect(listed.body[0]!.result).not.toBeNull();
    const open = listed.body[1]!;
    expect(open).toMatchObject({ id: q.id, options: q.options, result: null, index: 1 });
    expect(open.remainingMs).toBeGreaterThan(18_000);
    expect(open.remainingMs).toBeLessThanOrEqual(20_000);
    const again = (await next(p!, t.id)).body;
    expect(again.id).toBe(q.id);
    expect(again.remainingMs).toBeLessThanOrEqual(20_000);
  });

  it("survives the object being evicted mid-tournament with every answer and score intact", async () => {
    const {
      t,
      players: [a, b],
    } = await liveTournament(2);
    for (let i = 0; i < 3; i++) {
      await play(a!, t, true);
      await play(b!, t, i !== 1);
    }
    const openQ = (await next(a!, t.id)).body;
    const boardBefore = (await call(`/api/tournaments/${t.id}/leaderboard`)).body;
    const questionsBefore = (await call(`/api/tournaments/${t.id}/questions`, { cookie: a!.cookie })).body;
    expect(boardBefore.map((r: any) => r.questionsAnswered)).toEqual([3, 3]);

    await evictDurableObject(room(t.id));

    expect((await call(`/api/tournaments/${t.id}/leaderboard`)).body).toEqual(boardBefore);
    const questionsAfter = (await call<PlayerQuestion[]>(`/api/tournaments/${t.id}/questions`, { cookie: a!.cookie })).body;
    expect(questionsAfter.map((q) => ({ ...q, remainingMs: 0 }))).toEqual(
      questionsBefore.map((q: PlayerQuestion) => ({ ...q, remainingMs: 0 })),
    );
    // Play goes on where it was.
    const res = await answer(a!, t.id, openQ.id, correctOf(t, openQ.id));
    expect(res.status).toBe(200);
    const again = await answer(b!, t.id, questionsBefore[0]!.id, "anything");
    expect(again.status).toBe(409);
    const board = (await call(`/api/tournaments/${t.id}/leaderboard`)).body;
    expect(board.find((r: any) => r.userId === a!.id).questionsAnswered).toBe(4);
  });
});

describe("finishing", () => {
  it("is idempotent and writes the player's results to D1 in one go", async () => {
    const {
      t,
      players: [p, other],
    } = await liveTournament(2);
    await play(p!, t, true);
    await play(p!, t, false);
    await next(p!, t.id); // left open: counts as timed out
    const before = await one<{ n: number }>("SELECT count(*) AS n FROM user_responses WHERE tournament_id = ?", t.id);
    expect(before.n).toBe(0); // answers live in the room until the player finishes
    const done = await complete(p!, t.id);
    expect(done.status).toBe(200);
    // The other player still plays: the score is kept until the end (docs/fair-play.md).
    expect(done.body).toEqual({ finished: true, score: null, questionsAnswered: 2 });
    expect((await complete(p!, t.id)).body).toEqual(done.body);

    const row = await one<any>("SELECT * FROM tournament_participants WHERE tournament_id = ? AND user_id = ?", t.id, p!.id);
    expect(row).toMatchObject({ has_completed: 1, questions_answered: 2, correct_answers: 1 });
    expect(row.score).toBeGreaterThan(100);
    const responses = await all<any>(
      "SELECT answer, is_correct FROM user_responses WHERE tournament_id = ? AND user_id = ? ORDER BY id",
      t.id,
      p!.id,
    );
    expect(responses).toHaveLength(3);
    expect(responses[2]).toMatchObject({ answer: null, is_correct: 0 });

    expect((await next(p!, t.id)).body).toEqual({ code: "already_finished", message: PLAY.alreadyFinished });
    const late = await answer(p!, t.id, t.questions[5]!.id, correctOf(t, t.questions[5]!.id));
    expect(late.status).toBe(409);
    expect(await cheats(t.id, p!.id)).toEqual([{ reason: CHEAT.afterFinish(t.questions[5]!.id) }]);
    const participants = (await call(`/api/tournaments/${t.id}/participants`)).body;
    expect(participants).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ userId: p!.id, hasCompleted: true }),
        expect.objectContaining({ userId: other!.id, hasCompleted: false }),
      ]),
    );
    expect((await one<{ status: string }>("SELECT status FROM tournaments WHERE id = ?", t.id)).status).toBe("live");
  });

  it("by every participant completes the tournament early and pays a house-funded pool", async () => {
    const {
      t,
      players: [a, b],
    } = await liveTournament(2, { prizePoolCents: 1000 });
    for (let i = 0; i < 10; i++) {
      await play(a!, t, true, 0);
      await play(b!, t, i < 5, 0);
    }
    await complete(a!, t.id);
    expect((await one<{ status: string }>("SELECT status FROM tournaments WHERE id = ?", t.id)).status).toBe("live");
    await complete(b!, t.id);
    const row = await one<{ status: string; settled_at: number | null }>("SELECT status, settled_at FROM tournaments WHERE id = ?", t.id);
    expect(row.status).toBe("completed");
    expect(row.settled_at).not.toBeNull();
    // Two players: 65% to 1st, 25% to 2nd; nobody holds 3rd place, so its 10% stays with the house.
    const prizes = await all<{ user_id: number; amount_cents: number }>(
      "SELECT user_id, amount_cents FROM transactions WHERE reference LIKE ? ORDER BY amount_cents DESC",
      `prize:${t.id}:%`,
    );
    expect(prizes).toEqual([
      { user_id: a!.id, amount_cents: 650 },
      { user_id: b!.id, amount_cents: 250 },
    ]);
    expect(await all("SELECT amount_cents, reference FROM house_ledger WHERE tournament_id = ?", t.id)).toEqual([
      { amount_cents: 100, reference: `unclaimed:${t.id}:3` },
    ]);
    const board = (await call(`/api/tournaments/${t.id}/leaderboard`)).body;
    expect(board.map((r: any) => [r.userId, r.rank, r.prize])).toEqual([
      [a!.id, 1, 6.5],
      [b!.id, 2, 2.5],
    ]);
  });

  it("gives no prize to a player who answered no question, and records the share nobody won for operators", async () => {
    const { t, players } = await liveTournament(4, { prizePoolCents: 1000 });
    const [a, b, idle1, idle2] = players as [Player, Player, Player, Player];
    await play(a, t, true, 1000);
    await play(b, t, false, 1000);
    // The idle players took their questions but let them time out; one never opened a question.
    await next(idle1, t.id);
    await endNow(t.id);
    const prizes = await all<{ user_id: number; amount_cents: number }>(
      "SELECT user_id, amount_cents FROM transactions WHERE reference LIKE ? ORDER BY amount_cents DESC",
      `prize:${t.id}:%`,
    );
    expect(prizes).toEqual([
      { user_id: a.id, amount_cents: 650 },
      { user_id: b.id, amount_cents: 250 },
    ]);
    const rows = await all<{ user_id: number; prize_cents: number; rank: number }>(
      "SELECT user_id, prize_cents, rank FROM tournament_participants WHERE tournament_id = ? ORDER BY rank",
      t.id,
    );
    expect(rows.filter((r) => r.user_id === idle1.id || r.user_id === idle2.id).map((r) => r.prize_cents)).toEqual([0, 0]);

    // A second settlement run records nothing twice; operators see the house's share.
    await forceAlarm(t.id);
    const op = await makePlayer();
    await makeAdmin(op.id);
    const house = (await call("/api/admin/house-ledger", { cookie: op.cookie })).body as any[];
    expect(house.filter((h) => h.tournamentId === t.id)).toEqual([
      expect.objectContaining({
        amount: 1,
        type: "unclaimed_prize",
        reference: `unclaimed:${t.id}:3`,
        description: expect.stringContaining("3rd"),
      }),
    ]);
    expect((await call("/api/admin/house-ledger", { cookie: a.cookie })).status).toBe(403);
  });

  it("in practice credits the answers' XP once, completes the run and pays nothing", async () => {
    const category = await makeCategory();
    await keepForPractice(category);
    const practice = await makePractice(category);
    const p = await makePlayer({ xp: 990 });
    const started = await join(p, practice.id);
    const t = { id: started.body.tournament.id as number, title: "", questions: category.questions };
    const r1 = await play(p, t, true, 1000);
    const r2 = await play(p, t, true, 1000);
    await play(p, t, false, 1000);
    await complete(p, t.id);
    await complete(p, t.id);
    const user = await one<any>("SELECT experience_points, level, tournaments_played FROM users WHERE id = ?", p.id);
    expect(user).toEqual({ experience_points: 990 + r1.xpEarned + r2.xpEarned, level: 2, tournaments_played: 0 });
    const t2 = await one<any>("SELECT status, kind FROM tournaments WHERE id = ?", t.id);
    expect(t2).toEqual({ status: "completed", kind: "practice_run" });
    expect(await all("SELECT id FROM transactions WHERE reference LIKE ?", `prize:${t.id}:%`)).toEqual([]);
  });
});

afterAll(async () => {
  expect(await ledgerMismatches()).toEqual([]);
});
