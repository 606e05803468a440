/// <reference lib="dom" />
// Journey 20: the host's tools in a live show. An operator watches the show in the console's live
// view, pauses it before the next question (the player sees "Paused by the host"), voids question 1
// (its reveal says it counts for nobody), and resumes; the player, in a second browser, answers
// questions 1 and 2 right, and the settlement counts only question 2.
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { Page } from "@playwright/test";
import type { LeaderboardRow } from "../common/api/tournaments";
import { PLAY } from "../common/messages";
import { HOST_TOOLS } from "../common/console-messages";
import {
  asOperator,
  completeByApi,
  createAccount,
  createTournament,
  expect,
  freshTotp,
  joinByApi,
  newOperator,
  signIn,
  test,
  uniqueName,
} from "./fixtures";

/** Question text to its right answer, from the question bank the e2e database is seeded with. */
const BANK = new Map<string, string>();
const bankDir = fileURLToPath(new URL("../worker/seed/questions/", import.meta.url));
for (const file of readdirSync(bankDir)) {
  for (const q of JSON.parse(readFileSync(`${bankDir}${file}`, "utf8")) as { question: string; correctAnswer: string }[]) {
    BANK.set(q.question, q.correctAnswer);
  }
}

/** Answers the open question right, as the player sees it, and waits for the answer to lock. */
async function answerRight(page: Page) {
  const question = page.getByTestId("live-question");
  await expect(question).toBeVisible({ timeout: 60_000 });
  const text = (await question.textContent())!.trim();
  const correct = BANK.get(text);
  expect(correct, `the seeded question "${text}"`).toBeDefined();
  await page.getByRole("button", { name: correct!, exact: true }).click();
  await expect(page.getByTestId("answer-locked")).toBeVisible();
}

test("an operator pauses a live show, voids a question mid-show, and the settlement counts the other questions only", async ({
  page,
  newPlayerContext,
}) => {
  test.setTimeout(240_000);
  const [op, alice] = await Promise.all([newOperator("host"), createAccount("alice")]);
  const t = await createTournament({ title: `Host Show ${uniqueName("h")}`, format: "live_show", durationMinutes: 10, startsInMs: 30_000 });
  await joinByApi(alice, t.id);

  // The player, in her own browser.
  const aliceContext = await newPlayerContext("alice");
  await signIn(aliceContext, alice);
  const player = await aliceContext.newPage();
  await player.goto(`/tournaments/${t.id}/play`);
  await expect(player.getByTestId("live-waiting")).toBeVisible();

  // The operator signs in with a password and a code, and opens the tournament's live view.
  await page.goto("/auth");
  await page.getByLabel("Username").fill(op.username);
  await page.getByLabel("Password").fill(op.password);
  await page.getByRole("button", { name: "Sign In" }).click();
  const code = page.getByLabel("Two-factor code (or a recovery code)");
  await code.fill(await freshTotp(op.totpSecret));
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page.getByRole("banner").getByRole("link", { name: "Console" })).toBeVisible();
  await page.goto(`/admin/tournaments/${t.id}`);
  const tools = page.getByRole("region", { name: "Host tools" });

  // Question 1: the player answers it right.
  await answerRight(player);

  // The host pauses before the next question (the first change of the session asks to confirm it's you).
  await tools.getByRole("button", { name: "Pause before the next question" }).click();
  const stepUp = page.getByRole("dialog", { name: "Confirm it's you" });
  await stepUp.getByLabel("Password").fill(op.password);
  await stepUp.getByLabel("Authentication code").fill(await freshTotp(op.totpSecret));
  await stepUp.getByRole("button", { name: "Confirm" }).click();
  await expect(stepUp).toBeHidden();
  await expect(tools.getByRole("button", { name: "Resume the show" })).toBeVisible();
  await expect(player.getByTestId("paused-by-host")).toContainText(PLAY.pausedByHost);

  // ...and voids question 1 with a reason, while it is still open.
  await tools.getByRole("button", { name: "Void question 1" }).click();
  const dialog = page.getByRole("dialog", { name: "Void question 1?" });
  await dialog.getByLabel(HOST_TOOLS.reasonLabel).fill("Two of the options were right");
  await dialog.getByRole("button", { name: "Void it" }).click();
  await expect(dialog).toBeHidden();
  await expect(tools.getByText("Voided: Two of the options were right")).toBeVisible();

  // The reveal, when the window closes for everyone, says it counts for nobody; the show waits.
  const reveal = player.getByTestId("reveal");
  await expect(reveal).toBeVisible({ timeout: 45_000 });
  await expect(reveal.getByTestId("question-voided")).toHaveText(PLAY.questionVoided);
  await expect(reveal).not.toContainText("Correct! +");
  await expect(reveal).toContainText(PLAY.pausedByHost);

  // Resumed: question 2 goes out after the reveal's countdown; the player answers it right.
  await tools.getByRole("button", { name: "Resume the show" }).click();
  await expect(player.getByTestId("paused-by-host")).toBeHidden();
  await expect(player.getByTestId("live-question")).toBeVisible({ timeout: 30_000 });
  await answerRight(player);
  await expect(reveal).toBeVisible({ timeout: 45_000 });
  const earned = Number(/Correct! \+(\d+) points/.exec((await reveal.textContent()) ?? "")?.[1]);
  expect(earned).toBeGreaterThan(100);

  // She stops here: the other questions count as timed out, and she was the only player, so it settles now.
  await completeByApi(alice, t.id);
  await expect(player.getByRole("heading", { name: "The show is over" })).toBeVisible({ timeout: 30_000 });
  const standings = player.getByRole("region", { name: "Final standings" });
  await expect(standings.getByRole("listitem").filter({ hasText: alice.username })).toContainText(String(earned));

  // The settled result counts question 2 only: its points, one question answered of the nine that count.
  const board = (await (await alice.api.get(`/api/tournaments/${t.id}/leaderboard`)).json()) as LeaderboardRow[];
  expect(board.find((r) => r.userId === alice.id)).toMatchObject({ score: earned, questionsAnswered: 1, rank: 1 });

  // The operator's export marks question 1 voided, with each answer's receipt.
  const csv = await asOperator(op, () => op.api.get(`/api/admin/tournaments/${t.id}/results.csv`));
  expect(csv.status()).toBe(200);
  const lines = (await csv.text()).trim().split("\r\n");
  expect(lines).toHaveLength(3);
  expect(lines[1]).toMatch(new RegExp(`^1,${alice.id},${alice.username},${earned},1,.*,false,,1,\\d+,.*,true,\\d+,true,"\\{`));
  expect(lines[2]).toMatch(/,2,\d+,.*,true,\d+,false,"\{/);
});
