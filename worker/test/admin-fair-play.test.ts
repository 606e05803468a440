// The fair-play screen's API: cheat attempts and flags filtered by tournament, player and review
// state; reviewing a cheat attempt; held prize decisions written to the audit log.
import { describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import { call } from "./helpers";
import { makePlayer } from "./tournament-fixtures";
import { cheatAttempt, heldPrize, makeOperator, settledTournament, settleParticipant } from "./fair-play-fixtures";

const attemptId = async (userId: number, reason: string) =>
  (await env.DB.prepare("SELECT id FROM cheat_attempts WHERE user_id = ? AND reason = ?").bind(userId, reason).first<{ id: number }>())!.id;

const audit = (action: string, targetId: number) =>
  env.DB.prepare("SELECT actor_user_id, before, after, note FROM audit_log WHERE action = ? AND target_id = ?")
    .bind(action, String(targetId))
    .all<{ actor_user_id: number; before: string; after: string; note: string | null }>()
    .then((r) => r.results);

describe("GET /api/admin/fair-play", () => {
  it("filters cheat attempts and flagged results by tournament, by player and by review state", async () => {
    const op = await makeOperator();
    const [a, b] = [await makePlayer(), await makePlayer()];
    const t1 = await settledTournament();
    const t2 = await settledTournament();
    await settleParticipant(t1, a, { prizeCents: 1_000 });
    await settleParticipant(t2, b, { prizeCents: 0 });
    const now = Date.now();
    await cheatAttempt(a.id, t1.id, "Answered before it was issued", now - 2000);
    await cheatAttempt(b.id, t1.id, "Second answer to question 2", now - 1000);
    await cheatAttempt(a.id, t2.id, "Answer after finishing", now);

    const byTournament = await call(`/api/admin/fair-play?tournamentId=${t1.id}`, { cookie: op.cookie });
    expect(byTournament.status).toBe(200);
    expect(byTournament.body.cheatAttempts.map((c: { reason: string }) => c.reason)).toEqual([
      "Second answer to question 2",
      "Answered before it was issued",
    ]);
    expect(byTournament.body.cheatAttempts[0]).toMatchObject({ reviewed: false, resolution: null, username: b.username });
    expect(byTournament.body.flagged.map((f: { userId: number }) => f.userId)).toEqual([a.id]);

    const byPlayer = await call(`/api/admin/fair-play?userId=${a.id}`, { cookie: op.cookie });
    expect(byPlayer.body.cheatAttempts.map((c: { tournamentId: number }) => c.tournamentId)).toEqual([t2.id, t1.id]);
    expect(byPlayer.body.flagged).toEqual([expect.objectContaining({ userId: a.id, tournamentId: t1.id, prizeStatus: "held" })]);

    const both = await call(`/api/admin/fair-play?userId=${a.id}&tournamentId=${t2.id}`, { cookie: op.cookie });
    expect(both.body.cheatAttempts).toHaveLength(1);
    expect(both.body.flagged).toEqual([]);

    const id = await attemptId(a.id, "Answer after finishing");
    await call(`/api/admin/cheat-attempts/${id}/review`, { cookie: op.cookie, body: { resolution: "Connection glitch, no action" } });
    const open = await call(`/api/admin/fair-play?userId=${a.id}&review=open`, { cookie: op.cookie });
    expect(open.body.cheatAttempts.map((c: { id: number }) => c.id)).not.toContain(id);
    const reviewed = await call(`/api/admin/fair-play?userId=${a.id}&review=reviewed`, { cookie: op.cookie });
    expect(reviewed.body.cheatAttempts).toEqual([
      expect.objectContaining({ id, reviewed: true, resolution: "Connection glitch, no action" }),
    ]);

    expect((await call("/api/admin/fair-play?review=maybe", { cookie: op.cookie })).status).toBe(400);
  });
});

describe("POST /api/admin/cheat-attempts/{id}/review", () => {
  it("marks the attempt reviewed with the resolution, once, with an audit row", async () => {
    const op = await makeOperator();
    const p = await makePlayer();
    const t = await settledTournament();
    await cheatAttempt(p.id, t.id, "Answered question 4 twice", Date.now());
    const id = await attemptId(p.id, "Answered question 4 twice");
    const res = await call(`/api/admin/cheat-attempts/${id}/review`, { cookie: op.cookie, body: { resolution: "Warned by email" } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id, reviewed: true, resolution: "Warned by email", userId: p.id, tournamentId: t.id });
    const rows = await audit("cheat_attempt.review", id);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.actor_user_id).toBe(op.id);
    expect(JSON.parse(rows[0]!.before)).toEqual({ reviewed: false, resolution: null });
    expect(JSON.parse(rows[0]!.after)).toEqual({ reviewed: true, resolution: "Warned by email" });

    const again = await call(`/api/admin/cheat-attempts/${id}/review`, { cookie: op.cookie, body: { resolution: "Something else" } });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe("cheat_attempt_reviewed");
    expect(await audit("cheat_attempt.review", id)).toHaveLength(1);
  });

  it("needs a resolution; an unknown attempt is 404", async () => {
    const op = await makeOperator();
    expect((await call("/api/admin/cheat-attempts/1/review", { cookie: op.cookie, body: { resolution: " " } })).status).toBe(400);
    const missing = await call("/api/admin/cheat-attempts/999999/review", { cookie: op.cookie, body: { resolution: "x" } });
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe("cheat_attempt_not_found");
  });
});

describe("held prize decisions are audited", () => {
  it("release writes one audit row with before and after; a second release writes none", async () => {
    const op = await makeOperator();
    const { prizeId } = await heldPrize();
    expect((await call(`/api/admin/held-prizes/${prizeId}/release`, { cookie: op.cookie, method: "POST" })).status).toBe(200);
    expect((await call(`/api/admin/held-prizes/${prizeId}/release`, { cookie: op.cookie, method: "POST" })).status).toBe(409);
    const rows = await audit("held_prize.release", prizeId);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.actor_user_id).toBe(op.id);
    expect(JSON.parse(rows[0]!.before)).toEqual({ status: "held" });
    expect(JSON.parse(rows[0]!.after)).toEqual({ status: "completed" });
  });

  it("forfeit writes one audit row with the reason as its note", async () => {
    const op = await makeOperator();
    const { prizeId } = await heldPrize();
    const res = await call(`/api/admin/held-prizes/${prizeId}/forfeit`, {
      cookie: op.cookie,
      body: { reason: "Two accounts, one device" },
    });
    expect(res.status).toBe(200);
    await call(`/api/admin/held-prizes/${prizeId}/release`, { cookie: op.cookie, method: "POST" });
    expect(await audit("held_prize.release", prizeId)).toHaveLength(0);
    const rows = await audit("held_prize.forfeit", prizeId);
    expect(rows).toEqual([expect.objectContaining({ actor_user_id: op.id, note: "Two accounts, one device" })]);
    expect(JSON.parse(rows[0]!.after)).toEqual({ status: "forfeited" });
  });
});
