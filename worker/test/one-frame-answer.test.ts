// One frame per self-paced answer (docs/decisions/004-tournament-room.md, "One frame per answer"):
// an answer frame with `next: true` gets the next question in its reply, issued (its clock
// started) with that reply. A resent frame gets the same reply and the same question with its
// original deadline; a reconnect asks with `next` and keeps the deadline; the last answer's reply
// says the run is over. Prize play stays locked in; practice shows its verdicts; a live show
// carries nothing (its questions are pushed to everyone).
import { describe, expect, it } from "vitest";
import { ANSWER_GRACE_MS, QUESTION_TIME_MS } from "../../common/spec";
import type { PlayerQuestion } from "../../common/api/tournaments";
import { call } from "./helpers";
import {
  backdateCurrent,
  correctOf,
  join,
  keepForPractice,
  liveShow,
  makeCategory,
  makePlayer,
  makePractice,
  makeTournament,
  next,
  request,
  sleep,
  socketOf,
  startNow,
  wrongOf,
  type Player,
  type SocketClient,
  type TournamentFixture,
} from "./tournament-fixtures";

/** Keys whose presence would tell right from wrong. */
const VERDICT = /isCorrect|pointsEarned|xpEarned|correctAnswer|explanation/;

/** A live self-paced standard tournament (prize play) with one joined player and their socket. */
async function prizeRoom(): Promise<{ t: TournamentFixture; p: Player; ws: SocketClient }> {
  const t = await makeTournament(await makeCategory(), { startTime: Date.now() - 1000, prizePoolCents: 1000 });
  const p = await makePlayer();
  expect((await join(p, t.id)).status).toBe(200);
  return { t, p, ws: await socketOf(t, p) };
}

const answerFrame = (t: TournamentFixture, id: string, q: PlayerQuestion, right = true) => ({
  type: "answer",
  id,
  questionId: q.id,
  answer: right ? correctOf(t, q.id) : wrongOf(t, q.id),
  next: true,
});

/** Frames with this id the socket received (a reply is sent once per frame, never twice). */
const repliesTo = (ws: SocketClient, id: string) => ws.frames.filter((f) => typeof f === "object" && f.id === id);

const issued = async (p: Player, t: TournamentFixture) =>
  (await call<PlayerQuestion[]>(`/api/tournaments/${t.id}/questions`, { cookie: p.cookie })).body;

describe("one frame per self-paced answer", () => {
  it("plays the run with one frame per answer: each reply carries the next question, the last says the run is over", async () => {
    const { t, p, ws } = await prizeRoom();
    let q = (await request(ws, { type: "next", id: "n0" })).question as PlayerQuestion;
    expect(q.index).toBe(0);
    for (let i = 0; i < 10; i++) {
      const sent = Date.now();
      const r = await request(ws, answerFrame(t, `a${i}`, q, i % 2 === 0));
      // Prize play: locked in, nothing about right or wrong, in the result or the question it carries.
      expect(r).toMatchObject({ type: "result", id: `a${i}`, result: { locked: true, questionId: q.id } });
      expect(JSON.stringify(r)).not.toMatch(VERDICT);
      if (i === 9) {
        expect(r.next).toBeNull();
        break;
      }
      const carried = r.next as PlayerQuestion;
      expect(carried).toMatchObject({ index: i + 1, total: 10, result: null });
      // Issued with this reply: its clock starts then, with the full 30 s.
      expect(Date.parse(carried.issuedAt)).toBeGreaterThanOrEqual(sent - 5);
      expect(Date.parse(carried.issuedAt)).toBeLessThanOrEqual(Date.now());
      expect(Date.parse(carried.deadline) - Date.parse(carried.issuedAt)).toBe(QUESTION_TIME_MS);
      expect(carried.remainingMs).toBeGreaterThan(QUESTION_TIME_MS - 2000);
      q = carried;
    }
    // One reply per frame, and no question frame besides the first `next`'s.
    for (let i = 0; i < 10; i++) expect(repliesTo(ws, `a${i}`)).toHaveLength(1);
    expect(ws.frames.filter((f) => f.type === "question")).toHaveLength(1);
    // A self-paced room measures no round trips: no ping to answer (a live show's sockets get them).
    expect(ws.frames.filter((f) => f.type === "ping")).toEqual([]);
    expect((await issued(p, t)).map((x) => x.index)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    const done = await request(ws, { type: "complete", id: "c" });
    expect(done).toMatchObject({ type: "completed", finished: true, questionsAnswered: 10 });
    ws.ws.close(1000);
  });

  it("answers a resent answer frame with the same reply and the same next question, its deadline unchanged", async () => {
    const { t, p, ws } = await prizeRoom();
    const q0 = (await request(ws, { type: "next", id: "n0" })).question as PlayerQuestion;
    const first = await request(ws, answerFrame(t, "a0", q0));
    await sleep(60);
    // The reply was lost: the client sends the same frame again (after a reconnect, say).
    ws.ws.close(1000);
    const again = await socketOf(t, p);
    const second = await request(again, answerFrame(t, "a0", q0));
    const { remainingMs: r1, ...carried1 } = first.next as PlayerQuestion;
    const { remainingMs: r2, ...carried2 } = second.next as PlayerQuestion;
    expect(second.result).toEqual(first.result);
    expect(carried2).toEqual(carried1);
    // The clock kept running: less time left, never a fresh 30 s.
    expect(r2).toBeLessThan(r1);
    // The same answer under another frame id (an HTTP retry's twin, a client that lost its ids): still the same question.
    const third = await request(again, { ...answerFrame(t, "other-id", q0) });
    expect(third.next).toMatchObject({ id: carried1.id, issuedAt: carried1.issuedAt, deadline: carried1.deadline });
    // Nothing was skipped or issued twice, and the answer counted once.
    expect((await issued(p, t)).map((x) => x.index)).toEqual([0, 1]);
    const board = (await call<any[]>(`/api/tournaments/${t.id}/leaderboard`)).body;
    expect(board[0]).toMatchObject({ userId: p.id, questionsAnswered: 1, score: 0 });
    // Play goes on from the carried question.
    const r = await request(again, answerFrame(t, "a1", first.next));
    expect(r.next).toMatchObject({ index: 2 });
    again.ws.close(1000);
  });

  it("never skips the carried question: a resend after its time ran out gets it again, timed out, not a fresh one", async () => {
    const { t, p, ws } = await prizeRoom();
    const q0 = (await request(ws, { type: "next", id: "n0" })).question as PlayerQuestion;
    await request(ws, answerFrame(t, "a0", q0));
    ws.ws.close(1000);
    // The player was away past the carried question's 30 s and its grace; then the lost frame is resent.
    await backdateCurrent(t.id, p.id, QUESTION_TIME_MS + ANSWER_GRACE_MS + 5000);
    const [carried] = (await issued(p, t)).slice(1);
    const again = await socketOf(t, p);
    const resent = await request(again, answerFrame(t, "a0", q0));
    expect(resent.next).toMatchObject({ id: carried!.id, index: 1, issuedAt: carried!.issuedAt, remainingMs: 0, result: null });
    expect((await issued(p, t)).map((x) => x.index)).toEqual([0, 1]);
    // A next frame moves on past the timed-out question, with a clock of its own.
    const moved = await request(again, { type: "next", id: "n2" });
    expect(moved.question).toMatchObject({ index: 2, result: null });
    again.ws.close(1000);
  });

  it("measures the carried question's response time from the reply that carried it", async () => {
    const { t, p, ws } = await prizeRoom();
    const q0 = (await request(ws, { type: "next", id: "n0" })).question as PlayerQuestion;
    const r0 = await request(ws, answerFrame(t, "a0", q0));
    const q1 = r0.next as PlayerQuestion;
    await sleep(300);
    const sent = Date.now();
    const r1 = await request(ws, answerFrame(t, "a1", q1));
    expect(r1.result.responseTime).toBeGreaterThanOrEqual(300);
    expect(r1.result.responseTime).toBeLessThanOrEqual(Date.now() - Date.parse(q1.issuedAt));
    expect(r1.result.responseTime).toBeGreaterThanOrEqual(sent - Date.parse(q1.issuedAt) - 5);
    // The same on the room's own clock: a question issued 5 s before (as stored) is answered in about 5 s.
    await backdateCurrent(t.id, p.id, 5000);
    const r2 = await request(ws, answerFrame(t, "a2", r1.next));
    expect(r2.result.responseTime).toBeGreaterThanOrEqual(5000);
    expect(r2.result.responseTime).toBeLessThan(7000);
    ws.ws.close(1000);
  });

  it("gives a client that reconnects mid-question the open question with its original deadline", async () => {
    const { t, p, ws } = await prizeRoom();
    const q0 = (await request(ws, { type: "next", id: "n0" })).question as PlayerQuestion;
    const carried = (await request(ws, answerFrame(t, "a0", q0))).next as PlayerQuestion;
    ws.ws.close(1000);
    await sleep(60);
    const again = await socketOf(t, p);
    const resumed = (await request(again, { type: "next", id: "after-reconnect" })).question as PlayerQuestion;
    expect(resumed).toMatchObject({ id: carried.id, index: 1, issuedAt: carried.issuedAt, deadline: carried.deadline, result: null });
    expect(resumed.remainingMs).toBeLessThan(carried.remainingMs);
    // Over HTTP too.
    expect((await next(p, t.id)).body).toMatchObject({ id: carried.id, issuedAt: carried.issuedAt });
    expect((await issued(p, t)).map((x) => x.index)).toEqual([0, 1]);
    again.ws.close(1000);
  });

  it("keeps one question at a time: no question is carried by a refused answer", async () => {
    const { t, p, ws } = await prizeRoom();
    const q0 = (await request(ws, { type: "next", id: "n0" })).question as PlayerQuestion;
    const refused = await request(ws, { type: "answer", id: "x", questionId: q0.id, answer: "Not an option", next: true });
    expect(refused).toMatchObject({ type: "error", id: "x", status: 400, code: "not_an_option" });
    expect(refused).not.toHaveProperty("next");
    // Without `next: true` the reply is the result alone, as before.
    const plain = await request(ws, { type: "answer", id: "a0", questionId: q0.id, answer: correctOf(t, q0.id) });
    expect(plain).not.toHaveProperty("next");
    expect((await issued(p, t)).map((x) => x.index)).toEqual([0]);
    ws.ws.close(1000);
  });

  it("shows practice verdicts at once, and never the carried question's", async () => {
    const category = await makeCategory();
    await keepForPractice(category);
    const practice = await makePractice(category);
    const p = await makePlayer();
    const run = await join(p, practice.id);
    expect(run.status).toBe(200);
    // The player's own run, drawn from the category's bank.
    const t = { id: run.body.tournament.id as number, title: "", questions: category.questions };
    const ws = await socketOf(t, p);
    const q0 = (await request(ws, { type: "next", id: "n0" })).question as PlayerQuestion;
    const r = await request(ws, answerFrame(t, "a0", q0));
    expect(r.result).toMatchObject({ isCorrect: true, correctAnswer: correctOf(t, q0.id) });
    expect(r.result.pointsEarned).toBeGreaterThan(0);
    expect(r.next).toMatchObject({ index: 1, result: null });
    expect(JSON.stringify(r.next)).not.toMatch(VERDICT);
    ws.ws.close(1000);
  });

  it("carries nothing in a live show, whose questions go out to everyone at once", async () => {
    const { t, sockets } = await liveShow(1);
    const [ws] = sockets as [SocketClient];
    await startNow(t.id);
    const q = await ws.waitFor((f) => f.type === "question");
    const r = await request(ws, { type: "answer", id: "a", questionId: q.question.id, answer: correctOf(t, q.question.id), next: true });
    expect(r).toMatchObject({ type: "result", result: { locked: true } });
    expect(r).not.toHaveProperty("next");
    ws.ws.close(1000);
  });
});
