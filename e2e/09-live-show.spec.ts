/// <reference lib="dom" />
// Journey 9: a live show in two browsers. Both players wait in the waiting room, get question 1
// at the same moment, lock in their answers without learning whether they were right, and see
// the correct answer only when the window has closed for everyone. Also at phone width.
import type { Page } from "@playwright/test";
import { FORMAT_LABEL } from "../common/messages";
import { QUESTION_TIME_MS } from "../common/spec";
import { createAccount, createTournament, expect, joinByApi, signIn, test, uniqueName } from "./fixtures";
import { SEEDED_QUESTIONS, seenAt, watchFor } from "./live-show-helpers";

test("a live show: every player gets the question at the same moment and the answer only after the window @mobile", async ({
  page,
  context,
  newPlayerContext,
}) => {
  test.setTimeout(150_000);
  const [alice, bob] = await Promise.all([createAccount("alice"), createAccount("bob")]);
  // Free, so it starts at its start time without a minimum of players.
  const t = await createTournament({ title: `Live Show ${uniqueName("l")}`, format: "live_show", durationMinutes: 10, startsInMs: 30_000 });
  expect(t.format).toBe("live_show");
  await Promise.all([joinByApi(alice, t.id), joinByApi(bob, t.id)]);

  await signIn(context, alice);
  const bobContext = await newPlayerContext("bob");
  await signIn(bobContext, bob);
  const bobPage = await bobContext.newPage();

  await page.goto(`/tournaments/${t.id}`);
  await expect(page.getByText(FORMAT_LABEL.live_show.description).first()).toBeVisible();
  const players: [Page, "right" | "wrong"][] = [
    [page, "right"],
    [bobPage, "wrong"],
  ];
  for (const [p] of players) {
    await p.goto(`/tournaments/${t.id}/play`);
    await expect(p.getByTestId("live-waiting")).toBeVisible();
    await watchFor(p, "live-question");
  }

  // Question 1 reaches both browsers together.
  for (const [p] of players) await expect(p.getByTestId("live-question")).toBeVisible({ timeout: 60_000 });
  const [aliceSaw, bobSaw] = await Promise.all(players.map(([p]) => seenAt(p, "live-question")));
  expect(Math.abs(aliceSaw! - bobSaw!)).toBeLessThanOrEqual(1000);
  const text = (await page.getByTestId("live-question").textContent())!.trim();
  expect(await bobPage.getByTestId("live-question").textContent()).toContain(text);
  const seeded = SEEDED_QUESTIONS.get(text);
  expect(seeded, `the seeded question "${text}"`).toBeDefined();
  const correct = seeded!.correctAnswer;
  const wrong = seeded!.options.find((o) => o !== correct)!;

  // Each locks an answer in and learns nothing about it yet.
  for (const [p, plan] of players) {
    await watchFor(p, "reveal");
    await p.getByRole("button", { name: plan === "right" ? correct : wrong, exact: true }).click();
    await expect(p.getByTestId("answer-locked")).toBeVisible();
    await expect(p.getByTestId("reveal")).toHaveCount(0);
  }

  // The reveal: only after the 30 s window, with the answer and each player's own result.
  for (const [p, plan] of players) {
    const reveal = p.getByTestId("reveal");
    await expect(reveal).toBeVisible({ timeout: 45_000 });
    await expect(reveal).toContainText(correct);
    await expect(reveal).toContainText(plan === "right" ? /Correct! \+\d+ points/ : "Wrong answer");
    expect((await seenAt(p, "reveal")) - (await seenAt(p, "live-question"))).toBeGreaterThanOrEqual(QUESTION_TIME_MS);
    // Nothing spills sideways, also at 375 px.
    expect(await p.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  }
});
