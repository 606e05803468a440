// The cron keeps every category supplied and is idempotent.
import { afterEach, describe, expect, it, vi } from "vitest";
import { env } from "cloudflare:workers";
import { createExecutionContext, createScheduledController, runInDurableObject, waitOnExecutionContext } from "cloudflare:test";
import { DIFFICULTY_RAMP, FEE_TIERS, SCHEDULE_LEAD_MS, SCHEDULE_SPACING_MS, TOURNAMENT_DURATION_MS } from "../../common/spec";
import { tierForSlot } from "../../common/domain/schedule";
import { runSchedule } from "../schedule/run-schedule";
import worker from "../index";
import { call } from "./helpers";
import type { TournamentRoom } from "../durable/tournament-room";
import { all, join, makeCategory, makePlayer, one, room, roomAlarm, type CategoryFixture } from "./tournament-fixtures";

type Row = {
  id: number;
  title: string;
  format: string;
  entry_fee_cents: number;
  min_level: number;
  max_participants: number | null;
  start_time: number;
  end_time: number | null;
  status: string;
  is_free: number;
};

const tournamentsOf = (categoryId: number) =>
  all<Row>(
    "SELECT id, title, entry_fee_cents, min_level, max_participants, start_time, end_time, status, is_free, format FROM tournaments WHERE category_id = ? ORDER BY start_time",
    categoryId,
  );

const difficulties = (tournamentId: number) =>
  all<{ d: number }>(
    `SELECT q.difficulty_level AS d FROM tournament_questions tq JOIN questions q ON q.id = tq.question_id WHERE tq.tournament_id = ? ORDER BY tq."order"`,
    tournamentId,
  );

describe("schedule", () => {
  it("creates two upcoming paid tournaments on the fee tiers and one open practice per category, once", async () => {
    const cat = await makeCategory(5);
    const small = await makeCategory(1); // 3 questions: too few for a tournament
    const now = Date.now();
    const first = await runSchedule(env, now);
    expect(first.created).toHaveLength(3);
    const again = await runSchedule(env, now + 60_000);
    expect(again.created).toEqual([]);

    const rows = await tournamentsOf(cat.id);
    expect(rows).toHaveLength(3);
    const practice = rows.filter((r) => r.title.includes("Practice"));
    expect(practice).toHaveLength(1);
    expect(practice[0]).toMatchObject({
      status: "live",
      end_time: null,
      max_participants: null,
      entry_fee_cents: 0,
      is_free: 1,
      min_level: 1,
    });

    const paid = rows.filter((r) => r.entry_fee_cents > 0);
    // Scheduled paid tournaments are live shows; practice stays self-paced.
    expect(paid.map((r) => r.format)).toEqual(["live_show", "live_show"]);
    expect(practice[0]!.format).toBe("self_paced");
    expect(paid).toHaveLength(2);
    for (const t of paid) {
      const tier = tierForSlot(cat.id, t.start_time);
      expect(FEE_TIERS).toContainEqual(tier);
      expect(t).toMatchObject({
        status: "upcoming",
        entry_fee_cents: tier.entryFeeCents,
        min_level: tier.minLevel,
        max_participants: tier.maxParticipants,
        is_free: 0,
      });
      expect(t.start_time - now).toBeGreaterThanOrEqual(SCHEDULE_LEAD_MS);
      expect(t.end_time).toBe(t.start_time + TOURNAMENT_DURATION_MS);
      // The room was initialised: its first alarm is the start.
      expect(await roomAlarm(t.id)).toBe(t.start_time);
    }
    expect(paid[1]!.start_time - paid[0]!.start_time).toBe(SCHEDULE_SPACING_MS);
    for (const t of rows) expect((await difficulties(t.id)).map((r) => r.d)).toEqual([...DIFFICULTY_RAMP]);

    expect(await tournamentsOf(small.id)).toEqual([]);
    expect((await one<{ n: number }>("SELECT active_tournaments AS n FROM categories WHERE id = ?", cat.id)).n).toBe(3);

    // The practice tournament is open at once.
    const listed = (await call(`/api/tournaments?category=${cat.slug}`)).body.items;
    expect(listed.find((t: { title: string }) => t.title.includes("Practice")).status).toBe("live");
  });

  it("runs from the exported scheduled handler and tops up as time moves on", async () => {
    const cat = await makeCategory(5);
    const now = Date.now();
    await runSchedule(env, now);
    const ctx = createExecutionContext();
    await worker.scheduled!(createScheduledController({ scheduledTime: now + SCHEDULE_SPACING_MS, cron: "*/5 * * * *" }), env, ctx);
    await waitOnExecutionContext(ctx);
    const paid = (await tournamentsOf(cat.id)).filter((r) => r.entry_fee_cents > 0);
    expect(paid).toHaveLength(3);
    expect(new Set(paid.map((t) => t.start_time)).size).toBe(3);
  });
});

/** Marks questions as used in QUESTION_RETIRE_AFTER (3) prize tournaments already. */
const retire = (ids: number[]) =>
  env.DB.prepare("UPDATE questions SET paid_uses = 3 WHERE id IN (SELECT value FROM json_each(?))").bind(JSON.stringify(ids)).run();

const questionsOf = async (tournamentId: number) =>
  (
    await all<{ id: number }>('SELECT question_id AS id FROM tournament_questions WHERE tournament_id = ? ORDER BY "order"', tournamentId)
  ).map((r) => r.id);

const paidUses = async (category: CategoryFixture) =>
  new Map(
    (await all<{ id: number; n: number }>("SELECT id, paid_uses AS n FROM questions WHERE category_id = ?", category.id)).map((r) => [
      r.id,
      r.n,
    ]),
  );

describe("schedule and question retirement", () => {
  afterEach(() => vi.restoreAllMocks());

  it("never puts a retired question in a new paid tournament, and counts each use once however often it runs", async () => {
    const cat = await makeCategory(8);
    // One retired question of each difficulty, and the rest untouched.
    const retired = [1, 2, 3].map((d) => cat.questions.find((q) => q.difficulty === d)!.id);
    await retire(retired);
    const now = Date.now();
    await runSchedule(env, now);
    await runSchedule(env, now + 60_000);
    await runSchedule(env, now + 120_000);

    const paid = (await tournamentsOf(cat.id)).filter((t) => t.entry_fee_cents > 0);
    expect(paid).toHaveLength(2);
    const inPaid = (await Promise.all(paid.map((t) => questionsOf(t.id)))).flat();
    expect(inPaid).toHaveLength(20);
    expect(inPaid.filter((id) => retired.includes(id))).toEqual([]);

    // Each question's count is the number of paid tournaments it is in: three runs counted once.
    const uses = await paidUses(cat);
    for (const q of cat.questions) {
      const expected = retired.includes(q.id) ? 3 : inPaid.filter((id) => id === q.id).length;
      expect(uses.get(q.id), `question ${q.id}`).toBe(expected);
    }
    // Practice does not count.
    const practice = (await tournamentsOf(cat.id)).find((t) => t.title.includes("Practice"))!;
    expect(await questionsOf(practice.id)).toHaveLength(10);
  });

  it("counts a use before the next slot of the same run picks: a question retired by the first tournament is not in the second", async () => {
    vi.spyOn(console, "warn").mockImplementation(() => {});
    const cat = await makeCategory(4); // 12 questions: enough for one tournament, not for two without repeats
    await env.DB.prepare("UPDATE questions SET paid_uses = 2 WHERE category_id = ?").bind(cat.id).run();
    await runSchedule(env, Date.now());

    const paid = (await tournamentsOf(cat.id)).filter((t) => t.entry_fee_cents > 0);
    expect(paid).toHaveLength(1);
    const uses = [...(await paidUses(cat)).values()];
    expect(Math.max(...uses)).toBe(3);
    expect(uses.filter((n) => n === 3)).toHaveLength(10);
  });

  it("skips a paid slot it cannot fill with unretired questions and says why; practice still opens on the retired ones", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const cat = await makeCategory(4); // 12 questions
    await retire(cat.questions.slice(0, 5).map((q) => q.id)); // 7 unretired
    await runSchedule(env, Date.now());

    const rows = await tournamentsOf(cat.id);
    expect(rows.filter((t) => t.entry_fee_cents > 0)).toEqual([]);
    const mine = warn.mock.calls.map((args) => args.join(" ")).filter((line) => line.includes(cat.name));
    expect(mine).toHaveLength(2); // one per empty slot
    expect(mine[0]).toMatch(/7 unretired questions/);
    expect(mine[0]).toMatch(/10 needed/);

    const practice = rows.find((t) => t.title.includes("Practice"))!;
    expect(practice).toBeDefined();
    expect(await questionsOf(practice.id)).toHaveLength(10);
    // No paid use was counted for anything.
    expect([...(await paidUses(cat)).values()].filter((n) => n !== 0 && n !== 3)).toEqual([]);
  });

  it("gives a player's practice run retired questions too", async () => {
    const cat = await makeCategory(4);
    await retire(cat.questions.map((q) => q.id)); // every question retired from prize play
    await runSchedule(env, Date.now());
    const rows = await tournamentsOf(cat.id);
    expect(rows.filter((t) => t.entry_fee_cents > 0)).toEqual([]);
    const practice = rows.find((t) => t.title.includes("Practice"))!;
    const res = await join(await makePlayer(), practice.id);
    expect(res.status, res.text).toBe(200);
    const run = await questionsOf(res.body.tournament.id);
    expect(run).toHaveLength(10);
    expect(run.every((id) => cat.questions.some((q) => q.id === id))).toBe(true);
  });
});

describe("room init", () => {
  it("sets a lost alarm again", async () => {
    const cat = await makeCategory(5);
    await runSchedule(env, Date.now());
    const paid = (await tournamentsOf(cat.id)).find((r) => r.entry_fee_cents > 0)!;
    await runInDurableObject(room(paid.id), (_i: TournamentRoom, state) => state.storage.deleteAlarm());
    expect(await roomAlarm(paid.id)).toBeNull();
    expect(await room(paid.id).init(paid.id)).toBe("upcoming");
    expect(await roomAlarm(paid.id)).toBe(paid.start_time);
    expect(await room(424_242).init(424_242)).toBeNull();
  });
});
