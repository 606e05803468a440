// Journey 5: the checks before joining. Below the level the Join button is disabled and its
// tooltip says why; without enough balance, and for a full tournament, the toasts say why.
import type { Page } from "@playwright/test";
import {
  createAccount,
  createTournament,
  depositSandbox,
  expect,
  expectToast,
  getTransactions,
  getUser,
  joinByApi,
  signIn,
  test,
} from "./fixtures";

/** Narrows the tournament list to one tournament by its (unique) title. */
async function findInList(page: Page, title: string) {
  await page.getByLabel("Search").fill(title);
  const titles = page.getByRole("main").getByRole("heading", { level: 3 });
  await expect(titles).toHaveCount(1);
  await expect(titles).toHaveText(title);
}

test("level gate: disabled button with its tooltip; insufficient balance and full tournament toasts", async ({ page, context }) => {
  const [gated, paid, full] = await Promise.all([
    createTournament({ title: `Level Three Open ${Date.now()}`, entryFee: 5, isFree: false, maxParticipants: 50, minLevel: 3 }),
    createTournament({ title: `Five Dollar Cup ${Date.now()}`, entryFee: 5, isFree: false, maxParticipants: 50, minLevel: 1 }),
    createTournament({ title: `Tiny Table ${Date.now()}`, maxParticipants: 2 }),
  ]);
  const [player, seatA, seatB] = await Promise.all([createAccount("rookie"), createAccount("seat"), createAccount("seat")]);
  await Promise.all([joinByApi(seatA, full.id), joinByApi(seatB, full.id)]);
  await signIn(context, player);

  // Level 1 against a level 3 tournament: disabled, and the tooltip explains.
  await page.goto("/tournaments");
  await expect(page.getByRole("heading", { level: 1, name: "Tournaments" })).toBeVisible();
  await findInList(page, gated.title);
  await expect(page.getByText("Level 3+")).toBeVisible();
  const gatedJoin = page.getByRole("button", { name: "Join Tournament" });
  await expect(gatedJoin).toBeDisabled();
  await gatedJoin.locator("xpath=..").hover(); // the focusable wrapper that carries the tooltip
  await expect(page.getByRole("tooltip")).toHaveText("You need to be level 3 to join this tournament.");
  // The same on the tournament's own page.
  await page.getByRole("link", { name: gated.title }).click();
  await expect(page.getByRole("heading", { level: 1, name: gated.title })).toBeVisible();
  await expect(page.getByRole("button", { name: "Join Tournament" })).toBeDisabled();

  // $0.00 against a $5.00 entry: the toast with the shortfall, and nothing charged.
  await page.goto("/tournaments");
  await findInList(page, paid.title);
  await page.getByRole("button", { name: "Join Tournament" }).click();
  await expectToast(page, "Insufficient balance", "You need $5.00 more to join this tournament. Full entry fee: $5.00.");
  await expect(page).toHaveURL(/\/tournaments\?q=/); // still on the list

  // With $3.00 the shortfall is $2.00.
  await depositSandbox(player, 3);
  await page.reload();
  await findInList(page, paid.title);
  await page.getByRole("button", { name: "Join Tournament" }).click();
  await expectToast(page, "Insufficient balance", "You need $2.00 more to join this tournament. Full entry fee: $5.00.");

  // Two seats, both taken.
  await findInList(page, full.title);
  await expect(page.getByRole("main").getByText("2/2")).toBeVisible();
  await page.getByRole("button", { name: "Join Tournament" }).click();
  await expectToast(page, "Tournament is full", "This tournament has reached its maximum number of participants.");

  // None of it moved money or seated the player.
  expect((await getUser(player)).balance).toBe(3);
  expect((await getTransactions(player)).map((t) => t.type)).toEqual(["deposit"]);
  const participants = (await (await player.api.get(`/api/tournaments/${full.id}/participants`)).json()) as { userId: number }[];
  expect(participants.map((p) => p.userId)).not.toContain(player.id);
});
