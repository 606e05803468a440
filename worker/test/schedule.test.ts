// The cron keeps every category supplied and is idempotent.
import { describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import { createExecutionContext, createScheduledController, runInDurableObject, waitOnExecutionContext } from "cloudflare:test";
import { DIFFICULTY_RAMP, FEE_TIERS, SCHEDULE_LEAD_MS, SCHEDULE_SPACING_MS, TOURNAMENT_DURATION_MS } from "../../common/spec";
import { tierForSlot } from "../../common/domain/schedule";
import { runSchedule } from "../schedule/run-schedule";
import worker from "../index";
import { call } from "./helpers";
import type { TournamentRoom } from "../durable/tournament-room";
import { all, makeCategory, one, room, roomAlarm } from "./tournament-fixtures";

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
