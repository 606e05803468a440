// Settlement of a sharded live show, interrupted at every step in turn (issue 28: "settlement
// resumed after a failure at any chunk of any shard"). Chunks hold three players here
// (SETTLEMENT_CHUNK_PLAYERS, set on each object), so every shard's players span several chunks.
// Each attempt of the coordinator's alarm fails the first step that has not yet failed both ways:
// once before the step happens (a D1 batch refused, a call that never arrived) and once after it
// happened (the reply lost). The next attempt resumes. At the end: every prize paid once to the
// cent, every result row once with the rank a single-room re-rank of the stored answers gives,
// balances equal to the ledger, and the fairness report verifies.
import { describe, expect, it } from "vitest";
import { evictDurableObject, runInDurableObject } from "cloudflare:test";
import { checkTreeReveal, type TreeReveal } from "../../common/domain/fairness";
import { awardPrizes } from "../../common/domain/prizes";
import { compareStandings } from "../../common/domain/scoring";
import type { FairnessReport } from "../../common/api/fair-play";
import { SHARD_RETRY_MS } from "../durable/room/shards";
import { shardChunkKey } from "../durable/room/d1";
import type { TournamentRoom } from "../durable/tournament-room";
import { call } from "./helpers";
import { makeOperator } from "./fair-play-fixtures";
import { all, forceAlarm, ledgerMismatches, one, room, roomSql, sleep, startNow } from "./tournament-fixtures";
import { finishNow, interceptRoomCalls, N, playAll, shard, shardCallProbe, shardedShow, statusOf } from "./shard-fixtures";

const CHUNK = 3;
const PLAYERS = 8;
const POOL = 1_000;

type Mode = "before" | "after";

/**
 * The failures injected: each step fails at most once each way. An attempt fails the first step not
 * yet failed in each of its lanes: steps in sequence share one lane; calls the coordinator makes to
 * every shard at once have a lane per shard.
 */
class Faults {
  readonly done = new Map<string, Set<Mode>>();
  readonly fired: string[] = [];
  #armed = new Set<string>();
  #firedNow = 0;

  /** A new attempt: every lane may fail once. */
  arm(): void {
    this.#armed = new Set(["main", ...Array.from({ length: N }, (_, k) => [`shard ${k}`, `d1 shard ${k}`]).flat()]);
    this.#firedNow = 0;
  }

  /** Whether the attempt since arm() failed nothing. */
  get quiet(): boolean {
    return this.#firedNow === 0;
  }

  async around<T>(key: string, run: () => Promise<T>, lane = "main"): Promise<T> {
    const mode = this.#take(key, lane);
    if (mode === "before") {
      this.#record(key, mode);
      throw new Error(`injected failure: ${key}`);
    }
    // A step that fails inside (a later step's injected failure) has not lost its reply yet.
    const result = await run();
    if (mode === "after") {
      this.#record(key, mode);
      throw new Error(`injected lost reply: ${key}`);
    }
    return result;
  }

  #take(key: string, lane: string): Mode | null {
    if (!this.#armed.has(lane)) return null;
    const done = this.done.get(key) ?? new Set<Mode>();
    const mode: Mode | null = !done.has("before") ? "before" : !done.has("after") ? "after" : null;
    if (mode === null) return null;
    this.#armed.delete(lane);
    return mode;
  }

  #record(key: string, mode: Mode): void {
    this.done.set(key, (this.done.get(key) ?? new Set<Mode>()).add(mode));
    this.#firedNow++;
    this.fired.push(`${key} ${mode}`);
  }

  /** The steps whose key starts with `prefix` that failed both ways. */
  both(prefix: string): string[] {
    return [...this.done.entries()].filter(([k, m]) => k.startsWith(prefix) && m.size === 2).map(([k]) => k);
  }
}

/** A D1 statement that remembers its SQL and bound values (the batch's step is named from its first statement). */
class Seen {
  constructor(
    readonly real: D1PreparedStatement,
    readonly sql: string,
    readonly values: unknown[] = [],
  ) {}
  bind(...values: unknown[]) {
    return new Seen(this.real.bind(...values), this.sql, values);
  }
  first(column?: string) {
    return column === undefined ? this.real.first() : this.real.first(column);
  }
  all() {
    return this.real.all();
  }
  run() {
    return this.real.run();
  }
  raw() {
    return this.real.raw();
  }
}

/** The settlement step a D1 batch is: a chunk (named by its marker row) or the completion; null for anything else. */
function batchStep(first: Seen | undefined): string | null {
  if (!first) return null;
  if (first.sql.startsWith("INSERT INTO settlement_chunks")) return `d1 chunk ${String(first.values[1])}`;
  if (first.sql.startsWith("UPDATE tournaments SET status = 'completed'")) return "d1 completion";
  return null;
}

/** The coordinator's calls to shards that settlement makes, named by shard and cursor; `lane`: made to every shard at once. */
const CALLS: Record<string, { key: (k: string, args: unknown[]) => string; parallel?: true }> = {
  shardTotals: { key: (k, args) => `gather ${k} after ${String(args[1])}` },
  shardAnswers: { key: (k) => `answers ${k}` },
  shardSettle: { key: (k) => `write ${k}`, parallel: true },
  shardFinal: { key: (k) => `final ${k}`, parallel: true },
};

/**
 * Puts the faults between one object and D1 (its batches in lane `d1Lane`) and the other objects,
 * and sets its chunk size (until it restarts).
 */
async function instrument(stub: DurableObjectStub<TournamentRoom>, faults: Faults, d1Lane: string): Promise<void> {
  await runInDurableObject(stub, (instance: TournamentRoom) => {
    const target = instance as unknown as { env: Env };
    const realDb = target.env.DB;
    const db = {
      prepare: (sql: string) => new Seen(realDb.prepare(sql), sql),
      batch: (statements: Seen[]) => {
        const step = batchStep(statements[0]);
        const run = () => realDb.batch(statements.map((s) => s.real));
        return step === null ? run() : faults.around(step, run, d1Lane);
      },
      exec: (sql: string) => realDb.exec(sql),
    };
    target.env = { ...target.env, DB: db as unknown as D1Database, SETTLEMENT_CHUNK_PLAYERS: String(CHUNK) };
  });
  await interceptRoomCalls(stub, Object.keys(CALLS), (id, call, method, args) => {
    const step = CALLS[method]!;
    const k = /:shard:(\d+)$/.exec(id.name ?? "")?.[1] ?? "?";
    return faults.around(step.key(k, args), call, step.parallel ? `shard ${k}` : "main");
  });
}

/** Whether every shard has been told the show is completed. */
const shardsCompleted = async (t: { id: number }) => {
  for (let k = 0; k < N; k++) {
    const phase = await runInDurableObject(
      shard(t, k),
      (_i: TournamentRoom, state) => [...state.storage.sql.exec<{ phase: string }>("SELECT phase FROM meta")][0]!.phase,
    );
    if (phase !== "completed") return false;
  }
  return true;
};

describe("settlement of a sharded live show", () => {
  it("resumes after a failure at every chunk of every shard and every coordinator step, and settles exactly once", async () => {
    const show = await shardedShow(PLAYERS, { poolCents: POOL });
    const { t, ps } = show;
    await startNow(t.id);
    // Three groups of equal scores (10, 9 and 8 right), each across both shards: response times break the ties.
    await playAll(show, (ord, i) => ord >= i % 3);
    // Players 0 (shard 0) and 3 (shard 1) joined from one device and gave the same answers: the
    // pair check compares players across shards.
    await roomSql(t.id, "UPDATE participants SET device_hash = 'one-device' WHERE user_id IN (?, ?)", ps[0]!.id, ps[3]!.id);
    await finishNow(t);

    const faults = new Faults();
    await instrument(room(t.id), faults, "main");
    for (let k = 0; k < N; k++) await instrument(shard(t, k), faults, `d1 shard ${k}`);

    let attempts = 0;
    for (;;) {
      expect(attempts++, `still not settled after ${faults.fired.length} failures`).toBeLessThan(80);
      faults.arm();
      await forceAlarm(t.id).catch((e: unknown) => {
        if (!/injected/.test(String(e))) throw e;
      });
      // Between attempts: nothing paid, or everything paid once; the ledger and the balances agree.
      const paid = await all<{ n: number }>("SELECT count(*) AS n FROM transactions WHERE reference LIKE ?", `prize:${t.id}:%`);
      expect([0, 3]).toContain(paid[0]!.n);
      expect(paid[0]!.n === 3).toBe((await statusOf(t.id)) === "completed");
      expect(await ledgerMismatches()).toEqual([]);
      if (!faults.quiet) continue;
      // Nothing failed this time: done, or waiting for the shards' retry time.
      if ((await statusOf(t.id)) === "completed" && (await shardsCompleted(t))) break;
      await sleep(SHARD_RETRY_MS);
    }

    // Every step failed both ways once: each shard's chunks of totals, its write and each of its D1
    // chunks, the completion, each shard's final word.
    const counts = await all<{ shard: number; n: number }>(
      "SELECT shard, count(*) AS n FROM tournament_participants WHERE tournament_id = ? GROUP BY shard ORDER BY shard",
      t.id,
    );
    expect(counts.map((c) => c.n)).toEqual([PLAYERS / 2, PLAYERS / 2]);
    for (const c of counts) {
      const chunks = Math.ceil(c.n / CHUNK);
      expect(chunks).toBeGreaterThan(1);
      expect(faults.both(`gather ${c.shard} `)).toHaveLength(chunks);
      expect(faults.both(`write ${c.shard}`)).toHaveLength(1);
      expect(faults.both(`final ${c.shard}`)).toHaveLength(1);
      expect(
        faults
          .both("d1 chunk ")
          .filter(
            (key) => Number(key.split(" ")[2]) >= shardChunkKey(c.shard, 0) && Number(key.split(" ")[2]) < shardChunkKey(c.shard + 1, 0),
          )
          .sort(),
      ).toEqual(Array.from({ length: chunks }, (_, i) => `d1 chunk ${shardChunkKey(c.shard, i)}`).sort());
    }
    expect(faults.both("d1 completion")).toHaveLength(1);
    expect(faults.both("answers ").sort()).toEqual(["answers 0", "answers 1"]);

    // Each result row once, with the rank a single-room re-rank of the stored answers gives.
    const rows = await all<{ user_id: number; rank: number; score: number; total_response_ms: number; finished_at: number | null }>(
      "SELECT user_id, rank, score, total_response_ms, finished_at FROM tournament_participants WHERE tournament_id = ? ORDER BY rank",
      t.id,
    );
    expect(rows.map((r) => r.rank)).toEqual(Array.from({ length: PLAYERS }, (_, i) => i + 1));
    const answers = await all<{ user_id: number; n: number; points: number; ms: number }>(
      "SELECT user_id, count(*) AS n, sum(points_earned) AS points, sum(response_time) AS ms FROM user_responses WHERE tournament_id = ? GROUP BY user_id",
      t.id,
    );
    expect(answers.map((a) => a.n)).toEqual(ps.map(() => 10));
    const rerank = answers
      .map((a) => ({
        userId: a.user_id,
        score: a.points,
        totalResponseMs: a.ms,
        finishedAt: rows.find((r) => r.user_id === a.user_id)!.finished_at,
      }))
      .sort(compareStandings);
    expect(rows.map((r) => r.user_id)).toEqual(rerank.map((r) => r.userId));
    expect(rows.map((r) => r.score)).toEqual(rerank.map((r) => r.score));
    // The scores are the ones the players earned: 10, 9 and 8 questions right.
    expect(new Set(rows.map((r) => r.score)).size).toBe(3);

    // Counters, XP and the completed notice: once each.
    const users = await all<{ id: number; played: number; won: number; xp: number; earned: number }>(
      `SELECT u.id, u.tournaments_played AS played, u.tournaments_won AS won, u.experience_points AS xp, p.xp_earned AS earned
       FROM users u JOIN tournament_participants p ON p.user_id = u.id AND p.tournament_id = ? ORDER BY p.rank`,
      t.id,
    );
    expect(users.map((u) => u.played)).toEqual(ps.map(() => 1));
    expect(users.map((u) => u.won)).toEqual([1, ...ps.slice(1).map(() => 0)]);
    expect(users.every((u) => u.xp === u.earned && u.earned > 0)).toBe(true);
    const notices = await all<{ user_id: number; n: number }>(
      "SELECT user_id, count(*) AS n FROM notifications WHERE tournament_id = ? AND action = 'tournament_ended' GROUP BY user_id",
      t.id,
    );
    expect(notices.map((n) => n.n)).toEqual(ps.map(() => 1));

    // Prizes to the cent, from the re-rank, once each; balances equal the ledger.
    const awards = awardPrizes(
      rerank.map((r) => ({ userId: r.userId, questionsAnswered: 10 })),
      POOL,
    );
    const prizes = await all<{ user_id: number; amount_cents: number; reference: string }>(
      "SELECT user_id, amount_cents, reference FROM transactions WHERE type = 'prize' AND reference LIKE ? ORDER BY amount_cents DESC",
      `prize:${t.id}:%`,
    );
    expect(prizes.map((p) => [p.user_id, p.amount_cents])).toEqual([...awards.byUser.entries()]);
    expect(prizes.reduce((s, p) => s + p.amount_cents, 0)).toBe(POOL);
    // The pair on one device is flagged on both sides (the players' own timing flags come from their
    // shards: the test answers at machine speed), and a flagged winner's prize is held for review.
    const flagged = await all<{ user_id: number; flags: string | null }>(
      "SELECT user_id, flags FROM tournament_participants WHERE tournament_id = ? ORDER BY user_id",
      t.id,
    );
    const kinds = new Map(flagged.map((f) => [f.user_id, JSON.parse(f.flags ?? "[]") as { kind: string; otherUserId?: number }[]]));
    const pairs = [...kinds].flatMap(([u, f]) => f.filter((x) => x.kind === "shared_device").map((x) => [u, x.otherUserId]));
    expect(pairs).toEqual([
      [ps[0]!.id, ps[3]!.id],
      [ps[3]!.id, ps[0]!.id],
    ]);
    const held = await all<{ user_id: number; status: string }>(
      "SELECT user_id, status FROM transactions WHERE type = 'prize' AND reference LIKE ?",
      `prize:${t.id}:%`,
    );
    expect(held).toHaveLength(3);
    for (const h of held) expect(h.status).toBe(kinds.get(h.user_id)!.length > 0 ? "held" : "completed");
    expect(held.some((h) => h.status === "held")).toBe(true);
    expect(await ledgerMismatches()).toEqual([]);
    const completed = await one<{ status: string; settled_at: number | null }>(
      "SELECT status, settled_at FROM tournaments WHERE id = ?",
      t.id,
    );
    expect(completed.status).toBe("completed");

    // The console's live view shows the flags settlement found, the pair's included.
    const op = await makeOperator();
    const live = await call<any>(`/api/admin/tournaments/${t.id}/live`, { cookie: op.cookie });
    expect(live.status, live.text).toBe(200);
    const shown = live.body.flags as { userId: number; flags: { kind: string }[] }[];
    expect(shown.map((f) => f.userId).sort()).toEqual(
      [...kinds]
        .filter(([, f]) => f.length > 0)
        .map(([u]) => u)
        .sort(),
    );
    expect(shown.find((f) => f.userId === ps[3]!.id)!.flags.map((f) => f.kind)).toContain("shared_device");

    // The operators' export lists every shard's players with their settled ranks and every answer with its receipt.
    const csv = await call(`/api/admin/tournaments/${t.id}/results.csv`, { cookie: op.cookie });
    expect(csv.status, csv.text).toBe(200);
    const lines = csv.text.trimEnd().split("\r\n").slice(1);
    expect(lines).toHaveLength(PLAYERS * 10);
    const exported = [...new Set(lines.map((l) => l.split(",").slice(0, 2).join(",")))];
    expect(exported).toEqual(rows.map((r) => `${r.rank},${r.user_id}`));
    expect(lines.every((l) => l.endsWith("}") || l.endsWith('}"'))).toBe(true);

    // The fairness report over every shard verifies.
    const fair = await call<FairnessReport>(`/api/tournaments/${t.id}/fairness`);
    expect(fair.status, fair.text).toBe(200);
    const r = fair.body as Extract<FairnessReport, { scheme: "merkle-v2" }>;
    const published = (await call(`/api/tournaments/${t.id}`)).body.fairnessCommitment as string;
    expect(checkTreeReveal({ ...(r as unknown as TreeReveal), commitment: published })).toMatchObject({ verified: 10, ok: true });
    expect(r.questions.every((q) => q.timesIssued === PLAYERS)).toBe(true);
  }, 120_000);

  it("waits for every shard to have the host's last void before it asks for totals", async () => {
    const op = await makeOperator();
    const show = await shardedShow(4, { poolCents: 100 });
    const { t } = show;
    await startNow(t.id);
    await playAll(show, () => true);
    await finishNow(t);
    // The void of question 0 after the last reveal reaches shard 0 but not shard 1 (its call is lost).
    const calls = await shardCallProbe(t, "shardHost", 1);
    const voided = await call<any>(`/api/admin/tournaments/${t.id}/void-question`, {
      cookie: op.cookie,
      body: { index: 0, reason: "Two answers are right" },
    });
    expect(voided.status, voided.text).toBe(200);
    expect(calls).toEqual([`${t.id}:shard:0`, `${t.id}:shard:1`]);
    for (let i = 0; i < 10 && (await statusOf(t.id)) !== "completed"; i++) {
      await forceAlarm(t.id);
      if ((await statusOf(t.id)) !== "completed") await sleep(SHARD_RETRY_MS);
    }
    expect(await statusOf(t.id)).toBe("completed");
    // Shard 1 was asked again before any totals, so its players' question 0 counts for nobody either.
    const correct = await all<{ shard: number; correct_answers: number }>(
      "SELECT shard, correct_answers FROM tournament_participants WHERE tournament_id = ? ORDER BY shard",
      t.id,
    );
    expect(correct.map((c) => [c.shard, c.correct_answers])).toEqual([
      [0, 9],
      [0, 9],
      [1, 9],
      [1, 9],
    ]);
    expect(
      (
        await all(
          "SELECT 1 FROM user_responses WHERE tournament_id = ? AND points_earned > 0 AND question_id = ?",
          t.id,
          t.questions[0]!.id,
        )
      ).length,
    ).toBe(0);
  }, 60_000);

  it("resumes after the coordinator restarts between shards' writes: the stored order is kept, a shard that wrote is not asked again", async () => {
    const show = await shardedShow(4, { poolCents: 1000 });
    const { t, ps } = show;
    await startNow(t.id);
    await playAll(show, (ord, i) => ord >= i);
    await finishNow(t);
    const calls = await shardCallProbe(t, "shardSettle", 1);
    await forceAlarm(t.id);
    // Shard 0 wrote its players' rows; shard 1's call was lost: nobody is paid, the show is still live.
    expect(calls).toEqual([`${t.id}:shard:0`, `${t.id}:shard:1`]);
    expect(await statusOf(t.id)).toBe("live");
    const written = await all<{ shard: number }>(
      "SELECT shard FROM tournament_participants WHERE tournament_id = ? AND rank IS NOT NULL ORDER BY shard",
      t.id,
    );
    expect(written.map((w) => w.shard)).toEqual([0, 0]);
    expect((await all("SELECT 1 FROM transactions WHERE reference LIKE ?", `prize:${t.id}:%`)).length).toBe(0);

    // The coordinator restarts (its memory and the probe gone, its storage kept); the alarm's retry finishes.
    await evictDurableObject(room(t.id));
    const after = await shardCallProbe(t, "shardSettle", null);
    await forceAlarm(t.id);
    expect(after).toEqual([`${t.id}:shard:1`]);
    expect(await statusOf(t.id)).toBe("completed");
    const ranks = await all<{ user_id: number; rank: number }>(
      "SELECT user_id, rank FROM tournament_participants WHERE tournament_id = ? ORDER BY rank",
      t.id,
    );
    // Player i answered 10 - i questions right: the order is the players' order.
    expect(ranks.map((r) => r.user_id)).toEqual(ps.map((p) => p.id));
    const prizes = await all<{ user_id: number; amount_cents: number }>(
      "SELECT user_id, amount_cents FROM transactions WHERE type = 'prize' AND reference LIKE ? ORDER BY amount_cents DESC",
      `prize:${t.id}:%`,
    );
    expect(prizes.map((p) => p.user_id)).toEqual(ps.slice(0, 3).map((p) => p.id));
    expect(prizes.reduce((s, p) => s + p.amount_cents, 0)).toBe(1000);
    expect(await ledgerMismatches()).toEqual([]);
  }, 60_000);
});
