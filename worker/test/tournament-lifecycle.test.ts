// The lifecycle on alarms: start when the minimum is met, wait and cancel with refunds when it
// is not, end and settle exactly once.
import { afterAll, describe, expect, it } from "vitest";
import { CANCEL_AFTER_DELAY_MS, MIN_PLAYERS_PAID, START_RECHECK_MS } from "../../common/spec";
import { levelForXp, placementXp } from "../../common/domain/levels";
import { prizePoolFromFees, splitPrizePool } from "../../common/domain/prizes";
import { answerXp } from "../../common/domain/scoring";
import { NOTIFY } from "../../common/messages";
import { call } from "./helpers";
import {
  all,
  balanceOf,
  complete,
  endNow,
  forceAlarm,
  join,
  ledgerMismatches,
  makeCategory,
  humanPace,
  makePlayer,
  makeTournament,
  next,
  one,
  play,
  roomAlarm,
  roomSql,
  runAlarm,
  startNow,
  type Player,
} from "./tournament-fixtures";

const statusOf = async (id: number) => (await one<{ status: string }>("SELECT status FROM tournaments WHERE id = ?", id)).status;

/** Everything settlement may touch, to compare before and after a second run. */
const snapshot = async (tournamentId: number, players: Player[]) => ({
  users: await all(
    `SELECT id, balance_cents, experience_points, level, tournaments_played, tournaments_won FROM users
     WHERE id IN (SELECT value FROM json_each(?)) ORDER BY id`,
    JSON.stringify(players.map((p) => p.id)),
  ),
  ledger: await all("SELECT user_id, amount_cents, reference FROM transactions WHERE reference LIKE ? ORDER BY id", `%:${tournamentId}:%`),
  participants: await all(
    "SELECT user_id, score, rank, prize_cents, xp_earned, has_completed FROM tournament_participants WHERE tournament_id = ? ORDER BY user_id",
    tournamentId,
  ),
  responses: (await one<{ n: number }>("SELECT count(*) AS n FROM user_responses WHERE tournament_id = ?", tournamentId)).n,
  notifications: (await one<{ n: number }>("SELECT count(*) AS n FROM notifications WHERE tournament_id = ?", tournamentId)).n,
  tournament: await one("SELECT status, settled_at, prize_pool_cents FROM tournaments WHERE id = ?", tournamentId),
});

describe("a paid tournament run by alarms", () => {
  it("starts with the minimum, is played, settles with exact prizes, XP, levels and counters, and pays once", async () => {
    const fee = 500;
    const t = await makeTournament(await makeCategory(), { entryFeeCents: fee });
    const players: Player[] = [];
    for (let i = 0; i < 12; i++) {
      // The winner starts near a level boundary to see the level move.
      const p = await makePlayer({ balanceCents: 2000, xp: i === 0 ? 900 : 0 });
      expect((await join(p, t.id)).status).toBe(200);
      players.push(p);
    }
    // Not yet time: the first alarm is the start time, and it stays upcoming.
    expect(await roomAlarm(t.id)).toBeGreaterThan(Date.now() + 50 * 60_000);
    await startNow(t.id);
    expect(await statusOf(t.id)).toBe("live");
    const started = await all<{ user_id: number; action: string; status: string; message: string }>(
      "SELECT user_id, action, status, message FROM notifications WHERE tournament_id = ? ORDER BY user_id",
      t.id,
    );
    expect(started).toHaveLength(12);
    expect(started[0]).toMatchObject({ action: "tournament_started", status: "live", message: NOTIFY.started(t.title) });

    // Three players play fully with clearly separated scores; the rest answer less or not at all.
    const [first, second, third, fourth, ...rest] = players as [Player, Player, Player, Player, ...Player[]];
    const xpFromAnswers = new Map<number, number>();
    const plan: [Player, number][] = [
      [first, 10],
      [second, 8],
      [third, 6],
      [fourth, 3],
    ];
    for (const [p, rightAnswers] of plan) {
      for (let i = 0; i < 10; i++) await play(p, t, i < rightAnswers, humanPace(i));
    }
    for (const p of rest.slice(0, 4)) await play(p, t, false, 2000);
    await complete(first, t.id);
    await complete(second, t.id);
    // Someone still mid-question when the clock runs out: that question counts as timed out.
    const midQuestion = rest[4]!;
    expect((await next(midQuestion, t.id)).status).toBe(200);

    await endNow(t.id);
    expect(await statusOf(t.id)).toBe("completed");
    // Prize play's replies carry no XP before the end: the answers' XP is the rule's, from the recorded answers.
    for (const r of await all<{ user_id: number; is_correct: number; response_time: number }>(
      "SELECT user_id, is_correct, response_time FROM user_responses WHERE tournament_id = ? AND answer IS NOT NULL",
      t.id,
    )) {
      xpFromAnswers.set(r.user_id, (xpFromAnswers.get(r.user_id) ?? 0) + answerXp(r.is_correct === 1, r.response_time));
    }

    const pool = prizePoolFromFees(12 * fee);
    expect(pool).toBe(5100);
    const [p1, p2, p3] = splitPrizePool(pool, 12) as [number, number, number];
    expect(p1 + p2 + p3).toBe(pool);
    const prizeRows = await all<{ user_id: number; amount_cents: number; type: string }>(
      "SELECT user_id, amount_cents, type FROM transactions WHERE reference LIKE ? ORDER BY amount_cents DESC",
      `prize:${t.id}:%`,
    );
    expect(prizeRows).toEqual([
      { user_id: first.id, amount_cents: p1, type: "prize" },
      { user_id: second.id, amount_cents: p2, type: "prize" },
      { user_id: third.id, amount_cents: p3, type: "prize" },
    ]);
    expect(await balanceOf(first.id)).toBe(2000 - fee + p1);
    expect(await balanceOf(players[11]!.id)).toBe(2000 - fee);

    const board = (await call(`/api/tournaments/${t.id}/leaderboard`)).body;
    expect(board.slice(0, 4).map((r: any) => r.userId)).toEqual([first.id, second.id, third.id, fourth.id]);
    expect(board.slice(0, 3).map((r: any) => r.prize)).toEqual([p1 / 100, p2 / 100, p3 / 100]);
    expect(board).toHaveLength(12);

    const users = await all<{ id: number; experience_points: number; level: number; tournaments_played: number; tournaments_won: number }>(
      "SELECT id, experience_points, level, tournaments_played, tournaments_won FROM users WHERE id IN (SELECT value FROM json_each(?))",
      JSON.stringify(players.map((p) => p.id)),
    );
    const rankOf = new Map(board.map((r: any) => [r.userId, r.rank]));
    for (const u of users) {
      const start = u.id === first.id ? 900 : 0;
      const expectedXp = start + (xpFromAnswers.get(u.id) ?? 0) + placementXp(rankOf.get(u.id) as number, 1);
      expect(u.experience_points, `user ${u.id}`).toBe(expectedXp);
      expect(u.level).toBe(levelForXp(expectedXp));
      expect(u.tournaments_played).toBe(1);
      expect(u.tournaments_won).toBe(u.id === first.id ? 1 : 0);
    }
    expect(users.find((u) => u.id === first.id)!.level).toBe(2);
    // 10 x (10 + 5) for ten fast right answers, plus 500 for 1st.
    expect(users.find((u) => u.id === first.id)!.experience_points).toBe(900 + 150 + 500);

    const parts = await all<any>(
      "SELECT user_id, rank, prize_cents, has_completed, score FROM tournament_participants WHERE tournament_id = ? ORDER BY rank",
      t.id,
    );
    expect(parts.map((r) => r.rank)).toEqual(Array.from({ length: 12 }, (_, i) => i + 1));
    expect(parts.every((r) => r.has_completed === 1)).toBe(true);
    expect(parts[0]).toMatchObject({ user_id: first.id, prize_cents: p1 });
    expect((await one<{ n: number }>("SELECT count(*) AS n FROM user_responses WHERE tournament_id = ?", t.id)).n).toBe(
      10 + 10 + 10 + 10 + 4 + 1,
    );
    expect(
      await one(
        "SELECT answer, is_correct, points_earned FROM user_responses WHERE tournament_id = ? AND user_id = ?",
        t.id,
        midQuestion.id,
      ),
    ).toEqual({
      answer: null,
      is_correct: 0,
      points_earned: 0,
    });
    const ended = await all(
      "SELECT user_id FROM notifications WHERE tournament_id = ? AND action = 'tournament_ended' AND status = 'completed'",
      t.id,
    );
    expect(ended).toHaveLength(12);

    const userView = (await call(`/api/user/tournaments`, { cookie: first.cookie })).body;
    expect(userView[0]).toMatchObject({ id: t.id, status: "completed", rank: 1, prize: p1 / 100 });

    // The alarm fires again (a retry), and again after the room forgot it had settled
    // (a restart between the D1 batch and its own bookkeeping): D1 does not change.
    const after = await snapshot(t.id, players);
    await forceAlarm(t.id);
    await roomSql(t.id, "UPDATE meta SET phase = 'live', settled = 0 WHERE id = 1");
    await forceAlarm(t.id);
    expect(await snapshot(t.id, players)).toEqual(after);
  });

  it("waits for the minimum, re-checks, then cancels 30 minutes after the start and refunds every fee once", async () => {
    const fee = 1000;
    const t = await makeTournament(await makeCategory(), { entryFeeCents: fee });
    const players: Player[] = [];
    for (let i = 0; i < 3; i++) {
      const p = await makePlayer({ balanceCents: 1500 });
      await join(p, t.id);
      players.push(p);
    }
    for (const p of players) expect(await balanceOf(p.id)).toBe(500);

    const now = Date.now();
    await roomSql(t.id, "UPDATE meta SET start_time = ? WHERE id = 1", now - 60_000);
    await runAlarm(t.id);
    expect(await statusOf(t.id)).toBe("upcoming");
    const recheck = (await roomAlarm(t.id))!;
    expect(recheck).toBeGreaterThan(Date.now());
    expect(recheck).toBeLessThanOrEqual(Date.now() + START_RECHECK_MS);
    expect(3).toBeLessThan(MIN_PLAYERS_PAID);

    await roomSql(t.id, "UPDATE meta SET start_time = ? WHERE id = 1", Date.now() - CANCEL_AFTER_DELAY_MS - 1000);
    await runAlarm(t.id);
    expect(await statusOf(t.id)).toBe("cancelled");
    for (const p of players) expect(await balanceOf(p.id)).toBe(1500);
    const refunds = await all<{ user_id: number; amount_cents: number; type: string }>(
      "SELECT user_id, amount_cents, type FROM transactions WHERE reference LIKE ? ORDER BY user_id",
      `refund:${t.id}:%`,
    );
    expect(refunds).toEqual(
      players.map((p) => ({ user_id: p.id, amount_cents: fee, type: "refund" })).sort((a, b) => a.user_id - b.user_id),
    );
    const notes = await all<{ action: string; status: string; message: string }>(
      "SELECT action, status, message FROM notifications WHERE tournament_id = ?",
      t.id,
    );
    expect(notes).toEqual(
      players.map(() => ({ action: "tournament_ended", status: "cancelled", message: NOTIFY.cancelled(t.title, true) })),
    );
    expect(NOTIFY.cancelled(t.title, true)).toMatch(/not enough players joined\. Your entry fee has been refunded\.$/);
    // The page says why: too few players, fees refunded.
    expect((await call(`/api/tournaments/${t.id}`)).body.cancellation).toEqual({ cause: "too_few_players", reason: null, refunded: true });
    expect(await roomAlarm(t.id)).toBeNull();

    // Running the step again refunds nothing more.
    await roomSql(t.id, "UPDATE meta SET phase = 'upcoming' WHERE id = 1");
    await forceAlarm(t.id);
    for (const p of players) expect(await balanceOf(p.id)).toBe(1500);
    expect(await all("SELECT id FROM transactions WHERE reference LIKE ?", `refund:${t.id}:%`)).toHaveLength(3);
    expect(await all("SELECT id FROM notifications WHERE tournament_id = ?", t.id)).toHaveLength(3);
    expect((await join(await makePlayer({ balanceCents: 5000 }), t.id)).status).toBe(409);
  });

  it("starts late when the minimum is reached after the start time, keeping the full playing time", async () => {
    const fee = 500;
    const t = await makeTournament(await makeCategory(), { entryFeeCents: fee });
    const players: Player[] = [];
    for (let i = 0; i < MIN_PLAYERS_PAID - 1; i++) {
      const p = await makePlayer({ balanceCents: fee });
      await join(p, t.id);
      players.push(p);
    }
    const lateBy = 5 * 60_000;
    const { startTime, endTime } = await one<{ startTime: number; endTime: number }>(
      "SELECT start_time AS startTime, end_time AS endTime FROM tournaments WHERE id = ?",
      t.id,
    );
    const shift = startTime - (Date.now() - lateBy);
    await roomSql(t.id, "UPDATE meta SET start_time = start_time - ?, end_time = end_time - ? WHERE id = 1", shift, shift);
    await runAlarm(t.id);
    expect(await statusOf(t.id)).toBe("upcoming");
    // The tenth player's join is what starts it.
    const last = await makePlayer({ balanceCents: fee });
    expect((await join(last, t.id)).body.tournament.status).toBe("live");
    const newEnd = (await one<{ e: number }>("SELECT end_time AS e FROM tournaments WHERE id = ?", t.id)).e;
    expect(newEnd - Date.now()).toBeGreaterThan(endTime - startTime - 5000);
  });
});

afterAll(async () => {
  expect(await ledgerMismatches()).toEqual([]);
});
