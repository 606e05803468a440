// Journey 12: a player sets a daily deposit limit in the profile's Responsible play tab, tries to
// deposit more than it and reads the refusal naming the limit, then deposits within it.
import type { Page } from "@playwright/test";
import { CARDS, createAccount, expect, expectToast, futureExpiry, getUser, signIn, test, walletBalance } from "./fixtures";

async function startDeposit(page: Page, amount: string) {
  await page.goto("/dashboard");
  await page.getByRole("button", { name: "Deposit Funds" }).click();
  const dialog = page.getByRole("dialog", { name: "Deposit Funds" });
  await dialog.getByLabel("Amount (USD)").fill(amount);
  await dialog.getByRole("button", { name: "Continue to Checkout" }).click();
}

test("a daily deposit limit set in the profile refuses a larger deposit and allows one within it", async ({ page, context }) => {
  const player = await createAccount("limiter");
  await signIn(context, player);

  await page.goto("/profile?tab=responsible-play");
  const daily = page.getByLabel("Daily deposit limit ($)");
  await daily.fill("50");
  await page.getByRole("button", { name: "Save limits" }).click();
  await expectToast(page, "Limits saved");
  await expect(page.getByText("$0.00 used in the last 24 hours; $50.00 left.")).toBeVisible();

  // Over the limit: the checkout says which limit, what is left and that raising it takes a day.
  await startDeposit(page, "80");
  await expect(page).toHaveURL(/\/checkout\/80$/);
  await expect(page.getByRole("heading", { name: "Payment Error" })).toBeVisible();
  await expect(page.getByText(/daily deposit limit of \$50\.00/)).toBeVisible();
  await expect(page.getByText(/You can deposit up to \$50\.00 now/)).toBeVisible();

  // Within it: the deposit goes through.
  await startDeposit(page, "30");
  await expect(page.getByRole("heading", { name: "Checkout" })).toBeVisible();
  const form = page.getByRole("form", { name: "Card details" });
  await form.getByLabel("Card number").fill(CARDS.success);
  await form.getByLabel("Expiry (MM/YY)").fill(futureExpiry());
  await form.getByLabel("CVC").fill("123");
  await form.getByRole("button", { name: "Pay $30.00" }).click();
  await expect(page.getByRole("heading", { name: "Deposit Successful" })).toBeVisible();
  await page.goto("/dashboard");
  await expect(walletBalance(page)).toHaveText("$30.00");
  expect((await getUser(player)).balance).toBe(30);

  // The profile shows what the window holds now.
  await page.goto("/profile?tab=responsible-play");
  await expect(page.getByText("$30.00 used in the last 24 hours; $20.00 left.")).toBeVisible();
});
