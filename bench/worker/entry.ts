// The benchmark's Worker entry: the production Worker (worker/app.ts, the same Durable Object
// classes, the same cron handler) with its D1 binding wrapped to count statements per caller.
// `wrangler dev bench/worker/entry.ts` serves it with wrangler.toml's bindings; it is never
// deployed. Two extra routes exist only here, on loopback:
//   GET  /api/__bench/d1   the counters (bench/worker/d1-counter.ts)
//   POST /api/__bench/sql  {statements: [{sql, params}]} run as one D1 batch, uncounted: the
//                          harness's own fixtures (tournaments, participants) and checks
//                          (ledger, seats), as the Worker tests do with env.DB.
//   GET|POST /api/__bench/d1/bound   the largest bound values of one statement per caller (POST resets)
//   POST /api/__bench/room-joins {tournamentId, users, presses}   each user presses Join `presses`
//                          times at once, straight to the room (admission, then join, as the route
//                          calls them), without HTTP, sessions or the Worker's own checks: the
//                          room's serial share of a join storm (bench/scenarios/join.ts)
//   POST /api/__bench/seed-room {tournamentId, unfinishedUserId}   a live room's participants have
//                          all answered every question and finished but one (bench/lib/seeded-room.ts);
//                          the object then restarts to load them, as an evicted room does.
//   POST /api/__bench/wake-shards {tournamentId, shards, only?}   wakes this session's play shards of a
//                          tournament by name and returns the names they see (the two-process row);
//                          with `only`, that one shard wherever it lives (through the dev registry
//                          when the other session holds it).
// In the two-process sharded row (bench/run.ts) two sessions serve this entry and split the rooms
// between them (./split-rooms.ts); every other row runs it with env unchanged.
import { app } from "../../worker/app";
import { runSchedule } from "../../worker/schedule/run-schedule";
import { TournamentRoom as ProductionTournamentRoom } from "../../worker/durable/tournament-room";
import { NotificationHub as ProductionNotificationHub } from "../../worker/durable/notification-hub";
import { roomFor, shardName } from "../../worker/durable/room-client";
import { boundSnapshot, countingEnv, resetBound, snapshot } from "./d1-counter";
import { SEED_PLAYS_SQL } from "../lib/seeded-room";
import { oddShard, splitEnv } from "./split-rooms";

/** The bindings of the two-process row (./split-rooms.ts), absent in every other. */
type BenchEnv = Env & { BENCH_OTHER_ROOMS?: DurableObjectNamespace; BENCH_ODD_SHARDS_HERE?: string };

export class TournamentRoom extends ProductionTournamentRoom {
  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, countingEnv(splitEnv(env), "room"));
  }

  /**
   * The name workerd gave this instance. A call through wrangler's dev registry reaches the object
   * by its id alone (no name), and a shard first made that way would take itself for a coordinator
   * (worker/durable/room/core.ts reads the role from the name, else from its storage): the
   * two-process row wakes each shard by name in its own session first, which stores its index.
   */
  benchName(): string | null {
    return this.ctx.id.name ?? null;
  }

  /** Writes the seeded answers into this live room's storage; returns how many plays it holds. */
  async benchSeedFinished(tournamentId: number, unfinishedUserId: number): Promise<number> {
    if ((await this.init(tournamentId)) !== "live") throw new Error(`bench seed: tournament ${tournamentId} is not live`);
    const sql = this.ctx.storage.sql;
    const base = Date.now() - 450_000;
    this.ctx.storage.transactionSync(() => {
      sql.exec(SEED_PLAYS_SQL, base);
      sql.exec("UPDATE participants SET finished_at = ? WHERE user_id <> ?", base + 440_000, unfinishedUserId);
    });
    return sql.exec<{ n: number }>("SELECT count(*) AS n FROM plays").one().n;
  }

  /** The room keeps its rows in memory: a restart makes it load what storage now holds. */
  benchRestart(): void {
    this.ctx.abort("bench: restart to load the seeded answers");
  }
}

type BenchRoom = {
  benchSeedFinished(t: number, u: number): Promise<number>;
  benchRestart(): Promise<void>;
  benchName(): Promise<string | null>;
};

/** Wakes by name every play shard of the tournament this session holds (or shard `only`); the names the shards saw. */
async function wakeShards(env: BenchEnv, tournamentId: number, shards: number, only?: number): Promise<(string | null)[]> {
  const here = env.BENCH_ODD_SHARDS_HERE === "1";
  const mine =
    only !== undefined ? [only] : Array.from({ length: shards }, (_, k) => k).filter((k) => oddShard(shardName(tournamentId, k)) === here);
  const room = (k: number) => env.TOURNAMENT_ROOM.get(env.TOURNAMENT_ROOM.idFromName(shardName(tournamentId, k))) as unknown as BenchRoom;
  return Promise.all(mine.map((k) => room(k).benchName()));
}

export class NotificationHub extends ProductionNotificationHub {
  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, countingEnv(splitEnv(env), "hub"));
  }
}

interface RoomJoinsRequest {
  tournamentId: number;
  users: { userId: number; username: string }[];
  presses: number;
}

/** One press: what the room answered (`joined`, or a refusal's code) and when, from the start. */
interface RoomPress {
  userId: number;
  outcome: string;
  ms: number;
}

async function roomJoins(env: Env, body: RoomJoinsRequest): Promise<{ ms: number; presses: RoomPress[] }> {
  const room = roomFor(env, body.tournamentId);
  // Date.now() moves with I/O in workerd: each answer from the room is an I/O completion.
  const started = Date.now();
  const press = async (u: RoomJoinsRequest["users"][number]): Promise<RoomPress> => {
    const admission = await room.admission(body.tournamentId, u.userId, 1);
    let outcome: string;
    if (!admission.ok) outcome = admission.code;
    else if (admission.value.state === "joined") outcome = "joined";
    else {
      const user = { userId: u.userId, username: u.username, level: 1, showLevel: true, deviceHash: null, networkHash: null };
      const joined = await room.join(body.tournamentId, user);
      outcome = joined.ok ? "joined" : joined.code;
    }
    return { userId: u.userId, outcome, ms: Date.now() - started };
  };
  const presses = await Promise.all(body.users.flatMap((u) => Array.from({ length: body.presses }, () => press(u))));
  return { ms: Date.now() - started, presses };
}

interface SqlRequest {
  statements: { sql: string; params?: unknown[] }[];
}

export default {
  async fetch(request, rawEnv, ctx) {
    const env = splitEnv(rawEnv);
    const { pathname } = new URL(request.url);
    if (pathname === "/api/__bench/d1") return Response.json(snapshot());
    if (pathname === "/api/__bench/d1/bound") {
      if (request.method === "POST") resetBound();
      return Response.json(boundSnapshot());
    }
    if (pathname === "/api/__bench/room-joins" && request.method === "POST") {
      return Response.json(await roomJoins(countingEnv(env, "worker"), (await request.json()) as RoomJoinsRequest));
    }
    if (pathname === "/api/__bench/seed-room" && request.method === "POST") {
      const { tournamentId, unfinishedUserId } = (await request.json()) as { tournamentId: number; unfinishedUserId: number };
      const room = () => env.TOURNAMENT_ROOM.get(env.TOURNAMENT_ROOM.idFromName(String(tournamentId))) as unknown as BenchRoom;
      const plays = await room().benchSeedFinished(tournamentId, unfinishedUserId);
      // The restart ends the call with an error by design.
      await room()
        .benchRestart()
        .catch(() => undefined);
      return Response.json({ plays });
    }
    if (pathname === "/api/__bench/wake-shards" && request.method === "POST") {
      const { tournamentId, shards, only } = (await request.json()) as { tournamentId: number; shards: number; only?: number };
      return Response.json({ names: await wakeShards(env, tournamentId, shards, only) });
    }
    if (pathname === "/api/__bench/sql" && request.method === "POST") {
      const body = (await request.json()) as SqlRequest;
      try {
        const results = await env.DB.batch(body.statements.map((s) => env.DB.prepare(s.sql).bind(...(s.params ?? []))));
        return Response.json(results.map((r) => ({ results: r.results, meta: r.meta })));
      } catch (e) {
        return Response.json({ error: String(e) }, { status: 500 });
      }
    }
    return app.fetch(request, countingEnv(env, "worker"), ctx);
  },
  scheduled(controller, env, ctx) {
    ctx.waitUntil(runSchedule(countingEnv(splitEnv(env), "cron"), controller.scheduledTime));
  },
} satisfies ExportedHandler<BenchEnv>;
