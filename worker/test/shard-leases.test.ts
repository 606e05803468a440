// Seat leases of a sharded live show (worker/durable/room/leases.ts; decision 011, "Built"): joins
// go to the player's play shard, which seats only against seats the coordinator leased to it.
// Two shards (./shard-fixtures.ts): players from North America join on shard 0, from Europe on
// shard 1. With 12 seats a shard asks for blocks of 8, so the second shard's first grant is the
// 4 seats left in the pool, and the last seats come back from the other shard's unused lease.
import { describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import { evictDurableObject, runInDurableObject } from "cloudflare:test";
import type { TournamentRoom } from "../durable/tournament-room";
import { JOIN, PLAY } from "../../common/messages";
import { call } from "./helpers";
import {
  all,
  balanceOf,
  ledgerMismatches,
  makeCategory,
  makePlayer,
  makeTournament,
  one,
  room,
  startNow,
  type Player,
} from "./tournament-fixtures";
import { CONTINENTS, N, interceptRoomCalls, shard, shardCallProbe } from "./shard-fixtures";
import { makeOperator } from "./fair-play-fixtures";

const FEE = 200;
const SEATS = 12;

async function paidShow(seats = SEATS) {
  const t = await makeTournament(await makeCategory(), { format: "live_show", maxParticipants: seats, entryFeeCents: FEE });
  await env.DB.prepare("UPDATE tournaments SET shard_count = ? WHERE id = ?").bind(N, t.id).run();
  return t;
}

const players = (n: number) => Promise.all(Array.from({ length: n }, () => makePlayer({ balanceCents: 1_000 })));

/** Joins from North America (shard 0) or Europe (shard 1). */
const join = (t: { id: number }, p: Player, k: 0 | 1) =>
  call(`/api/tournaments/${t.id}/join`, { method: "POST", cookie: p.cookie, cf: { continent: CONTINENTS[k] } });

/** The coordinator's leases: seats leased to each shard, and how many grants it stored. */
const leasesOf = (t: { id: number }) =>
  runInDurableObject(room(t.id), (_i: TournamentRoom, state) => {
    const rows = [...state.storage.sql.exec<{ key: string; value: string }>("SELECT key, value FROM shard_state")];
    const lease = (k: number) => Number(rows.find((r) => r.key === `lease:${k}`)?.value ?? 0);
    return { leased: [lease(0), lease(1)], grants: rows.filter((r) => r.key.startsWith("grant:")).length };
  });

/** Every seat of the tournament is charged once, every charge has a seat, the count in D1 is right, the ledger balances. */
async function expectOneChargePerSeat(t: { id: number }, ps: Player[]) {
  const seats = await all<{ user_id: number }>("SELECT user_id FROM tournament_participants WHERE tournament_id = ?", t.id);
  const fees = await all<{ user_id: number; n: number }>(
    `SELECT user_id, count(*) AS n FROM transactions WHERE type = 'tournament_entry' AND reference LIKE ?1
       AND user_id NOT IN (SELECT user_id FROM transactions WHERE type = 'refund' AND reference LIKE ?2) GROUP BY user_id`,
    `entry:${t.id}:%`,
    `leave:${t.id}:%`,
  );
  expect(fees.map((f) => f.user_id).sort()).toEqual(seats.map((s) => s.user_id).sort());
  expect(fees.every((f) => f.n === 1)).toBe(true);
  for (const p of ps) expect(await balanceOf(p.id)).toBe(seats.some((s) => s.user_id === p.id) ? 1_000 - FEE : 1_000);
  const row = await one<{ n: number; pool: number }>(
    "SELECT current_participants AS n, prize_pool_cents AS pool FROM tournaments WHERE id = ?",
    t.id,
  );
  expect(row.n).toBe(seats.length);
  expect(row.pool).toBe(Math.floor((seats.length * FEE * 85) / 100));
  expect(await ledgerMismatches()).toEqual([]);
  return seats;
}

/** The shard's calls of the coordinator's leaseSeats: the first reaches it (the grant is stored) and its reply is lost. */
async function loseFirstLeaseReply(t: { id: number }, k: number) {
  let lost = false;
  await interceptRoomCalls(shard(t, k), "leaseSeats", async (_id, call) => {
    if (lost) return call();
    lost = true;
    await call();
    throw new Error("reply lost");
  });
}

describe("seat leases of a sharded live show", () => {
  it("fills the capacity exactly when joins race on both shards, charging each seat once and refusing the rest as full", async () => {
    const t = await paidShow();
    const ps = await players(20);
    const results = await Promise.all(ps.map((p, i) => join(t, p, (i % 2) as 0 | 1)));
    expect(results.filter((r) => r.status === 200)).toHaveLength(SEATS);
    const refused = results.filter((r) => r.status !== 200);
    expect(refused).toHaveLength(8);
    for (const r of refused) expect(r.body).toMatchObject({ code: "tournament_full", message: JOIN.full.description });
    expect(await expectOneChargePerSeat(t, ps)).toHaveLength(SEATS);
    // The leases never exceed the capacity.
    const { leased } = await leasesOf(t);
    expect(leased[0]! + leased[1]!).toBeLessThanOrEqual(SEATS);
  }, 30_000);

  it("takes the last seats back from the other shard's unused lease, and says full only when none is left anywhere", async () => {
    const t = await paidShow();
    const [na, ...eu] = await players(14);
    // Shard 0 leases a block of 8 for one player.
    expect((await join(t, na!, 0)).status).toBe(200);
    expect((await leasesOf(t)).leased).toEqual([8, 0]);
    // Shard 1 gets the 4 seats left in the pool, then the 7 shard 0 does not use.
    for (const p of eu.slice(0, 11)) expect((await join(t, p, 1)).status).toBe(200);
    expect((await leasesOf(t)).leased).toEqual([1, 11]);
    const late = await join(t, eu[11]!, 1);
    expect(late.status).toBe(409);
    expect(late.body.code).toBe("tournament_full");
    expect((await join(t, eu[12]!, 0)).body.code).toBe("tournament_full");
    expect(await expectOneChargePerSeat(t, [na!, ...eu])).toHaveLength(SEATS);

    // At the start the coordinator closes every lease and has every seat for the show.
    await startNow(t.id);
    const seated = await runInDurableObject(room(t.id), (_i: TournamentRoom, state) => [
      ...state.storage.sql.exec<{ n: number }>("SELECT count(*) AS n FROM participants"),
    ]);
    expect(seated[0]!.n).toBe(SEATS);
    const after = await join(t, (await players(1))[0]!, 0);
    expect(after.status).toBe(409);
    expect(after.body.code).toBe("join_closed");
    expect(after.body.message).toBe(PLAY.joinClosed);
  }, 30_000);

  it("answers a lost grant's retry with the same grant: the pool is not charged twice", async () => {
    const t = await paidShow();
    const [a, b] = await players(2);
    await loseFirstLeaseReply(t, 0);
    // The grant is stored on the coordinator; its reply never reaches the shard: the join fails, nothing is charged.
    const lost = await join(t, a!, 0);
    expect(lost.status).toBe(500);
    expect(await balanceOf(a!.id)).toBe(1_000);
    expect(await leasesOf(t)).toEqual({ leased: [8, 0], grants: 1 });
    // The press again asks with the same grant id and gets the same 8 seats.
    expect((await join(t, a!, 0)).status).toBe(200);
    expect((await join(t, b!, 0)).status).toBe(200);
    expect(await leasesOf(t)).toEqual({ leased: [8, 0], grants: 1 });
    await expectOneChargePerSeat(t, [a!, b!]);
  }, 30_000);

  it("counts a grant whose shard was evicted before it got the reply: the seats come back when the other shard needs them", async () => {
    const t = await paidShow();
    const [a, ...eu] = await players(13);
    await loseFirstLeaseReply(t, 0);
    expect((await join(t, a!, 0)).status).toBe(500);
    // Shard 0 restarts holding the id of a grant it never heard; it seats nobody.
    await evictDurableObject(shard(t, 0));
    expect(await leasesOf(t)).toEqual({ leased: [8, 0], grants: 1 });
    // Shard 1 gets the 4 seats of the pool, then the 8 of shard 0's grant, given back.
    for (const p of eu.slice(0, SEATS)) expect((await join(t, p, 1)).status).toBe(200);
    expect((await leasesOf(t)).leased).toEqual([0, SEATS]);
    expect((await join(t, a!, 0)).body.code).toBe("tournament_full");
    expect(await expectOneChargePerSeat(t, [a!, ...eu])).toHaveLength(SEATS);
  }, 30_000);

  it("keeps one player pressing on two shards at once to one seat and one charge, and answers 'already joined' on the other", async () => {
    const t = await paidShow();
    const [twice, ...others] = await players(SEATS + 1);
    const both = await Promise.all([join(t, twice!, 0), join(t, twice!, 1)]);
    expect(both.map((r) => r.status)).toEqual([200, 200]);
    expect(await balanceOf(twice!.id)).toBe(1_000 - FEE);
    const seat = await one<{ shard: number }>(
      "SELECT shard FROM tournament_participants WHERE tournament_id = ? AND user_id = ?",
      t.id,
      twice!.id,
    );
    // Pressing again from the other region: their seat's shard answers, nothing is charged.
    const again = await join(t, twice!, seat.shard === 0 ? 1 : 0);
    expect(again.status).toBe(200);
    expect(again.body.joined).toBe(true);
    expect(await balanceOf(twice!.id)).toBe(1_000 - FEE);
    // The shard that lost the race holds no seat for them: every other seat is still there for others.
    for (const [i, p] of others.slice(0, SEATS - 1).entries()) expect((await join(t, p, (i % 2) as 0 | 1)).status).toBe(200);
    expect((await join(t, others[SEATS - 1]!, 1)).body.code).toBe("tournament_full");
    expect(await expectOneChargePerSeat(t, [twice!, ...others])).toHaveLength(SEATS);
  }, 30_000);

  it("lets a player on another shard take the seat a leave freed", async () => {
    const t = await paidShow();
    const ps = await players(SEATS + 1);
    for (const [i, p] of ps.slice(0, SEATS).entries()) expect((await join(t, p, (i % 2) as 0 | 1)).status).toBe(200);
    const waiting = ps[SEATS]!;
    expect((await join(t, waiting, 1)).body.code).toBe("tournament_full");
    // A player of shard 0 leaves (refunded there); the European player gets that seat through shard 1.
    const leave = await call(`/api/tournaments/${t.id}/leave`, { method: "POST", cookie: ps[0]!.cookie });
    expect(leave.status, leave.text).toBe(200);
    expect(await balanceOf(ps[0]!.id)).toBe(1_000);
    // D1 counts every shard's seats, not the leaving shard's own.
    const left = await one<{ n: number; pool: number }>(
      "SELECT current_participants AS n, prize_pool_cents AS pool FROM tournaments WHERE id = ?",
      t.id,
    );
    expect(left).toEqual({ n: SEATS - 1, pool: Math.floor(((SEATS - 1) * FEE * 85) / 100) });
    expect((await join(t, waiting, 1)).status).toBe(200);
    const seats = await expectOneChargePerSeat(t, ps.slice(1));
    expect(seats).toHaveLength(SEATS);
    expect((await join(t, ps[0]!, 1)).body.code).toBe("tournament_full");
  }, 30_000);

  it("makes a shard that loaded the tournament before an operator's edit charge the edited fee", async () => {
    const cat = await makeCategory(6);
    const op = await makeOperator();
    const draft = (entryFee: number) => ({
      title: "Leased Show",
      description: "A show for many.",
      categoryId: cat.id,
      entryFee,
      isFree: false,
      maxParticipants: 250,
      minLevel: 1,
      startTime: new Date(Date.now() + 60 * 60_000).toISOString(),
      durationMinutes: 30,
      format: "live_show",
    });
    const created = await call("/api/admin/tournaments", { cookie: op.cookie, body: draft(2) });
    expect(created.status, created.text).toBe(201);
    const t = { id: created.body.id as number };
    // A European press without the fee: the shard loads the $2 show and leases seats, and seats nobody.
    const [broke, player] = [await makePlayer({ balanceCents: 0 }), await makePlayer({ balanceCents: 1_000 })];
    expect((await join(t, broke, 1)).body.code).toBe("insufficient_balance");
    const edit = await call(`/api/admin/tournaments/${t.id}`, { method: "PATCH", cookie: op.cookie, body: draft(1) });
    expect(edit.status, edit.text).toBe(200);
    expect((await join(t, player, 1)).status).toBe(200);
    expect(await balanceOf(player.id)).toBe(900);
  }, 30_000);

  it("ends registration on every shard at the start: a shard that has not heard the start yet seats nobody from its lease", async () => {
    // Free (no minimum of players): it starts with one.
    const t = await makeTournament(await makeCategory(), { format: "live_show", maxParticipants: SEATS });
    await env.DB.prepare("UPDATE tournaments SET shard_count = ? WHERE id = ?").bind(N, t.id).run();
    const [first, late] = await players(2);
    expect((await join(t, first!, 0)).status).toBe(200);
    // Shard 0 still holds 7 unused seats; the first question's announcement does not reach it.
    await shardCallProbe(t, "shardAnnounce", 0);
    await startNow(t.id);
    const refused = await join(t, late!, 0);
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe("join_closed");
    expect(await all("SELECT user_id FROM tournament_participants WHERE tournament_id = ?", t.id)).toEqual([{ user_id: first!.id }]);
    expect((await leasesOf(t)).leased).toEqual([1, 0]);
  }, 30_000);

  it("refunds every shard's seats when an operator cancels before the start", async () => {
    const t = await paidShow();
    const ps = await players(4);
    for (const [i, p] of ps.entries()) expect((await join(t, p, (i % 2) as 0 | 1)).status).toBe(200);
    const operator = await makeOperator();
    expect(await room(t.id).cancelByOperator(t.id, operator.id, "The host is ill")).toMatchObject({
      ok: true,
      value: { playersRefunded: 4, refundedCents: 4 * FEE },
    });
    for (const p of ps) expect(await balanceOf(p.id)).toBe(1_000);
    expect(await ledgerMismatches()).toEqual([]);
    expect((await join(t, (await players(1))[0]!, 1)).body.code).toBe("join_closed");
  }, 30_000);

  it("starts a show waiting past its start time for its minimum of players on the join that completes it", async () => {
    const t = await paidShow();
    await env.DB.prepare("UPDATE tournaments SET start_time = ? WHERE id = ?")
      .bind(Date.now() - 1000, t.id)
      .run();
    const ps = await players(10);
    for (const [i, p] of ps.slice(0, 9).entries()) expect((await join(t, p, (i % 2) as 0 | 1)).status).toBe(200);
    expect((await one<{ status: string }>("SELECT status FROM tournaments WHERE id = ?", t.id)).status).toBe("upcoming");
    expect((await join(t, ps[9]!, 1)).status).toBe(200);
    // The shard told the coordinator, which closed the leases, read the ten seats and started.
    for (let i = 0; i < 50; i++) {
      if ((await one<{ status: string }>("SELECT status FROM tournaments WHERE id = ?", t.id)).status === "live") break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect((await one<{ status: string }>("SELECT status FROM tournaments WHERE id = ?", t.id)).status).toBe("live");
    const seated = await runInDurableObject(room(t.id), (_i: TournamentRoom, state) => [
      ...state.storage.sql.exec<{ n: number }>("SELECT count(*) AS n FROM participants"),
    ]);
    expect(seated[0]!.n).toBe(10);
  }, 30_000);
});
