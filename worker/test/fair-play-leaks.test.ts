// Five small fair-play leaks, each closed (docs/fair-play.md): the live show's latency allowance
// measured only from pings the room sent itself, a cap on the cheat-attempt rows one player can
// make a tournament store, practice runs that only their owner can see, question reports that
// ask the room whatever the question, and receipts of a tournament that does not exist.
import { describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import { evictDurableObject } from "cloudflare:test";
import { PLAY } from "../../common/messages";
import { CHEAT_ATTEMPTS_STORED_MAX, LATENCY_ALLOWANCE_MAX_MS } from "../../common/spec";
import { call } from "./helpers";
import { makeOperator } from "./fair-play-fixtures";
import {
  all,
  answer,
  correctOf,
  join,
  makeCategory,
  makePlayer,
  makePractice,
  keepForPractice,
  makeTournament,
  one,
  request,
  room,
  roomSql,
  sleep,
  startNow,
  type SocketClient,
  type TournamentFixture,
  liveShow,
  socketOf,
} from "./tournament-fixtures";

const NOT_FOUND = { code: "tournament_not_found", message: PLAY.notFound };

/** Waits until the room has handled every frame sent before on this socket (frames are handled in order). */
const drain = (s: SocketClient, id: string) => request(s, { type: "next", id });

/**
 * Starts the show, pretends its first question went out at a known moment five seconds ago, and
 * answers it on each socket in turn. `before`/`after` bound the moment the room took the answer:
 * with no allowance responseTime >= before - openedAt; with one, <= after - openedAt - allowance.
 */
async function answerFirst(t: TournamentFixture, sockets: SocketClient[]) {
  await startNow(t.id);
  const questions = await Promise.all(sockets.map((s) => s.waitFor((f) => f.type === "question")));
  const questionId = questions[0].question.id as number;
  const openedAt = Date.now() - 5000;
  await roomSql(t.id, "UPDATE questions SET opened_at = ? WHERE ord = 0", openedAt);
  const answers: { responseTime: number; before: number; after: number }[] = [];
  for (const [i, s] of sockets.entries()) {
    const before = Date.now();
    const r = await request(s, { type: "answer", id: `answer-${i}`, questionId, answer: correctOf(t, questionId) });
    expect(r.type, JSON.stringify(r)).toBe("result");
    answers.push({ responseTime: r.result.responseTime, before: before - openedAt, after: Date.now() - openedAt });
  }
  return answers;
}

describe("the live show's latency allowance", () => {
  it("gives nothing for a pong with a forged time or a nonce the room never sent", async () => {
    const { t, sockets } = await liveShow(2);
    const [sa, sb] = sockets as [SocketClient, SocketClient];
    await sa.waitFor((f) => f.type === "ping");
    // A claims a ten-second round trip: an old time, a made-up nonce, and both together.
    sa.ws.send(JSON.stringify({ type: "pong", t: Date.now() - 10_000 }));
    sa.ws.send(JSON.stringify({ type: "pong", nonce: "0123456789abcdef0123456789abcdef" }));
    sa.ws.send(JSON.stringify({ type: "pong", nonce: "0123456789abcdef0123456789abcdef", t: Date.now() - 10_000 }));
    await drain(sa, "drain");
    const [a, b] = await answerFirst(t, [sa, sb]);
    // Counted from the push in full: no allowance was earned.
    expect(a!.responseTime).toBeGreaterThanOrEqual(a!.before);
    expect(b!.responseTime).toBeGreaterThanOrEqual(b!.before);
    for (const s of sockets) s.ws.close(1000);
  });

  it("measures a round trip from the room's own send time, across hibernation, and each nonce once", async () => {
    const { t, sockets } = await liveShow(2);
    const [sa, sb] = sockets as [SocketClient, SocketClient];
    const [pa, pb] = [await sa.waitFor((f) => f.type === "ping"), await sb.waitFor((f) => f.type === "ping")];
    expect(pa.nonce).toEqual(expect.any(String));
    expect(pa.nonce).not.toBe(pb.nonce);
    // B answers its ping at once: a short round trip.
    sb.ws.send(JSON.stringify({ type: "pong", nonce: pb.nonce }));
    await drain(sb, "drain-1");
    // The room hibernates with A's ping outstanding; A answers it 400 ms after it was sent.
    await evictDurableObject(room(t.id));
    await sleep(400);
    sa.ws.send(JSON.stringify({ type: "pong", nonce: pa.nonce }));
    // B sends its used nonce again, late: were it measured again, B's median would be 400 ms.
    for (let i = 0; i < 4; i++) sb.ws.send(JSON.stringify({ type: "pong", nonce: pb.nonce }));
    await drain(sa, "drain-a");
    await drain(sb, "drain-b");
    const [a, b] = await answerFirst(t, [sa, sb]);
    // A's round trip took at least 400 ms by the room's clock: the whole (capped) allowance.
    expect(a!.responseTime).toBeLessThanOrEqual(a!.after - LATENCY_ALLOWANCE_MAX_MS);
    // B's allowance is half its one short round trip, far from the cap.
    expect(b!.responseTime).toBeGreaterThan(b!.after - LATENCY_ALLOWANCE_MAX_MS);
    for (const s of sockets) s.ws.close(1000);
  });
});

describe("cheat-attempt rows", () => {
  it("stores at most the cap per player and tournament and counts the rest, refusing each the same way", async () => {
    const t = await makeTournament(await makeCategory());
    const p = await makePlayer();
    expect((await join(p, t.id)).status).toBe(200);
    const op = await makeOperator();
    const extra = 7;
    const bodies = new Set<string>();
    for (let i = 0; i < CHEAT_ATTEMPTS_STORED_MAX + extra; i++) {
      // Before the start: the tournament's own ids and made-up ones alike.
      const res = await answer(p, t.id, i % 2 === 0 ? t.questions[i % 10]!.id : 900_000_000 + i, "Anything");
      expect(res.status).toBe(409);
      bodies.add(res.text);
    }
    expect([...bodies]).toEqual([JSON.stringify({ code: "not_live", message: PLAY.notLive })]);
    const stored = await one<{ n: number }>("SELECT count(*) AS n FROM cheat_attempts WHERE tournament_id = ? AND user_id = ?", t.id, p.id);
    expect(stored.n).toBe(CHEAT_ATTEMPTS_STORED_MAX);
    // The overflow is counted on the last stored row.
    const rows = await all<{ suppressed: number }>(
      "SELECT suppressed FROM cheat_attempts WHERE tournament_id = ? AND user_id = ? ORDER BY id",
      t.id,
      p.id,
    );
    expect(rows.map((r) => r.suppressed)).toEqual([...Array<number>(CHEAT_ATTEMPTS_STORED_MAX - 1).fill(0), extra]);

    // The operators' Fair play screen shows the count.
    const screen = await call(`/api/admin/fair-play?tournamentId=${t.id}&userId=${p.id}`, { cookie: op.cookie });
    expect(screen.status).toBe(200);
    expect(screen.body.cheatAttempts).toHaveLength(CHEAT_ATTEMPTS_STORED_MAX);
    expect(screen.body.cheatAttempts[0]).toMatchObject({ userId: p.id, tournamentId: t.id, suppressed: extra });
    // The live view counts every refusal.
    const live = await call(`/api/admin/tournaments/${t.id}/live`, { cookie: op.cookie });
    expect(live.body.cheatAttemptCount).toBe(CHEAT_ATTEMPTS_STORED_MAX + extra);
  });
});

describe("practice runs", () => {
  it("are seen by their owner only: another player or a visitor gets what an unknown id gets", async () => {
    const category = await makeCategory(4);
    await keepForPractice(category);
    const practice = await makePractice(category);
    const owner = await makePlayer();
    const started = await join(owner, practice.id);
    expect(started.status, started.text).toBe(200);
    const runId = started.body.tournament.id as number;
    expect(started.body.tournament.kind).toBe("practice_run");
    const other = await makePlayer();

    // The socket: refused before the room is asked, as for an id that does not exist.
    const upgrade = (id: number, cookie: string) => call(`/api/tournaments/${id}/ws`, { cookie, headers: { upgrade: "websocket" } });
    const unknown = await upgrade(999_999_999, other.cookie);
    expect(unknown.status).toBe(404);
    const refused = await upgrade(runId, other.cookie);
    expect(refused.status).toBe(404);
    expect(refused.body).toEqual(unknown.body);
    expect(refused.body).toEqual(NOT_FOUND);
    const mine = await socketOf({ id: runId }, owner);
    await mine.waitFor((f) => f.type === "leaderboard");
    mine.ws.close(1000);

    // The reads that show who played it.
    for (const path of ["", "/leaderboard", "/participants"]) {
      for (const cookie of [other.cookie, undefined]) {
        const res = await call(`/api/tournaments/${runId}${path}`, { cookie });
        expect(res.status, `${path} ${cookie ? "other" : "visitor"}`).toBe(404);
        expect(res.body).toEqual(NOT_FOUND);
      }
      const own = await call(`/api/tournaments/${runId}${path}`, { cookie: owner.cookie });
      expect(own.status, path).toBe(200);
    }
    expect((await call(`/api/tournaments/${runId}/leaderboard`, { cookie: owner.cookie })).body[0]).toMatchObject({
      userId: owner.id,
      username: owner.username,
    });
  });
});

describe("question reports", () => {
  it("ask the room whether it put the question to the player, whichever tournament the question is from", async () => {
    const cat = await makeCategory(4);
    const [held, elsewhere, other] = [await makeTournament(cat), await makeTournament(cat), await makeTournament(await makeCategory(4))];
    const player = await makePlayer();
    // Joined in D1 only: neither room has been asked anything yet.
    for (const t of [held, elsewhere]) {
      await env.DB.prepare("INSERT INTO tournament_participants (tournament_id, user_id) VALUES (?, ?)").bind(t.id, player.id).run();
    }
    const commitment = async (t: TournamentFixture) =>
      (await one<{ c: string | null }>("SELECT fairness_commitment AS c FROM tournaments WHERE id = ?", t.id)).c;
    expect(await commitment(held)).toBeNull();
    expect(await commitment(elsewhere)).toBeNull();

    const report = (t: TournamentFixture, questionId: number) =>
      call(`/api/questions/${questionId}/report`, { cookie: player.cookie, body: { reason: "typo", tournamentId: t.id } });
    // A question of that tournament, never issued; and a question of another tournament.
    const ofIt = await report(held, held.questions[0]!.id);
    const ofAnother = await report(elsewhere, other.questions[0]!.id);
    expect(ofIt.status).toBe(404);
    expect(ofAnother.status).toBe(404);
    expect(ofAnother.body).toEqual(ofIt.body);
    // Each room was asked: loading its tournament, it published its commitment to D1.
    expect(await commitment(held), "the tournament's own question").toEqual(expect.stringMatching(/^[0-9a-f]{64}$/));
    expect(await commitment(elsewhere), "another tournament's question").toEqual(expect.stringMatching(/^[0-9a-f]{64}$/));
  });
});

describe("GET /api/user/tournaments/:id/receipts", () => {
  it("answers 404 for a tournament that does not exist, and for another player's practice run", async () => {
    const player = await makePlayer();
    const missing = await call("/api/user/tournaments/999999999/receipts", { cookie: player.cookie });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual(NOT_FOUND);

    // One the player never joined still answers (with no receipts): it exists.
    const t = await makeTournament(await makeCategory(4));
    expect((await call(`/api/user/tournaments/${t.id}/receipts`, { cookie: player.cookie })).body).toEqual({
      tournamentId: t.id,
      receipts: [],
    });

    const practiceCategory = await makeCategory(4);
    await keepForPractice(practiceCategory);
    const practice = await makePractice(practiceCategory);
    const started = await join(player, practice.id);
    const runId = started.body.tournament.id as number;
    expect((await call(`/api/user/tournaments/${runId}/receipts`, { cookie: player.cookie })).status).toBe(200);
    const stranger = await makePlayer();
    const theirs = await call(`/api/user/tournaments/${runId}/receipts`, { cookie: stranger.cookie });
    expect(theirs.status).toBe(404);
    expect(theirs.body).toEqual(NOT_FOUND);
  });
});
