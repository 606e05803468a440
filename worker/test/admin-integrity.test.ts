// The operators' integrity reports: a tournament's or a player's cheat attempts (newest first)
// and flagged results with what became of each prize.
import { describe, expect, it } from "vitest";
import type { IntegrityReport } from "../../common/api/fair-play";
import { PLAY } from "../../common/messages";
import { call } from "./helpers";
import { makePlayer } from "./tournament-fixtures";
import { cheatAttempt, makeOperator, settledTournament, settleParticipant, TIMING_FLAG } from "./fair-play-fixtures";

const SHARED = { kind: "shared_device" as const, detail: "same device cookie", otherUserId: 0 };

describe("GET /api/admin/tournaments/{id}/integrity", () => {
  it("lists the tournament's cheat attempts newest first and its flagged participants with their prize status", async () => {
    const op = await makeOperator();
    const t = await settledTournament();
    const [held, released, forfeited, flaggedNoPrize, clean] = await Promise.all([1, 2, 3, 4, 5].map(() => makePlayer()));
    await settleParticipant(t, held!, { rank: 1, prizeCents: 2_000 });
    const releasedId = (await settleParticipant(t, released!, {
      rank: 2,
      prizeCents: 1_000,
      flags: [{ ...SHARED, otherUserId: forfeited!.id }],
    }))!;
    const forfeitedId = (await settleParticipant(t, forfeited!, {
      rank: 3,
      prizeCents: 500,
      flags: [{ ...SHARED, otherUserId: released!.id }],
    }))!;
    await settleParticipant(t, flaggedNoPrize!, { rank: 5, prizeCents: 0 });
    await settleParticipant(t, clean!, { rank: 4, prizeCents: 0, flags: null });
    expect((await call(`/api/admin/held-prizes/${releasedId}/release`, { cookie: op.cookie, method: "POST" })).status).toBe(200);
    expect(
      (await call(`/api/admin/held-prizes/${forfeitedId}/forfeit`, { cookie: op.cookie, body: { reason: "One device, two accounts" } }))
        .status,
    ).toBe(200);
    const now = Date.now();
    await cheatAttempt(clean!.id, t.id, "Answered question 7 before it was issued", now - 60_000);
    await cheatAttempt(held!.id, t.id, "Sent a different second answer to question 3", now - 10_000);
    const other = await settledTournament();
    await cheatAttempt(held!.id, other.id, "Answered question 1 after finishing the tournament", now);

    const res = await call<IntegrityReport>(`/api/admin/tournaments/${t.id}/integrity`, { cookie: op.cookie });
    expect(res.status, res.text).toBe(200);
    expect(res.body.cheatAttempts).toEqual([
      {
        id: expect.any(Number),
        userId: held!.id,
        username: held!.username,
        tournamentId: t.id,
        tournamentTitle: t.title,
        reason: "Sent a different second answer to question 3",
        timestamp: new Date(now - 10_000).toISOString(),
        reviewed: false,
        resolution: null,
        suppressed: 0,
      },
      expect.objectContaining({ userId: clean!.id, reason: "Answered question 7 before it was issued" }),
    ]);
    expect(res.body.flagged).toEqual([
      {
        userId: held!.id,
        username: held!.username,
        tournamentId: t.id,
        tournamentTitle: t.title,
        rank: 1,
        prize: 20,
        prizeStatus: "held",
        flags: [TIMING_FLAG],
      },
      expect.objectContaining({
        userId: released!.id,
        rank: 2,
        prize: 10,
        prizeStatus: "paid",
        flags: [{ ...SHARED, otherUserId: forfeited!.id }],
      }),
      expect.objectContaining({ userId: forfeited!.id, rank: 3, prize: 5, prizeStatus: "forfeited" }),
      expect.objectContaining({ userId: flaggedNoPrize!.id, rank: 5, prize: 0, prizeStatus: "none" }),
    ]);
  });

  it("is empty for a clean tournament and 404 for an unknown one", async () => {
    const op = await makeOperator();
    const t = await settledTournament();
    await settleParticipant(t, await makePlayer(), { flags: null, prizeCents: 900, prizeRow: "completed" });
    const res = await call<IntegrityReport>(`/api/admin/tournaments/${t.id}/integrity`, { cookie: op.cookie });
    expect(res.body).toEqual({ cheatAttempts: [], flagged: [] });

    const missing = await call(`/api/admin/tournaments/99999999/integrity`, { cookie: op.cookie });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ code: "tournament_not_found", message: PLAY.notFound });
  });
});

describe("GET /api/admin/users/{id}/integrity", () => {
  it("lists the player's cheat attempts and flagged results across tournaments", async () => {
    const op = await makeOperator();
    const player = await makePlayer();
    const bystander = await makePlayer();
    const first = await settledTournament();
    const second = await settledTournament();
    const clean = await settledTournament();
    await settleParticipant(first, player, { rank: 2, prizeCents: 700 });
    await settleParticipant(second, player, { rank: 1, prizeCents: 0 });
    await settleParticipant(clean, player, { rank: 1, prizeCents: 300, flags: null, prizeRow: "completed" });
    await settleParticipant(first, bystander, { rank: 1, prizeCents: 1_400 });
    const now = Date.now();
    await cheatAttempt(player.id, first.id, "older", now - 5_000);
    await cheatAttempt(player.id, second.id, "newer", now);
    await cheatAttempt(bystander.id, first.id, "not theirs", now);

    const res = await call<IntegrityReport>(`/api/admin/users/${player.id}/integrity`, { cookie: op.cookie });
    expect(res.status, res.text).toBe(200);
    expect(res.body.cheatAttempts.map((a) => [a.reason, a.tournamentId, a.tournamentTitle, a.username])).toEqual([
      ["newer", second.id, second.title, player.username],
      ["older", first.id, first.title, player.username],
    ]);
    expect(res.body.flagged.map((f) => [f.tournamentId, f.prize, f.prizeStatus])).toEqual(
      expect.arrayContaining([
        [first.id, 7, "held"],
        [second.id, 0, "none"],
      ]),
    );
    expect(res.body.flagged).toHaveLength(2);
  });

  it("is 404 for an unknown player", async () => {
    const op = await makeOperator();
    const res = await call(`/api/admin/users/99999999/integrity`, { cookie: op.cookie });
    expect(res.status).toBe(404);
    expect(res.body.code).toBe("player_not_found");
  });
});

describe("operators only", () => {
  it("refuses a player (403) and a visitor (401)", async () => {
    const player = await makePlayer();
    const t = await settledTournament();
    for (const path of [`/api/admin/tournaments/${t.id}/integrity`, `/api/admin/users/${player.id}/integrity`]) {
      const asPlayer = await call(path, { cookie: player.cookie });
      expect(asPlayer.status).toBe(403);
      expect(asPlayer.body.code).toBe("forbidden");
      expect((await call(path)).status).toBe(401);
    }
  });

  it("refuses an id that is not a number", async () => {
    const op = await makeOperator();
    expect((await call(`/api/admin/tournaments/abc/integrity`, { cookie: op.cookie })).status).toBe(400);
    expect((await call(`/api/admin/users/0/integrity`, { cookie: op.cookie })).status).toBe(400);
  });
});
