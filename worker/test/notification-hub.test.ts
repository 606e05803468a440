// The /ws hub split over several objects: a notification reaches every socket of its user (each
// tab), on whichever shard the user lives, and nobody else's; it keeps arriving after a hub
// object restarted from hibernation; and a start announced to many players stores every row.
import { afterAll, describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import { evictDurableObject } from "cloudflare:test";
import type { NotificationFrame } from "../../common/api/tournaments";
import { NOTIFY } from "../../common/messages";
import { SESSION_ENDED_CLOSE_CODE } from "../../common/spec";
import { HUB_SHARDS, hubFor, hubShardOf, pushNotification } from "../durable/hub-client";
import { NOTIFICATION_ROWS_PER_STATEMENT } from "../durable/room/d1";
import { call } from "./helpers";
import {
  ledgerMismatches,
  makeCategory,
  makePlayer,
  makeTournament,
  openSocket,
  sleep,
  startNow,
  type Player,
  type SocketClient,
} from "./tournament-fixtures";

const frame = (message: string): NotificationFrame => ({
  type: "notification",
  message,
  data: { action: "tournament_started", tournamentId: 1, status: "live" },
});

/** Players until at least `shards` hub shards hold one (ids are consecutive, so a few more than that). */
async function playersOnShards(shards: number): Promise<Player[]> {
  const players: Player[] = [];
  while (new Set(players.map((p) => hubShardOf(p.id))).size < shards) players.push(await makePlayer());
  return players;
}

async function connect(p: Player): Promise<SocketClient> {
  const { status, client } = await openSocket("/ws", p.cookie);
  expect(status).toBe(101);
  return client!;
}

const got = (c: SocketClient, message: string) => c.frames.filter((f) => f?.message === message).length;

describe("/ws hub shards", () => {
  it("delivers to every socket of each addressed user, on every shard, and to no one else", async () => {
    const users = await playersOnShards(Math.min(HUB_SHARDS, 3));
    const outsider = await makePlayer();
    // The first user has the app open in three tabs.
    const tabs = [await connect(users[0]!), await connect(users[0]!), await connect(users[0]!)];
    const others = await Promise.all(users.slice(1).map(connect));
    const outsiderSocket = await connect(outsider);

    const message = `hello ${crypto.randomUUID()}`;
    const sent = await pushNotification(
      env,
      users.map((u) => u.id),
      frame(message),
    );
    expect(sent).toBe(tabs.length + others.length);
    for (const c of [...tabs, ...others]) await c.waitFor((f) => f?.message === message);
    await sleep(50);
    for (const c of [...tabs, ...others]) expect(got(c, message)).toBe(1);
    expect(got(outsiderSocket, message)).toBe(0);
  });

  it("keeps delivering after the hub object restarts from hibernation, and forgets closed tabs", async () => {
    const p = await makePlayer();
    const [a, b] = [await connect(p), await connect(p)];
    await evictDurableObject(hubFor(env, p.id));

    const first = `after restart ${crypto.randomUUID()}`;
    expect(await pushNotification(env, [p.id], frame(first))).toBe(2);
    await a.waitFor((f) => f?.message === first);
    await b.waitFor((f) => f?.message === first);

    // A tab closes: the next notification counts only the one left, before and after a restart.
    b.ws.close(1000, "tab closed");
    for (let i = 0; i < 50 && (await hubFor(env, p.id).deliver([p.id], frame("probe"))) !== 1; i++) await sleep(20);
    expect(await pushNotification(env, [p.id], frame("one left"))).toBe(1);
    await evictDurableObject(hubFor(env, p.id));
    const third = `one tab ${crypto.randomUUID()}`;
    expect(await pushNotification(env, [p.id], frame(third))).toBe(1);
    await a.waitFor((f) => f?.message === third);
  });

  it("closes every tab of a user who signs out, on the user's own shard", async () => {
    const p = await makePlayer();
    const tabs = [await connect(p), await connect(p)];
    expect(await hubFor(env, p.id).closeUser(p.id, SESSION_ENDED_CLOSE_CODE, "Signed out")).toBe(2);
    for (let i = 0; i < 50 && tabs.some((t) => !t.closed); i++) await sleep(20);
    for (const t of tabs) expect(t.closed?.code).toBe(SESSION_ENDED_CLOSE_CODE);
    expect(await pushNotification(env, [p.id], frame("after sign-out"))).toBe(0);
  });

  it("stores every participant's row when a tournament starts for more players than one statement holds", async () => {
    const count = NOTIFICATION_ROWS_PER_STATEMENT * 2 + 7;
    const t = await makeTournament(await makeCategory(), { maxParticipants: null });
    const { results } = await env.DB.prepare(
      `INSERT INTO users (username, email, password_hash)
       SELECT 'fan' || ?1 || '_' || j.value, 'fan' || ?1 || '_' || j.value || '@example.com', 'not-a-login' FROM json_each(?2) AS j
       RETURNING id`,
    )
      .bind(crypto.randomUUID().slice(0, 8), JSON.stringify(Array.from({ length: count }, (_, i) => i)))
      .all<{ id: number }>();
    const ids = results.map((r) => r.id);
    await env.DB.prepare(
      "INSERT INTO tournament_participants (tournament_id, user_id, joined_at) SELECT ?, j.value, ? FROM json_each(?) AS j",
    )
      .bind(t.id, Date.now(), JSON.stringify(ids))
      .run();
    await env.DB.prepare("UPDATE tournaments SET current_participants = ? WHERE id = ?").bind(count, t.id).run();
    // One of them is signed in, to see the push follow the stored rows.
    const listener = await makePlayer();
    await env.DB.prepare("INSERT INTO tournament_participants (tournament_id, user_id, joined_at) VALUES (?, ?, ?)")
      .bind(t.id, listener.id, Date.now())
      .run();
    const socket = await connect(listener);
    // The room loads its players from D1 on first use, as it would after the seats were taken.
    expect((await call(`/api/tournaments/${t.id}/leaderboard`)).status).toBe(200);

    await startNow(t.id);
    await socket.waitFor((f) => f?.data?.action === "tournament_started" && f.data.tournamentId === t.id);
    const stored = await env.DB.prepare(
      "SELECT user_id, message, status, read FROM notifications WHERE tournament_id = ? AND action = 'tournament_started' ORDER BY user_id",
    )
      .bind(t.id)
      .all<{ user_id: number; message: string; status: string; read: number }>();
    expect(stored.results.map((r) => r.user_id)).toEqual([...ids, listener.id].sort((a, b) => a - b));
    for (const r of stored.results) expect(r).toMatchObject({ message: NOTIFY.started(t.title), status: "live", read: 0 });
    expect((await call("/api/notifications", { cookie: listener.cookie })).body.unread).toBe(1);
  });
});

afterAll(async () => {
  expect(await ledgerMismatches()).toEqual([]);
});
