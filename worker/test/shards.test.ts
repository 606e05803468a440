// Play shards of a live show (docs/decisions/011-one-tournament-past-one-durable-object.md): how
// many a tournament gets when it is created (TOURNAMENT_SHARD_SIZE is 100 in the tests), that the
// count never grows after, and that a player's shard is chosen at the join and kept.
import { describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import { ADMIN_TOURNAMENTS } from "../../common/console-messages";
import { shardOf } from "../../common/domain/shards";
import { call } from "./helpers";
import { makeOperator } from "./fair-play-fixtures";
import { makeCategory, makePlayer, makeTournament, one } from "./tournament-fixtures";

const inHours = (h: number) => new Date(Date.now() + h * 60 * 60_000).toISOString();

let made = 0;
const body = (categoryId: number, o: Record<string, unknown> = {}) => ({
  title: `Big Show ${++made}`,
  description: "A show for many.",
  categoryId,
  entryFee: 0,
  isFree: true,
  maxParticipants: 250,
  minLevel: 1,
  startTime: inHours(1),
  durationMinutes: 30,
  format: "live_show",
  ...o,
});

const shardsOf = async (id: number) => (await one<{ n: number }>("SELECT shard_count AS n FROM tournaments WHERE id = ?", id)).n;

describe("a tournament's shard count", () => {
  it("is set when an operator creates it: a live show past the shard size gets ceil(seats / size), anything else one", async () => {
    const cat = await makeCategory(6);
    const op = await makeOperator();
    const big = await call("/api/admin/tournaments", { cookie: op.cookie, body: body(cat.id) });
    expect(big.status, big.text).toBe(201);
    expect(await shardsOf(big.body.id)).toBe(3);
    const small = await call("/api/admin/tournaments", {
      cookie: op.cookie,
      body: body((await makeCategory(6)).id, { maxParticipants: 100 }),
    });
    expect(small.status, small.text).toBe(201);
    expect(await shardsOf(small.body.id)).toBe(1);
    const selfPaced = await call("/api/admin/tournaments", {
      cookie: op.cookie,
      body: body((await makeCategory(12)).id, { format: "self_paced" }),
    });
    expect(await shardsOf(selfPaced.body.id)).toBe(1);
  });

  it("never grows after creation: an edit past N x size is refused and changes nothing, fewer seats keep N", async () => {
    const cat = await makeCategory(6);
    const op = await makeOperator();
    const id = (await call("/api/admin/tournaments", { cookie: op.cookie, body: body(cat.id) })).body.id as number;
    const patch = (seats: number) =>
      call(`/api/admin/tournaments/${id}`, { method: "PATCH", cookie: op.cookie, body: body(cat.id, { maxParticipants: seats }) });

    const past = await patch(301);
    expect(past.status).toBe(409);
    expect(past.body).toEqual({ code: "tournament_shards_fixed", message: ADMIN_TOURNAMENTS.shardsFixed(300) });
    expect((await one<{ m: number }>("SELECT max_participants AS m FROM tournaments WHERE id = ?", id)).m).toBe(250);

    expect((await patch(300)).status).toBe(200);
    expect((await patch(40)).status).toBe(200);
    expect(await shardsOf(id)).toBe(3);
    // A one-room show cannot be edited into a sharded one either.
    const other = await makeCategory(6);
    const one100 = (await call("/api/admin/tournaments", { cookie: op.cookie, body: body(other.id, { maxParticipants: 100 }) })).body.id;
    const raise = await call(`/api/admin/tournaments/${one100}`, {
      method: "PATCH",
      cookie: op.cookie,
      body: body(other.id, { maxParticipants: 101 }),
    });
    expect(raise.status).toBe(409);
    expect(await shardsOf(one100)).toBe(1);
  });
});

describe("a player's shard", () => {
  it("is chosen at the join from the request's continent and kept: a second join changes nothing", async () => {
    const cat = await makeCategory();
    const t = await makeTournament(cat, { format: "live_show", maxParticipants: 300 });
    await env.DB.prepare("UPDATE tournaments SET shard_count = 9 WHERE id = ?").bind(t.id).run();
    const players = await Promise.all([makePlayer(), makePlayer(), makePlayer()]);
    const continents = ["EU", "SA", null];
    for (const [i, p] of players.entries()) {
      const cf = continents[i] ? { continent: continents[i] } : undefined;
      const res = await call(`/api/tournaments/${t.id}/join`, { method: "POST", cookie: p.cookie, cf });
      expect(res.status, res.text).toBe(200);
    }
    const shardOfRow = async (userId: number) =>
      (await one<{ s: number }>("SELECT shard AS s FROM tournament_participants WHERE tournament_id = ? AND user_id = ?", t.id, userId)).s;
    for (const [i, p] of players.entries()) expect(await shardOfRow(p.id)).toBe(shardOf(p.id, continents[i], 9));
    expect([1, 4]).toContain(await shardOfRow(players[0]!.id)); // weur or eeur
    expect(await shardOfRow(players[1]!.id)).toBe(5); // sam

    // Joining again from elsewhere keeps the seat, and its shard.
    await call(`/api/tournaments/${t.id}/join`, { method: "POST", cookie: players[1]!.cookie, cf: { continent: "AS" } });
    expect(await shardOfRow(players[1]!.id)).toBe(5);
  });

  it("is 0 in a one-room tournament", async () => {
    const cat = await makeCategory();
    const t = await makeTournament(cat, { format: "live_show" });
    const p = await makePlayer();
    await call(`/api/tournaments/${t.id}/join`, { method: "POST", cookie: p.cookie, cf: { continent: "EU" } });
    expect((await one<{ s: number }>("SELECT shard AS s FROM tournament_participants WHERE user_id = ?", p.id)).s).toBe(0);
  });
});
