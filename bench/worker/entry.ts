// The benchmark's Worker entry: the production Worker (worker/app.ts, the same Durable Object
// classes, the same cron handler) with its D1 binding wrapped to count statements per caller.
// `wrangler dev bench/worker/entry.ts` serves it with wrangler.toml's bindings; it is never
// deployed. Two extra routes exist only here, on loopback:
//   GET  /api/__bench/d1   the counters (bench/worker/d1-counter.ts)
//   POST /api/__bench/sql  {statements: [{sql, params}]} run as one D1 batch, uncounted: the
//                          harness's own fixtures (tournaments, participants) and checks
//                          (ledger, seats), as the Worker tests do with env.DB.
import { app } from "../../worker/app";
import { runSchedule } from "../../worker/schedule/run-schedule";
import { TournamentRoom as ProductionTournamentRoom } from "../../worker/durable/tournament-room";
import { NotificationHub as ProductionNotificationHub } from "../../worker/durable/notification-hub";
import { countingEnv, snapshot } from "./d1-counter";

export class TournamentRoom extends ProductionTournamentRoom {
  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, countingEnv(env, "room"));
  }
}

export class NotificationHub extends ProductionNotificationHub {
  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, countingEnv(env, "hub"));
  }
}

interface SqlRequest {
  statements: { sql: string; params?: unknown[] }[];
}

export default {
  async fetch(request, env, ctx) {
    const { pathname } = new URL(request.url);
    if (pathname === "/api/__bench/d1") return Response.json(snapshot());
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
    ctx.waitUntil(runSchedule(countingEnv(env, "cron"), controller.scheduledTime));
  },
} satisfies ExportedHandler<Env>;
