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
import {
  all,
  burn,
  join,
  keepForPractice,
  makeCategory,
  makePlayer,
  one,
  room,
  roomAlarm,
  type CategoryFixture,
} from "./tournament-fixtures";

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
  afterEach(() => vi.restoreAllMocks());

  it("creates two upcoming paid tournaments on the fee tiers and one open practice per category, once", async () => {
    const cat = await makeCategory(8); // 24 fresh questions: two live shows on the ramp
    await keepForPractice(await addQuestions(cat, 4)); // and 12 kept for practice
    const small = await makeCategory(1); // 3 questions: too few for a tournament
    await keepForPractice(small);
    vi.spyOn(console, "warn").mockImplementation(() => {});
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
    const cat = await makeCategory(10);
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

/** More questions in the category (perDifficulty of each difficulty), returned as a category of their own for the fixtures. */
async function addQuestions(cat: CategoryFixture, perDifficulty: number): Promise<CategoryFixture> {
  const extra = await makeCategory(perDifficulty);
  const ids = extra.questions.map((q) => q.id);
  await env.DB.prepare("UPDATE questions SET category_id = ? WHERE id IN (SELECT value FROM json_each(?))")
    .bind(cat.id, JSON.stringify(ids))
    .run();
  return { ...cat, questions: extra.questions };
}

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

const shortfallOf = (categoryId: number) =>
  one<{ slot_start: number; needed: number; available: number } | null>(
    "SELECT slot_start, needed, available FROM question_shortfalls WHERE category_id = ?",
    categoryId,
  );

describe("schedule and the question supply", () => {
  afterEach(() => vi.restoreAllMocks());

  it("puts only fresh questions in paid tournaments, each in one, however often it runs", async () => {
    const cat = await makeCategory(12);
    // One question of each difficulty in every other state: burned, held, kept for practice, retired.
    const byDifficulty = (d: number) => cat.questions.filter((q) => q.difficulty === d);
    const [burned, held, practiceOnly, retired] = [0, 1, 2, 3].map((i) => [1, 2, 3].map((d) => byDifficulty(d)[i]!.id));
    await burn(burned!);
    await env.DB.prepare("UPDATE questions SET paid_uses = 1 WHERE id IN (SELECT value FROM json_each(?))")
      .bind(JSON.stringify(held))
      .run();
    await keepForPractice(cat, practiceOnly);
    await env.DB.prepare("UPDATE questions SET retired_at = 1 WHERE id IN (SELECT value FROM json_each(?))")
      .bind(JSON.stringify(retired))
      .run();
    const now = Date.now();
    await runSchedule(env, now);
    await runSchedule(env, now + 60_000);
    await runSchedule(env, now + 120_000);

    const paid = (await tournamentsOf(cat.id)).filter((t) => t.entry_fee_cents > 0);
    expect(paid).toHaveLength(2);
    const inPaid = (await Promise.all(paid.map((t) => questionsOf(t.id)))).flat();
    expect(inPaid).toHaveLength(20);
    expect(new Set(inPaid).size).toBe(20);
    const excluded = [...burned!, ...held!, ...practiceOnly!, ...retired!];
    expect(inPaid.filter((id) => excluded.includes(id))).toEqual([]);

    // Each taken question counts its one use, three runs counted once; the held ones keep theirs.
    const uses = await paidUses(cat);
    for (const q of cat.questions) {
      const expected = inPaid.includes(q.id) || held!.includes(q.id) ? 1 : 0;
      expect(uses.get(q.id), `question ${q.id}`).toBe(expected);
    }
    // Practice opens on the burned and kept ones? Six are too few: no practice entry.
    expect((await tournamentsOf(cat.id)).filter((t) => t.title.includes("Practice"))).toEqual([]);
  });

  it("never repeats a question in the next slot of the same run: the slot it cannot fill is skipped and recorded", async () => {
    vi.spyOn(console, "warn").mockImplementation(() => {});
    const cat = await makeCategory(4); // 12 fresh questions: enough for one tournament, not two
    await runSchedule(env, Date.now());

    const paid = (await tournamentsOf(cat.id)).filter((t) => t.entry_fee_cents > 0);
    expect(paid).toHaveLength(1);
    const uses = [...(await paidUses(cat)).values()];
    expect(uses.filter((n) => n === 1)).toHaveLength(10);
    expect(uses.filter((n) => n === 0)).toHaveLength(2);
    expect(await shortfallOf(cat.id)).toMatchObject({ needed: 10, available: 2 });
  });

  it("skips a paid slot it cannot fill with fresh questions, says why and records it for the console, and clears it once it fills one", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const cat = await makeCategory(4); // 12 questions
    await burn(cat.questions.slice(0, 5).map((q) => q.id)); // 7 fresh
    await keepForPractice(await addQuestions(cat, 2)); // 5 burned + 6 kept: practice opens
    const now = Date.now();
    await runSchedule(env, now);

    const rows = await tournamentsOf(cat.id);
    expect(rows.filter((t) => t.entry_fee_cents > 0)).toEqual([]);
    const mine = warn.mock.calls.map((args) => args.join(" ")).filter((line) => line.includes(cat.name));
    expect(mine).toHaveLength(2); // one per empty slot
    expect(mine[0]).toMatch(/7 fresh questions/);
    expect(mine[0]).toMatch(/10 needed/);
    const refused = await shortfallOf(cat.id);
    expect(refused).toMatchObject({ needed: 10, available: 7 });
    expect(refused!.slot_start).toBeGreaterThan(now);

    const practice = rows.find((t) => t.title.includes("Practice"))!;
    expect(practice).toBeDefined();
    expect(await questionsOf(practice.id)).toHaveLength(10);
    // No paid use was counted for anything.
    expect([...(await paidUses(cat)).values()].filter((n) => n !== 0)).toEqual([]);

    // New questions arrive: the next run fills a slot and the refusal is gone.
    await addQuestions(cat, 5); // 22 fresh: both slots
    await runSchedule(env, now + 60_000);
    expect((await tournamentsOf(cat.id)).filter((t) => t.entry_fee_cents > 0)).toHaveLength(2);
    expect(await shortfallOf(cat.id)).toBeNull();
  });

  it("gives a player's practice run burned and practice-only questions, never a fresh one", async () => {
    vi.spyOn(console, "warn").mockImplementation(() => {});
    const cat = await makeCategory(4);
    await burn(cat.questions.slice(0, 6).map((q) => q.id));
    await keepForPractice(
      cat,
      cat.questions.slice(6, 10).map((q) => q.id),
    ); // 2 stay fresh
    await runSchedule(env, Date.now());
    const rows = await tournamentsOf(cat.id);
    expect(rows.filter((t) => t.entry_fee_cents > 0)).toEqual([]);
    const practice = rows.find((t) => t.title.includes("Practice"))!;
    const res = await join(await makePlayer(), practice.id);
    expect(res.status, res.text).toBe(200);
    const run = await questionsOf(res.body.tournament.id);
    expect(run).toHaveLength(10);
    expect(run.sort()).toEqual(
      cat.questions
        .slice(0, 10)
        .map((q) => q.id)
        .sort(),
    );
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
