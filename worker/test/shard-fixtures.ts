// A live show over a coordinator and two play shards, as the tests drive it (shards-show.test.ts,
// shards-host.test.ts): players from North America play on shard 0 (enam), from Europe on shard 1
// (weur). The show's clock is driven as the other live-show tests drive it: each object's stored
// times are moved back and its alarm run, here on the coordinator and on both shards.
import { expect } from "vitest";
import { env } from "cloudflare:workers";
import { evictDurableObject, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { LIVE_SHOW_WINDOW_MS } from "../../common/domain/live-show";
import { REVEAL_PAUSE_MS } from "../../common/spec";
import { shardRoomFor } from "../durable/room-client";
import type { TournamentRoom } from "../durable/tournament-room";
import { call } from "./helpers";
import {
  correctOf,
  makeCategory,
  makePlayer,
  makeTournament,
  one,
  request,
  room,
  roomSql,
  runAlarm,
  socketOf,
  wrongOf,
  type Player,
  type SocketClient,
  type TournamentFixture,
} from "./tournament-fixtures";

export const N = 2;
export const CONTINENTS = ["NA", "EU"] as const;

export const shard = (t: { id: number }, k: number) => shardRoomFor(env, t.id, k, N);

export async function shardSql(t: { id: number }, k: number, query: string, ...params: (string | number | null)[]): Promise<void> {
  await runInDurableObject(shard(t, k), (_i: TournamentRoom, state) => {
    state.storage.sql.exec(query, ...params);
  });
  await evictDurableObject(shard(t, k));
}

/** The show's stored times of one object, read where they are kept. */
export const clockOf = (stub: DurableObjectStub<TournamentRoom>) =>
  runInDurableObject(stub, (_i: TournamentRoom, state) => {
    const meta = [...state.storage.sql.exec<{ show_stage: string; show_ord: number; show_since: number }>("SELECT * FROM meta")][0]!;
    const opened = [
      ...state.storage.sql.exec<{ ord: number; opened_at: number | null }>("SELECT ord, opened_at FROM questions ORDER BY ord"),
    ];
    return { stage: meta.show_stage, ord: meta.show_ord, since: meta.show_since, opened: opened.map((q) => q.opened_at) };
  });

export interface Show {
  t: TournamentFixture;
  ps: Player[];
  sockets: SocketClient[];
}

/** A sharded live show: `players` joined alternately from North America and Europe, each with a socket open. */
export async function shardedShow(players: number, o: { feeCents?: number; poolCents?: number; seats?: number } = {}): Promise<Show> {
  const t = await makeTournament(await makeCategory(), {
    format: "live_show",
    maxParticipants: o.seats ?? 300,
    entryFeeCents: o.feeCents ?? 0,
    prizePoolCents: o.poolCents ?? 0,
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
export async function openNow(t: { id: number }, ord: number): Promise<number> {
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
export async function closeNow(t: { id: number }): Promise<void> {
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

/** Every question of the show: `right(ord, i)` says whether player i answers question ord right (answering in order 0, 1, ...). */
export async function playAll(show: Show, right: (ord: number, i: number) => boolean, from = 0): Promise<number[]> {
  const { t, sockets } = show;
  const opens: number[] = [];
  for (let ord = from; ord < 10; ord++) {
    opens.push(await openNow(t, ord));
    for (const [i, s] of sockets.entries()) {
      const q = (await s.waitFor((f) => f.type === "question" && f.question.index === ord, 3000)).question;
      await answerOn(s, `q${ord}p${i}`, q.id, right(ord, i) ? correctOf(t, q.id) : wrongOf(t, q.id));
    }
    await closeNow(t);
  }
  return opens;
}

/** After the last reveal's pause: the coordinator finishes the show, gathers the shards' totals and settles by shard. */
export async function finishNow(t: { id: number }): Promise<void> {
  await roomSql(t.id, "UPDATE meta SET show_since = ? WHERE id = 1", Date.now() - REVEAL_PAUSE_MS - 1);
}

export const statusOf = async (id: number) => (await one<{ status: string }>("SELECT status FROM tournaments WHERE id = ?", id)).status;

/**
 * Puts a wrapper in front of the coordinator's binding to the shards: `shardTotals` calls are
 * counted per shard, and the first call to shard `failShard` throws (a lost reply).
 */
export const gatherProbe = (t: { id: number }, failShard: number | null) => shardCallProbe(t, "shardTotals", failShard);

/** Counts the coordinator's calls of `method` per shard; the first call to shard `failShard` throws (lost on the way). */
export async function shardCallProbe(
  t: { id: number },
  method: "shardTotals" | "shardSettle" | "shardAnnounce" | "shardHost" | "shardFigures",
  failShard: number | null,
) {
  const calls: string[] = [];
  let fail = failShard;
  await interceptRoomCalls(room(t.id), method, async (id, call) => {
    calls.push(id.name!);
    if (fail !== null && id.name === `${t.id}:shard:${fail}`) {
      fail = null;
      throw new Error("reply lost");
    }
    return call();
  });
  return calls;
}

/**
 * Puts a wrapper in front of the room binding of the object `holder` (a coordinator's calls to its
 * shards, a shard's to its coordinator): every call of `methods` goes through `around`, which makes it
 * with `call()` or not, and may lose its reply.
 */
export async function interceptRoomCalls(
  holder: DurableObjectStub,
  methods: string | readonly string[],
  around: (id: DurableObjectId, call: () => Promise<unknown>, method: string, args: unknown[]) => Promise<unknown>,
): Promise<void> {
  const wanted = new Set(typeof methods === "string" ? [methods] : methods);
  await runInDurableObject(holder, (instance: TournamentRoom) => {
    const target = instance as unknown as { env: Env };
    const real = target.env.TOURNAMENT_ROOM;
    const wrapped = {
      idFromName: (name: string) => real.idFromName(name),
      get: (id: DurableObjectId, o?: DurableObjectNamespaceGetDurableObjectOptions) => {
        const stub = real.get(id, o);
        return new Proxy(stub, {
          get(s, prop) {
            const method = String(prop);
            if (!wanted.has(method)) return Reflect.get(s, prop);
            return (...args: unknown[]) =>
              around(id, () => (s[method as keyof typeof s] as (...a: unknown[]) => Promise<unknown>)(...args), method, args);
          },
        });
      },
    };
    target.env = { ...target.env, TOURNAMENT_ROOM: wrapped as unknown as Env["TOURNAMENT_ROOM"] };
  });
}

export const answerOn = (s: SocketClient, id: string, questionId: number, text: string) =>
  request(s, { type: "answer", id, questionId, answer: text }).then((f) => f.result);
