/// <reference lib="dom" />
// Journey 24: the server dies mid-show and comes back (locally what a deploy does to every Durable
// Object and socket: docs/decisions/008-live-show-timing.md, "A restart mid-show"). Two players in
// two browsers; the server is SIGKILLed while question 1's window is open, after Alice has locked
// her answer and before Bob has answered, and started again on the same state. Both screens say
// they are reconnecting, then hold the same question on its original clock; Alice's answer is
// still locked, Bob answers inside the window, the reveal comes only after it, and the show runs
// to its end on its own clock with the final standings counting Alice's answer.
//
// The journeys' server (serve.ts) must not be killed: this journey runs a server of its own on
// E2E_PORT + 1, with its own state under the journeys' state directory.
import { rmSync } from "node:fs";
import type { Page } from "@playwright/test";
import type { LeaderboardRow, PlayerQuestion } from "../common/api/tournaments";
import { LIVE_SHOW_DURATION_MS, LIVE_SHOW_WINDOW_MS } from "../common/domain/live-show";
import { QUESTION_TIME_MS } from "../common/spec";
import { startDevServer, type DevServer } from "../scripts/dev-server";
import { E2E_PERSIST_TO, E2E_PORT, E2E_SERVER_VARS } from "./env";
import { createAccount, createTournament, expect, joinByApi, newOperator, signIn, test, uniqueName, type Account } from "./fixtures";
import { SEEDED_QUESTIONS, seenAt, watchFor } from "./live-show-helpers";

const PORT = E2E_PORT + 1;
const BASE = `http://localhost:${PORT}`;
/** Under the journeys' state directory, which serve.ts wipes at every run. */
const PERSIST_TO = `${E2E_PERSIST_TO}/restart-journey`;

// While the server is down the browsers' reconnect attempts (the play socket, the notification
// socket) and their HTTP requests fail, and Chromium logs each failure as a console error. They
// are what a person's browser does during a restart, so they are let through for this journey
// only, and the journey checks that every one of them was logged while the server was down (or
// within the client's reconnect wait after it came back): any other console error still fails it.
test.use({
  consoleErrorAllowed: new RegExp(
    `^WebSocket connection to 'ws://localhost:${PORT}/.*' failed|^Failed to load resource: net::ERR_(CONNECTION_REFUSED|CONNECTION_RESET|EMPTY_RESPONSE)$`,
  ),
});

/** The seconds the question's clock shows ("12 seconds left"). */
const secondsShown = async (page: Page) =>
  Number(/^(\d+) seconds left$/.exec((await page.getByRole("timer").getAttribute("aria-label")) ?? "")?.[1]);

/** The open question as the server holds it for this player (what the page asks for when it arrives). */
async function openQuestion(player: Account, tournamentId: number): Promise<PlayerQuestion> {
  const res = await player.api.post(`/api/tournaments/${tournamentId}/next`);
  expect(res.ok(), await res.text()).toBe(true);
  return (await res.json()) as PlayerQuestion;
}

const start = (prepared: boolean) =>
  startDevServer({
    port: PORT,
    persistTo: PERSIST_TO,
    demo: false,
    quiet: true,
    // serve.ts built the web app before any journey ran; a restart also skips the migrations and the seed.
    build: false,
    prepared,
    vars: E2E_SERVER_VARS,
    ownProcessGroup: true,
  });

let server: DevServer | null = null;
test.afterEach(async () => {
  await server?.kill();
  server = null;
});

test("the server is killed mid-show and started again: the window keeps its close time, the locked answer stays, the show ends on its clock", async ({
  newPlayerContext,
  consoleLog,
}) => {
  // The show's ten questions take LIVE_SHOW_DURATION_MS (about six minutes) after its start.
  test.setTimeout(LIVE_SHOW_DURATION_MS + 4 * 60_000);
  rmSync(PERSIST_TO, { recursive: true, force: true });
  server = await start(false);

  const [op, alice, bob] = await Promise.all([
    newOperator("host", { baseURL: BASE, persistTo: PERSIST_TO }),
    createAccount("alice", { baseURL: BASE }),
    createAccount("bob", { baseURL: BASE }),
  ]);
  // Free, so it starts at its start time without a minimum of players.
  const t = await createTournament(
    { title: `Restart Show ${uniqueName("r")}`, format: "live_show", durationMinutes: 10, startsInMs: 20_000 },
    op,
  );
  await Promise.all([joinByApi(alice, t.id), joinByApi(bob, t.id)]);

  const pages: Page[] = [];
  for (const [label, account] of [
    ["alice", alice],
    ["bob", bob],
  ] as const) {
    const context = await newPlayerContext(label, { baseURL: BASE });
    await signIn(context, account);
    const page = await context.newPage();
    await page.goto(`/tournaments/${t.id}/play`);
    await expect(page.getByTestId("live-waiting")).toBeVisible();
    pages.push(page);
  }
  const [alicePage, bobPage] = pages as [Page, Page];

  // Question 1 reaches both.
  for (const p of pages) await expect(p.getByTestId("live-question")).toBeVisible({ timeout: 60_000 });
  const text = (await alicePage.getByTestId("live-question").textContent())!.trim();
  await expect(bobPage.getByTestId("live-question")).toHaveText(text);
  const seeded = SEEDED_QUESTIONS.get(text);
  expect(seeded, `the seeded question "${text}"`).toBeDefined();
  const correct = seeded!.correctAnswer;
  const wrong = seeded!.options.find((o) => o !== correct)!;
  const q1 = await openQuestion(bob, t.id);
  const pushedAt = Date.parse(q1.issuedAt);
  const clockEndsAt = pushedAt + QUESTION_TIME_MS;

  // Alice locks her answer in; Bob has not answered yet.
  await alicePage.getByRole("button", { name: correct, exact: true }).click();
  await expect(alicePage.getByTestId("answer-locked")).toContainText(correct);
  await expect(bobPage.getByTestId("answer-locked")).toHaveCount(0);
  expect((await openQuestion(alice, t.id)).result).toMatchObject({ locked: true, answer: correct });
  for (const p of pages) await watchFor(p, "reveal");

  // The server dies with the window open: SIGKILL to wrangler and its workerd, nothing shuts down.
  const shownBefore = await secondsShown(bobPage);
  const killedAt = Date.now();
  expect(killedAt, "killed inside the window").toBeLessThan(clockEndsAt - 10_000);
  await server.kill();
  server = null;
  for (const p of pages) {
    await expect(p.getByText("Reconnecting...")).toBeVisible();
    await expect(p.getByTestId("live-question")).toHaveText(text);
  }

  // Started again on the same state and port.
  server = await start(true);
  const upAt = Date.now();
  expect(upAt, "back with time left in the window").toBeLessThan(clockEndsAt);

  // Both screens come back (the client's wait is at most 10 s) with the same question on its original clock.
  for (const p of pages) {
    await expect(p.getByText("Reconnecting...")).toBeHidden({ timeout: 15_000 });
    await expect(p.getByTestId("live-question")).toHaveText(text);
    const shown = await secondsShown(p);
    const expected = Math.ceil((clockEndsAt - Date.now()) / 1000);
    expect(Math.abs(shown - expected), `${shown} s shown, ${expected} s left on the original clock`).toBeLessThanOrEqual(1);
    expect(shown).toBeLessThan(shownBefore);
  }
  // The server holds the same question with the same times: the window was not restarted.
  const again = await openQuestion(bob, t.id);
  expect(again).toMatchObject({ id: q1.id, issuedAt: q1.issuedAt, deadline: q1.deadline });
  expect(again.remainingMs).toBeLessThan(q1.remainingMs);

  // Alice's answer is still locked, in the room: a fresh page shows it from the server.
  await alicePage.reload();
  await expect(alicePage.getByTestId("live-question")).toHaveText(text);
  await expect(alicePage.getByTestId("answer-locked")).toContainText(correct);
  await watchFor(alicePage, "reveal");

  // Bob answers inside the window, after the restart; nobody learns anything yet.
  await bobPage.getByRole("button", { name: wrong, exact: true }).click();
  await expect(bobPage.getByTestId("answer-locked")).toContainText(wrong);
  expect(Date.now()).toBeLessThan(pushedAt + LIVE_SHOW_WINDOW_MS);
  for (const p of pages) await expect(p.getByTestId("reveal")).toHaveCount(0);

  // The reveal: only once the window has closed, with each player's own result.
  const results: [Page, RegExp | string][] = [
    [alicePage, /Correct! \+\d+ points/],
    [bobPage, "Wrong answer"],
  ];
  for (const [p, result] of results) {
    const reveal = p.getByTestId("reveal");
    await expect(reveal).toBeVisible({ timeout: 45_000 });
    await expect(reveal).toContainText(correct);
    await expect(reveal).toContainText(result);
    expect(await seenAt(p, "reveal")).toBeGreaterThanOrEqual(pushedAt + LIVE_SHOW_WINDOW_MS);
  }
  const earned = Number(/Correct! \+(\d+) points/.exec((await alicePage.getByTestId("reveal").textContent()) ?? "")?.[1]);
  expect(earned).toBeGreaterThan(100);

  // Every console error let through was the restart's: logged while the server was down, or in
  // the client's reconnect wait (at most 10 s) after it came back.
  expect(consoleLog.allowed.length, "the browsers' failed reconnects while the server was down").toBeGreaterThan(0);
  for (const e of consoleLog.allowed) {
    expect(e.at, e.line).toBeGreaterThanOrEqual(killedAt);
    expect(e.at, e.line).toBeLessThanOrEqual(upAt + 10_000);
  }

  // The other nine questions run on the show's clock with nobody answering; the show ends when
  // its clock says, counted from question 1's push, and not before.
  for (const p of pages) await expect(p.getByRole("heading", { name: "The show is over" })).toBeVisible({ timeout: LIVE_SHOW_DURATION_MS });
  const overAt = Date.now();
  expect(overAt).toBeGreaterThanOrEqual(pushedAt + LIVE_SHOW_DURATION_MS);
  expect(overAt).toBeLessThan(pushedAt + LIVE_SHOW_DURATION_MS + 30_000);

  // The final standings count Alice's answer locked before the restart, and Bob's given after it.
  for (const p of pages) {
    const standings = p.getByRole("region", { name: "Final standings" });
    await expect(standings.getByRole("listitem").filter({ hasText: alice.username })).toContainText(String(earned));
  }
  const board = (await (await alice.api.get(`/api/tournaments/${t.id}/leaderboard`)).json()) as LeaderboardRow[];
  expect(board.find((r) => r.userId === alice.id)).toMatchObject({ score: earned, questionsAnswered: 1, rank: 1 });
  expect(board.find((r) => r.userId === bob.id)).toMatchObject({ score: 0, questionsAnswered: 1, rank: 2 });
});
