// Joining: the product's checks in order with their messages, the fee through the ledger in the same
// step as the seat, no overbooking under concurrency, no double charge.
import { afterAll, describe, expect, it } from "vitest";
import { JOIN, PLAY } from "../../common/messages";
import { prizePoolFromFees } from "../../common/domain/prizes";
import { call } from "./helpers";
import {
  all,
  balanceOf,
  join,
  keepForPractice,
  ledgerMismatches,
  makeCategory,
  makePlayer,
  makeTournament,
  one,
  roomSql,
} from "./tournament-fixtures";

const entries = (tournamentId: number) =>
  all<{ user_id: number; amount_cents: number }>(
    "SELECT user_id, amount_cents FROM transactions WHERE reference LIKE ?",
    `entry:${tournamentId}:%`,
  );
const seats = (tournamentId: number) =>
  one<{ n: number; current: number; pool: number }>(
    `SELECT (SELECT count(*) FROM tournament_participants WHERE tournament_id = ?1) AS n, current_participants AS current, prize_pool_cents AS pool
     FROM tournaments WHERE id = ?1`,
    tournamentId,
  );

describe("joining a tournament", () => {
  it("asks a signed-out visitor to log in", async () => {
    const t = await makeTournament(await makeCategory());
    const res = await call(`/api/tournaments/${t.id}/join`, { method: "POST" });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ code: "not_authenticated", message: JOIN.authRequired.description, title: JOIN.authRequired.title });
  });

  it("answers 404 for a tournament that does not exist", async () => {
    const p = await makePlayer();
    const res = await join(p, 987_654);
    expect(res.status).toBe(404);
    expect(res.body.message).toBe(PLAY.notFound);
  });

  it("checks level before capacity before balance", async () => {
    const cat = await makeCategory();
    const t = await makeTournament(cat, { entryFeeCents: 1000, minLevel: 3, maxParticipants: 1 });
    const seated = await makePlayer({ level: 3, balanceCents: 1000 });
    expect((await join(seated, t.id)).status).toBe(200);

    // Too low, the tournament full and no money: the level is what the player hears about.
    const low = await makePlayer({ level: 2 });
    const byLevel = await join(low, t.id);
    expect(byLevel.status).toBe(403);
    expect(byLevel.body).toEqual({ code: "level_too_low", message: JOIN.levelDescription(3), title: JOIN.levelTitle });

    // Level fine, full and no money: full.
    const broke = await makePlayer({ level: 4 });
    const byCapacity = await join(broke, t.id);
    expect(byCapacity.status).toBe(409);
    expect(byCapacity.body).toEqual({ code: "tournament_full", message: JOIN.full.description, title: JOIN.full.title });
  });

  it("refuses a short balance with the shortfall and changes nothing", async () => {
    const t = await makeTournament(await makeCategory(), { entryFeeCents: 1000 });
    const p = await makePlayer({ balanceCents: 300 });
    const res = await join(p, t.id);
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ code: "insufficient_balance", message: JOIN.balanceDescription("7.00", "10.00"), title: JOIN.balanceTitle });
    expect(await balanceOf(p.id)).toBe(300);
    expect(await entries(t.id)).toEqual([]);
    expect(await seats(t.id)).toEqual({ n: 0, current: 0, pool: 0 });
    // The room did not seat them either: topping up and joining works.
    expect((await call(`/api/tournaments/${t.id}`, { cookie: p.cookie })).body.joined).toBe(false);
  });

  it("charges the fee once, seats the player and keeps the pool at 85% of fees", async () => {
    const t = await makeTournament(await makeCategory(), { entryFeeCents: 500 });
    const p = await makePlayer({ balanceCents: 2000 });
    const first = await join(p, t.id);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ joined: true, balance: 15, tournament: { id: t.id, currentParticipants: 1, prizePool: 4.25 } });
    const again = await join(p, t.id);
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ joined: true, balance: 15 });
    expect(await balanceOf(p.id)).toBe(1500);
    expect(await entries(t.id)).toEqual([{ user_id: p.id, amount_cents: -500 }]);
    expect(await seats(t.id)).toEqual({ n: 1, current: 1, pool: 425 });
    const detail = await call(`/api/tournaments/${t.id}`, { cookie: p.cookie });
    expect(detail.body).toMatchObject({ joined: true, minPlayers: 10, questionCount: 10 });
  });

  it("seats exactly 30 of 50 concurrent joins on a 30-seat tournament and charges exactly 30", async () => {
    const fee = 2000;
    const t = await makeTournament(await makeCategory(), { entryFeeCents: fee, maxParticipants: 30 });
    const players = await Promise.all(Array.from({ length: 50 }, () => makePlayer({ balanceCents: 5000 })));
    const results = await Promise.all(players.map((p) => join(p, t.id)));
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(30);
    expect(statuses.filter((s) => s === 409)).toHaveLength(20);
    expect(results.filter((r) => r.status === 409).every((r) => r.body.message === JOIN.full.description)).toBe(true);
    const charged = await entries(t.id);
    expect(charged).toHaveLength(30);
    expect(charged.reduce((s, e) => s + e.amount_cents, 0)).toBe(-30 * fee);
    expect(await seats(t.id)).toEqual({ n: 30, current: 30, pool: prizePoolFromFees(30 * fee) });
    const seatedIds = new Set(charged.map((e) => e.user_id));
    for (const p of players) expect(await balanceOf(p.id)).toBe(seatedIds.has(p.id) ? 3000 : 5000);
  });

  it("never charges twice for a double click", async () => {
    const t = await makeTournament(await makeCategory(), { entryFeeCents: 700 });
    const p = await makePlayer({ balanceCents: 1000 });
    const results = await Promise.all([join(p, t.id), join(p, t.id), join(p, t.id)]);
    expect(results.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(await balanceOf(p.id)).toBe(300);
    expect(await entries(t.id)).toHaveLength(1);
    expect((await seats(t.id)).current).toBe(1);
  });

  it("lets anyone into practice: no level gate, no capacity, no fee, a run of their own", async () => {
    const category = await makeCategory();
    await keepForPractice(category);
    const t = await makeTournament(category, {
      title: "Science Practice",
      kind: "practice",
      minLevel: 5,
      maxParticipants: null,
      status: "live",
      endTime: null,
      startTime: Date.now() - 1000,
    });
    const p = await makePlayer({ level: 1 });
    const res = await join(p, t.id);
    expect(res.status).toBe(200);
    expect(res.body.tournament).toMatchObject({ kind: "practice_run", status: "live", currentParticipants: 1, entryFee: 0 });
    const detail = await call(`/api/tournaments/${res.body.tournament.id}`, { cookie: p.cookie });
    expect(detail.body).toMatchObject({ joined: true, minPlayers: 0 });
  });

  it("refuses to join once the end time has passed, even before the alarm has settled it", async () => {
    const t = await makeTournament(await makeCategory(), { status: "live", startTime: Date.now() - 10 * 60_000 });
    expect((await join(await makePlayer(), t.id)).status).toBe(200);
    // The end time passes; the alarm that settles it has not run yet.
    await roomSql(t.id, "UPDATE meta SET end_time = ? WHERE id = 1", Date.now() - 1);
    const res = await join(await makePlayer(), t.id);
    expect(res.status).toBe(409);
    expect(res.body.message).toBe(PLAY.joinClosed);
    expect((await seats(t.id)).n).toBe(1);
  });

  it("refuses to join a finished tournament", async () => {
    const t = await makeTournament(await makeCategory(), { status: "completed", startTime: Date.now() - 3_600_000 });
    const res = await join(await makePlayer(), t.id);
    expect(res.status).toBe(409);
    expect(res.body.message).toBe(PLAY.joinClosed);
  });

  it("refuses a malformed body", async () => {
    const t = await makeTournament(await makeCategory());
    const p = await makePlayer();
    const res = await call(`/api/tournaments/${t.id}/join`, { cookie: p.cookie, rawBody: "{oops" });
    expect(res.status).toBe(400);
  });
});

afterAll(async () => {
  expect(await ledgerMismatches()).toEqual([]);
});
