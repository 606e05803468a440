// Play on the tournament socket: frames with ids (a resend returns the same reply and changes
// nothing), refusal frames with the HTTP endpoints' statuses and messages, malformed frames,
// rate limits, spectators, and the live show's shared clock (reveal timing, late reconnect,
// eviction mid-show, settlement).
import { afterAll, describe, expect, it } from "vitest";
import { evictDurableObject } from "cloudflare:test";
import { tournamentServerFrameSchema } from "../../common/api/tournaments";
import { JOIN, PLAY } from "../../common/messages";
import { LIVE_SHOW_WINDOW_MS } from "../../common/domain/live-show";
import { QUESTION_TIME_MS, REVEAL_PAUSE_MS, SOCKET_FRAME_BURST } from "../../common/spec";
import { call } from "./helpers";
import {
  all,
  answer,
  correctOf,
  join,
  ledgerMismatches,
  makeCategory,
  makePlayer,
  makeTournament,
  one,
  request,
  room,
  roomSql,
  runAlarm,
  sleep,
  startNow,
  wrongOf,
  type Player,
  type SocketClient,
  stepShow,
  liveShow,
  socketOf,
} from "./tournament-fixtures";

const cheats = (tournamentId: number, userId: number) =>
  all<{ n: number }>("SELECT count(*) AS n FROM cheat_attempts WHERE tournament_id = ? AND user_id = ?", tournamentId, userId);
const valid = (client: SocketClient) => {
  for (const f of client.frames)
    if (typeof f === "object") expect(tournamentServerFrameSchema.safeParse(f).success, JSON.stringify(f)).toBe(true);
};

describe("self-paced play over the socket", () => {
  it("plays next, answer and complete as frames, each reply carrying the frame's id", async () => {
    const t = await makeTournament(await makeCategory(), { startTime: Date.now() - 1000 });
    const p = await makePlayer();
    await join(p, t.id);
    const ws = await socketOf(t, p);
    for (let i = 0; i < 10; i++) {
      const q = await request(ws, { type: "next", id: `n${i}` });
      expect(q).toMatchObject({ type: "question", id: `n${i}`, question: { index: i, total: 10, result: null } });
      expect(JSON.stringify(q)).not.toMatch(/correctAnswer|isCorrect/);
      const right = i % 2 === 0;
      const r = await request(ws, {
        type: "answer",
        id: `a${i}`,
        questionId: q.question.id,
        answer: right ? correctOf(t, q.question.id) : wrongOf(t, q.question.id),
      });
      // Prize play: locked in, no verdict until the end (worker/test/self-paced-verdict.test.ts).
      expect(r).toMatchObject({ type: "result", id: `a${i}`, result: { locked: true, questionId: q.question.id } });
      expect(JSON.stringify(r)).not.toMatch(/correctAnswer|isCorrect|pointsEarned/);
    }
    // The only player finishing ends the tournament: the reply comes after the settlement, with the score.
    const done = await request(ws, { type: "complete", id: "c" });
    expect(done).toEqual({ type: "completed", id: "c", finished: true, score: expect.any(Number), questionsAnswered: 10 });
    const score = done.score as number;
    expect(score).toBeGreaterThan(5 * 100);
    expect(
      await one("SELECT score, questions_answered AS n FROM tournament_participants WHERE tournament_id = ? AND user_id = ?", t.id, p.id),
    ).toEqual({
      score,
      n: 10,
    });
    valid(ws);
    ws.ws.close(1000);
  });

  it("answers a resent frame after a reconnect with the same reply and changes nothing", async () => {
    const t = await makeTournament(await makeCategory(), { startTime: Date.now() - 1000 });
    const p = await makePlayer();
    await join(p, t.id);
    const first = await socketOf(t, p);
    const q = await request(first, { type: "next", id: "next-1" });
    const a = await request(first, { type: "answer", id: "answer-1", questionId: q.question.id, answer: correctOf(t, q.question.id) });
    first.ws.close(1000);

    // The phone lost both replies: it reconnects and sends the same frames again.
    const again = await socketOf(t, p);
    const q2 = await request(again, { type: "next", id: "next-1" });
    expect(q2.question.id).toBe(q.question.id);
    expect(q2.question.index).toBe(0);
    const a2 = await request(again, { type: "answer", id: "answer-1", questionId: q.question.id, answer: correctOf(t, q.question.id) });
    expect(a2.result).toEqual(a.result);
    // Nothing new was issued and the answer counted once (a prize board shows progress, scores at the end).
    expect((await call<any[]>(`/api/tournaments/${t.id}/questions`, { cookie: p.cookie })).body).toHaveLength(1);
    const board = (await call<any[]>(`/api/tournaments/${t.id}/leaderboard`)).body;
    expect(board[0]).toMatchObject({ userId: p.id, score: 0, questionsAnswered: 1 });
    // A new id moves on.
    expect((await request(again, { type: "next", id: "next-2" })).question.index).toBe(1);
    again.ws.close(1000);
  });

  it("refuses with the HTTP endpoint's status, code and message, and logs what the HTTP path logs", async () => {
    const t = await makeTournament(await makeCategory(), { startTime: Date.now() - 1000 });
    const [p, other] = [await makePlayer(), await makePlayer()];
    await join(p, t.id);
    const ws = await socketOf(t, p);
    const q = await request(ws, { type: "next", id: "1" });
    const later = t.questions.find((x) => x.id !== q.question.id)!;
    const viaSocket = await request(ws, { type: "answer", id: "2", questionId: later.id, answer: later.correct });
    const viaHttp = await answer(p, t.id, later.id, later.correct);
    expect(viaSocket).toEqual({ type: "error", id: "2", status: viaHttp.status, ...(viaHttp.body as object) });
    expect(viaSocket).toMatchObject({ status: 409, code: "not_issued", message: PLAY.notIssued });
    expect((await cheats(t.id, p.id))[0]!.n).toBe(2);
    expect(await request(ws, { type: "answer", id: "3", questionId: q.question.id, answer: "Not an option" })).toEqual({
      type: "error",
      id: "3",
      status: 400,
      code: "not_an_option",
      message: PLAY.notAnOption,
    });

    // Someone who did not join may watch the board but not play.
    const spectator = await socketOf(t, other);
    await spectator.waitFor((f) => f.type === "leaderboard");
    expect(await request(spectator, { type: "next", id: "s1" })).toEqual({
      type: "error",
      id: "s1",
      status: 409,
      code: "not_joined",
      message: PLAY.notJoined,
    });
    ws.ws.close(1000);
    spectator.ws.close(1000);
  });

  it("answers malformed frames with an error frame and keeps the socket open", async () => {
    const t = await makeTournament(await makeCategory(), { startTime: Date.now() - 1000 });
    const p = await makePlayer();
    await join(p, t.id);
    const ws = await socketOf(t, p);
    for (const bad of ["not json", "{}", JSON.stringify({ type: "answer", id: "x1" }), JSON.stringify({ type: "next" }), "[1,2]"]) {
      const from = ws.frames.length;
      ws.ws.send(bad);
      const reply = await ws.waitFor((f) => f.type === "error", 2000, from);
      expect(reply).toMatchObject({ status: 400, code: "invalid_frame", message: PLAY.invalidFrame });
    }
    expect(await request(ws, { type: "answer", id: "x2", questionId: "7", answer: 1 })).toMatchObject({ id: "x2", code: "invalid_frame" });
    expect(ws.closed).toBeNull();
    expect((await request(ws, { type: "next", id: "ok" })).type).toBe("question");
    ws.ws.close(1000);
  });

  it("limits frames per socket with an error frame past the burst", async () => {
    const t = await makeTournament(await makeCategory(), { startTime: Date.now() - 1000 });
    const p = await makePlayer();
    const ws = await socketOf(t, p);
    const from = ws.frames.length;
    for (let i = 0; i < SOCKET_FRAME_BURST + 10; i++) ws.ws.send(JSON.stringify({ type: "sync", id: `s${i}` }));
    const limited = await ws.waitFor((f) => f.type === "error" && f.code === "rate_limited", 3000, from);
    expect(limited).toMatchObject({ status: 429, message: PLAY.tooManyFrames });
    expect(ws.closed).toBeNull();
    ws.ws.close(1000);
  });

  it("keeps at most three sockets per user: a fourth closes the oldest", async () => {
    const t = await makeTournament(await makeCategory(), { startTime: Date.now() - 1000 });
    const p = await makePlayer();
    const sockets: SocketClient[] = [];
    for (let i = 0; i < 4; i++) {
      sockets.push(await socketOf(t, p));
      await sockets[i]!.waitFor((f) => f.type === "leaderboard");
    }
    await sockets[0]!.waitFor(() => sockets[0]!.closed !== null, 3000).catch(() => undefined);
    for (let i = 0; i < 50 && sockets[0]!.closed === null; i++) await new Promise((r) => setTimeout(r, 20));
    expect(sockets[0]!.closed?.code).toBe(4001);
    expect(sockets.slice(1).every((s) => s.closed === null)).toBe(true);
    for (const s of sockets.slice(1)) s.ws.close(1000);
  });
});

// ---- The live show ----

describe("the live show", () => {
  it("sends each question to every player at the same moment and reveals it only after the window closes", async () => {
    const { t, ps, sockets } = await liveShow(3);
    const [a, b] = ps as [Player, Player];
    const [sa, sb, sc] = sockets as [SocketClient, SocketClient, SocketClient];
    await startNow(t.id);
    const qa = await sa.waitFor((f) => f.type === "question");
    const qb = await sb.waitFor((f) => f.type === "question");
    expect(qa.question.index).toBe(0);
    expect(qa.question.issuedAt).toBe(qb.question.issuedAt);
    expect(qa.question.id).toBe(qb.question.id);
    expect(qa.id).toBeUndefined();

    // Joins closed when question 1 went out.
    const late = await makePlayer();
    expect((await join(late, t.id)).body).toMatchObject({ code: "join_closed", title: JOIN.failedTitle });

    // An answer is locked in, with nothing that tells whether it was right.
    const qid = qa.question.id;
    const ra = await request(sa, { type: "answer", id: "a", questionId: qid, answer: correctOf(t, qid) });
    expect(ra.result).toMatchObject({ locked: true, questionId: qid, answer: correctOf(t, qid) });
    expect(ra.result).not.toHaveProperty("isCorrect");
    const rb = await answer(b, t.id, qid, wrongOf(t, qid));
    expect(rb.body).toMatchObject({ locked: true });
    expect(JSON.stringify(rb.body)).not.toMatch(/correctAnswer|isCorrect/);
    expect(JSON.stringify((await call(`/api/tournaments/${t.id}/questions`, { cookie: a.cookie })).body)).not.toMatch(
      /correctAnswer|isCorrect/,
    );
    // The board does not move before the reveal either.
    expect((await call<any[]>(`/api/tournaments/${t.id}/leaderboard`)).body.every((r) => r.score === 0)).toBe(true);

    // The alarm running early (a retry) reveals nothing.
    await stepShow(t, LIVE_SHOW_WINDOW_MS - 3000);
    expect(sa.frames.some((f) => f.type === "reveal")).toBe(false);

    await stepShow(t, LIVE_SHOW_WINDOW_MS);
    const reveal = await sa.waitFor((f) => f.type === "reveal");
    expect(reveal).toMatchObject({ questionId: qid, index: 0, correctAnswer: correctOf(t, qid), you: { isCorrect: true } });
    expect(reveal.distribution).toHaveLength(4);
    expect(reveal.distribution.find((d: any) => d.option === correctOf(t, qid)).count).toBe(1);
    expect(reveal.distribution.find((d: any) => d.option === wrongOf(t, qid)).count).toBe(1);
    expect(Date.parse(reveal.nextAt) - Date.now()).toBeLessThanOrEqual(REVEAL_PAUSE_MS);
    expect((await sb.waitFor((f) => f.type === "reveal")).you).toMatchObject({ isCorrect: false, pointsEarned: 0 });
    const board = await sa.waitFor((f) => f.type === "leaderboard" && f.top.some((r: any) => r.score > 0));
    expect(board.top[0]).toMatchObject({ userId: a.id });
    expect(board.me).toEqual({ rank: 1, score: board.top[0].score });

    // Too late now, for everyone (C never answered).
    expect(await request(sc, { type: "answer", id: "late", questionId: qid, answer: correctOf(t, qid) })).toMatchObject({
      status: 409,
      code: "answer_window_closed",
      message: PLAY.windowClosed,
    });
    expect(await request(sb, { type: "next", id: "between" })).toMatchObject({ status: 409, code: "no_open_question" });

    // After the pause, question 2 goes out.
    await stepShow(t, REVEAL_PAUSE_MS);
    expect((await sb.waitFor((f) => f.type === "question" && f.question.index === 1)).question.remainingMs).toBeGreaterThan(
      QUESTION_TIME_MS - 5000,
    );
    for (const s of sockets) {
      valid(s);
      s.ws.close(1000);
    }
    void a;
  });

  it("gives a player who reconnects late the current question with the time left on the shared clock", async () => {
    const { t, ps, sockets } = await liveShow(2);
    for (const s of sockets) s.ws.close(1000);
    await startNow(t.id);
    // Twelve seconds into question 1 the player connects.
    await roomSql(t.id, "UPDATE questions SET opened_at = opened_at - 12000 WHERE ord = 0");
    await roomSql(t.id, "UPDATE meta SET show_since = show_since - 12000 WHERE id = 1");
    const ws = await socketOf(t, ps[0]!);
    const q = await ws.waitFor((f) => f.type === "question");
    expect(q.question.index).toBe(0);
    expect(q.question.remainingMs).toBeLessThanOrEqual(QUESTION_TIME_MS - 12_000);
    expect(q.question.remainingMs).toBeGreaterThan(QUESTION_TIME_MS - 16_000);
    // The response time counts from the shared push, not from when this player connected.
    const r = await request(ws, { type: "answer", id: "a", questionId: q.question.id, answer: correctOf(t, q.question.id) });
    expect(r.result.responseTime).toBeGreaterThanOrEqual(12_000);
    ws.ws.close(1000);
  });

  it("takes the measured round trip off the response time, capped", async () => {
    const { t, ps, sockets } = await liveShow(2);
    const [sa, sb] = sockets as [SocketClient, SocketClient];
    // Player A answers the ping 400 ms after it was sent; B never answers it.
    const ping = await sa.waitFor((f) => f.type === "ping");
    await sleep(400);
    sa.ws.send(JSON.stringify({ type: "pong", nonce: ping.nonce }));
    await startNow(t.id);
    const q = await sa.waitFor((f) => f.type === "question");
    await sb.waitFor((f) => f.type === "question");
    // Re-read after the restart roomSql causes: attachments survive hibernation.
    await roomSql(t.id, "UPDATE questions SET opened_at = opened_at - 5000 WHERE ord = 0");
    const ra = await request(sa, { type: "answer", id: "a", questionId: q.question.id, answer: correctOf(t, q.question.id) });
    const rb = await request(sb, { type: "answer", id: "b", questionId: q.question.id, answer: correctOf(t, q.question.id) });
    expect(rb.result.responseTime - ra.result.responseTime).toBeGreaterThanOrEqual(150);
    expect(ra.result.responseTime).toBeGreaterThanOrEqual(5000 - 150);
    for (const s of sockets) s.ws.close(1000);
    void ps;
  });

  it("survives eviction mid-show and settles once after the last reveal, counting missed questions as timed out", async () => {
    const { t, ps, sockets } = await liveShow(3);
    const [sa, sb] = sockets as [SocketClient, SocketClient, SocketClient];
    await startNow(t.id);
    const expected = new Map<number, number>(ps.map((p) => [p.id, 0]));
    for (let i = 0; i < 10; i++) {
      const q = await sa.waitFor((f) => f.type === "question" && f.question.index === i);
      const qid = q.question.id;
      await request(sa, { type: "answer", id: `a${i}`, questionId: qid, answer: correctOf(t, qid) });
      // B answers only the even questions, C never.
      if (i % 2 === 0) await request(sb, { type: "answer", id: `b${i}`, questionId: qid, answer: correctOf(t, qid) });
      // The object is evicted with answers in storage and none of them revealed.
      if (i === 3) await evictDurableObject(room(t.id));
      await stepShow(t, LIVE_SHOW_WINDOW_MS);
      const ra = await sa.waitFor((f) => f.type === "reveal" && f.index === i);
      expected.set(ps[0]!.id, expected.get(ps[0]!.id)! + ra.you.pointsEarned);
      const rb = await sb.waitFor((f) => f.type === "reveal" && f.index === i);
      if (i % 2 === 0) expected.set(ps[1]!.id, expected.get(ps[1]!.id)! + rb.you.pointsEarned);
      else expect(rb.you).toBeNull();
      if (i < 9) await stepShow(t, REVEAL_PAUSE_MS);
    }
    await stepShow(t, REVEAL_PAUSE_MS);
    await sa.waitFor((f) => f.type === "status" && f.status === "completed");
    const rows = await all<{ user_id: number; score: number; rank: number; answered: number }>(
      "SELECT user_id, score, rank, questions_answered AS answered FROM tournament_participants WHERE tournament_id = ? ORDER BY rank",
      t.id,
    );
    expect(rows.map((r) => r.user_id)).toEqual(ps.map((p) => p.id));
    for (const r of rows) expect(r.score).toBe(expected.get(r.user_id));
    expect(rows.map((r) => r.answered)).toEqual([10, 5, 0]);
    // Every question went out to everyone: ten responses each, the missed ones timed out.
    const responses = await all<{ user_id: number; n: number; missed: number }>(
      "SELECT user_id, count(*) AS n, sum(answer IS NULL) AS missed FROM user_responses WHERE tournament_id = ? GROUP BY user_id ORDER BY user_id",
      t.id,
    );
    expect(responses.map((r) => [r.n, r.missed])).toEqual([
      [10, 0],
      [10, 5],
      [10, 10],
    ]);
    expect((await one<{ status: string }>("SELECT status FROM tournaments WHERE id = ?", t.id)).status).toBe("completed");
    // Running the alarm again settles nothing twice.
    await runAlarm(t.id).catch(() => undefined);
    expect(
      (await one<{ n: number }>("SELECT count(*) AS n FROM tournament_participants WHERE tournament_id = ? AND rank = 1", t.id)).n,
    ).toBe(1);
    expect(await ledgerMismatches()).toEqual([]);
    for (const s of sockets) s.ws.close(1000);
  });
});

afterAll(async () => {
  expect(await ledgerMismatches()).toEqual([]);
});
