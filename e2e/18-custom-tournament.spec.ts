// Journey 18: an Elite player creates a private paid tournament from the tournaments page and gets
// its invite link; a friend in another browser opens the link, joins through the ordinary paid
// join and pays the fee once; a stranger who only guesses its id finds nothing. The creator then
// sees the friend in "My custom tournaments", where Cancel is gone (someone joined).
import type { CustomTournament } from "../common/api/custom-tournaments";
import {
  createAccount,
  depositSandbox,
  expect,
  expectToast,
  getTransactions,
  newElitePlayer,
  signIn,
  test,
  uniqueName,
  walletBalance,
} from "./fixtures";

test("an Elite player creates a private paid tournament and a friend joins it by the invite link", async ({ page, newPlayerContext }) => {
  const elite = await newElitePlayer();
  const friend = await createAccount("friend");
  await depositSandbox(friend, 10);
  const title = `Quiz night ${uniqueName("c")}`;

  // The creator: tournaments page, Create, the form.
  await signIn(page.context(), elite);
  await page.goto("/tournaments");
  await page.getByRole("link", { name: "Create a custom tournament" }).click();
  await expect(page).toHaveURL(/\/tournaments\/custom$/);
  const form = page.getByRole("form", { name: "Create a custom tournament" });
  await form.getByLabel("Title").fill(title);
  await form.getByLabel("Category").selectOption({ index: 1 });
  await form.getByLabel("Seats (2-100)").fill("12");
  await form.getByLabel("Entry fee").selectOption({ label: "$5.00 entry" });
  await form.getByLabel("Format").selectOption({ label: "Self-paced" });
  await form.getByRole("button", { name: "Create tournament" }).click();

  const invite = page.getByRole("region", { name: "Invite link" });
  await expect(invite).toContainText(title);
  const link = (await invite.getByTestId("invite-link").textContent())!;
  const code = (await invite.getByTestId("invite-code").textContent())!;
  expect(code).toMatch(/^[a-z2-7]{26}$/);
  expect(link).toMatch(new RegExp(`/t/${code}$`));
  const mine = page.getByRole("list", { name: "My custom tournaments" });
  await expect(mine.getByRole("listitem")).toHaveCount(1);
  await expect(mine).toContainText("0/12 players");
  await expect(mine.getByRole("button", { name: "Cancel tournament" })).toBeVisible();
  const [created] = (await (await elite.api.get("/api/tournaments/custom")).json()) as CustomTournament[];

  // Private: not in the list, and its id alone finds nothing.
  const stranger = await createAccount("stranger");
  const list = (await (await stranger.api.get(`/api/tournaments?q=${encodeURIComponent(title)}`)).json()) as { total: number };
  expect(list.total).toBe(0);
  expect((await stranger.api.get(`/api/tournaments/${created!.id}`)).status()).toBe(404);
  expect((await stranger.api.post(`/api/tournaments/${created!.id}/join`, { data: {} })).status()).toBe(404);

  // The friend opens the link in their own browser and joins: the $5.00 fee, once.
  const friendContext = await newPlayerContext("friend");
  await signIn(friendContext, friend);
  const friendPage = await friendContext.newPage();
  await friendPage.goto(new URL(link).pathname);
  await expect(friendPage.getByRole("heading", { name: title })).toBeVisible();
  await expect(friendPage.getByText("Private · by invitation")).toBeVisible();
  await expect(friendPage.getByText("$5.00").first()).toBeVisible();
  await friendPage.getByRole("button", { name: "Join Tournament" }).click();
  await expectToast(friendPage, "Successfully joined tournament!", "Taking you to your tournaments...");
  await expect(friendPage).toHaveURL(/\/dashboard\?tab=tournaments$/);
  await expect(walletBalance(friendPage)).toHaveText("$5.00");
  const entries = (await getTransactions(friend)).filter((t) => t.type === "tournament_entry");
  expect(entries.map((t) => t.amount)).toEqual([-5]);
  // A player now, the friend sees it by its id.
  await friendPage.goto(`/tournaments/${created!.id}`);
  await expect(friendPage.getByRole("heading", { level: 1, name: title })).toBeVisible();

  // The creator sees the friend's seat; the tournament can no longer be cancelled.
  await page.reload();
  await expect(mine).toContainText("1/12 players");
  await expect(mine.getByRole("button", { name: "Cancel tournament" })).toHaveCount(0);
});
