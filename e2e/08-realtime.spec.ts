// Journey 8: real time. A signed-in player who joined a tournament starting seconds later sees
// the notification card when it starts, without reloading.
import { createAccount, createTournament, expect, expectToast, signIn, test, uniqueName } from "./fixtures";

test("a tournament starting shows the notification card to a signed-in player", async ({ page, context }) => {
  const player = await createAccount("listener");
  await signIn(context, player);
  // Free: no minimum of players, so it starts at its start time with just this player.
  const t = await createTournament({ title: `Starts Soon ${uniqueName("s")}`, startsInMs: 20_000 });

  await page.goto(`/tournaments/${t.id}`);
  await expect(page.getByRole("heading", { level: 1, name: t.title })).toBeVisible();
  await expect(page.getByText("FREE Entry")).toBeVisible();
  await page.getByRole("button", { name: "Join Tournament" }).click();
  await expectToast(page, "Joined tournament", "You have been registered for this tournament.");
  await expect(page.getByText("You're registered for this tournament")).toBeVisible();
  await page.goto("/dashboard?tab=tournaments");
  await expect(page.getByRole("listitem").filter({ hasText: t.title }).filter({ hasText: "Joined" })).toBeVisible();

  // The start arrives over /ws: the card at the bottom right with the message and a LIVE badge.
  const card = page.getByRole("status").filter({ hasText: `${t.title} has started. Good luck!` });
  await expect(card).toBeVisible({ timeout: 45_000 });
  await expect(card.getByText("LIVE", { exact: true })).toBeVisible();
  await expect(card.getByRole("link", { name: "View tournament" })).toHaveAttribute("href", `/tournaments/${t.id}`);
  // The page behind it caught up too: the joined tournament can be played now.
  await expect(page.getByRole("listitem").filter({ hasText: t.title }).getByRole("link", { name: "Play Now" })).toBeVisible();

  await card.getByRole("button", { name: "Dismiss notification" }).click();
  await expect(card).toBeHidden();
});
