// Leaving an upcoming tournament: the fee back exactly once, the seat and the pool given back,
// refused once it has started; joining again is a new entry with its own charge.
import { afterAll, describe, expect, it } from "vitest";
import { PLAY } from "../../common/messages";
import { prizePoolFromFees } from "../../common/domain/prizes";
import { call } from "./helpers";
import {
  all,
  balanceOf,
  join,
  leave,
  ledgerMismatches,
  makeCategory,
  makePlayer,
  makeTournament,
  one,
  roomSql,
  startNow,
} from "./tournament-fixtures";

const seats = (tournamentId: number) =>
  one<{ n: number; current: number; pool: number }>(
    `SELECT (SELECT count(*) FROM tournament_participants WHERE tournament_id = ?1) AS n, current_participants AS current, prize_pool_cents AS pool
     FROM tournaments WHERE id = ?1`,
    tournamentId,
  );
const ledgerOf = (tournamentId: number, userId: number) =>
  all<{ amount_cents: number; type: string; reference: string }>(
    "SELECT amount_cents, type, reference FROM transactions WHERE user_id = ? AND reference LIKE ? ORDER BY id",
    userId,
    `%:${tournamentId}:%`,
  );

describe("leaving a tournament before it starts", () => {
  it("refunds the fee once with its own reference, frees the seat and lowers the pool", async () => {
    const t = await makeTournament(await makeCategory(), { entryFeeCents: 500 });
    const stays = await makePlayer({ balanceCents: 500 });
    const goes = await makePlayer({ balanceCents: 800 });
    await join(stays, t.id);
    await join(goes, t.id);
    expect(await seats(t.id)).toEqual({ n: 2, current: 2, pool: prizePoolFromFees(1000) });

    // A double click: two leave requests at once.
    const [a, b] = await Promise.all([leave(goes, t.id), leave(goes, t.id)]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    const ok = a.status === 200 ? a : b;
    expect(ok.body).toMatchObject({ message: PLAY.leftRefunded("5.00"), balance: 8, tournament: { currentParticipants: 1 } });
    expect((a.status === 409 ? a : b).body.message).toBe(PLAY.notJoined);
    expect(await balanceOf(goes.id)).toBe(800);
    expect(await ledgerOf(t.id, goes.id)).toEqual([
      { amount_cents: -500, type: "tournament_entry", reference: `entry:${t.id}:${goes.id}` },
      { amount_cents: 500, type: "refund", reference: `leave:${t.id}:${goes.id}:0` },
    ]);
    expect(await seats(t.id)).toEqual({ n: 1, current: 1, pool: prizePoolFromFees(500) });
    const detail = await call(`/api/tournaments/${t.id}`, { cookie: goes.cookie });
    expect(detail.body).toMatchObject({ joined: false, currentParticipants: 1 });
  });

  it("charges a new entry when the player joins again, and refunds that one on a second leave", async () => {
    const t = await makeTournament(await makeCategory(), { entryFeeCents: 300 });
    const p = await makePlayer({ balanceCents: 1000 });
    expect((await join(p, t.id)).status).toBe(200);
    expect((await leave(p, t.id)).status).toBe(200);
    expect((await join(p, t.id)).status).toBe(200);
    expect(await balanceOf(p.id)).toBe(700);
    expect((await leave(p, t.id)).status).toBe(200);
    expect((await join(p, t.id)).status).toBe(200);
    expect(await balanceOf(p.id)).toBe(700);
    expect((await ledgerOf(t.id, p.id)).map((r) => r.reference)).toEqual([
      `entry:${t.id}:${p.id}`,
      `leave:${t.id}:${p.id}:0`,
      `entry:${t.id}:${p.id}:1`,
      `leave:${t.id}:${p.id}:1`,
      `entry:${t.id}:${p.id}:2`,
    ]);
  });

  it("is refused once the tournament is live, and keeps the seat and the fee", async () => {
    const t = await makeTournament(await makeCategory());
    const p = await makePlayer();
    await join(p, t.id);
    await startNow(t.id);
    const res = await leave(p, t.id);
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ code: "leave_closed", message: PLAY.leaveClosed });
    expect((await seats(t.id)).n).toBe(1);
  });

  it("tells a player who never joined, and a visitor who is signed out", async () => {
    const t = await makeTournament(await makeCategory());
    const res = await leave(await makePlayer(), t.id);
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ code: "not_joined", message: PLAY.notJoined });
    expect((await call(`/api/tournaments/${t.id}/leave`, { method: "POST" })).status).toBe(401);
  });

  it("recovers a leave whose D1 batch committed while the room lost its own record", async () => {
    const t = await makeTournament(await makeCategory(), { entryFeeCents: 400 });
    const p = await makePlayer({ balanceCents: 400 });
    await join(p, t.id);
    expect((await leave(p, t.id)).status).toBe(200);
    // The room as if it had stopped between D1's batch and its own write, and came back fresh.
    await roomSql(t.id, "INSERT INTO participants (user_id, username, level, joined_at) VALUES (?, 'ghost', 1, 0)", p.id);
    await roomSql(t.id, "DELETE FROM departures");
    // It does not think the player is still in, and the next entry is charged.
    expect((await leave(p, t.id)).body.message).toBe(PLAY.notJoined);
    expect((await join(p, t.id)).status).toBe(200);
    expect(await balanceOf(p.id)).toBe(0);
  });
});

afterAll(async () => {
  expect(await ledgerMismatches()).toEqual([]);
});
