/// <reference lib="dom" />
// Journey 25: a live show past one room (docs/decisions/011-one-tournament-past-one-durable-object.md,
// "Built"). The journeys' server runs with TOURNAMENT_SHARD_SIZE 100 (e2e/env.ts), so a show of 300
// seats has a coordinator and three play shards. Two players whose seats are on different shards
// play in their own browsers: each question reaches both screens within a second, the reveal comes
// only once the window has closed, both screens show the same merged board (both players, the same
// ranks), and after the show both see the same final standings.
import { execFileSync } from "node:child_process";
import type { Page } from "@playwright/test";
import type { LeaderboardRow, PlayerQuestion } from "../common/api/tournaments";
import { LIVE_SHOW_DURATION_MS, LIVE_SHOW_WINDOW_MS } from "../common/domain/live-show";
import { shardCount, shardOf } from "../common/domain/shards";
import { E2E_PERSIST_TO, E2E_SERVER_VARS } from "./env";
import { createAccount, createTournament, expect, joinByApi, signIn, test, uniqueName, type Account } from "./fixtures";
import { SEEDED_QUESTIONS, seenAt, watchFor } from "./live-show-helpers";

/** Seats of the show: three shards' worth. */
const SEATS = 3 * Number(E2E_SERVER_VARS.TOURNAMENT_SHARD_SIZE);
const SHARDS = shardCount("live_show", SEATS, Number(E2E_SERVER_VARS.TOURNAMENT_SHARD_SIZE));
/**
 * The continent wrangler dev gives every local request (request.cf.continent): with no network it
 * uses miniflare's fallback request.cf, Austin in North America. The journey checks it against the
 * shards the server stored.
 */
const LOCAL_CONTINENT = "NA";

/** The open question as the player's shard holds it. */
async function openQuestion(player: Account, tournamentId: number): Promise<PlayerQuestion> {
  const res = await player.api.post(`/api/tournaments/${tournamentId}/next`);
  expect(res.ok(), await res.text()).toBe(true);
  return (await res.json()) as PlayerQuestion;
}

/** The seats' shards as the server stored them at the join, read from the e2e database as admin:grant writes it. */
function storedShards(tournamentId: number): Map<number, number> {
  const sql = `SELECT user_id, shard FROM tournament_participants WHERE tournament_id = ${tournamentId}`;
  const out = execFileSync(
    "npx",
    ["wrangler", "d1", "execute", "DB", "--local", "--persist-to", E2E_PERSIST_TO, "--json", "--command", sql],
    {
      stdio: ["ignore", "pipe", "pipe"],
    },
  ).toString();
  const rows = (JSON.parse(out) as { results: { user_id: number; shard: number }[] }[])[0]!.results;
  return new Map(rows.map((r) => [r.user_id, r.shard]));
}

test("a sharded live show: two players on different play shards get each question together, the reveal after the window and the same merged board", async ({
  page,
  context,
  newPlayerContext,
}) => {
  test.setTimeout(LIVE_SHOW_DURATION_MS + 3 * 60_000);
  expect(SHARDS).toBe(3);

  // Two players the product places on different shards from this machine's continent (accounts are
  // made until the hash of their ids differs; about half of the pairs do).
  const alice = await createAccount("alice");
  let bob = await createAccount("bob");
  for (let i = 0; shardOf(bob.id, LOCAL_CONTINENT, SHARDS) === shardOf(alice.id, LOCAL_CONTINENT, SHARDS); i++) {
    expect(i, "a second player on another shard").toBeLessThan(20);
    bob = await createAccount("bob");
  }

  // Free, so it starts at its start time without a minimum of players.
  const t = await createTournament({
    title: `Sharded Show ${uniqueName("s")}`,
    format: "live_show",
    durationMinutes: 10,
    maxParticipants: SEATS,
    startsInMs: 30_000,
  });
  await Promise.all([joinByApi(alice, t.id), joinByApi(bob, t.id)]);
  // The server stored each seat on the shard computed here: on different shards, really.
  const shards = storedShards(t.id);
  expect(shards.get(alice.id)).toBe(shardOf(alice.id, LOCAL_CONTINENT, SHARDS));
  expect(shards.get(bob.id)).toBe(shardOf(bob.id, LOCAL_CONTINENT, SHARDS));
  expect(shards.get(alice.id)).not.toBe(shards.get(bob.id));

  await signIn(context, alice);
  const bobContext = await newPlayerContext("bob");
  await signIn(bobContext, bob);
  const bobPage = await bobContext.newPage();
  const players: [Page, Account][] = [
    [page, alice],
    [bobPage, bob],
  ];
  for (const [p] of players) {
    await p.goto(`/tournaments/${t.id}/play`);
    await expect(p.getByTestId("live-waiting")).toBeVisible();
    await watchFor(p, "live-question");
  }

  // Two questions: Alice answers the first right and Bob wrong, then the other way round.
  let previous: string | null = null;
  const scores = new Map<number, number>();
  for (const [n, aliceRight] of [
    [1, true],
    [2, false],
  ] as const) {
    // The question reaches both browsers, from their two shards, within a second.
    for (const [p] of players) {
      await expect(p.getByTestId("live-question")).toBeVisible({ timeout: 60_000 });
      if (previous !== null) await expect(p.getByTestId("live-question")).not.toHaveText(previous, { timeout: 30_000 });
    }
    const [aliceSaw, bobSaw] = await Promise.all(players.map(([p]) => seenAt(p, "live-question")));
    expect(Math.abs(aliceSaw! - bobSaw!), `question ${n} on both screens`).toBeLessThanOrEqual(1000);
    const text = (await page.getByTestId("live-question").textContent())!.trim();
    await expect(bobPage.getByTestId("live-question")).toHaveText(text);
    const seeded = SEEDED_QUESTIONS.get(text);
    expect(seeded, `the seeded question "${text}"`).toBeDefined();
    const correct = seeded!.correctAnswer;
    const wrong = seeded!.options.find((o) => o !== correct)!;
    // Both shards opened it at the same announced time.
    const [qa, qb] = await Promise.all([openQuestion(alice, t.id), openQuestion(bob, t.id)]);
    expect(qa).toMatchObject({ id: qb.id, issuedAt: qb.issuedAt, deadline: qb.deadline });
    const closesAt = Date.parse(qa.issuedAt) + LIVE_SHOW_WINDOW_MS;

    // Each locks an answer in and learns nothing about it yet.
    for (const [p, account] of players) {
      await watchFor(p, "reveal");
      const right = (account === alice) === aliceRight;
      await p.getByRole("button", { name: right ? correct : wrong, exact: true }).click();
      await expect(p.getByTestId("answer-locked")).toBeVisible();
      await expect(p.getByTestId("reveal")).toHaveCount(0);
    }

    // The reveal: only once the window has closed, with each player's own result.
    for (const [p, account] of players) {
      const reveal = p.getByTestId("reveal");
      await expect(reveal).toBeVisible({ timeout: 45_000 });
      await expect(reveal).toContainText(correct);
      await expect(reveal).toContainText((account === alice) === aliceRight ? /Correct! \+\d+ points/ : "Wrong answer");
      expect(await seenAt(p, "reveal"), `question ${n}'s reveal not before its close`).toBeGreaterThanOrEqual(closesAt);
    }
    // How everyone answered counts both shards' players on both screens: one right, one wrong.
    for (const [p] of players) {
      const reveal = p.getByTestId("reveal");
      await expect(reveal.getByTestId("answers-counting")).toHaveCount(0, { timeout: 10_000 });
      await expect(reveal.getByRole("list", { name: "Answers per option" }).locator("li[data-correct]")).toContainText("1 · 50%");
    }

    // The merged board: both players on both screens, in the same order with the same ranks and
    // scores as the coordinator's leaderboard.
    // (The coordinator's board changes once every shard has reported the question: the player
    // who was right this time has more points than before.)
    const winner = aliceRight ? alice : bob;
    let board: LeaderboardRow[] = [];
    await expect
      .poll(
        async () => {
          board = (await (await alice.api.get(`/api/tournaments/${t.id}/leaderboard`)).json()) as LeaderboardRow[];
          return (board.find((r) => r.userId === winner.id)?.score ?? 0) > (scores.get(winner.id) ?? 0) && board.length === 2;
        },
        { message: `question ${n} merged into the leaderboard` },
      )
      .toBe(true);
    for (const r of board) scores.set(r.userId, r.score);
    const expected = [alice, bob].map((a) => board.find((r) => r.userId === a.id)!).sort((x, y) => x.rank - y.rank);
    expect(expected.map((r) => r.rank)).toEqual([1, 2]);
    for (const [p] of players) {
      const items = p.getByRole("region", { name: "Leaderboard" }).getByRole("listitem");
      await expect(items).toHaveCount(2);
      for (const [i, row] of expected.entries()) {
        await expect(items.nth(i)).toContainText(row.username);
        await expect(items.nth(i).locator("span").first()).toHaveText(String(row.rank));
        await expect(items.nth(i).locator("span").last()).toHaveText(String(row.score));
      }
    }
    previous = text;
    for (const [p] of players) await watchFor(p, "live-question", text);
  }

  // The other eight questions run on the show's clock with nobody answering; then both see the
  // same final standings, ranked as the settled leaderboard.
  for (const [p] of players)
    await expect(p.getByRole("heading", { name: "The show is over" })).toBeVisible({ timeout: LIVE_SHOW_DURATION_MS });
  const final = (await (await alice.api.get(`/api/tournaments/${t.id}/leaderboard`)).json()) as LeaderboardRow[];
  expect(final.map((r) => r.userId).sort()).toEqual([alice.id, bob.id].sort());
  expect(final.map((r) => r.rank).sort()).toEqual([1, 2]);
  expect(final.every((r) => r.questionsAnswered === 2)).toBe(true);
  for (const [p] of players) {
    const items = p.getByRole("region", { name: "Final standings" }).getByRole("listitem");
    await expect(items).toHaveCount(2);
    for (const [i, row] of [...final].sort((x, y) => x.rank - y.rank).entries()) {
      await expect(items.nth(i)).toContainText(row.username);
      await expect(items.nth(i).locator("span").first()).toHaveText(String(row.rank));
      await expect(items.nth(i).locator("span").last()).toHaveText(String(row.score));
    }
  }
});
