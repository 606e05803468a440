// Prizes held for fair-play review: out of the balance while held, released into it exactly once
// or forfeited to the house exactly once by an operator, and what the player sees meanwhile.
import { afterEach, describe, expect, it } from "vitest";
import type { HeldPrize } from "../../common/api/fair-play";
import type { UserTournamentEntry } from "../../common/api/tournaments";
import { REVIEW_REASON } from "../../common/api/fair-play";
import { FAIR_PLAY, NOTIFY } from "../../common/messages";
import { call } from "./helpers";
import { balanceCents, countRows, expectLedgerBalanced } from "./money-helpers";
import { all, makePlayer, one } from "./tournament-fixtures";
import { heldPrize, makeOperator, settledTournament, settleParticipant, TIMING_FLAG } from "./fair-play-fixtures";

afterEach(expectLedgerBalanced);

const release = (cookie: string, id: number) => call(`/api/admin/held-prizes/${id}/release`, { cookie, method: "POST" });
const forfeit = (cookie: string, id: number, reason: unknown = "Answers arrived faster than anyone can read them.") =>
  call(`/api/admin/held-prizes/${id}/forfeit`, { cookie, body: { reason } });

const notificationsOf = (userId: number) =>
  all<{ message: string; action: string | null; tournament_id: number | null }>(
    "SELECT message, action, tournament_id FROM notifications WHERE user_id = ? ORDER BY id",
    userId,
  );
const houseRows = (tournamentId: number, userId: number) =>
  all<{ amount_cents: number; type: string; tournament_id: number; description: string }>(
    "SELECT amount_cents, type, tournament_id, description FROM house_ledger WHERE reference = ?",
    `forfeit:${tournamentId}:${userId}`,
  );
const statusOf = async (id: number) => (await one<{ status: string }>("SELECT status FROM transactions WHERE id = ?", id)).status;

describe("a held prize, as the player sees it", () => {
  it("is not in the balance, shows as held in the wallet and under review in my tournaments, and counts in no earnings", async () => {
    const { player, tournament, prizeId } = await heldPrize({ balanceCents: 1_000, prizeCents: 4_250 });
    expect(await balanceCents(player.id)).toBe(1_000);
    const me = await call("/api/user", { cookie: player.cookie });
    expect(me.body.balance).toBe(10);

    const wallet = await call("/api/user/transactions", { cookie: player.cookie });
    expect(wallet.status).toBe(200);
    expect(wallet.body.find((t: { id: number }) => t.id === prizeId)).toMatchObject({ type: "prize", status: "held", amount: 42.5 });

    const mine = await call<UserTournamentEntry[]>("/api/user/tournaments", { cookie: player.cookie });
    expect(mine.body.find((e) => e.id === tournament.id)).toMatchObject({
      prize: 42.5,
      prizeStatus: "held",
      reviewReason: REVIEW_REASON.answer_timing,
    });

    const stats = await call("/api/user/stats", { cookie: player.cookie });
    expect(stats.body.totalEarnings).toBe(0);
  });

  it("names the shared-connection category, never the rule, for a shared device flag", async () => {
    const { player, tournament } = await heldPrize({ flags: [{ kind: "shared_device", detail: "same device", otherUserId: 1 }] });
    const mine = await call<UserTournamentEntry[]>("/api/user/tournaments", { cookie: player.cookie });
    expect(mine.body.find((e) => e.id === tournament.id)).toMatchObject({
      prizeStatus: "held",
      reviewReason: REVIEW_REASON.shared_connection,
    });
  });
});

describe("POST /api/admin/held-prizes/{id}/release", () => {
  it("puts the amount in the balance once, tells the player, and shows it paid", async () => {
    const op = await makeOperator();
    const { player, tournament, prizeId } = await heldPrize({ balanceCents: 1_000, prizeCents: 4_250 });

    const res = await release(op.cookie, prizeId);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ id: prizeId, userId: player.id, tournamentId: tournament.id, amount: 42.5, status: "completed" });
    expect(await balanceCents(player.id)).toBe(5_250);
    expect(await notificationsOf(player.id)).toEqual([
      { message: NOTIFY.prizeReleased("42.50", tournament.title), action: "prize_released", tournament_id: tournament.id },
    ]);

    const again = await release(op.cookie, prizeId);
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ code: "prize_not_held", message: FAIR_PLAY.prizeNotHeld });
    expect(await balanceCents(player.id)).toBe(5_250);
    expect(await notificationsOf(player.id)).toHaveLength(1);

    const mine = await call<UserTournamentEntry[]>("/api/user/tournaments", { cookie: player.cookie });
    expect(mine.body.find((e) => e.id === tournament.id)).toMatchObject({ prizeStatus: "paid", reviewReason: null });
    const wallet = await call("/api/user/transactions", { cookie: player.cookie });
    expect(wallet.body.find((t: { id: number }) => t.id === prizeId)).toMatchObject({ status: "completed", amount: 42.5 });
    expect((await call("/api/user/stats", { cookie: player.cookie })).body.totalEarnings).toBe(42.5);
  });

  it("applies once when several releases race", async () => {
    const op = await makeOperator();
    const { player, prizeId } = await heldPrize({ balanceCents: 0, prizeCents: 1_999 });
    const results = await Promise.all([1, 2, 3, 4].map(() => release(op.cookie, prizeId)));
    expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409, 409]);
    expect(await balanceCents(player.id)).toBe(1_999);
    expect(await notificationsOf(player.id)).toHaveLength(1);
  });

  it("is refused after a forfeit, and changes nothing", async () => {
    const op = await makeOperator();
    const { player, tournament, prizeId } = await heldPrize({ balanceCents: 300, prizeCents: 2_000 });
    expect((await forfeit(op.cookie, prizeId)).status).toBe(200);
    const res = await release(op.cookie, prizeId);
    expect(res.status).toBe(409);
    expect(res.body.code).toBe("prize_not_held");
    expect(await balanceCents(player.id)).toBe(300);
    expect(await statusOf(prizeId)).toBe("forfeited");
    expect(await houseRows(tournament.id, player.id)).toHaveLength(1);
    expect(await notificationsOf(player.id)).toHaveLength(1);
  });

  it("is 404 for an id that is not a prize", async () => {
    const op = await makeOperator();
    const player = await makePlayer({ balanceCents: 700 });
    const deposit = await one<{ id: number }>("SELECT id FROM transactions WHERE user_id = ?", player.id);
    for (const id of [deposit.id, 99_999_999]) {
      const res = await release(op.cookie, id);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ code: "held_prize_not_found", message: FAIR_PLAY.heldPrizeNotFound });
    }
    expect(await balanceCents(player.id)).toBe(700);
  });

  it("is 409 for a prize that was paid at settlement, never held", async () => {
    const op = await makeOperator();
    const player = await makePlayer();
    const t = await settledTournament();
    const id = (await settleParticipant(t, player, { prizeCents: 800, flags: null, prizeRow: "completed" }))!;
    expect((await release(op.cookie, id)).status).toBe(409);
    expect((await forfeit(op.cookie, id)).status).toBe(409);
    expect(await balanceCents(player.id)).toBe(800);
    expect(await houseRows(t.id, player.id)).toEqual([]);
  });
});

describe("POST /api/admin/held-prizes/{id}/forfeit", () => {
  it("moves nothing to the player, records the house row once, and tells the player", async () => {
    const op = await makeOperator();
    const { player, tournament, prizeId } = await heldPrize({ balanceCents: 1_000, prizeCents: 4_250 });

    const res = await forfeit(op.cookie, prizeId, "  Ten sub-second perfect answers.  ");
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ id: prizeId, status: "forfeited", amount: 42.5 });
    expect(await balanceCents(player.id)).toBe(1_000);
    expect(await houseRows(tournament.id, player.id)).toEqual([
      {
        amount_cents: 4_250,
        type: "forfeited_prize",
        tournament_id: tournament.id,
        description: FAIR_PLAY.forfeitedPrize(tournament.title, "Ten sub-second perfect answers."),
      },
    ]);
    expect(await notificationsOf(player.id)).toEqual([
      { message: NOTIFY.prizeForfeited(tournament.title), action: "prize_forfeited", tournament_id: tournament.id },
    ]);

    const again = await forfeit(op.cookie, prizeId);
    expect(again.status).toBe(409);
    expect(again.body.code).toBe("prize_not_held");
    expect(await houseRows(tournament.id, player.id)).toHaveLength(1);
    expect(await notificationsOf(player.id)).toHaveLength(1);

    const mine = await call<UserTournamentEntry[]>("/api/user/tournaments", { cookie: player.cookie });
    expect(mine.body.find((e) => e.id === tournament.id)).toMatchObject({
      prizeStatus: "forfeited",
      reviewReason: REVIEW_REASON.answer_timing,
    });
    const ledger = await call("/api/admin/house-ledger", { cookie: op.cookie });
    expect(ledger.body.find((r: { reference: string }) => r.reference === `forfeit:${tournament.id}:${player.id}`)).toMatchObject({
      type: "forfeited_prize",
      amount: 42.5,
      tournamentId: tournament.id,
    });
  });

  it("is refused after a release, with no house row", async () => {
    const op = await makeOperator();
    const { player, tournament, prizeId } = await heldPrize({ balanceCents: 0, prizeCents: 1_500 });
    expect((await release(op.cookie, prizeId)).status).toBe(200);
    const res = await forfeit(op.cookie, prizeId);
    expect(res.status).toBe(409);
    expect(res.body.code).toBe("prize_not_held");
    expect(await balanceCents(player.id)).toBe(1_500);
    expect(await houseRows(tournament.id, player.id)).toEqual([]);
    expect(await statusOf(prizeId)).toBe("completed");
  });

  it("lets exactly one of a release and a forfeit racing win", async () => {
    const op = await makeOperator();
    const { player, tournament, prizeId } = await heldPrize({ balanceCents: 0, prizeCents: 1_200 });
    const [r, f] = await Promise.all([release(op.cookie, prizeId), forfeit(op.cookie, prizeId), release(op.cookie, prizeId)]);
    expect([r.status, f.status].filter((s) => s === 200)).toHaveLength(1);
    const released = (await statusOf(prizeId)) === "completed";
    expect(await balanceCents(player.id)).toBe(released ? 1_200 : 0);
    expect(await houseRows(tournament.id, player.id)).toHaveLength(released ? 0 : 1);
    expect(await notificationsOf(player.id)).toHaveLength(1);
  });

  it.each([
    ["missing", undefined],
    ["too short", "no"],
    ["blank", "      "],
    ["too long", "x".repeat(501)],
  ])("refuses a reason %s", async (_name, reason) => {
    const op = await makeOperator();
    const { player, prizeId } = await heldPrize();
    const res = await call(`/api/admin/held-prizes/${prizeId}/forfeit`, {
      cookie: op.cookie,
      body: reason === undefined ? {} : { reason },
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ code: "invalid_request", message: FAIR_PLAY.forfeitReasonLength });
    expect(await statusOf(prizeId)).toBe("held");
    expect(await countRows("SELECT 1 FROM notifications WHERE user_id = ?", player.id)).toBe(0);
  });
});

describe("GET /api/admin/held-prizes", () => {
  it("lists the held ones by default, newest first, with the flags; status=all adds the reviewed ones", async () => {
    const op = await makeOperator();
    const older = await heldPrize({ prizeCents: 1_000 });
    const newer = await heldPrize({
      prizeCents: 2_000,
      flags: [TIMING_FLAG, { kind: "shared_network", detail: "same address", otherUserId: older.player.id }],
    });
    const done = await heldPrize({ prizeCents: 3_000 });
    expect((await release(op.cookie, done.prizeId)).status).toBe(200);
    const paidNormally = await makePlayer();
    const t = await settledTournament();
    const normalId = (await settleParticipant(t, paidNormally, { prizeCents: 500, flags: null, prizeRow: "completed" }))!;

    const res = await call<HeldPrize[]>("/api/admin/held-prizes", { cookie: op.cookie });
    expect(res.status).toBe(200);
    const ids = res.body.map((p) => p.id);
    expect(ids).not.toContain(done.prizeId);
    expect(ids).not.toContain(normalId);
    expect(ids.indexOf(newer.prizeId)).toBeLessThan(ids.indexOf(older.prizeId));
    expect(ids.indexOf(older.prizeId)).toBeGreaterThanOrEqual(0);
    expect(res.body.every((p) => p.status === "held")).toBe(true);
    expect(res.body.find((p) => p.id === newer.prizeId)).toEqual({
      id: newer.prizeId,
      userId: newer.player.id,
      username: newer.player.username,
      tournamentId: newer.tournament.id,
      tournamentTitle: newer.tournament.title,
      amount: 20,
      status: "held",
      flags: [TIMING_FLAG, { kind: "shared_network", detail: "same address", otherUserId: older.player.id }],
      createdAt: expect.any(String),
    });

    const everything = await call<HeldPrize[]>("/api/admin/held-prizes?status=all", { cookie: op.cookie });
    expect(everything.body.find((p) => p.id === done.prizeId)).toMatchObject({ status: "completed", amount: 30 });
    expect(everything.body.map((p) => p.id)).not.toContain(normalId);
    expect((await call(`/api/admin/held-prizes?status=held`, { cookie: op.cookie })).body.map((p: HeldPrize) => p.id)).toEqual(ids);

    const bad = await call("/api/admin/held-prizes?status=lost", { cookie: op.cookie });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ code: "invalid_request", message: FAIR_PLAY.heldPrizeStatus });
  });
});

describe("operators only", () => {
  it("refuses a player (403) and a visitor (401), and changes nothing", async () => {
    const { player, prizeId } = await heldPrize({ balanceCents: 0 });
    for (const [path, body] of [
      ["/api/admin/held-prizes", undefined],
      [`/api/admin/held-prizes/${prizeId}/release`, {}],
      [`/api/admin/held-prizes/${prizeId}/forfeit`, { reason: "Because I said so" }],
    ] as const) {
      const method = body === undefined ? "GET" : "POST";
      const asPlayer = await call(path, { cookie: player.cookie, method, body });
      expect(asPlayer.status).toBe(403);
      expect(asPlayer.body.code).toBe("forbidden");
      expect((await call(path, { method, body })).status).toBe(401);
    }
    expect(await balanceCents(player.id)).toBe(0);
    expect(await statusOf(prizeId)).toBe("held");
  });
});
