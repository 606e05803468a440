// POST /api/admin/tournaments: operators only, every rule of the body, the tournament and its
// 10 questions stored together, and a room whose alarm starts it at its start time.
import { describe, expect, it } from "vitest";
import { ADMIN_TOURNAMENT } from "../../common/api/admin";
import { DIFFICULTY_RAMP, MIN_PLAYERS_PAID, TOURNAMENT_DURATION_MS } from "../../common/spec";
import { NOTIFY } from "../../common/messages";
import { splitPrizePool } from "../../common/domain/prizes";
import { call } from "./helpers";
import { makeAdmin } from "./money-helpers";
import {
  all,
  balanceOf,
  complete,
  burn,
  join,
  ledgerMismatches,
  makeCategory,
  humanPace,
  makePlayer,
  one,
  play,
  roomAlarm,
  startNow,
  type CategoryFixture,
  type Player,
  type TournamentFixture,
} from "./tournament-fixtures";

async function makeOperator(): Promise<Player> {
  const p = await makePlayer();
  await makeAdmin(p.id);
  return p;
}

const inAnHour = () => new Date(Date.now() + 60 * 60_000).toISOString();

const validBody = (categoryId: number, o: Record<string, unknown> = {}) => ({
  title: "Friday Night Special",
  description: "A one-off tournament.",
  categoryId,
  entryFee: 2.5,
  maxParticipants: 20,
  minLevel: 1,
  startTime: inAnHour(),
  isFree: false,
  ...o,
});

const create = (operator: Player | null, body: unknown) => call("/api/admin/tournaments", { cookie: operator?.cookie, body });

const statusOf = async (id: number) => (await one<{ status: string }>("SELECT status FROM tournaments WHERE id = ?", id)).status;

/** The created tournament as the fixtures' helpers (play, correctOf) know it. */
async function fixtureOf(id: number, title: string, category: CategoryFixture): Promise<TournamentFixture> {
  const rows = await all<{ question_id: number }>(
    'SELECT question_id FROM tournament_questions WHERE tournament_id = ? ORDER BY "order"',
    id,
  );
  return { id, title, questions: rows.map((r) => category.questions.find((q) => q.id === r.question_id)!) };
}

describe("POST /api/admin/tournaments", () => {
  it("is for operators only: 401 signed out, 403 for a player", async () => {
    const cat = await makeCategory();
    expect((await create(null, validBody(cat.id))).status).toBe(401);
    const player = await makePlayer();
    const res = await create(player, validBody(cat.id));
    expect(res.status).toBe(403);
    expect(await one<{ n: number }>("SELECT count(*) AS n FROM tournaments WHERE category_id = ?", cat.id)).toEqual({ n: 0 });
  });

  it("answers 400 with the broken rule, and stores nothing", async () => {
    const cat = await makeCategory();
    const op = await makeOperator();
    const cases: [Record<string, unknown>, string][] = [
      [{ title: "ab" }, ADMIN_TOURNAMENT.titleLength],
      [{ title: undefined }, ADMIN_TOURNAMENT.titleLength],
      [{ title: "Evening Practice" }, ADMIN_TOURNAMENT.titlePractice],
      [{ description: " " }, ADMIN_TOURNAMENT.descriptionLength],
      [{ categoryId: "3" }, ADMIN_TOURNAMENT.categoryId],
      [{ entryFee: -1 }, ADMIN_TOURNAMENT.amount("entryFee")],
      [{ entryFee: 1.005 }, ADMIN_TOURNAMENT.amount("entryFee")],
      [{ entryFee: 5.000000001 }, ADMIN_TOURNAMENT.amount("entryFee")],
      [{ entryFee: 0.000000001 }, ADMIN_TOURNAMENT.amount("entryFee")],
      [{ isFree: true, entryFee: 0, maxParticipants: null, prizePool: 10.000000001 }, ADMIN_TOURNAMENT.amount("prizePool")],
      [{ entryFee: "5" }, ADMIN_TOURNAMENT.amount("entryFee")],
      [{ entryFee: 0 }, ADMIN_TOURNAMENT.paidWithoutFee],
      [{ isFree: true }, ADMIN_TOURNAMENT.freeWithFee],
      [{ prizePool: 100 }, ADMIN_TOURNAMENT.prizePoolPaid],
      [{ maxParticipants: 9 }, ADMIN_TOURNAMENT.maxBelowMinimum],
      [{ maxParticipants: 1 }, ADMIN_TOURNAMENT.maxParticipants],
      [{ maxParticipants: undefined }, ADMIN_TOURNAMENT.maxParticipants],
      [{ minLevel: 0 }, ADMIN_TOURNAMENT.minLevel],
      [{ startTime: "tomorrow" }, ADMIN_TOURNAMENT.startTime],
      [{ startTime: new Date(Date.now() - 1000).toISOString() }, ADMIN_TOURNAMENT.startInPast],
      [{ durationMinutes: 0 }, ADMIN_TOURNAMENT.duration],
      [{ isFree: "no" }, ADMIN_TOURNAMENT.isFree],
      [{ format: "speed_round" }, ADMIN_TOURNAMENT.format],
      [{ durationMinutes: 5 }, ADMIN_TOURNAMENT.liveShowTooShort],
      [{ durationMinutes: 5, isFree: true, entryFee: 0, format: "live_show" }, ADMIN_TOURNAMENT.liveShowTooShort],
    ];
    for (const [change, message] of cases) {
      const res = await create(op, validBody(cat.id, change));
      expect(res.status, JSON.stringify(change)).toBe(400);
      expect(res.body.message, JSON.stringify(change)).toBe(message);
    }
    const malformed = await call("/api/admin/tournaments", { cookie: op.cookie, rawBody: "{" });
    expect(malformed.status).toBe(400);
    expect(await one<{ n: number }>("SELECT count(*) AS n FROM tournaments WHERE category_id = ?", cat.id)).toEqual({ n: 0 });
  });

  it("answers 404 for an unknown category and 409 for one with too few questions", async () => {
    const op = await makeOperator();
    const missing = await create(op, validBody(987_654));
    expect(missing.status).toBe(404);
    expect(missing.body.message).toBe(ADMIN_TOURNAMENT.categoryNotFound);
    const small = await makeCategory(3); // 9 questions
    const short = await create(op, validBody(small.id));
    expect(short.status).toBe(409);
    expect(short.body.message).toBe(ADMIN_TOURNAMENT.categoryTooFewQuestions);
    expect(await one<{ n: number }>("SELECT count(*) AS n FROM tournaments WHERE category_id = ?", small.id)).toEqual({ n: 0 });
  });

  it("stores the tournament with 10 questions of its category on the ramp and arms the room for the start", async () => {
    const cat = await makeCategory();
    const op = await makeOperator();
    const start = new Date(Date.now() + 45 * 60_000);
    start.setMilliseconds(0);
    const res = await create(
      op,
      validBody(cat.id, { startTime: start.toISOString(), durationMinutes: 15, minLevel: 2, maxParticipants: null }),
    );
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({
      title: "Friday Night Special",
      description: "A one-off tournament.",
      categoryId: cat.id,
      categoryName: cat.name,
      entryFee: 2.5,
      prizePool: 0,
      maxParticipants: null,
      currentParticipants: 0,
      minLevel: 2,
      startTime: start.toISOString(),
      endTime: new Date(start.getTime() + 15 * 60_000).toISOString(),
      status: "upcoming",
      isFree: false,
    });
    const id = res.body.id as number;
    const questions = await all<{ order: number; question_id: number; category_id: number; difficulty: number }>(
      `SELECT tq."order" AS "order", tq.question_id, q.category_id, q.difficulty_level AS difficulty
       FROM tournament_questions tq JOIN questions q ON q.id = tq.question_id WHERE tq.tournament_id = ? ORDER BY tq."order"`,
      id,
    );
    expect(questions.map((q) => q.order)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(questions.every((q) => q.category_id === cat.id)).toBe(true);
    expect(questions.map((q) => q.difficulty)).toEqual([...DIFFICULTY_RAMP]);
    expect(new Set(questions.map((q) => q.question_id)).size).toBe(10);
    // The room set its first alarm for the start time.
    expect(await roomAlarm(id)).toBe(start.getTime());
    // It is listed like any other tournament.
    const detail = await call(`/api/tournaments/${id}`);
    expect(detail.body).toMatchObject({ id, status: "upcoming", minPlayers: MIN_PLAYERS_PAID, questionCount: 10, joined: false });
  });

  it("makes a paid tournament a live show and a free one self-paced unless the operator chooses", async () => {
    const cat = await makeCategory(30); // each tournament takes its questions once: 10 + 30 + 30 + 10
    const op = await makeOperator();
    expect((await create(op, validBody(cat.id))).body.format).toBe("live_show");
    expect((await create(op, validBody(cat.id, { isFree: true, entryFee: 0 }))).body.format).toBe("self_paced");
    expect((await create(op, validBody(cat.id, { format: "self_paced", durationMinutes: 5 }))).body.format).toBe("self_paced");
    const chosen = await create(op, validBody(cat.id, { isFree: true, entryFee: 0, format: "live_show" }));
    expect(chosen.body.format).toBe("live_show");
    expect((await call(`/api/tournaments/${chosen.body.id}`)).body.format).toBe("live_show");
  });

  it("uses the default duration when none is given", async () => {
    const cat = await makeCategory();
    const op = await makeOperator();
    const res = await create(op, validBody(cat.id));
    expect(res.status).toBe(201);
    expect(Date.parse(res.body.endTime) - Date.parse(res.body.startTime)).toBe(TOURNAMENT_DURATION_MS);
  });

  it("a paid one goes live by alarm once it has the minimum of players", async () => {
    const cat = await makeCategory();
    const op = await makeOperator();
    const res = await create(op, validBody(cat.id, { entryFee: 1 }));
    expect(res.status).toBe(201);
    const id = res.body.id as number;
    const players: Player[] = [];
    for (let i = 0; i < MIN_PLAYERS_PAID - 1; i++) {
      const p = await makePlayer({ balanceCents: 100 });
      expect((await join(p, id)).status).toBe(200);
      players.push(p);
    }
    // Start time reached with 9 players: the alarm leaves it waiting.
    await startNow(id);
    expect(await statusOf(id)).toBe("upcoming");
    // The tenth player completes the minimum and starts it.
    const last = await makePlayer({ balanceCents: 100 });
    expect((await join(last, id)).status).toBe(200);
    expect(await statusOf(id)).toBe("live");
    expect(await one("SELECT prize_pool_cents AS pool, current_participants AS n FROM tournaments WHERE id = ?", id)).toEqual({
      pool: 850,
      n: 10,
    });
  });

  it("a free one with a house-funded pool starts by alarm, notifies, and pays the pool 65/25/10", async () => {
    const cat = await makeCategory(10);
    const op = await makeOperator();
    const res = await create(
      op,
      validBody(cat.id, { title: "House Cup", entryFee: 0, isFree: true, prizePool: 10.01, maxParticipants: null }),
    );
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ entryFee: 0, isFree: true, prizePool: 10.01 });
    const id = res.body.id as number;
    const [a, b, c] = [await makePlayer(), await makePlayer(), await makePlayer()];
    for (const p of [a, b, c]) expect((await join(p, id)).status).toBe(200);
    // Joining a free tournament costs nothing and leaves the house pool as it is.
    expect(await balanceOf(a.id)).toBe(0);
    expect(await one("SELECT prize_pool_cents AS pool FROM tournaments WHERE id = ?", id)).toEqual({ pool: 1001 });

    await startNow(id);
    expect(await statusOf(id)).toBe("live");
    const started = await all<{ message: string }>(
      "SELECT message FROM notifications WHERE tournament_id = ? AND action = 'tournament_started'",
      id,
    );
    expect(started).toEqual([
      { message: NOTIFY.started("House Cup") },
      { message: NOTIFY.started("House Cup") },
      { message: NOTIFY.started("House Cup") },
    ]);

    const t = await fixtureOf(id, "House Cup", cat);
    for (let i = 0; i < 10; i++) {
      await play(a, t, true, humanPace(i));
      await play(b, t, i < 5, humanPace(i));
      await play(c, t, false, humanPace(i));
    }
    for (const p of [a, b, c]) expect((await complete(p, id)).status).toBe(200);
    // Everyone finished: it ends at once and pays the house pool, remainder to 1st.
    expect(await statusOf(id)).toBe("completed");
    const [first, second, third] = splitPrizePool(1001, 3);
    expect([first, second, third]).toEqual([651, 250, 100]);
    expect(await balanceOf(a.id)).toBe(first);
    expect(await balanceOf(b.id)).toBe(second);
    expect(await balanceOf(c.id)).toBe(third);
    expect(await ledgerMismatches()).toEqual([]);
  });
});

const rowsOf = (id: number) =>
  all<{ order: number; id: number; difficulty: number; uses: number }>(
    `SELECT tq."order" AS "order", q.id, q.difficulty_level AS difficulty, q.paid_uses AS uses
     FROM tournament_questions tq JOIN questions q ON q.id = tq.question_id WHERE tq.tournament_id = ? ORDER BY tq."order"`,
    id,
  );

const drawOf = async (id: number) => (await one<{ w: number }>("SELECT question_draw AS w FROM tournaments WHERE id = ?", id)).w;

describe("POST /api/admin/tournaments: fresh questions only, and per-player draws", () => {
  it("never puts a burned question in a live show, and counts one paid use per question", async () => {
    const cat = await makeCategory(5);
    const op = await makeOperator();
    const retired = cat.questions
      .filter((q) => q.difficulty === 2)
      .slice(0, 3)
      .map((q) => q.id);
    await burn(retired);
    const res = await create(op, validBody(cat.id));
    expect(res.status, res.text).toBe(201);
    const rows = await rowsOf(res.body.id);
    expect(rows).toHaveLength(10);
    expect(await drawOf(res.body.id)).toBe(1);
    expect(rows.filter((r) => retired.includes(r.id))).toEqual([]);
    expect(rows.map((r) => r.uses)).toEqual(Array(10).fill(1));
  });

  it("refuses 409 not_enough_questions when fewer than 10 are fresh, saying why", async () => {
    const cat = await makeCategory(4); // 12 questions
    const op = await makeOperator();
    await burn(cat.questions.slice(0, 3).map((q) => q.id));
    const res = await create(op, validBody(cat.id));
    expect(res.status).toBe(409);
    expect(res.body.code).toBe("not_enough_questions");
    expect(res.body.message).toBe(ADMIN_TOURNAMENT.categoryTooFewQuestions);
    expect(res.body.message).toMatch(/fresh/);
    expect(await one<{ n: number }>("SELECT count(*) AS n FROM tournaments WHERE category_id = ?", cat.id)).toEqual({ n: 0 });
    expect(await one<{ n: number }>("SELECT sum(paid_uses) AS n FROM questions WHERE category_id = ?", cat.id)).toEqual({ n: 0 });
  });

  it("gives a self-paced tournament a pool of 3 fresh candidates per slot, slot-major, each counted once", async () => {
    const cat = await makeCategory(12); // 36 questions
    const op = await makeOperator();
    const retired = cat.questions
      .filter((q) => q.difficulty === 3)
      .slice(0, 2)
      .map((q) => q.id);
    await burn(retired);
    const res = await create(op, validBody(cat.id, { format: "self_paced" }));
    expect(res.status, res.text).toBe(201);
    expect(await drawOf(res.body.id)).toBe(3);
    const rows = await rowsOf(res.body.id);
    expect(rows.map((r) => r.order)).toEqual(Array.from({ length: 30 }, (_, i) => i));
    expect(new Set(rows.map((r) => r.id)).size).toBe(30);
    // Row slot * 3 + candidate holds a question of that slot's difficulty.
    expect(rows.map((r) => r.difficulty)).toEqual(DIFFICULTY_RAMP.flatMap((d) => [d, d, d]));
    expect(rows.filter((r) => retired.includes(r.id))).toEqual([]);
    expect(rows.every((r) => r.uses === 1)).toBe(true);
  });

  it("narrows the pool to 2 per slot when fewer than 30 are fresh, and refuses under 20", async () => {
    const cat = await makeCategory(8); // 24 questions
    const op = await makeOperator();
    const two = await create(op, validBody(cat.id, { isFree: true, entryFee: 0 }));
    expect(two.status, two.text).toBe(201);
    expect(two.body.format).toBe("self_paced");
    expect(await drawOf(two.body.id)).toBe(2);
    expect(await rowsOf(two.body.id)).toHaveLength(20);
    // Those 20 are held now: 4 fresh are left, too few for anything.
    expect((await create(op, validBody(cat.id))).status).toBe(409);

    const other = await makeCategory(7); // 21 questions
    await burn(other.questions.slice(0, 2).map((q) => q.id)); // 19 fresh
    const refused = await create(op, validBody(other.id, { format: "self_paced" }));
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe("not_enough_questions");
    expect(refused.body.message).toBe(ADMIN_TOURNAMENT.categoryTooFewQuestions);
    // A live show still fits in what is left.
    expect((await create(op, validBody(other.id))).status).toBe(201);
  });
});
