// No verdict before the end in self-paced prize play (docs/fair-play.md, "Nothing to pass on while
// it matters"): an answer's reply, the questions, the board, the complete reply and the player's
// history say nothing that depends on whether an answer was right until the tournament has ended,
// so throwaway accounts picking different options learn nothing. Practice keeps instant results.
import { describe, expect, it } from "vitest";
import type { TournamentReceipts } from "../../common/api/fair-play";
import type { AnswerReply, LeaderboardRow, PlayerQuestion, UserStats, UserTournamentEntry } from "../../common/api/tournaments";
import { call } from "./helpers";
import {
  answer,
  backdateCurrent,
  complete,
  correctOf,
  endNow,
  join,
  makeCategory,
  makePlayer,
  makePractice,
  keepForPractice,
  makeTournament,
  next,
  openSocket,
  request,
  wrongOf,
  type Player,
  type SocketClient,
  type TournamentFixture,
} from "./tournament-fixtures";

/** Keys whose presence (or value) would tell right from wrong. */
const VERDICT = /isCorrect|pointsEarned|xpEarned|correctAnswer|explanation|Because /;

/** A live self-paced standard tournament (a prize pool: prize play) with joined players. */
async function prizeTournament(players: number): Promise<{ t: TournamentFixture; ps: Player[] }> {
  const t = await makeTournament(await makeCategory(), { startTime: Date.now() - 1000, prizePoolCents: 1000 });
  const ps: Player[] = [];
  for (let i = 0; i < players; i++) {
    const p = await makePlayer();
    const res = await join(p, t.id);
    expect(res.status, res.text).toBe(200);
    ps.push(p);
  }
  return { t, ps };
}

/** What two players' replies to the same question may differ in: who, what they picked, when. */
function comparable(reply: AnswerReply): unknown {
  const { receipt, responseTime, answer: picked, ...rest } = reply as AnswerReply & { answer?: string };
  expect(typeof responseTime).toBe("number");
  expect(typeof picked).toBe("string");
  const r = receipt as { points?: unknown; signature?: string } | null;
  expect(r).not.toBeNull();
  // The receipt is the player's own (user, answer, time, signature); its points are not known yet.
  expect(r!.points).toBeNull();
  return rest;
}

const board = (t: TournamentFixture) => call<LeaderboardRow[]>(`/api/tournaments/${t.id}/leaderboard`);
const history = async (p: Player, t: TournamentFixture) =>
  (await call<UserTournamentEntry[]>("/api/user/tournaments", { cookie: p.cookie })).body.find((e) => e.id === t.id)!;

describe("self-paced prize play: no verdict before the end", () => {
  it("over HTTP, a right and a wrong answer to the same question get replies that differ only in receipt, pick and timing", async () => {
    const { t, ps } = await prizeTournament(2);
    const [right, wrong] = ps as [Player, Player];
    const qa = (await next(right, t.id)).body;
    const qb = (await next(wrong, t.id)).body;
    expect(qa.id).toBe(qb.id);
    await backdateCurrent(t.id, right.id, 2000);
    await backdateCurrent(t.id, wrong.id, 2000);
    const a = await answer(right, t.id, qa.id, correctOf(t, qa.id));
    const b = await answer(wrong, t.id, qb.id, wrongOf(t, qb.id));
    expect([a.status, b.status]).toEqual([200, 200]);
    for (const res of [a, b]) expect(res.text).not.toMatch(VERDICT);
    expect(a.body).toMatchObject({ locked: true, questionId: qa.id, answer: correctOf(t, qa.id) });
    expect(comparable(a.body)).toEqual(comparable(b.body));

    // The same question again (a reload): locked, nothing more.
    const listed = await call<PlayerQuestion[]>(`/api/tournaments/${t.id}/questions`, { cookie: wrong.cookie });
    expect(listed.text).not.toMatch(VERDICT);
    expect(listed.body[0]!.result).toMatchObject({ locked: true, answer: wrongOf(t, qb.id) });
    // A resent answer gets the same locked reply.
    const again = await answer(wrong, t.id, qb.id, wrongOf(t, qb.id));
    expect(again.body).toEqual(b.body);
  });

  it("over the socket, the result frame, the question frame and the board carry no verdict either", async () => {
    const { t, ps } = await prizeTournament(2);
    const sockets: SocketClient[] = [];
    for (const p of ps) sockets.push((await openSocket(`/api/tournaments/${t.id}/ws`, p.cookie)).client!);
    const [sa, sb] = sockets as [SocketClient, SocketClient];
    const qa = await request(sa, { type: "next", id: "n1" });
    const qb = await request(sb, { type: "next", id: "n1" });
    expect(qa.question.id).toBe(qb.question.id);
    const id = qa.question.id as number;
    const ra = await request(sa, { type: "answer", id: "a1", questionId: id, answer: correctOf(t, id) });
    const rb = await request(sb, { type: "answer", id: "a1", questionId: id, answer: wrongOf(t, id) });
    expect(ra.type).toBe("result");
    expect(ra.result).toMatchObject({ locked: true, questionId: id });
    expect(comparable(ra.result)).toEqual(comparable(rb.result));
    // The question frame for a frame seen before (its reply was lost) repeats the locked answer.
    const resent = await request(sb, { type: "next", id: "n1" });
    expect(resent.question.result).toMatchObject({ locked: true, answer: wrongOf(t, id) });

    // Both have answered one question: the board shows that progress, and no score moves.
    const pushed = await sa.waitFor((f) => f.type === "leaderboard" && f.top.every((r: LeaderboardRow) => r.questionsAnswered === 1), 5000);
    expect(pushed.top.map((r: LeaderboardRow) => r.score)).toEqual([0, 0]);
    sa.ws.send(JSON.stringify({ type: "sync" }));
    const synced = await sa.waitFor((f) => f.type === "leaderboard", 3000, sa.frames.length);
    expect(synced.me).toMatchObject({ score: 0 });
    for (const s of sockets) expect(JSON.stringify(s.frames)).not.toMatch(VERDICT);
    for (const s of sockets) s.ws.close(1000, "done");
  });

  it("a finished player's score, history, receipts and stats stay hidden while others still play, and show after settlement", async () => {
    const { t, ps } = await prizeTournament(3);
    const [right, wrong] = ps as [Player, Player];
    for (const [p, isRight] of [
      [right, true],
      [wrong, false],
    ] as const) {
      const q = (await next(p, t.id)).body;
      await backdateCurrent(t.id, p.id, 2000);
      expect((await answer(p, t.id, q.id, isRight ? correctOf(t, q.id) : wrongOf(t, q.id))).status).toBe(200);
    }
    const statsBefore = (await call<UserStats>("/api/user/stats", { cookie: right.cookie })).body;
    const done = await complete(right, t.id);
    expect(done.body).toEqual({ finished: true, score: null, questionsAnswered: 1 });
    expect((await complete(wrong, t.id)).body).toEqual({ finished: true, score: null, questionsAnswered: 1 });

    // The third player is still playing: the tournament is live.
    const live = await board(t);
    expect(live.body.map((r) => r.score)).toEqual([0, 0, 0]);
    expect(live.body.filter((r) => r.questionsAnswered === 1)).toHaveLength(2);
    expect(await history(right, t)).toMatchObject({ status: "live", finished: true, score: null, rank: null });
    expect(await history(wrong, t)).toMatchObject({ score: null });
    const receipts = await call<TournamentReceipts>(`/api/user/tournaments/${t.id}/receipts`, { cookie: right.cookie });
    expect(receipts.body.receipts).toHaveLength(1);
    expect(receipts.body.receipts[0]!.points).toBeNull();
    const statsDuring = (await call<UserStats>("/api/user/stats", { cookie: right.cookie })).body;
    expect(statsDuring).toMatchObject({ questionsAnswered: statsBefore.questionsAnswered, correctAnswers: statsBefore.correctAnswers });

    await endNow(t.id);

    const final = await board(t);
    expect(final.body[0]).toMatchObject({ userId: right.id, rank: 1 });
    expect(final.body[0]!.score).toBeGreaterThan(100);
    expect(final.body.find((r) => r.userId === wrong.id)!.score).toBe(0);
    const mine = await history(right, t);
    expect(mine).toMatchObject({ status: "completed", rank: 1 });
    expect(mine.score).toBe(final.body[0]!.score);
    const after = await call<PlayerQuestion[]>(`/api/tournaments/${t.id}/questions`, { cookie: wrong.cookie });
    const q = after.body[0]!;
    expect(q.result).toMatchObject({ isCorrect: false, pointsEarned: 0, correctAnswer: correctOf(t, q.id), withheldUntil: null });
    const receiptsAfter = await call<TournamentReceipts>(`/api/user/tournaments/${t.id}/receipts`, { cookie: right.cookie });
    expect(receiptsAfter.body.receipts[0]!.points).toBe(final.body[0]!.score);
    expect((await call<UserStats>("/api/user/stats", { cookie: right.cookie })).body.correctAnswers).toBe(statsBefore.correctAnswers + 1);
  });

  it("practice keeps its instant result, while the same answer in prize play is only locked in", async () => {
    const category = await makeCategory();
    await keepForPractice(category);
    const practice = await makePractice(category);
    const p = await makePlayer();
    const run = await join(p, practice.id);
    expect(run.status).toBe(200);
    const runId = run.body.tournament.id as number;
    const q = (await next(p, runId)).body;
    const bank = category.questions.find((x) => x.id === q.id)!;
    const res = await answer(p, runId, q.id, bank.correct);
    expect(res.body).toMatchObject({ isCorrect: true, correctAnswer: bank.correct, withheldUntil: null });
    expect(res.body.pointsEarned).toBeGreaterThan(0);
    expect(res.body.receipt.points).toBe(res.body.pointsEarned);

    // A free standard tournament without a pool counts as prize play too.
    const prize = await makeTournament(category, { startTime: Date.now() - 1000 });
    expect((await join(p, prize.id)).status).toBe(200);
    const pq = (await next(p, prize.id)).body;
    const locked = await answer(p, prize.id, pq.id, correctOf(prize, pq.id));
    expect(locked.body).toMatchObject({ locked: true, questionId: pq.id });
    expect(locked.text).not.toMatch(VERDICT);
  });
});
