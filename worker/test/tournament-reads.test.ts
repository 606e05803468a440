// Read APIs: the list and its filters, detail, categories, and the player-facing statistics,
// leaderboard and profiles computed from real results.
import { afterAll, describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import type { TournamentPage } from "../../common/api/tournaments";
import { PLAY } from "../../common/messages";
import { call } from "./helpers";
import {
  complete,
  join,
  ledgerMismatches,
  makeCategory,
  makePlayer,
  makePractice,
  makeTournament,
  play,
  type Player,
} from "./tournament-fixtures";

describe("tournament list and detail", () => {
  it("filters by category, level, price, status and search, and refuses bad values", async () => {
    const cat = await makeCategory(4);
    const other = await makeCategory(4);
    const now = Date.now();
    const free = await makeTournament(cat, { title: "Morning Quiz Free", startTime: now + 3_600_000, minLevel: 1 });
    const paid = await makeTournament(cat, {
      title: "Evening Cup",
      description: "Bring your A-game",
      entryFeeCents: 500,
      minLevel: 3,
      startTime: now + 7_200_000,
    });
    const premium = await makeTournament(cat, {
      title: "Grand 100% Final",
      entryFeeCents: 2000,
      minLevel: 5,
      status: "completed",
      startTime: now - 7_200_000,
    });
    const elite = await makeTournament(cat, {
      title: "Elite Masters",
      entryFeeCents: 5000,
      minLevel: 10,
      status: "live",
      startTime: now - 60_000,
    });
    const elsewhere = await makeTournament(other, { title: "Other Cup" });

    const ids = async (query: string) => (await call<TournamentPage>(`/api/tournaments${query}`)).body.items.map((t) => t.id);
    const mine = `category=${cat.slug}`;
    expect(await ids(`?${mine}`)).toEqual([elite.id, free.id, paid.id, premium.id]); // live, upcoming by start, then finished
    expect(await ids(`?categoryId=${cat.id}`)).toEqual(await ids(`?${mine}`));
    expect(await ids(`?category=${other.slug}`)).toEqual([elsewhere.id]);
    expect(await ids(`?${mine}&price=free`)).toEqual([free.id]);
    expect(await ids(`?${mine}&price=paid`)).toEqual([elite.id, paid.id, premium.id]);
    expect(await ids(`?${mine}&price=premium`)).toEqual([elite.id, premium.id]);
    expect(await ids(`?${mine}&status=completed`)).toEqual([premium.id]);
    expect(await ids(`?${mine}&minLevel=3&maxLevel=5`)).toEqual([paid.id, premium.id]);
    expect(await ids(`?${mine}&minLevel=10`)).toEqual([elite.id]);
    expect(await ids(`?${mine}&q=a-GAME`)).toEqual([paid.id]);
    expect(await ids(`?${mine}&q=100%25`)).toEqual([premium.id]);
    expect(await ids(`?${mine}&q=%25`)).toEqual([premium.id]); // % is literal, not a wildcard
    expect(await ids(`?${mine}&status=`)).toHaveLength(4);

    for (const bad of ["minLevel=0", "minLevel=x", "price=cheap", "status=done", "category=%27;drop", `q=${"x".repeat(101)}`]) {
      const res = await call(`/api/tournaments?${bad}`);
      expect(res.status, bad).toBe(400);
      expect(typeof res.body.message).toBe("string");
    }

    const shape = (await call<TournamentPage>(`/api/tournaments?${mine}&price=paid&status=upcoming`)).body.items[0]!;
    expect(shape).toEqual({
      id: paid.id,
      title: "Evening Cup",
      description: "Bring your A-game",
      categoryId: cat.id,
      categoryName: cat.name,
      entryFee: 5,
      prizePool: 0,
      maxParticipants: 50,
      currentParticipants: 0,
      minLevel: 3,
      startTime: new Date(now + 7_200_000).toISOString(),
      endTime: expect.any(String),
      status: "upcoming",
      imageUrl: null,
      isFree: false,
      kind: "standard",
      format: "self_paced",
      createdAt: expect.any(String),
    });
  });

  it("shows detail with the prize split, minimum, joined flag and question count; 404 when absent", async () => {
    const t = await makeTournament(await makeCategory(), { entryFeeCents: 1000 });
    const players: Player[] = [];
    for (let i = 0; i < 3; i++) {
      const p = await makePlayer({ balanceCents: 1000 });
      await join(p, t.id);
      players.push(p);
    }
    const signedOut = await call(`/api/tournaments/${t.id}`);
    // 3 x $10 x 85% = $25.50: 65/25/10 with the remainder to 1st.
    expect(signedOut.body).toMatchObject({
      prizePool: 25.5,
      prizeSplit: [16.58, 6.37, 2.55],
      minPlayers: 10,
      joined: false,
      questionCount: 10,
      currentParticipants: 3,
    });
    expect((await call(`/api/tournaments/${t.id}`, { cookie: players[0]!.cookie })).body.joined).toBe(true);

    const missing = await call("/api/tournaments/424242");
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ code: "tournament_not_found", message: PLAY.notFound });
    expect((await call("/api/tournaments/abc")).status).toBe(400);
    expect((await call("/api/tournaments/424242/participants")).status).toBe(404);
    expect((await call("/api/tournaments/424242/leaderboard")).status).toBe(404);

    const participants = (await call(`/api/tournaments/${t.id}/participants`)).body;
    expect(participants).toEqual(players.map((p) => ({ userId: p.id, username: p.username, level: 1, hasCompleted: false })));
    const board = (await call(`/api/tournaments/${t.id}/leaderboard`)).body;
    expect(board).toHaveLength(3);
    expect(board[0]).toEqual({
      userId: expect.any(Number),
      username: expect.any(String),
      level: 1,
      score: 0,
      questionsAnswered: 0,
      rank: 1,
      prize: 0,
    });
  });

  it("counts each category's upcoming and live tournaments, not its always-open practice entry", async () => {
    const cat = await makeCategory(4);
    await makePractice(cat);
    await makeTournament(cat);
    await makeTournament(cat, { status: "live", startTime: Date.now() - 1000 });
    await makeTournament(cat, { status: "completed", startTime: Date.now() - 3_600_000 });
    const list = (await call("/api/categories")).body;
    expect(list.find((c: any) => c.id === cat.id)).toEqual({
      id: cat.id,
      slug: cat.slug,
      name: cat.name,
      description: "Test category",
      icon: "brain",
      activeTournaments: 2,
    });
  });
});

describe("player statistics, leaderboard and profiles", () => {
  /** A free tournament with a house pool, played by the given plans ([right answers] each), settled early. */
  async function playedTournament(plans: [Player, number][], poolCents = 1000) {
    const cat = await makeCategory();
    const t = await makeTournament(cat, { startTime: Date.now() - 1000, prizePoolCents: poolCents });
    for (const [p] of plans) await join(p, t.id);
    for (const [p, right] of plans) {
      for (let i = 0; i < 4; i++) await play(p, t, i < right, 2000 + i * 1000);
    }
    for (const [p] of plans) await complete(p, t.id);
    return { t, cat };
  }

  it("computes stats from real answers and results", async () => {
    const [ana, bo] = [await makePlayer(), await makePlayer()];
    const fresh = await makePlayer();
    const { t, cat } = await playedTournament([
      [ana, 3],
      [bo, 1],
    ]);

    const stats = (await call("/api/user/stats", { cookie: ana.cookie })).body;
    expect(stats).toMatchObject({
      questionsAnswered: 4,
      correctAnswers: 3,
      favoriteCategory: cat.name,
      // Two players: 65% and 25%; the 3rd place's 10% stays with the house.
      totalEarnings: 6.5,
      rank: 1,
      winRate: 100,
      categoryStats: [{ categoryId: cat.id, category: cat.name, answered: 4, correct: 3, accuracy: 75 }],
    });
    // Answers took about 2, 3, 4 and 5 s.
    expect(stats.averageResponseTime).toBeGreaterThanOrEqual(3.5);
    expect(stats.averageResponseTime).toBeLessThan(4);
    expect(stats.fastestResponseTime).toBeGreaterThanOrEqual(2);
    expect(stats.fastestResponseTime).toBeLessThan(2.5);
    expect((await call("/api/user/stats", { cookie: bo.cookie })).body).toMatchObject({
      rank: 2,
      winRate: 0,
      totalEarnings: 2.5,
      correctAnswers: 1,
    });
    expect((await call("/api/user/stats", { cookie: fresh.cookie })).body).toMatchObject({
      questionsAnswered: 0,
      correctAnswers: 0,
      averageResponseTime: null,
      fastestResponseTime: null,
      favoriteCategory: null,
      totalEarnings: 0,
      rank: null,
      winRate: 0,
      categoryStats: [],
    });
    expect((await call("/api/user/stats")).status).toBe(401);

    const entries = (await call("/api/user/tournaments", { cookie: ana.cookie })).body;
    expect(entries).toEqual([
      {
        id: t.id,
        title: t.title,
        kind: "standard",
        finished: true,
        status: "completed",
        startTime: expect.any(String),
        endTime: expect.any(String),
        rank: 1,
        score: expect.any(Number),
        prize: 6.5,
        prizeStatus: "paid",
        reviewReason: null,
      },
    ]);
    expect(entries[0].score).toBeGreaterThan(300);
  });

  it("ranks the global leaderboard by prize then wins, honouring what players hide", async () => {
    const shy = await makePlayer({ preferences: { showLevel: false, showWins: false } });
    const open = await makePlayer();
    await playedTournament(
      [
        [shy, 4],
        [open, 0],
      ],
      5000,
    );
    const never = await makePlayer();
    const board = (await call("/api/leaderboard")).body as any[];
    expect(board.map((e) => e.id)).not.toContain(never.id);
    const shyRow = board.find((e) => e.id === shy.id);
    const openRow = board.find((e) => e.id === open.id);
    expect(board.indexOf(shyRow)).toBeLessThan(board.indexOf(openRow));
    expect(shyRow).toEqual({
      id: shy.id,
      username: shy.username,
      avatar: null,
      region: "Global",
      level: null,
      tournamentsPlayed: 1,
      tournamentsWon: null,
      totalPrize: 32.5,
    });
    expect(openRow).toMatchObject({ level: 1, tournamentsWon: 0, totalPrize: 12.5 });
    for (let i = 1; i < board.length; i++) expect(board[i - 1].totalPrize).toBeGreaterThanOrEqual(board[i].totalPrize);
  });

  it("shows public profiles with the visibility switches", async () => {
    const p = await makePlayer({ preferences: { showSocial: false, showWins: false } });
    await env.DB.prepare("UPDATE users SET bio = 'Hi', location = 'Lisbon, Portugal', social_links = ? WHERE id = ?")
      .bind(JSON.stringify({ github: "someone" }), p.id)
      .run();
    const res = await call(`/api/users/${p.username.toUpperCase()}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: p.id,
      username: p.username,
      avatar: null,
      bio: "Hi",
      location: "Lisbon, Portugal",
      level: 1,
      tournamentsPlayed: 0,
      tournamentsWon: null,
      socialLinks: null,
      createdAt: expect.any(String),
    });
    expect(res.text).not.toMatch(/email|password|balance/i);
    const visible = await makePlayer();
    await env.DB.prepare("UPDATE users SET social_links = ? WHERE id = ?")
      .bind(JSON.stringify({ github: "me" }), visible.id)
      .run();
    expect((await call(`/api/users/${visible.username}`)).body).toMatchObject({ socialLinks: { github: "me" }, tournamentsWon: 0 });
    expect((await call("/api/users/nobody-here")).status).toBe(404);
    expect((await call("/api/users/bad%20name")).status).toBe(400);
  });
});

afterAll(async () => {
  expect(await ledgerMismatches()).toEqual([]);
});
