// A live show through a restart of its room (a deploy restarts every Durable Object and closes
// every WebSocket): the open window keeps its close time, answers locked before stay with their
// receipts, players come back on new sockets and get where the show is, and the show finishes on
// its clock through the alarms. Missed questions are timed out only for who really missed them.
import { describe, expect, it } from "vitest";
import { evictDurableObject, runInDurableObject } from "cloudflare:test";
import { LIVE_SHOW_WINDOW_MS } from "../../common/domain/live-show";
import { PLAY } from "../../common/messages";
import { QUESTION_TIME_MS, REVEAL_PAUSE_MS } from "../../common/spec";
import type { TournamentRoom } from "../durable/tournament-room";
import {
  all,
  correctOf,
  liveShow,
  one,
  request,
  room,
  roomSql,
  runAlarm,
  sleep,
  socketOf,
  startNow,
  stepShow,
  wrongOf,
  type Player,
  type SocketClient,
  type TournamentFixture,
} from "./tournament-fixtures";

/** When the room's own clock table says the show's next step is due. */
const showDueAt = (tournamentId: number) =>
  runInDurableObject(room(tournamentId), (_i: TournamentRoom, state) => {
    const rows = [...state.storage.sql.exec<{ due_at: number }>("SELECT due_at FROM schedule WHERE kind = 'show'")];
    return rows[0]?.due_at ?? null;
  });

/**
 * The deploy: every socket is closed and the object starts again from its storage. Then every
 * player reconnects on a new socket, as the web client does after its backoff.
 */
async function restart(t: TournamentFixture, ps: Player[], sockets: SocketClient[]): Promise<SocketClient[]> {
  for (const s of sockets) s.ws.close(1001, "going away");
  await evictDurableObject(room(t.id));
  return Promise.all(ps.map((p) => socketOf(t, p)));
}

const responses = (tournamentId: number) =>
  all<{ user_id: number; n: number; missed: number }>(
    "SELECT user_id, count(*) AS n, sum(answer IS NULL) AS missed FROM user_responses WHERE tournament_id = ? GROUP BY user_id ORDER BY user_id",
    tournamentId,
  );

describe("a live show through a restart", () => {
  it("keeps the open window's close time and the locked answers, scores who answers after reconnecting, and finishes on its clock", async () => {
    const { t, ps, sockets } = await liveShow(3);
    const [a, b, c] = ps as [Player, Player, Player];
    const [sa] = sockets as [SocketClient];
    await startNow(t.id);
    const q0 = (await sa.waitFor((f) => f.type === "question" && f.question.index === 0)).question;
    const closesAt = Date.parse(q0.issuedAt) + LIVE_SHOW_WINDOW_MS;
    expect(await showDueAt(t.id)).toBe(closesAt);
    // A answers before the restart: locked, with its receipt.
    const before = (await request(sa, { type: "answer", id: "a0", questionId: q0.id, answer: correctOf(t, q0.id) })).result;
    expect(before).toMatchObject({ locked: true, answer: correctOf(t, q0.id) });

    const [ra, rb, rc] = (await restart(t, ps, sockets)) as [SocketClient, SocketClient, SocketClient];

    // Every reconnecting socket gets where the show is and the open question on its first clock.
    for (const s of [ra, rb, rc]) {
      const status = await s.waitFor((f) => f.type === "status");
      expect(status).toMatchObject({ status: "live", show: { stage: "question", index: 0, nextAt: new Date(closesAt).toISOString() } });
      const q = (await s.waitFor((f) => f.type === "question")).question;
      expect(q).toMatchObject({ id: q0.id, index: 0, issuedAt: q0.issuedAt, deadline: q0.deadline });
      expect(q.remainingMs).toBeLessThanOrEqual(q0.remainingMs);
    }
    expect(await showDueAt(t.id)).toBe(closesAt);
    // A's answer is still locked, with the same receipt; a second press is refused.
    const again = (await ra.waitFor((f) => f.type === "question")).question;
    expect(again.result).toEqual(before);
    expect((await rb.waitFor((f) => f.type === "question")).question.result).toBeNull();
    expect(await request(ra, { type: "answer", id: "a0-again", questionId: q0.id, answer: wrongOf(t, q0.id) })).toMatchObject({
      status: 409,
      code: "already_answered",
    });
    // The same frame resent (its reply lost in the drop) gets the same reply.
    expect((await request(ra, { type: "answer", id: "a0", questionId: q0.id, answer: correctOf(t, q0.id) })).result).toEqual(before);
    // B answers on the new socket, inside the window.
    expect((await request(rb, { type: "answer", id: "b0", questionId: q0.id, answer: correctOf(t, q0.id) })).result).toMatchObject({
      locked: true,
    });

    await stepShow(t, LIVE_SHOW_WINDOW_MS);
    const revealA = await ra.waitFor((f) => f.type === "reveal" && f.index === 0);
    const revealB = await rb.waitFor((f) => f.type === "reveal" && f.index === 0);
    expect(revealA.you).toMatchObject({ isCorrect: true, responseTime: before.responseTime });
    expect(revealA.you.pointsEarned).toBeGreaterThan(0);
    expect(revealA.you.receipt.receivedAt).toBe(before.receipt.receivedAt);
    expect(revealB.you).toMatchObject({ isCorrect: true });
    expect(revealB.you.pointsEarned).toBeGreaterThan(0);
    expect((await rc.waitFor((f) => f.type === "reveal" && f.index === 0)).you).toBeNull();

    // The rest of the show runs on its alarms with nobody answering.
    for (let i = 1; i < 10; i++) {
      await stepShow(t, REVEAL_PAUSE_MS);
      await ra.waitFor((f) => f.type === "question" && f.question.index === i);
      await stepShow(t, LIVE_SHOW_WINDOW_MS);
      await ra.waitFor((f) => f.type === "reveal" && f.index === i);
    }
    await stepShow(t, REVEAL_PAUSE_MS);
    await ra.waitFor((f) => f.type === "status" && f.status === "completed");
    expect((await one<{ status: string }>("SELECT status FROM tournaments WHERE id = ?", t.id)).status).toBe("completed");

    const rows = await all<{ user_id: number; score: number; answered: number }>(
      "SELECT user_id, score, questions_answered AS answered FROM tournament_participants WHERE tournament_id = ? ORDER BY user_id",
      t.id,
    );
    const byUser = new Map(rows.map((r) => [r.user_id, r]));
    expect(byUser.get(a.id)).toMatchObject({ score: revealA.you.pointsEarned, answered: 1 });
    expect(byUser.get(b.id)).toMatchObject({ score: revealB.you.pointsEarned, answered: 1 });
    expect(byUser.get(c.id)).toMatchObject({ score: 0, answered: 0 });
    // Question 1 is timed out for C only: A (locked before the restart) and B (after) answered it.
    const first = await all<{ user_id: number; answer: string | null }>(
      "SELECT user_id, answer FROM user_responses WHERE tournament_id = ? AND question_id = ? ORDER BY user_id",
      t.id,
      q0.id,
    );
    expect(new Map(first.map((r) => [r.user_id, r.answer]))).toEqual(
      new Map([
        [a.id, correctOf(t, q0.id)],
        [b.id, correctOf(t, q0.id)],
        [c.id, null],
      ]),
    );
    const perUser = new Map((await responses(t.id)).map((r) => [r.user_id, [r.n, r.missed]]));
    expect(perUser.get(a.id)).toEqual([10, 9]);
    expect(perUser.get(b.id)).toEqual([10, 9]);
    expect(perUser.get(c.id)).toEqual([10, 10]);
    for (const s of [ra, rb, rc]) s.ws.close(1000);
  });

  it("refuses an answer after the window's close time even when the restarted room reveals late", async () => {
    const { t, ps, sockets } = await liveShow(2);
    const [sa] = sockets as [SocketClient];
    await startNow(t.id);
    const q0 = (await sa.waitFor((f) => f.type === "question" && f.question.index === 0)).question;
    for (const s of sockets) s.ws.close(1001);
    // Down past the close time: the alarm has not run yet when the players come back.
    await roomSql(t.id, "UPDATE questions SET opened_at = opened_at - ? WHERE ord = 0", LIVE_SHOW_WINDOW_MS + 1000);
    await roomSql(t.id, "UPDATE meta SET show_since = show_since - ? WHERE id = 1", LIVE_SHOW_WINDOW_MS + 1000);
    const [ra, rb] = (await Promise.all(ps.map((p) => socketOf(t, p)))) as [SocketClient, SocketClient];
    expect(await request(rb, { type: "answer", id: "late", questionId: q0.id, answer: correctOf(t, q0.id) })).toMatchObject({
      status: 409,
      code: "answer_window_closed",
      message: PLAY.windowClosed,
    });
    await runAlarm(t.id);
    expect((await ra.waitFor((f) => f.type === "reveal" && f.index === 0)).you).toBeNull();
    expect((await rb.waitFor((f) => f.type === "reveal" && f.index === 0)).distribution.every((d: any) => d.count === 0)).toBe(true);
    for (const s of [ra, rb]) s.ws.close(1000);
  });

  it("keeps the reveal's countdown through a restart: the next question opens at its planned time", async () => {
    const { t, ps, sockets } = await liveShow(2);
    const [sa] = sockets as [SocketClient];
    await startNow(t.id);
    await sa.waitFor((f) => f.type === "question" && f.question.index === 0);
    await stepShow(t, LIVE_SHOW_WINDOW_MS);
    const reveal = await sa.waitFor((f) => f.type === "reveal" && f.index === 0);
    const nextAt = Date.parse(reveal.nextAt);
    expect(nextAt - Date.now()).toBeLessThanOrEqual(REVEAL_PAUSE_MS);

    const [ra, rb] = (await restart(t, ps, sockets)) as [SocketClient, SocketClient];
    // The reconnecting sockets get the reveal again with the same countdown, and the room keeps its plan.
    for (const s of [ra, rb]) {
      expect(await s.waitFor((f) => f.type === "status")).toMatchObject({ show: { stage: "reveal", index: 0, nextAt: reveal.nextAt } });
      expect((await s.waitFor((f) => f.type === "reveal")).nextAt).toBe(reveal.nextAt);
    }
    expect(await showDueAt(t.id)).toBe(nextAt);
    // The alarm running early (a restart retries it) opens nothing.
    await runAlarm(t.id);
    expect(ra.frames.some((f) => f.type === "question")).toBe(false);

    // At the planned time the alarm opens question 2 for both, on one clock (a real wait of up
    // to the 5 s pause: the test's timeout allows for it).
    await sleep(Math.max(0, nextAt - Date.now()));
    await runAlarm(t.id).catch(() => undefined);
    const qa = (await ra.waitFor((f) => f.type === "question" && f.question.index === 1, 5000)).question;
    const qb = (await rb.waitFor((f) => f.type === "question" && f.question.index === 1, 5000)).question;
    expect(qa.issuedAt).toBe(qb.issuedAt);
    const openedAt = Date.parse(qa.issuedAt);
    expect(openedAt).toBeGreaterThanOrEqual(nextAt);
    // Within the time an alarm takes to fire on a loaded test machine.
    expect(openedAt - nextAt).toBeLessThan(2000);
    expect(qa.remainingMs).toBeLessThanOrEqual(QUESTION_TIME_MS);
    for (const s of [ra, rb]) s.ws.close(1000);
  }, 30_000);
});
