// Journey 10: fair play you can check. Before the start the tournament page shows the fairness
// commitment; a player plays the self-paced tournament to settlement; afterwards "Verify
// fairness" recomputes the commitment in the browser from the revealed questions and says it
// matches the one published before the start, and the player's answer receipts check out as genuine.
import type { PlayerQuestion, TournamentDetail } from "../common/api/tournaments";
import { VERIFY_FAIRNESS } from "../common/messages";
import { createAccount, createTournament, expect, joinByApi, signIn, test, uniqueName, type Account } from "./fixtures";

async function detailOf(player: Account, id: number): Promise<TournamentDetail> {
  const res = await player.api.get(`/api/tournaments/${id}`);
  expect(res.ok(), await res.text()).toBe(true);
  return (await res.json()) as TournamentDetail;
}

/** Plays every question through the API at once (the first option each time), then finishes. */
async function playThrough(player: Account, id: number): Promise<number> {
  let answered = 0;
  for (;;) {
    const next = await player.api.post(`/api/tournaments/${id}/next`);
    if (next.status() === 409) break; // no_more_questions
    expect(next.ok(), await next.text()).toBe(true);
    const q = (await next.json()) as PlayerQuestion;
    const res = await player.api.post(`/api/tournaments/${id}/answer`, { data: { questionId: q.id, answer: q.options[0] } });
    expect(res.ok(), await res.text()).toBe(true);
    answered++;
    if (q.index + 1 >= q.total) break;
  }
  const done = await player.api.post(`/api/tournaments/${id}/complete`);
  expect(done.ok(), await done.text()).toBe(true);
  return answered;
}

test("verify fairness: the commitment published before the start matches the revealed questions after settlement", async ({
  page,
  context,
}) => {
  test.setTimeout(180_000);
  const player = await createAccount("fair");
  // Free, so it starts at its start time without a minimum of players; self-paced, so one player finishes it at once.
  const t = await createTournament({ title: `Fair Cup ${uniqueName("f")}`, format: "self_paced", startsInMs: 20_000 });
  await joinByApi(player, t.id);
  await signIn(context, player);

  // Before the start: the commitment, as the tournament page publishes it.
  await page.goto(`/tournaments/${t.id}`);
  await expect(page.getByRole("heading", { level: 1, name: t.title })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Fairness commitment" })).toBeVisible();
  const published = (await page.getByTestId("fairness-commitment").textContent())?.trim() ?? "";
  expect(published).toMatch(/^[0-9a-f]{64}$/);
  expect((await detailOf(player, t.id)).fairnessCommitment).toBe(published);

  // Live at its start time; the one player plays all of it and the tournament settles.
  await expect.poll(async () => (await detailOf(player, t.id)).status, { timeout: 90_000, intervals: [1_000] }).toBe("live");
  expect(await playThrough(player, t.id)).toBeGreaterThan(0);
  await expect.poll(async () => (await detailOf(player, t.id)).status, { timeout: 60_000, intervals: [1_000] }).toBe("completed");

  // After: the page offers the check, and the hash recomputed in the browser matches.
  await page.goto(`/tournaments/${t.id}`);
  await expect(page.getByRole("heading", { name: "Tournament Ended" })).toBeVisible();
  await page.getByRole("button", { name: "Verify fairness" }).click();
  const result = page.getByTestId("fairness-result");
  await expect(result.getByText(VERIFY_FAIRNESS.matches)).toBeVisible({ timeout: 15_000 });
  await expect(result.getByText(VERIFY_FAIRNESS.mismatch)).toHaveCount(0);
  // Published and recomputed: the same fingerprint twice.
  await expect(result.getByText(published, { exact: true })).toHaveCount(2);
  await expect(result.getByRole("row")).not.toHaveCount(1);

  // The player's receipts on the dashboard are the server's own.
  await page.goto("/dashboard?tab=tournaments");
  const row = page.getByRole("listitem").filter({ hasText: t.title }).filter({ hasText: "Completed" });
  await row.getByRole("button", { name: "Answer receipts" }).click();
  const receipts = page.getByRole("list", { name: `Answer receipts of ${t.title}` }).getByRole("listitem");
  await expect(receipts.first()).toBeVisible();
  await receipts.first().getByRole("button", { name: "Check" }).click();
  await expect(receipts.first().getByText(VERIFY_FAIRNESS.receiptGenuine)).toBeVisible();
});
