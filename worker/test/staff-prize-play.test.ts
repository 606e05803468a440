// Staff out of prize play (docs/fair-play.md, "Staff out of prize play"): operators, and accounts
// on a device or network an operator was recently seen on, cannot join a prize tournament; free
// tournaments without a prize stay open; a player made an operator after joining an upcoming
// prize tournament is removed with the fee refunded once, before the first question.
import { describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import { evictDurableObject } from "cloudflare:test";
import { MIN_PLAYERS_PAID } from "../../common/spec";
import { JOIN } from "../../common/messages";
import { prizePoolFromFees } from "../../common/domain/prizes";
import { call, freshIp } from "./helpers";
import { expectLedgerBalanced } from "./money-helpers";
import { makeOperator } from "./fair-play-fixtures";
import {
  all,
  balanceOf,
  deposit,
  forceAlarm,
  join,
  makeCategory,
  makePlayer,
  makePractice,
  keepForPractice,
  makeTournament,
  next,
  one,
  room,
  startNow,
  type Player,
} from "./tournament-fixtures";

const FEE = 500;

/** A device cookie value as the Worker issues them (worker/fair-play/identity.ts). */
const deviceId = () => `dev${crypto.randomUUID().replaceAll("-", "")}`;

/** A join from a given browser (device cookie) and network address. */
const joinFrom = (player: Player, tournamentId: number, from: { device?: string; ip?: string }) =>
  call(`/api/tournaments/${tournamentId}/join`, {
    method: "POST",
    cookie: from.device ? `${player.cookie}; device=${from.device}` : player.cookie,
    ip: from.ip,
  });

/** An operator at work in the console from a given browser and network. */
async function operatorSeenAt(op: Player, from: { device?: string; ip?: string }) {
  const res = await call("/api/admin/overview", {
    cookie: from.device ? `${op.cookie}; device=${from.device}` : op.cookie,
    ip: from.ip,
  });
  expect(res.status, res.text).toBe(200);
}

const seated = (tournamentId: number, userId: number) =>
  one<{ n: number }>(
    "SELECT count(*) AS n FROM tournament_participants WHERE tournament_id = ? AND user_id = ?",
    tournamentId,
    userId,
  ).then((r) => r.n);

const ledgerOf = (tournamentId: number, userId: number) =>
  all<{ amount_cents: number; type: string; reference: string }>(
    "SELECT amount_cents, type, reference FROM transactions WHERE user_id = ? AND reference LIKE ? ORDER BY id",
    userId,
    `%:${tournamentId}:%`,
  );

function expectStaffRefusal(res: { status: number; body: any; text: string }) {
  expect(res.status, res.text).toBe(403);
  expect(res.body).toMatchObject({ code: "staff_excluded", message: JOIN.staffExcluded.description });
}

describe("operators cannot join prize tournaments", () => {
  it("refuses an operator a paid join with 403 staff_excluded, before any money moves", async () => {
    const t = await makeTournament(await makeCategory(), { entryFeeCents: FEE });
    const op = await makeOperator();
    const funded = await makePlayer({ balanceCents: 2_000 });
    await env.DB.prepare("UPDATE users SET role = 'admin' WHERE id = ?").bind(funded.id).run();

    expectStaffRefusal(await join(funded, t.id));
    expect(await seated(t.id, funded.id)).toBe(0);
    expect(await balanceOf(funded.id)).toBe(2_000);
    expect(await ledgerOf(t.id, funded.id)).toEqual([]);
    // Without money the answer is still the staff refusal: it comes before the balance.
    expectStaffRefusal(await join(op, t.id));
    const detail = await one<{ current_participants: number }>("SELECT current_participants FROM tournaments WHERE id = ?", t.id);
    expect(detail.current_participants).toBe(0);
  });

  it("refuses an operator a free tournament whose prize pool the house funds", async () => {
    const t = await makeTournament(await makeCategory(), { entryFeeCents: 0, prizePoolCents: 10_000 });
    const op = await makeOperator();
    expectStaffRefusal(await join(op, t.id));
    expect(await seated(t.id, op.id)).toBe(0);
  });

  it("draws the line at the prize: an operator joins a free tournament without one, and practice", async () => {
    const category = await makeCategory();
    const housePrize = await makeTournament(category, { entryFeeCents: 0, prizePoolCents: 100 });
    const t = await makeTournament(category, { entryFeeCents: 0, prizePoolCents: 0 });
    const op = await makeOperator();
    expectStaffRefusal(await join(op, housePrize.id));
    const res = await join(op, t.id);
    expect(res.status, res.text).toBe(200);
    expect(await seated(t.id, op.id)).toBe(1);
    await keepForPractice(category);
    const practice = await makePractice(category);
    const run = await join(op, practice.id);
    expect(run.status, run.text).toBe(200);
  });

  it("the room itself refuses the seat (the check holds at the moment of the join, whatever the route saw)", async () => {
    const t = await makeTournament(await makeCategory(), { entryFeeCents: FEE });
    const op = await makeOperator();
    await deposit(op.id, 2_000);
    // The route's check passed while the account was a player; the grant lands before the seat's batch.
    const result = await room(t.id).join(t.id, {
      userId: op.id,
      username: op.username,
      level: 1,
      showLevel: true,
      deviceHash: null,
      networkHash: null,
    });
    expect(result).toMatchObject({ ok: false, status: 403, code: "staff_excluded" });
    expect(await seated(t.id, op.id)).toBe(0);
    expect(await balanceOf(op.id)).toBe(2_000);
  });
});

describe("accounts linked to an operator cannot join prize tournaments", () => {
  it("refuses a player on a browser (device cookie) an operator used, and not on another", async () => {
    const t = await makeTournament(await makeCategory(), { entryFeeCents: FEE });
    const op = await makeOperator();
    const device = deviceId();
    await operatorSeenAt(op, { device });
    const alt = await makePlayer({ balanceCents: 2_000 });

    expectStaffRefusal(await joinFrom(alt, t.id, { device, ip: freshIp() }));
    expect(await seated(t.id, alt.id)).toBe(0);
    expect(await balanceOf(alt.id)).toBe(2_000);

    // The same account from its own browser and network is not linked.
    const res = await joinFrom(alt, t.id, { device: deviceId(), ip: freshIp() });
    expect(res.status, res.text).toBe(200);
    expect(await balanceOf(alt.id)).toBe(2_000 - FEE);
  });

  it("refuses a player on a network an operator used, for a house-funded free prize too", async () => {
    const category = await makeCategory();
    const paid = await makeTournament(category, { entryFeeCents: FEE });
    const housePrize = await makeTournament(category, { entryFeeCents: 0, prizePoolCents: 5_000 });
    const plain = await makeTournament(category, { entryFeeCents: 0 });
    const op = await makeOperator();
    const ip = freshIp();
    await operatorSeenAt(op, { device: deviceId(), ip });
    const neighbour = await makePlayer({ balanceCents: 2_000 });

    expectStaffRefusal(await joinFrom(neighbour, paid.id, { device: deviceId(), ip }));
    expectStaffRefusal(await joinFrom(neighbour, housePrize.id, { device: deviceId(), ip }));
    // Free play without a prize stays open from there.
    const free = await joinFrom(neighbour, plain.id, { device: deviceId(), ip });
    expect(free.status, free.text).toBe(200);
  });

  it("does not link the loopback address (wrangler dev: every local request comes from it)", async () => {
    const t = await makeTournament(await makeCategory(), { entryFeeCents: FEE });
    const op = await makeOperator();
    await operatorSeenAt(op, { device: deviceId(), ip: "127.0.0.1" });
    await operatorSeenAt(op, { device: deviceId(), ip: "::1" });
    const local = await makePlayer({ balanceCents: 2_000 });
    const res = await joinFrom(local, t.id, { device: deviceId(), ip: "127.0.0.1" });
    expect(res.status, res.text).toBe(200);
    expect(await all("SELECT kind FROM staff_fingerprints WHERE user_id = ?", op.id)).toEqual([{ kind: "device" }, { kind: "device" }]);
  });

  it("a link lasts only while the operator was seen recently", async () => {
    const t = await makeTournament(await makeCategory(), { entryFeeCents: FEE });
    const op = await makeOperator();
    const device = deviceId();
    await operatorSeenAt(op, { device });
    const alt = await makePlayer({ balanceCents: 2_000 });
    expectStaffRefusal(await joinFrom(alt, t.id, { device, ip: freshIp() }));

    // A year later the device is no longer linked.
    await env.DB.prepare("UPDATE staff_fingerprints SET seen_at = ? WHERE user_id = ?")
      .bind(Date.now() - 365 * 24 * 3600_000, op.id)
      .run();
    const res = await joinFrom(alt, t.id, { device, ip: freshIp() });
    expect(res.status, res.text).toBe(200);
  });
});

describe("a player who becomes an operator", () => {
  it("is removed from an upcoming paid tournament at its start, the fee refunded exactly once", async () => {
    const t = await makeTournament(await makeCategory(), { entryFeeCents: FEE });
    const future = await makePlayer({ balanceCents: 1_200 });
    expect((await join(future, t.id)).status).toBe(200);
    const others: Player[] = [];
    for (let i = 0; i < MIN_PLAYERS_PAID; i++) {
      const p = await makePlayer({ balanceCents: FEE });
      expect((await join(p, t.id)).status).toBe(200);
      others.push(p);
    }
    expect(await balanceOf(future.id)).toBe(1_200 - FEE);

    // What `npm run admin:grant` does: the role changes in D1, nothing else.
    await env.DB.prepare("UPDATE users SET role = 'admin' WHERE id = ?").bind(future.id).run();
    await startNow(t.id);

    const status = await one<{ status: string; current_participants: number; prize_pool_cents: number }>(
      "SELECT status, current_participants, prize_pool_cents FROM tournaments WHERE id = ?",
      t.id,
    );
    expect(status).toEqual({
      status: "live",
      current_participants: MIN_PLAYERS_PAID,
      prize_pool_cents: prizePoolFromFees(MIN_PLAYERS_PAID * FEE),
    });
    expect(await seated(t.id, future.id)).toBe(0);
    expect(await balanceOf(future.id)).toBe(1_200);
    expect(await ledgerOf(t.id, future.id)).toEqual([
      { amount_cents: -FEE, type: "tournament_entry", reference: `entry:${t.id}:${future.id}` },
      { amount_cents: FEE, type: "refund", reference: `leave:${t.id}:${future.id}:0` },
    ]);
    // No first question for them; the others play.
    expect((await next(future, t.id)).status).toBe(409);
    expect((await next(others[0]!, t.id)).status).toBe(200);

    // The alarm again, and a restarted room: nothing is refunded twice.
    await forceAlarm(t.id);
    await evictDurableObject(room(t.id));
    await forceAlarm(t.id);
    expect(await balanceOf(future.id)).toBe(1_200);
    expect((await ledgerOf(t.id, future.id)).filter((r) => r.type === "refund")).toHaveLength(1);
    await expectLedgerBalanced();
  });
});
