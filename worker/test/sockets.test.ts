// Sockets: the tournament socket pushes coalesced leaderboards and status changes; /ws delivers
// notifications. Both are authenticated by the session cookie and our own origin on upgrade.
import { afterAll, describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import { evictDurableObject } from "cloudflare:test";
import { tournamentServerFrameSchema, hubServerFrameSchema } from "../../common/api/tournaments";
import { NOTIFY, PLAY } from "../../common/messages";
import { call } from "./helpers";
import {
  answer,
  complete,
  correctOf,
  join,
  ledgerMismatches,
  makeCategory,
  makePlayer,
  makeTournament,
  next,
  openSocket,
  play,
  room,
  sleep,
  startNow,
} from "./tournament-fixtures";
import { hubFor } from "../durable/hub-client";

describe("tournament socket", () => {
  it("refuses upgrades without a session, from another origin, or for a missing tournament", async () => {
    const t = await makeTournament(await makeCategory());
    const p = await makePlayer();
    expect((await openSocket(`/api/tournaments/${t.id}/ws`)).status).toBe(401);
    expect((await openSocket(`/api/tournaments/${t.id}/ws`, p.cookie, "https://evil.example")).status).toBe(403);
    expect((await openSocket(`/api/tournaments/999999/ws`, p.cookie)).status).toBe(404);
    expect((await call(`/api/tournaments/${t.id}/ws`, { cookie: p.cookie })).status).toBe(426);
  });

  it("sends status and leaderboard on connect, then coalesced leaderboard pushes as answers come in", async () => {
    const t = await makeTournament(await makeCategory(), { startTime: Date.now() - 1000 });
    const [watcher, a, b] = [await makePlayer(), await makePlayer(), await makePlayer()];
    for (const p of [watcher, a, b]) await join(p, t.id);
    const { status, client } = await openSocket(`/api/tournaments/${t.id}/ws`, watcher.cookie);
    expect(status).toBe(101);
    await client!.waitFor((f) => f.type === "status" && f.status === "live");
    const initial = await client!.waitFor((f) => f.type === "leaderboard");
    expect(initial.top).toHaveLength(3);
    expect(initial.me).toEqual({ rank: expect.any(Number), score: 0 });
    for (const f of client!.frames) expect(tournamentServerFrameSchema.safeParse(f).success).toBe(true);

    const mark = client!.frames.length;
    // Three answers in quick succession: one push carries all of them.
    const qa = (await next(a, t.id)).body;
    const qb = (await next(b, t.id)).body;
    await Promise.all([
      answer(a, t.id, qa.id, correctOf(t, qa.id)),
      answer(b, t.id, qb.id, correctOf(t, qb.id)),
      play(watcher, t, true, 0),
    ]);
    // A prize tournament's board moves with progress; its scores stay 0 until the end (docs/fair-play.md).
    const pushed = await client!.waitFor(
      (f) => f.type === "leaderboard" && f.top.filter((r: any) => r.questionsAnswered === 1).length === 3,
      3000,
      mark,
    );
    expect(pushed.top.map((r: any) => r.score)).toEqual([0, 0, 0]);
    expect(pushed.me.score).toBe(0);
    await sleep(700);
    const pushes = client!.frames.slice(mark).filter((f) => f.type === "leaderboard");
    expect(pushes.length).toBeLessThan(3);

    client!.ws.send(JSON.stringify({ type: "sync" }));
    await client!.waitFor((f) => f.type === "status", 2000, client!.frames.length);
    client!.ws.send("not json");
    expect(await client!.waitFor((f) => f.type === "error")).toEqual({
      type: "error",
      status: 400,
      code: "invalid_frame",
      message: PLAY.invalidFrame,
    });
    client!.ws.close(1000, "bye");
  });

  it("pushes the status change when the tournament completes, even after the object hibernated", async () => {
    const t = await makeTournament(await makeCategory(), { startTime: Date.now() - 1000 });
    const p = await makePlayer();
    await join(p, t.id);
    const { client } = await openSocket(`/api/tournaments/${t.id}/ws`, p.cookie);
    await client!.waitFor((f) => f.type === "leaderboard");
    await evictDurableObject(room(t.id));
    await play(p, t, true, 0);
    await complete(p, t.id);
    await client!.waitFor((f) => f.type === "status" && f.status === "completed");
    const final = await client!.waitFor((f) => f.type === "leaderboard" && f.me?.rank === 1);
    expect(final.top[0]).toMatchObject({ userId: p.id, rank: 1 });
  });

  it("answers ping with pong without waking the room's code", async () => {
    const t = await makeTournament(await makeCategory());
    const p = await makePlayer();
    const { client } = await openSocket(`/api/tournaments/${t.id}/ws`, p.cookie);
    client!.ws.send("ping");
    expect(await client!.waitFor((f) => f === "pong")).toBe("pong");
  });
});

describe("/ws notifications", () => {
  it("refuses an upgrade without a session or from another origin", async () => {
    expect((await openSocket("/ws")).status).toBe(401);
    const p = await makePlayer();
    expect((await openSocket("/ws", p.cookie, "https://evil.example")).status).toBe(403);
    expect((await openSocket("/ws", "sid=forged-token")).status).toBe(401);
  });

  it("delivers tournament_started and tournament_ended to participants and stores them as unread", async () => {
    const fee = 100;
    const t = await makeTournament(await makeCategory(), { entryFeeCents: fee });
    const players = [];
    for (let i = 0; i < 10; i++) {
      const p = await makePlayer({ balanceCents: fee });
      await join(p, t.id);
      players.push(p);
    }
    const outsider = await makePlayer();
    const [listener] = players;
    const { status, client } = await openSocket("/ws", listener!.cookie);
    expect(status).toBe(101);
    const other = (await openSocket("/ws", outsider.cookie)).client!;
    client!.ws.send(JSON.stringify({ type: "auth", userId: listener!.id }));

    await startNow(t.id);
    const started = await client!.waitFor((f) => f.data?.action === "tournament_started");
    expect(started).toEqual({
      type: "notification",
      message: NOTIFY.started(t.title),
      data: { action: "tournament_started", tournamentId: t.id, status: "live" },
    });
    expect(hubServerFrameSchema.safeParse(started).success).toBe(true);

    for (const p of players) await complete(p, t.id);
    const ended = await client!.waitFor((f) => f.data?.action === "tournament_ended");
    expect(ended.data).toEqual({ action: "tournament_ended", tournamentId: t.id, status: "completed" });
    expect(other.frames).toEqual([]);
    expect(client!.closed).toBeNull();

    const list = await call(`/api/notifications`, { cookie: listener!.cookie });
    expect(list.status).toBe(200);
    expect(list.body.unread).toBe(2);
    expect(list.body.items.map((n: any) => n.data.action)).toEqual(["tournament_ended", "tournament_started"]);
    const firstId = list.body.items[1].id;
    const marked = await call(`/api/notifications/read`, { cookie: listener!.cookie, body: { ids: [firstId] } });
    expect(marked.body).toEqual({ unread: 1 });
    // Another user's ids are not theirs to mark.
    await call(`/api/notifications/read`, { cookie: outsider.cookie, body: { ids: [list.body.items[0].id] } });
    expect((await call(`/api/notifications`, { cookie: listener!.cookie })).body.unread).toBe(1);
    expect((await call(`/api/notifications/read`, { cookie: listener!.cookie, body: {} })).body).toEqual({ unread: 0 });
    expect((await call(`/api/notifications/read`, { cookie: listener!.cookie, body: { ids: ["x"] } })).status).toBe(400);
    expect((await call(`/api/notifications`)).status).toBe(401);
  });

  it("never lets the auth frame select another user", async () => {
    const [me, victim] = [await makePlayer(), await makePlayer()];
    const { client } = await openSocket("/ws", me.cookie);
    client!.ws.send(JSON.stringify({ type: "auth", userId: victim.id }));
    for (let i = 0; i < 50 && !client!.closed; i++) await sleep(20);
    expect(client!.closed?.code).toBe(1008);
    // Nothing addressed to the victim reaches a socket that claimed to be them.
    const sent = await hubFor(env, victim.id).deliver([victim.id], {
      type: "notification",
      message: "x",
      data: { action: "tournament_started", tournamentId: 1, status: "live" },
    });
    expect(sent).toBe(0);
  });
});

afterAll(async () => {
  expect(await ledgerMismatches()).toEqual([]);
});
