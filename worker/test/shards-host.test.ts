// The host's tools on a sharded live show (docs/decisions/017-host-tools.md, decision 011's
// "Built"): the operator acts through the usual routes on the coordinator, which forwards each
// action to the play shards (at once, then from its alarm until each confirmed). Players on both
// shards see it as they would in one room; the merged board, the settlement and the console's live
// view count it.
import { describe, expect, it } from "vitest";
import { runInDurableObject } from "cloudflare:test";
import { HOST_TOOLS } from "../../common/console-messages";
import { PLAY } from "../../common/messages";
import { REVEAL_PAUSE_MS } from "../../common/spec";
import type { TournamentRoom } from "../durable/tournament-room";
import { SHARD_RETRY_MS } from "../durable/room/shards";
import { call } from "./helpers";
import { makeOperator } from "./fair-play-fixtures";
import {
  all,
  correctOf,
  ledgerMismatches,
  makePlayer,
  one,
  request,
  runAlarm,
  sleep,
  socketOf,
  startNow,
  wrongOf,
  type Player,
} from "./tournament-fixtures";
import { answerOn, closeNow, finishNow, openNow, playAll, shard, shardCallProbe, shardedShow, statusOf, type Show } from "./shard-fixtures";

/** A whole show is many alarm runs on three objects: more than the default 5 s on a busy machine. */
const SHOW_TIMEOUT_MS = 60_000;

const host = (op: Player, t: { id: number }, action: string, body: unknown = {}) =>
  call<any>(`/api/admin/tournaments/${t.id}/${action}`, { cookie: op.cookie, body });

/** Question `ord` opens on every shard and each player answers it (`right(i)`); then its window closes. */
async function playOne(show: Show, ord: number, right: (i: number) => boolean | null): Promise<number> {
  const { t, sockets } = show;
  await openNow(t, ord);
  let qid = 0;
  for (const [i, s] of sockets.entries()) {
    const q = (await s.waitFor((f) => f.type === "question" && f.question.index === ord, 3000)).question;
    qid = q.id;
    const how = right(i);
    if (how !== null) await answerOn(s, `q${ord}p${i}`, q.id, how ? correctOf(t, q.id) : wrongOf(t, q.id));
  }
  await closeNow(t);
  for (const s of sockets) await s.waitFor((f) => f.type === "reveal" && f.index === ord, 3000);
  return qid;
}

/** The announced open time of `ord` a shard holds. */
const announcedOn = (t: { id: number }, k: number, ord: number) =>
  runInDurableObject(shard(t, k), (_i: TournamentRoom, state) => {
    const row = [...state.storage.sql.exec<{ value: string }>("SELECT value FROM shard_state WHERE key = ?", `announce:${ord}`)][0];
    return row ? Number(row.value) : null;
  });

describe("the host's tools on a sharded live show", () => {
  it(
    "pauses every shard (a due question opens nowhere), and resumes them all to one new open time",
    { timeout: SHOW_TIMEOUT_MS },
    async () => {
      const op = await makeOperator();
      const show = await shardedShow(4);
      const { t, sockets } = show;
      await startNow(t.id);
      await playOne(show, 0, () => true);

      const paused = await host(op, t, "pause", { note: "sponsor break" });
      expect(paused.status, paused.text).toBe(200);
      expect(paused.body).toMatchObject({ changed: true, message: HOST_TOOLS.paused });
      // Players on both shards are told, as in one room.
      for (const s of sockets) {
        await s.waitFor((f) => f.type === "host" && f.paused === true, 3000);
        await s.waitFor((f) => f.type === "status" && f.show?.paused === true && f.show.nextAt === null, 3000);
      }

      // Past the time announced before the pause, on the coordinator and every shard: nothing opens.
      await openNow(t, 1);
      await sleep(200);
      for (const s of sockets) expect(s.frames.some((f) => f.type === "question" && f.question.index === 1)).toBe(false);
      const live = await call<any>(`/api/admin/tournaments/${t.id}/live`, { cookie: op.cookie });
      expect(live.body).toMatchObject({ paused: true, show: { index: 0, stage: "reveal", closesAt: null } });

      const before = Date.now();
      const resumed = await host(op, t, "resume");
      expect(resumed.body).toMatchObject({ changed: true, message: HOST_TOOLS.resumed });
      // Every shard has the same new open time, a reveal pause after the resume, and shows its countdown.
      const at = [await announcedOn(t, 0, 1), await announcedOn(t, 1, 1)];
      expect(at[0]).toBe(at[1]);
      expect(at[0]!).toBeGreaterThanOrEqual(before + REVEAL_PAUSE_MS);
      for (const s of sockets)
        await s.waitFor(
          (f) => f.type === "status" && f.show?.paused === undefined && f.show?.nextAt === new Date(at[0]!).toISOString(),
          3000,
        );
      // And it opens on every shard at that one time.
      await openNow(t, 1);
      const frames = await Promise.all(sockets.map((s) => s.waitFor((f) => f.type === "question" && f.question.index === 1, 3000)));
      expect(new Set(frames.map((f) => f.question.issuedAt)).size).toBe(1);
    },
  );

  it(
    "paused during a question: the window closes and reveals everywhere, the next question is announced only at the resume",
    { timeout: SHOW_TIMEOUT_MS },
    async () => {
      const op = await makeOperator();
      const show = await shardedShow(2);
      const { t, sockets } = show;
      await startNow(t.id);
      await openNow(t, 0);
      for (const s of sockets) await s.waitFor((f) => f.type === "question" && f.question.index === 0, 3000);
      expect((await host(op, t, "pause")).body).toMatchObject({ changed: true });
      await closeNow(t);
      for (const s of sockets) expect((await s.waitFor((f) => f.type === "reveal" && f.index === 0, 3000)).nextAt).toBeNull();
      // However often the coordinator's alarm runs, no shard hears of question 1.
      await sleep(SHARD_RETRY_MS);
      await runAlarm(t.id);
      await runAlarm(t.id);
      expect([await announcedOn(t, 0, 1), await announcedOn(t, 1, 1)]).toEqual([null, null]);
      const before = Date.now();
      expect((await host(op, t, "resume")).body).toMatchObject({ changed: true });
      const at = [await announcedOn(t, 0, 1), await announcedOn(t, 1, 1)];
      expect(at[0]).toBe(at[1]);
      expect(at[0]!).toBeGreaterThanOrEqual(before + REVEAL_PAUSE_MS);
    },
  );

  it("asks a shard again from the alarm when the pause did not reach it", { timeout: SHOW_TIMEOUT_MS }, async () => {
    const op = await makeOperator();
    const show = await shardedShow(2);
    const { t, sockets } = show;
    await startNow(t.id);
    await playOne(show, 0, () => true);
    const calls = await shardCallProbe(t, "shardHost", 1);
    const paused = await host(op, t, "pause");
    expect(paused.body).toMatchObject({ changed: true });
    expect(calls).toEqual([`${t.id}:shard:0`, `${t.id}:shard:1`]);
    await sockets[0]!.waitFor((f) => f.type === "host" && f.paused === true, 3000);
    expect(sockets[1]!.frames.some((f) => f.type === "host")).toBe(false);
    await sleep(SHARD_RETRY_MS);
    await runAlarm(t.id);
    expect(calls).toEqual([`${t.id}:shard:0`, `${t.id}:shard:1`, `${t.id}:shard:1`]);
    await sockets[1]!.waitFor((f) => f.type === "host" && f.paused === true, 3000);
    // Confirmed: the next alarm asks nobody again.
    await sleep(SHARD_RETRY_MS);
    await runAlarm(t.id);
    expect(calls).toHaveLength(3);
  });

  it(
    "voids a question on every shard: the reveal says so, the merged board and the settlement count it for nobody",
    { timeout: SHOW_TIMEOUT_MS },
    async () => {
      const op = await makeOperator();
      const show = await shardedShow(4, { poolCents: 1000 });
      const { t, ps, sockets } = show;
      await startNow(t.id);
      // Question 0: only player 1 (shard 1) is right; the board has them first.
      await playOne(show, 0, (i) => i === 1);
      await sockets[0]!.waitFor((f) => f.type === "leaderboard" && f.top[0]?.userId === ps[1]!.id && f.top[0].score > 0, 3000);

      const voided = await host(op, t, "void-question", { index: 0, reason: "Two answers are right" });
      expect(voided.status, voided.text).toBe(200);
      expect(voided.body).toMatchObject({ changed: true, message: HOST_TOOLS.voided(0) });
      for (const s of sockets) {
        await s.waitFor((f) => f.type === "host" && f.voided.includes(0), 3000);
        await s.waitFor((f) => f.type === "reveal" && f.index === 0 && f.voided === true, 3000);
      }
      // The merged board on every shard's sockets: nobody scores for it any more.
      for (const s of sockets)
        await s.waitFor((f) => f.type === "leaderboard" && f.top.length === 4 && f.top.every((r: any) => r.score === 0), 3000);

      // The rest: player 3 (shard 1) right on every other question, player 0 (shard 0) on the even ones, the others never.
      await playAll(show, (ord, i) => (i === 3 ? true : i === 0 ? ord % 2 === 0 : false), 1);
      await finishNow(t);
      await runAlarm(t.id);
      expect(await statusOf(t.id)).toBe("completed");
      const ranks = await all<{ user_id: number; rank: number; correct_answers: number }>(
        "SELECT user_id, rank, correct_answers FROM tournament_participants WHERE tournament_id = ? ORDER BY rank",
        t.id,
      );
      expect(ranks.slice(0, 2).map((r) => r.user_id)).toEqual([ps[3]!.id, ps[0]!.id]);
      // Player 1's only right answer was the voided question's.
      expect(ranks.find((r) => r.user_id === ps[1]!.id)!.correct_answers).toBe(0);
      expect(ranks.find((r) => r.user_id === ps[3]!.id)!.correct_answers).toBe(9);
      expect(ranks.find((r) => r.user_id === ps[0]!.id)!.correct_answers).toBe(4);
    },
  );

  it(
    "disqualifies a player on their shard: told, their answers refused, left out of the merged board and the settlement",
    { timeout: SHOW_TIMEOUT_MS },
    async () => {
      const op = await makeOperator();
      const show = await shardedShow(4);
      const { t, ps, sockets } = show;
      await startNow(t.id);
      // Player 1 (shard 1) leads after question 0.
      await playOne(show, 0, (i) => i === 1);
      await openNow(t, 1);
      const q1 = (await sockets[1]!.waitFor((f) => f.type === "question" && f.question.index === 1, 3000)).question;

      const out = await host(op, t, "disqualify", { userId: ps[1]!.id, reason: "Answers from a bot" });
      expect(out.status, out.text).toBe(200);
      expect(out.body).toMatchObject({ changed: true, message: HOST_TOOLS.disqualified(ps[1]!.username) });
      await sockets[1]!.waitFor((f) => f.type === "host" && f.disqualified === "Answers from a bot", 3000);
      // Their shard refuses their answer; the others play on.
      const refused = await request(sockets[1]!, { type: "answer", id: "late", questionId: q1.id, answer: correctOf(t, q1.id) });
      expect(refused).toMatchObject({
        type: "error",
        status: 409,
        code: "player_disqualified",
        message: PLAY.disqualified("Answers from a bot"),
      });
      for (const i of [0, 2, 3]) expect(sockets[i]!.frames.some((f) => f.type === "host")).toBe(false);
      // The merged board leaves them out at once, on both shards.
      for (const s of [sockets[0]!, sockets[3]!])
        await s.waitFor((f) => f.type === "leaderboard" && f.top.length > 0 && f.top.every((r: any) => r.userId !== ps[1]!.id), 3000);

      for (const [i, s] of sockets.entries()) if (i !== 1) await answerOn(s, `q1p${i}`, q1.id, correctOf(t, q1.id));
      await closeNow(t);
      // The rest, without them: a disqualified player gets no more questions.
      const others = { ...show, sockets: sockets.filter((_, i) => i !== 1) };
      await playAll(others, () => false, 2);
      const last = await sockets[3]!.waitFor((f) => f.type === "leaderboard" && f.version >= 10 && f.top.length === 3, 3000);
      expect(last.top.map((r: any) => r.userId)).not.toContain(ps[1]!.id);
      await finishNow(t);
      await runAlarm(t.id);
      expect(await statusOf(t.id)).toBe("completed");
      const seats = await all<{ user_id: number; rank: number | null; disqualified_reason: string | null }>(
        "SELECT user_id, rank, disqualified_reason FROM tournament_participants WHERE tournament_id = ? ORDER BY user_id",
        t.id,
      );
      expect(seats.find((s) => s.user_id === ps[1]!.id)).toMatchObject({ rank: null, disqualified_reason: "Answers from a bot" });
      expect(
        seats
          .filter((s) => s.user_id !== ps[1]!.id)
          .map((s) => s.rank)
          .sort(),
      ).toEqual([1, 2, 3]);
      // Repeated: nothing changes twice.
      expect((await host(op, t, "disqualify", { userId: ps[1]!.id, reason: "Again" })).body).toMatchObject({ changed: false });
    },
  );

  it(
    "after settlement, with money in it: a second operator approves, a held prize goes to the house once, the player's shard tells them",
    { timeout: SHOW_TIMEOUT_MS },
    async () => {
      const [op1, op2] = [await makeOperator(), await makeOperator()];
      const show = await shardedShow(4, { poolCents: 1000 });
      const { t, ps, sockets } = show;
      await startNow(t.id);
      // Player 3 (shard 1) answers everything right, faster than anyone reads: their prize is held for review.
      await playAll(show, (ord, i) => (i === 3 ? true : i === 0 ? ord % 2 === 0 : false));
      await finishNow(t);
      await runAlarm(t.id);
      expect(await statusOf(t.id)).toBe("completed");
      const prize = async (u: Player) =>
        one<{ status: string; amount_cents: number }>(
          "SELECT status, amount_cents FROM transactions WHERE reference = ? AND type = 'prize'",
          `prize:${t.id}:${u.id}`,
        );
      const held = await prize(ps[3]!);
      expect(held.status).toBe("held");

      const asked = await host(op1, t, "disqualify", { userId: ps[3]!.id, reason: "Read the answers off a second screen" });
      expect(asked.status, asked.text).toBe(202);
      const approve = () => call<any>(`/api/admin/approvals/${asked.body.approvalId}/approve`, { cookie: op2.cookie, body: {} });
      expect((await approve()).status).toBe(200);
      expect((await approve()).status).toBe(409);
      expect((await host(op2, t, "disqualify", { userId: ps[3]!.id, reason: "Again" })).body).toMatchObject({ changed: false });
      expect((await prize(ps[3]!)).status).toBe("forfeited");
      const forfeits = await all<{ amount_cents: number }>(
        "SELECT amount_cents FROM house_ledger WHERE reference = ? AND type = 'forfeited_prize'",
        `forfeit:${t.id}:${ps[3]!.id}`,
      );
      expect(forfeits).toEqual([{ amount_cents: held.amount_cents }]);
      // Their play screen on shard 1 says so; the others' places stay as settled.
      await sockets[3]!.waitFor((f) => f.type === "host" && f.disqualified === "Read the answers off a second screen", 3000);
      for (const i of [0, 1, 2]) expect(sockets[i]!.frames.some((f) => f.type === "host")).toBe(false);
      expect(await ledgerMismatches()).toEqual([]);
    },
  );

  it("the console's live view counts every shard's sockets and answers", { timeout: SHOW_TIMEOUT_MS }, async () => {
    const op = await makeOperator();
    const show = await shardedShow(4);
    const { t, sockets } = show;
    const watcher = await socketOf(t, await makePlayer());
    await watcher.waitFor((f) => f.type === "status");
    await startNow(t.id);
    await openNow(t, 0);
    const q0 = (await sockets[0]!.waitFor((f) => f.type === "question", 3000)).question;
    for (const i of [0, 1, 3]) await answerOn(sockets[i]!, `a${i}`, q0.id, correctOf(t, q0.id));
    const live = await call<any>(`/api/admin/tournaments/${t.id}/live`, { cookie: op.cookie });
    expect(live.status, live.text).toBe(200);
    // Four players' sockets on two shards, and the spectator's on the coordinator.
    expect(live.body).toMatchObject({ participants: 4, sockets: 5, connectedPlayers: 5, answersPerSecond: 0.3 });
    expect(live.body.show).toMatchObject({ index: 0, stage: "question" });
  });
});
