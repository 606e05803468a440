// Private custom tournaments for Elite players (docs/custom-tournaments.md): who may create one,
// what a create must say, that nobody without the invite code finds or joins one (not in lists,
// not by its id), that paid ones are ordinary prize play and free ones draw practice questions
// without a prize, and that only the creator cancels, only before anyone joined.
import { describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import { upcomingSlots } from "../../common/domain/schedule";
import { runSchedule } from "../schedule/run-schedule";
import { CUSTOM } from "../../common/messages";
import {
  CANCEL_AFTER_DELAY_MS,
  CUSTOM_OPEN_MAX,
  CUSTOM_TOURNAMENT_MIN_LEVEL,
  IDEMPOTENCY_KEY_HEADER,
  MIN_PLAYERS_PAID,
} from "../../common/spec";
import { prizePoolFromFees, splitPrizePool } from "../../common/domain/prizes";
import type { CustomTournament, InvitedTournament } from "../../common/api/custom-tournaments";
import { call } from "./helpers";
import {
  all,
  balanceOf,
  burn,
  endNow,
  humanPace,
  keepForPractice,
  ledgerMismatches,
  makeCategory,
  makePlayer,
  one,
  play,
  roomSql,
  runAlarm,
  startNow,
  type CategoryFixture,
  type Player,
} from "./tournament-fixtures";

const HOUR = 60 * 60_000;

const draft = (category: CategoryFixture, o: Record<string, unknown> = {}) => ({
  title: "Friday quiz night",
  categoryId: category.id,
  startTime: new Date(Date.now() + HOUR).toISOString(),
  seats: 12,
  entryFeeCents: 500,
  format: "self_paced",
  ...o,
});

const create = (p: Player, body: unknown, headers: Record<string, string> = {}) =>
  call<CustomTournament & { message: string; code: string }>("/api/tournaments/custom", { cookie: p.cookie, body, headers });

async function created(p: Player, body: unknown): Promise<CustomTournament> {
  const res = await create(p, body);
  expect(res.status, res.text).toBe(200);
  return res.body;
}

const joinWith = (p: Player, id: number, inviteCode?: string) =>
  call(`/api/tournaments/${id}/join`, { cookie: p.cookie, body: inviteCode === undefined ? {} : { inviteCode } });

const elite = (o: { balanceCents?: number } = {}) => makePlayer({ level: CUSTOM_TOURNAMENT_MIN_LEVEL, ...o });

describe("creating a custom tournament", () => {
  it("is refused below level 10 with a message that says what unlocks it, and creates nothing", async () => {
    const category = await makeCategory(12);
    const advanced = await makePlayer({ level: 9 });
    const res = await create(advanced, draft(category));
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ code: "custom_level_required", message: CUSTOM.locked(10) });
    expect((await one<{ n: number }>("SELECT count(*) AS n FROM tournaments WHERE creator_user_id = ?", advanced.id)).n).toBe(0);
    // Signed out: not a player at all.
    expect((await call("/api/tournaments/custom", { body: draft(category) })).status).toBe(401);
  });

  it("checks seats, start, fee and format, and creates nothing when a rule is broken", async () => {
    const category = await makeCategory(12);
    const p = await elite();
    const cases: [Record<string, unknown>, string][] = [
      [{ seats: 1 }, CUSTOM.seats(2, 100)],
      [{ seats: 101 }, CUSTOM.seats(2, 100)],
      [{ seats: 2.5 }, CUSTOM.seats(2, 100)],
      // A paid tournament starts only with the paid minimum, so it needs the room for it.
      [{ seats: MIN_PLAYERS_PAID - 1 }, CUSTOM.paidSeats(MIN_PLAYERS_PAID)],
      [{ startTime: new Date(Date.now() - 60_000).toISOString() }, CUSTOM.startTooSoon(10)],
      [{ startTime: new Date(Date.now() + 5 * 60_000).toISOString() }, CUSTOM.startTooSoon(10)],
      [{ startTime: new Date(Date.now() + 15 * 24 * HOUR).toISOString() }, CUSTOM.startTooLate(14)],
      [{ startTime: "tomorrow" }, CUSTOM.startTime],
      [{ entryFeeCents: 700 }, CUSTOM.entryFee("free, $5.00, $10.00, $20.00, $50.00")],
      [{ entryFeeCents: -500 }, CUSTOM.entryFee("free, $5.00, $10.00, $20.00, $50.00")],
      [{ format: "marathon" }, CUSTOM.format],
      [{ title: "ab" }, CUSTOM.titleLength],
    ];
    for (const [change, message] of cases) {
      const res = await create(p, draft(category, change));
      expect(res.status, JSON.stringify(change)).toBe(400);
      expect(res.body.message, JSON.stringify(change)).toBe(message);
    }
    // A free one may have two seats.
    // Free ones draw practice questions only: none yet.
    expect((await create(p, draft(category, { seats: 2, entryFeeCents: 0 }))).status).toBe(409);
    await keepForPractice(category);
    expect((await create(p, draft(category, { seats: 2, entryFeeCents: 0 }))).status).toBe(200);
    expect((await one<{ n: number }>("SELECT count(*) AS n FROM tournaments WHERE creator_user_id = ?", p.id)).n).toBe(1);
  });

  it("makes one tournament for a retried request with the same Idempotency-Key, and caps upcoming ones", async () => {
    const category = await makeCategory(40);
    const p = await elite();
    const headers = { [IDEMPOTENCY_KEY_HEADER]: crypto.randomUUID() };
    const body = draft(category);
    const first = await create(p, body, headers);
    const again = await create(p, body, headers);
    expect(first.status, first.text).toBe(200);
    expect(again.text).toBe(first.text);
    expect((await one<{ n: number }>("SELECT count(*) AS n FROM tournaments WHERE creator_user_id = ?", p.id)).n).toBe(1);
    for (let i = 1; i < CUSTOM_OPEN_MAX; i++) await created(p, draft(category, { format: "live_show" }));
    const over = await create(p, draft(category, { format: "live_show" }));
    expect(over.status).toBe(409);
    expect(over.body).toMatchObject({ code: "custom_limit_reached", message: CUSTOM.tooMany(CUSTOM_OPEN_MAX) });
  });

  it("gives a 128-bit invite code and a link, and holds fresh questions the creator is never shown", async () => {
    const category = await makeCategory(12);
    const p = await elite();
    const t = await created(p, draft(category));
    expect(t.inviteCode).toMatch(/^[a-z2-7]{26}$/);
    expect(t.invitePath).toBe(`/t/${t.inviteCode}`);
    expect(t).toMatchObject({ entryFee: 5, prizePool: 0, maxParticipants: 12, isFree: false, status: "upcoming", cancellable: true });
    expect(JSON.stringify(t)).not.toMatch(/Right /);
    // Prize play: each drawn question was fresh and is now held by this tournament (decision 016).
    const held = await all<{ paid_uses: number; answer_shown_at: number | null }>(
      "SELECT q.paid_uses, q.answer_shown_at FROM tournament_questions tq JOIN questions q ON q.id = tq.question_id WHERE tq.tournament_id = ?",
      t.id,
    );
    expect(held.length).toBeGreaterThanOrEqual(20);
    expect(held.every((q) => q.paid_uses === 1 && q.answer_shown_at === null)).toBe(true);
    // The creator's view of it never carries a question or an answer.
    const mine = await call("/api/tournaments/custom", { cookie: p.cookie });
    expect(mine.body.map((x: CustomTournament) => x.id)).toEqual([t.id]);
    expect(mine.text).not.toMatch(/Right |Question /);
    // Nor does asking the room: the creator holds no seat, so there is nothing to ask for.
    for (const [path, method] of [
      ["questions", "GET"],
      ["next", "POST"],
    ] as const) {
      const res = await call(`/api/tournaments/${t.id}/${path}`, { cookie: p.cookie, method });
      expect(res.text, path).not.toMatch(/Right |Question /);
    }
  });
});

describe("a private tournament", () => {
  it("is in no list and, by its id without the code, answers exactly as an unknown id (IDOR)", async () => {
    const category = await makeCategory(12);
    const creator = await elite();
    const t = await created(creator, draft(category, { title: "Secret league" }));
    const stranger = await makePlayer({ balanceCents: 2000 });
    const unknown = await call(`/api/tournaments/999999999`, { cookie: stranger.cookie });

    for (const query of ["", "?q=Secret", `?categoryId=${category.id}`, "?status=all", "?price=paid"]) {
      const list = await call(`/api/tournaments${query}`, { cookie: stranger.cookie });
      expect(list.body.items.map((x: { id: number }) => x.id)).not.toContain(t.id);
    }
    const cats = await call("/api/categories");
    expect(cats.body.find((c: { id: number }) => c.id === category.id).activeTournaments).toBe(0);

    const reads: [string, string][] = [
      [`/${t.id}`, "GET"],
      [`/${t.id}/participants`, "GET"],
      [`/${t.id}/leaderboard`, "GET"],
      [`/${t.id}/fairness`, "GET"],
      [`/${t.id}/questions`, "GET"],
      [`/${t.id}/next`, "POST"],
      [`/${t.id}/complete`, "POST"],
      [`/${t.id}/leave`, "POST"],
    ];
    for (const [path, method] of reads) {
      for (const cookie of [stranger.cookie, ...(method === "GET" && path !== `/${t.id}/questions` ? [undefined] : [])]) {
        const res = await call(`/api/tournaments${path}`, { cookie, method });
        expect(res.status, path).toBe(404);
        expect(res.body, path).toEqual(
          path === `/${t.id}` ? unknown.body : { code: "tournament_not_found", message: "Tournament not found" },
        );
      }
    }
    // Joining by id: no code, or a wrong one, is the unknown id's 404 and charges nothing.
    const wrong = "a".repeat(26);
    for (const code of [undefined, wrong]) {
      const res = await joinWith(stranger, t.id, code);
      expect(res.status).toBe(404);
      expect(res.body.code).toBe("tournament_not_found");
    }
    expect(await balanceOf(stranger.id)).toBe(2000);
    expect((await call(`/api/tournaments/invite/${wrong}`)).body.code).toBe("invite_not_found");
    // The creator sees it by its id.
    expect((await call(`/api/tournaments/${t.id}`, { cookie: creator.cookie })).status).toBe(200);
  });

  it("is shown by its code and joined through the normal paid join: charged once, then visible to the player", async () => {
    const category = await makeCategory(12);
    const creator = await elite();
    const t = await created(creator, draft(category));
    const friend = await makePlayer({ balanceCents: 2000 });
    const invited = await call<InvitedTournament>(`/api/tournaments/invite/${t.inviteCode}`, { cookie: friend.cookie });
    expect(invited.status).toBe(200);
    expect(invited.body).toMatchObject({
      id: t.id,
      title: "Friday quiz night",
      entryFee: 5,
      joined: false,
      minPlayers: 10,
      inviteCode: t.inviteCode,
    });
    expect(invited.body.fairnessCommitment).toMatch(/^[0-9a-f]{64}$/);
    // Signed out, the link shows it too (to sign in and join).
    expect((await call(`/api/tournaments/invite/${t.inviteCode}`)).status).toBe(200);

    const joined = await joinWith(friend, t.id, t.inviteCode);
    expect(joined.status, joined.text).toBe(200);
    const again = await joinWith(friend, t.id, t.inviteCode);
    expect(again.status).toBe(200);
    expect(await balanceOf(friend.id)).toBe(1500);
    expect(await all("SELECT amount_cents FROM transactions WHERE user_id = ? AND type = 'tournament_entry'", friend.id)).toEqual([
      { amount_cents: -500 },
    ]);
    const seen = await call(`/api/tournaments/${t.id}`, { cookie: friend.cookie });
    expect(seen.body.joined).toBe(true);
    // Its page says it is private; what to share (code and link) is the creator's alone.
    expect(seen.body.invitation).toEqual({ inviteCode: null, invitePath: null });
    expect((await call(`/api/tournaments/${t.id}`, { cookie: creator.cookie })).body.invitation).toEqual({
      inviteCode: t.inviteCode,
      invitePath: `/t/${t.inviteCode}`,
    });
    expect(invited.body.invitation).toEqual({ inviteCode: null, invitePath: null });
    expect(await ledgerMismatches()).toEqual([]);
  });

  it("paid: the creator may play too; ten players settle with 85% of the fees split 65/25/10 and nothing from the house", async () => {
    const category = await makeCategory(12);
    const creator = await elite({ balanceCents: 2000 });
    const t = await created(creator, draft(category, { seats: 10 }));
    const players = [creator];
    for (let i = 0; i < 9; i++) players.push(await makePlayer({ balanceCents: 2000 }));
    // The creator needs no code for their own; the others join with it.
    for (const p of players) expect((await joinWith(p, t.id, p === creator ? undefined : t.inviteCode)).status).toBe(200);
    const late = await makePlayer({ balanceCents: 2000 });
    expect((await joinWith(late, t.id, t.inviteCode)).body.code).toBe("tournament_full");
    await startNow(t.id);
    const fixture = { id: t.id, title: t.title, questions: category.questions };
    const [first, second, third] = players as [Player, Player, Player];
    for (const [p, right] of [
      [first, 10],
      [second, 7],
      [third, 4],
    ] as const)
      for (let i = 0; i < 10; i++) await play(p, fixture, i < right, humanPace(i));
    await endNow(t.id);
    const pool = prizePoolFromFees(10 * 500);
    expect(pool).toBe(4250);
    const [p1, p2, p3] = splitPrizePool(pool, 10) as [number, number, number];
    const prizes = await all<{ user_id: number; amount_cents: number }>(
      "SELECT user_id, amount_cents FROM transactions WHERE reference LIKE ? ORDER BY amount_cents DESC",
      `prize:${t.id}:%`,
    );
    expect(prizes).toEqual([
      { user_id: first.id, amount_cents: p1 },
      { user_id: second.id, amount_cents: p2 },
      { user_id: third.id, amount_cents: p3 },
    ]);
    expect(await one("SELECT status, prize_pool_cents FROM tournaments WHERE id = ?", t.id)).toEqual({
      status: "completed",
      prize_pool_cents: pool,
    });
    expect(await ledgerMismatches()).toEqual([]);
  }, 30_000); // eleven players, thirty answers and a settlement

  it("free: draws only practice-pool questions (burned ones first), has no prize and no minimum", async () => {
    const category = await makeCategory(12);
    const practiceIds = category.questions.filter((_, i) => i % 2 === 0).map((q) => q.id);
    const burnedIds = category.questions.filter((_, i) => i % 2 === 1).map((q) => q.id);
    await keepForPractice(category, practiceIds);
    await burn(burnedIds);
    const fresh = await makeCategory(12);
    const creator = await elite();
    const p = await elite();
    // A category with fresh questions only has nothing a free tournament may draw.
    const refused = await create(creator, draft(fresh, { entryFeeCents: 0, seats: 2 }));
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe(CUSTOM.tooFewPracticeQuestions);
    const t = await created(creator, draft(category, { entryFeeCents: 0, seats: 2, format: "live_show" }));
    expect(t).toMatchObject({ isFree: true, entryFee: 0, prizePool: 0, minLevel: 1 });
    const drawn = await all<{ question_id: number }>("SELECT question_id FROM tournament_questions WHERE tournament_id = ?", t.id);
    expect(drawn).toHaveLength(10);
    // Burned ones first: those kept for practice stay free for practice runs.
    expect(drawn.every((q) => burnedIds.includes(q.question_id))).toBe(true);
    // No fresh question of any category was taken.
    expect((await one<{ n: number }>("SELECT count(*) AS n FROM questions WHERE category_id = ? AND paid_uses > 0", fresh.id)).n).toBe(0);
    expect((await joinWith(p, t.id, t.inviteCode)).status).toBe(200);
    const detail = await call(`/api/tournaments/${t.id}`, { cookie: p.cookie });
    expect(detail.body).toMatchObject({ minPlayers: 0, prizePool: 0, prizeSplit: [0, 0, 0] });
  });
});

describe("too few players", () => {
  it("cancels a paid one 30 minutes after its start by the ordinary lifecycle and refunds each fee", async () => {
    const category = await makeCategory(12);
    const creator = await elite();
    const t = await created(creator, draft(category));
    const friends = [await makePlayer({ balanceCents: 1000 }), await makePlayer({ balanceCents: 1000 })];
    for (const f of friends) expect((await joinWith(f, t.id, t.inviteCode)).status).toBe(200);
    await roomSql(t.id, "UPDATE meta SET start_time = ? WHERE id = 1", Date.now() - CANCEL_AFTER_DELAY_MS - 1000);
    await runAlarm(t.id);
    expect((await one<{ status: string }>("SELECT status FROM tournaments WHERE id = ?", t.id)).status).toBe("cancelled");
    for (const f of friends) expect(await balanceOf(f.id)).toBe(1000);
    expect(await all("SELECT id FROM transactions WHERE reference LIKE ?", `refund:${t.id}:%`)).toHaveLength(2);
    expect(await ledgerMismatches()).toEqual([]);
  });
});

describe("the schedule", () => {
  it("still fills a slot a private paid tournament happens to start at, and leaves the private one out of its counts", async () => {
    const category = await makeCategory(40);
    const p = await elite();
    const [slot] = upcomingSlots(category.id, Date.now());
    const t = await created(p, draft(category, { startTime: new Date(slot!).toISOString(), format: "live_show" }));
    await runSchedule(env, Date.now());
    const atSlot = await all<{ id: number; invite_code: string | null }>(
      "SELECT id, invite_code FROM tournaments WHERE category_id = ? AND start_time = ? ORDER BY id",
      category.id,
      slot,
    );
    expect(atSlot).toEqual([
      { id: t.id, invite_code: t.inviteCode },
      { id: expect.any(Number), invite_code: null },
    ]);
    const counted = await one<{ active_tournaments: number }>("SELECT active_tournaments FROM categories WHERE id = ?", category.id);
    const upcoming = await one<{ n: number }>(
      "SELECT count(*) AS n FROM tournaments WHERE category_id = ? AND status IN ('upcoming', 'live') AND invite_code IS NULL",
      category.id,
    );
    expect(counted.active_tournaments).toBe(upcoming.n);
  });
});

describe("cancelling a custom tournament", () => {
  it("is the creator's alone, before anyone joined; after a join it is refused", async () => {
    const category = await makeCategory(40);
    const creator = await elite();
    const other = await elite({ balanceCents: 2000 });
    const a = await created(creator, draft(category));
    const b = await created(creator, draft(category));
    const cancel = (p: Player, id: number) => call(`/api/tournaments/custom/${id}/cancel`, { cookie: p.cookie, method: "POST" });

    const notMine = await cancel(other, a.id);
    expect(notMine.status).toBe(403);
    expect(notMine.body).toMatchObject({ code: "not_creator", message: CUSTOM.notCreator });

    const held = await all<{ id: number }>("SELECT question_id AS id FROM tournament_questions WHERE tournament_id = ?", a.id);
    expect((await cancel(creator, a.id)).status).toBe(200);
    expect((await cancel(creator, a.id)).status).toBe(200);
    expect((await one<{ status: string }>("SELECT status FROM tournaments WHERE id = ?", a.id)).status).toBe("cancelled");
    // Its page says who cancelled it, not "too few players".
    const page = await call(`/api/tournaments/${a.id}`, { cookie: creator.cookie });
    expect(page.body.cancellation).toEqual({ cause: "creator", reason: null, refunded: false });
    // Its questions were never shown: they are fresh again.
    const back = await all<{ paid_uses: number }>(
      "SELECT paid_uses FROM questions WHERE id IN (SELECT value FROM json_each(?))",
      JSON.stringify(held.map((q) => q.id)),
    );
    expect(back.every((q) => q.paid_uses === 0)).toBe(true);
    expect((await joinWith(other, a.id, a.inviteCode)).status).toBe(409);

    expect((await joinWith(other, b.id, b.inviteCode)).status).toBe(200);
    const refused = await cancel(creator, b.id);
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: "tournament_not_cancellable", message: CUSTOM.notCancellable });
    expect((await one<{ status: string }>("SELECT status FROM tournaments WHERE id = ?", b.id)).status).toBe("upcoming");
    expect(await balanceOf(other.id)).toBe(1500);
    const listed = (await call("/api/tournaments/custom", { cookie: creator.cookie })).body as CustomTournament[];
    expect(listed.find((x) => x.id === b.id)).toMatchObject({ cancellable: false, currentParticipants: 1 });
    // A public tournament is nobody's to cancel here.
    expect((await cancel(creator, 999999999)).status).toBe(404);
  });
});
