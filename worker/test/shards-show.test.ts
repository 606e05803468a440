// A live show over a coordinator and two play shards (docs/decisions/011-one-tournament-past-one-durable-object.md,
// "Built"): players from North America play on shard 0 (enam), from Europe on shard 1 (weur). The
// show's clock is driven as the other live-show tests drive it: each object's stored times are moved
// back and its alarm run, here on the coordinator and on both shards.
import { describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import { evictDurableObject, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { LIVE_SHOW_WINDOW_MS } from "../../common/domain/live-show";
import { REVEAL_PAUSE_MS } from "../../common/spec";
import { checkTreeReveal, type TreeReveal } from "../../common/domain/fairness";
import { splitPrizePool } from "../../common/domain/prizes";
import type { FairnessReport } from "../../common/api/fair-play";
import { shardRoomFor } from "../durable/room-client";
import type { TournamentRoom } from "../durable/tournament-room";
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
  socketOf,
  startNow,
  wrongOf,
  type Player,
  type SocketClient,
  type TournamentFixture,
} from "./tournament-fixtures";

const N = 2;
const CONTINENTS = ["NA", "EU"] as const;

const shard = (t: { id: number }, k: number) => shardRoomFor(env, t.id, k, N);

async function shardSql(t: { id: number }, k: number, query: string, ...params: (string | number | null)[]): Promise<void> {
  await runInDurableObject(shard(t, k), (_i: TournamentRoom, state) => {
    state.storage.sql.exec(query, ...params);
  });
  await evictDurableObject(shard(t, k));
}

/** The show's stored times of one object, read where they are kept. */
const clockOf = (stub: DurableObjectStub<TournamentRoom>) =>
  runInDurableObject(stub, (_i: TournamentRoom, state) => {
    const meta = [...state.storage.sql.exec<{ show_stage: string; show_ord: number; show_since: number }>("SELECT * FROM meta")][0]!;
    const opened = [
      ...state.storage.sql.exec<{ ord: number; opened_at: number | null }>("SELECT ord, opened_at FROM questions ORDER BY ord"),
    ];
    return { stage: meta.show_stage, ord: meta.show_ord, since: meta.show_since, opened: opened.map((q) => q.opened_at) };
  });

interface Show {
  t: TournamentFixture;
  ps: Player[];
  sockets: SocketClient[];
}

/** A sharded live show: `players` joined alternately from North America and Europe, each with a socket open. */
async function shardedShow(players: number, o: { feeCents?: number; seats?: number } = {}): Promise<Show> {
  const t = await makeTournament(await makeCategory(), {
    format: "live_show",
    maxParticipants: o.seats ?? 300,
    entryFeeCents: o.feeCents ?? 0,
  });
  await env.DB.prepare("UPDATE tournaments SET shard_count = ? WHERE id = ?").bind(N, t.id).run();
  const ps: Player[] = [];
  for (let i = 0; i < players; i++) ps.push(await makePlayer({ balanceCents: 10_000 }));
  for (const [i, p] of ps.entries()) {
    const res = await call(`/api/tournaments/${t.id}/join`, { method: "POST", cookie: p.cookie, cf: { continent: CONTINENTS[i % 2] } });
    expect(res.status, res.text).toBe(200);
  }
  const sockets = await Promise.all(ps.map((p) => socketOf(t, p)));
  for (const s of sockets) await s.waitFor((f) => f.type === "status" && f.show?.stage === "waiting");
  return { t, ps, sockets };
}

/** Question `ord` is due now: the announced time moved to the past on the coordinator and both shards, and their alarms run. */
async function openNow(t: { id: number }, ord: number): Promise<number> {
  const at = Date.now() - 1;
  await roomSql(t.id, "UPDATE shard_state SET value = json_set(value, '$.openAt', ?) WHERE key = 'announce'", at);
  await roomSql(t.id, "UPDATE meta SET show_since = ? WHERE id = 1 AND show_stage = 'reveal'", at - REVEAL_PAUSE_MS);
  await runAlarm(t.id);
  for (let k = 0; k < N; k++) {
    await shardSql(t, k, "UPDATE shard_state SET value = ? WHERE key = ?", String(at), `announce:${ord}`);
    await runDurableObjectAlarm(shard(t, k));
  }
  return at;
}

/** The open question's window has passed: each shard reveals (and reports), then the coordinator. */
async function closeNow(t: { id: number }): Promise<void> {
  const since = Date.now() - LIVE_SHOW_WINDOW_MS;
  const back = "UPDATE questions SET opened_at = ? WHERE ord = (SELECT show_ord FROM meta) AND (SELECT show_stage FROM meta) = 'question'";
  for (let k = 0; k < N; k++) {
    await shardSql(t, k, back, since);
    await shardSql(t, k, "UPDATE meta SET show_since = ? WHERE id = 1", since);
    await runDurableObjectAlarm(shard(t, k));
  }
  await roomSql(t.id, back, since);
  await roomSql(t.id, "UPDATE meta SET show_since = ? WHERE id = 1", since);
  await runAlarm(t.id);
}

const answerOn = (s: SocketClient, id: string, questionId: number, text: string) =>
  request(s, { type: "answer", id, questionId, answer: text }).then((f) => f.result);

describe("a sharded live show", () => {
  it("sends a question to players on different shards with one open time, reveals only after the window, and merges the board", async () => {
    const { t, ps, sockets } = await shardedShow(4);
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
    const merged = (f: any) => f.type === "leaderboard" && f.top.length === 4;
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
  });
});
