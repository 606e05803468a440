// A live show over a coordinator and two play shards (docs/decisions/011-one-tournament-past-one-durable-object.md,
// "Built"); how the tests drive it: ./shard-fixtures.ts.
import { describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import { evictDurableObject, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { LIVE_SHOW_WINDOW_MS } from "../../common/domain/live-show";
import { SESSION_ENDED_CLOSE_CODE } from "../../common/spec";
import { checkTreeReveal, type TreeReveal } from "../../common/domain/fairness";
import { splitPrizePool } from "../../common/domain/prizes";
import type { FairnessReport } from "../../common/api/fair-play";
import type { TournamentRoom } from "../durable/tournament-room";
import { SHARD_RETRY_MS } from "../durable/room/shards";
import { call } from "./helpers";
import {
  all,
  balanceOf,
  correctOf,
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
  socketOf,
  startNow,
  wrongOf,
} from "./tournament-fixtures";
import {
  answerOn,
  clockOf,
  closeNow,
  CONTINENTS,
  finishNow,
  gatherProbe,
  N,
  openNow,
  playAll,
  shard,
  shardCallProbe,
  shardedShow,
  shardSql,
  statusOf,
} from "./shard-fixtures";

describe("a sharded live show", () => {
  it("sends a question to players on different shards with one open time, reveals only after the window, and merges the board", async () => {
    const { t, ps, sockets } = await shardedShow(4);
    // Someone without a seat watches: their socket is the coordinator's.
    const watcher = await socketOf(t, await makePlayer());
    await watcher.waitFor((f) => f.type === "status");
    const seats = await all<{ user_id: number; shard: number }>(
      "SELECT user_id, shard FROM tournament_participants WHERE tournament_id = ? ORDER BY user_id",
      t.id,
    );
    expect(seats.map((s) => s.shard)).toEqual([0, 1, 0, 1]);

    await startNow(t.id);
    // The coordinator announced the first question ahead; each shard opens it on its own alarm at that time.
    const frames = await Promise.all(sockets.map((s) => s.waitFor((f) => f.type === "question", 6000)));
    const opened = new Set(frames.map((f) => f.question.issuedAt));
    expect(opened.size).toBe(1);
    const [coordinator, shard0, shard1] = await Promise.all([clockOf(room(t.id)), clockOf(shard(t, 0)), clockOf(shard(t, 1))]);
    const at = Date.parse([...opened][0]!);
    expect([coordinator.opened[0], shard0.opened[0], shard1.opened[0]]).toEqual([at, at, at]);

    // Shard 0's players answer right (one fast, one slow), shard 1's wrong and right.
    const q0 = frames[0].question.id as number;
    await answerOn(sockets[0]!, "a0", q0, correctOf(t, q0));
    await answerOn(sockets[1]!, "b0", q0, wrongOf(t, q0));
    await answerOn(sockets[3]!, "d0", q0, correctOf(t, q0));
    await answerOn(sockets[2]!, "c0", q0, correctOf(t, q0));
    // No reveal anywhere before the window closed.
    expect(sockets.every((s) => !s.frames.some((f) => f.type === "reveal"))).toBe(true);

    await closeNow(t);
    for (const s of sockets) await s.waitFor((f) => f.type === "reveal" && f.index === 0);
    // The merged board: the three right answers by response time, then the wrong one, on every shard's sockets.
    const merged = (f: any) => f.type === "leaderboard" && f.top.length === 4 && f.top[0].score > 0;
    const board = await sockets[1]!.waitFor(merged, 3000);
    const right = [ps[0]!, ps[3]!, ps[2]!].map((p) => p.id);
    expect(
      board.top
        .slice(0, 3)
        .map((r: { userId: number }) => r.userId)
        .sort(),
    ).toEqual([...right].sort());
    expect(board.top.map((r: { rank: number }) => r.rank)).toEqual([1, 2, 3, 4]);
    expect(board.top[3].userId).toBe(ps[1]!.id);
    expect(board.me).toEqual({ rank: 4, score: 0 });
    const other = await sockets[0]!.waitFor(merged, 3000);
    expect(other.top).toEqual(board.top);
    // The coordinator's public leaderboard while the show runs is the same merged board.
    expect((await call(`/api/tournaments/${t.id}/leaderboard`)).body).toEqual(board.top);
    // The spectator gets the same merged board from the coordinator, with no rank of their own.
    const watched = await watcher.waitFor(merged, 3000);
    expect(watched.top).toEqual(board.top);
    expect(watched.me).toBeNull();
  });

  it("settles after gathering every shard's totals, resumes a failed gathering, pays each prize once to the cent, and its fairness report verifies", async () => {
    // A free show with a house-funded pool: prize play with four players (a paid one needs ten to start).
    const show = await shardedShow(4, { poolCents: 1000 });
    const { t, ps, sockets } = show;
    await startNow(t.id);
    // Player 3 (shard 1) answers everything right, player 0 (shard 0) all but one, player 2 half, player 1 none.
    await playAll(show, (ord, i) => (i === 3 ? true : i === 0 ? ord !== 4 : i === 2 ? ord % 2 === 0 : false));
    const lastBoard = await sockets[0]!.waitFor((f) => f.type === "leaderboard" && f.top.length === 4 && f.version === 10, 3000);
    expect(lastBoard.top.map((r: { userId: number }) => r.userId)).toEqual([ps[3]!.id, ps[0]!.id, ps[2]!.id, ps[1]!.id]);

    await finishNow(t);
    const calls = await gatherProbe(t, 1);
    await runAlarm(t.id);
    // Shard 0's totals are in; shard 1's reply was lost: nothing is settled yet.
    expect(await statusOf(t.id)).toBe("live");
    expect(calls).toEqual([`${t.id}:shard:0`, `${t.id}:shard:1`]);
    await runAlarm(t.id);
    // Resumed at shard 1: shard 0 is not asked again.
    expect(calls).toEqual([`${t.id}:shard:0`, `${t.id}:shard:1`, `${t.id}:shard:1`]);
    expect(await statusOf(t.id)).toBe("completed");

    // The settled ranks are the merged board's order; the prizes are the pool's split, once each.
    const ranks = await all<{ user_id: number; rank: number; score: number }>(
      "SELECT user_id, rank, score FROM tournament_participants WHERE tournament_id = ? ORDER BY rank",
      t.id,
    );
    expect(ranks.map((r) => r.user_id)).toEqual(lastBoard.top.map((r: { userId: number }) => r.userId));
    expect(ranks.map((r) => r.score)).toEqual(lastBoard.top.map((r: { score: number }) => r.score));
    const pool = (await one<{ p: number }>("SELECT prize_pool_cents AS p FROM tournaments WHERE id = ?", t.id)).p;
    expect(pool).toBe(1000);
    const prizes = await all<{ reference: string; amount_cents: number }>(
      "SELECT reference, amount_cents FROM transactions WHERE type = 'prize' AND reference LIKE ? ORDER BY amount_cents DESC",
      `prize:${t.id}:%`,
    );
    expect(prizes).toEqual(
      splitPrizePool(1000, 4).map((amount, i) => ({ reference: `prize:${t.id}:${ranks[i]!.user_id}`, amount_cents: amount })),
    );
    // Another alarm changes nothing.
    await runAlarm(t.id).catch(() => undefined);
    expect((await all("SELECT id FROM transactions WHERE type = 'prize' AND reference LIKE ?", `prize:${t.id}:%`)).length).toBe(3);
    expect(await ledgerMismatches()).toEqual([]);
    expect(await balanceOf(ps[1]!.id)).toBe(10_000);

    // Every answer of both shards is in D1.
    const responses = await one<{ n: number }>("SELECT count(*) AS n FROM user_responses WHERE tournament_id = ?", t.id);
    expect(responses.n).toBe(40);

    // The fairness report: the commitment over every question, opened at the shared times.
    const fair = await call<FairnessReport>(`/api/tournaments/${t.id}/fairness`);
    expect(fair.status, fair.text).toBe(200);
    const r = fair.body as Extract<FairnessReport, { scheme: "merkle-v2" }>;
    const published = (await call(`/api/tournaments/${t.id}`)).body.fairnessCommitment as string;
    expect(checkTreeReveal({ ...(r as unknown as TreeReveal), commitment: published })).toMatchObject({ verified: 10, ok: true });
    // (The test moved each window's start back to close it: the report shows the coordinator's stored times.)
    const coordinator = await clockOf(room(t.id));
    expect(r.questions.map((q) => Date.parse(q.issuedAt!))).toEqual(coordinator.opened);
    expect(r.questions.every((q) => Date.parse(q.closedAt!) - Date.parse(q.issuedAt!) === LIVE_SHOW_WINDOW_MS)).toBe(true);
    expect(r.questions.every((q) => q.timesIssued === 4)).toBe(true);

    // Each shard's players get the completed status and their exact place.
    for (const [i, s] of sockets.entries()) {
      await s.waitFor((f) => f.type === "status" && f.status === "completed", 3000);
      const mine = ranks.find((x) => x.user_id === ps[i]!.id)!;
      await s.waitFor((f) => f.type === "leaderboard" && f.me?.rank === mine.rank && f.version > 10, 3000);
    }
  });

  it("never overbooks the last seats when joins from different shards race, and charges each seat once", async () => {
    const t = await makeTournament(await makeCategory(), { format: "live_show", maxParticipants: 3, entryFeeCents: 200 });
    await env.DB.prepare("UPDATE tournaments SET shard_count = ? WHERE id = ?").bind(N, t.id).run();
    const ps = await Promise.all(Array.from({ length: 8 }, () => makePlayer({ balanceCents: 1_000 })));
    const results = await Promise.all(
      ps.map((p, i) => call(`/api/tournaments/${t.id}/join`, { method: "POST", cookie: p.cookie, cf: { continent: CONTINENTS[i % 2] } })),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(3);
    expect(results.filter((r) => r.status === 409)).toHaveLength(5);
    const seats = await all<{ user_id: number; shard: number }>(
      "SELECT user_id, shard FROM tournament_participants WHERE tournament_id = ?",
      t.id,
    );
    expect(seats).toHaveLength(3);
    const fees = await all<{ user_id: number; n: number; total: number }>(
      "SELECT user_id, count(*) AS n, sum(amount_cents) AS total FROM transactions WHERE type = 'tournament_entry' AND reference LIKE ? GROUP BY user_id",
      `entry:${t.id}:%`,
    );
    expect(fees.map((f) => f.user_id).sort()).toEqual(seats.map((s) => s.user_id).sort());
    expect(fees.every((f) => f.n === 1 && f.total === -200)).toBe(true);
    for (const [i, p] of ps.entries()) {
      const seated = seats.find((s) => s.user_id === p.id);
      expect(await balanceOf(p.id)).toBe(seated ? 800 : 1_000);
      if (seated) expect(seated.shard).toBe(i % 2);
    }
    expect(await ledgerMismatches()).toEqual([]);
    expect((await one<{ n: number }>("SELECT current_participants AS n FROM tournaments WHERE id = ?", t.id)).n).toBe(3);
  });

  it("asks a shard again from the alarm when an announcement is lost, and both shards open at the same time", async () => {
    const { t, sockets } = await shardedShow(2);
    const now = Date.now();
    await roomSql(t.id, "UPDATE meta SET start_time = ?, end_time = ? WHERE id = 1", now - 1000, now + 60 * 60_000);
    const calls = await shardCallProbe(t, "shardAnnounce", 1);
    await runAlarm(t.id);
    expect(calls).toEqual([`${t.id}:shard:0`, `${t.id}:shard:1`]);
    const announced = (k: number) =>
      runInDurableObject(shard(t, k), (_i: TournamentRoom, state) => [
        ...state.storage.sql.exec<{ value: string }>("SELECT value FROM shard_state WHERE key = 'announce:0'"),
      ]);
    expect(await announced(0)).toHaveLength(1);
    expect(await announced(1)).toHaveLength(0);
    // The coordinator's next alarm (before the question is due) sends it again, to shard 1 only.
    await sleep(SHARD_RETRY_MS);
    await runAlarm(t.id);
    expect(calls).toEqual([`${t.id}:shard:0`, `${t.id}:shard:1`, `${t.id}:shard:1`]);
    expect(await announced(1)).toEqual(await announced(0));
    const frames = await Promise.all(sockets.map((s) => s.waitFor((f) => f.type === "question", 6000)));
    expect(frames[0].question.issuedAt).toBe(frames[1].question.issuedAt);
  });

  it("a shard whose questions differ from the coordinator's commitment opens nothing", async () => {
    const t = await makeTournament(await makeCategory(), { format: "live_show" });
    await env.DB.prepare("UPDATE tournaments SET shard_count = ? WHERE id = ?").bind(N, t.id).run();
    const [a, b] = [await makePlayer(), await makePlayer()];
    for (const [i, p] of [a, b].entries())
      expect(
        (await call(`/api/tournaments/${t.id}/join`, { method: "POST", cookie: p.cookie, cf: { continent: CONTINENTS[i] } })).status,
      ).toBe(200);
    // Both shards loaded the questions at the join (their seat leases); shard 1's copy of the first answer then differs.
    const sa = await socketOf(t, a);
    await sa.waitFor((f) => f.type === "status");
    await shardSql(t, 1, "UPDATE questions SET correct_answer = 'Changed' WHERE ord = 0");
    const sb = await socketOf(t, b);
    await sb.waitFor((f) => f.type === "status");

    await startNow(t.id);
    await sa.waitFor((f) => f.type === "question", 6000);
    const [shard0, shard1] = await Promise.all([clockOf(shard(t, 0)), clockOf(shard(t, 1))]);
    expect(shard0.opened[0]).not.toBeNull();
    expect(shard1.opened.every((o) => o === null)).toBe(true);
    expect(sb.frames.some((f) => f.type === "question")).toBe(false);
    expect((await call(`/api/tournaments/${t.id}/next`, { method: "POST", cookie: b.cookie })).status).toBe(409);
  });

  it("keeps a shard's answers through its restart mid-question, and the show finishes with them", async () => {
    const show = await shardedShow(2, { poolCents: 100 });
    const { t, ps } = show;
    await startNow(t.id);
    await openNow(t, 0);
    const q0 = (await show.sockets[1]!.waitFor((f) => f.type === "question", 3000)).question;
    const locked = await answerOn(show.sockets[1]!, "b0", q0.id, correctOf(t, q0.id));
    expect(locked).toMatchObject({ locked: true });

    // Shard 1 restarts (a deploy): its sockets close, the object starts again from its storage.
    show.sockets[1]!.ws.close(1001, "going away");
    await evictDurableObject(shard(t, 1));
    const again = await socketOf(t, ps[1]!);
    const q = (await again.waitFor((f) => f.type === "question", 3000)).question;
    expect(q).toMatchObject({ id: q0.id, issuedAt: q0.issuedAt });
    expect(q.result).toEqual(locked);
    show.sockets[1] = again;
    await answerOn(show.sockets[0]!, "a0", q0.id, wrongOf(t, q0.id));
    await closeNow(t);
    await playAll(show, () => false, 1);
    await finishNow(t);
    await runAlarm(t.id);
    expect(await statusOf(t.id)).toBe("completed");
    const row = await one<{ c: number; u: number }>(
      "SELECT is_correct AS c, user_id AS u FROM user_responses WHERE tournament_id = ? AND question_id = ? AND user_id = ?",
      t.id,
      q0.id,
      ps[1]!.id,
    );
    expect(row.c).toBe(1);
    expect(
      (await one<{ r: number }>("SELECT rank AS r FROM tournament_participants WHERE tournament_id = ? AND user_id = ?", t.id, ps[1]!.id))
        .r,
    ).toBe(1);
  });

  it("merges the board when the shards' alarms and the coordinator's run at the same moment (each reveal), and after a nameless wake", async () => {
    const show = await shardedShow(2);
    const { t, ps } = show;
    await startNow(t.id);
    await openNow(t, 0);
    for (const [i, s] of show.sockets.entries()) {
      const q = (await s.waitFor((f) => f.type === "question", 3000)).question;
      await answerOn(s, `c${i}`, q.id, correctOf(t, q.id));
    }
    // The window closes everywhere at once, as it does in real time: the shards' reports to the
    // coordinator and its announcement of the next question to them cross. Shard 1 is also woken
    // cold with an id that has no name (workerd does so for an alarm after a restart).
    const since = Date.now() - LIVE_SHOW_WINDOW_MS;
    const back = "UPDATE questions SET opened_at = ? WHERE ord = 0";
    for (let k = 0; k < N; k++) {
      await shardSql(t, k, back, since);
      await shardSql(t, k, "UPDATE meta SET show_since = ? WHERE id = 1", since);
    }
    await roomSql(t.id, back, since);
    await roomSql(t.id, "UPDATE meta SET show_since = ? WHERE id = 1", since);
    const nameless = env.TOURNAMENT_ROOM.get(env.TOURNAMENT_ROOM.idFromString(shard(t, 1).id.toString()));
    expect(nameless.id.name).toBeUndefined();
    await Promise.all([runAlarm(t.id), runDurableObjectAlarm(shard(t, 0)), runDurableObjectAlarm(nameless)]);
    // Both shards reported: the coordinator's board is the merged one, both players with their points.
    const board = (await call(`/api/tournaments/${t.id}/leaderboard`)).body as { userId: number; score: number }[];
    expect(board.map((r) => r.userId).sort()).toEqual(ps.map((p) => p.id).sort());
    expect(board.every((r) => r.score > 0)).toBe(true);
    for (const s of show.sockets) await s.waitFor((f) => f.type === "leaderboard" && f.top.length === 2 && f.top[1].score > 0, 3000);
  });

  it("closes a signed-out player's socket on their play shard", async () => {
    const { t, ps, sockets } = await shardedShow(2);
    expect((await call("/api/logout", { method: "POST", cookie: ps[1]!.cookie })).status).toBe(200);
    const deadline = Date.now() + 3000;
    while (!sockets[1]!.closed && Date.now() < deadline) await sleep(20);
    expect(sockets[1]!.closed?.code).toBe(SESSION_ENDED_CLOSE_CODE);
    expect(sockets[0]!.closed).toBeNull();
    void t;
  });

  it("stops every shard when an operator cancels the show mid-question", async () => {
    const { t, ps, sockets } = await shardedShow(2);
    await startNow(t.id);
    await openNow(t, 0);
    for (const s of sockets) await s.waitFor((f) => f.type === "question", 3000);
    const operator = await makePlayer();
    const cancelled = await room(t.id).cancelByOperator(t.id, operator.id, "The host is ill");
    expect(cancelled).toMatchObject({ ok: true });
    // The coordinator tells both shards from its alarm; their sockets hear it and play is refused.
    await runAlarm(t.id);
    for (const s of sockets) await s.waitFor((f) => f.type === "status" && f.status === "cancelled", 3000);
    const q0 = sockets[0]!.frames.find((f) => f.type === "question").question;
    const late = await request(sockets[1]!, { type: "answer", id: "late", questionId: q0.id, answer: correctOf(t, q0.id) });
    expect(late.type).toBe("error");
    expect((await call(`/api/tournaments/${t.id}/next`, { method: "POST", cookie: ps[0]!.cookie })).status).toBe(409);
  });
});
