// Journey 15: checkouts opened before a limit are checked again when paid. A player deposits $20,
// opens two $30 checkouts in two tabs, then sets a $60 daily deposit limit; the first checkout
// paid fits ($50 in the day), the second would pass the limit ($80): its money is refunded to the
// card at credit and the result page says "Payment Refunded" with why.
import type { Page } from "@playwright/test";
import { MONEY } from "../common/messages";
import {
  CARDS,
  createAccount,
  depositSandbox,
  expect,
  expectToast,
  futureExpiry,
  getTransactions,
  getUser,
  signIn,
  test,
} from "./fixtures";

/** Fills the sandbox card form of an open checkout and pays it. */
async function pay(page: Page, amount: string) {
  await page.bringToFront();
  const form = page.getByRole("form", { name: "Card details" });
  await form.getByLabel("Card number").fill(CARDS.success);
  await form.getByLabel("Expiry (MM/YY)").fill(futureExpiry());
  await form.getByLabel("CVC").fill("123");
  await form.getByRole("button", { name: `Pay $${amount}` }).click();
}

test("two checkouts opened before a daily limit: the one that would pass it is refunded when paid", async ({ page, context }) => {
  const player = await createAccount("twotabs");
  await depositSandbox(player, 20);
  await signIn(context, player);

  // Two checkouts, each in its own tab, opened while no limit stands in their way.
  const first = page;
  const second = await context.newPage();
  for (const tab of [first, second]) {
    await tab.goto("/checkout/30");
    await expect(tab.getByRole("heading", { name: "Checkout" })).toBeVisible();
    await expect(tab.getByRole("form", { name: "Card details" })).toBeVisible();
  }

  // Then a $60 daily limit, in a third tab (a lower limit applies at once).
  const settings = await context.newPage();
  await settings.goto("/profile?tab=responsible-play");
  await settings.getByLabel("Daily deposit limit ($)").fill("60");
  await settings.getByRole("button", { name: "Save limits" }).click();
  await expectToast(settings, "Limits saved");

  // The first fits: $20 + $30 = $50.
  await pay(first, "30.00");
  await expect(first.getByRole("heading", { name: "Deposit Successful" })).toBeVisible();

  // The second would make $80: refunded to the card, and the page says so and why.
  await pay(second, "30.00");
  await expect(second.getByRole("heading", { name: "Payment Refunded" })).toBeVisible();
  await expect(second.getByText(MONEY.depositRefunded("30.00", MONEY.depositRefusedWhy.deposit_daily))).toBeVisible();

  expect((await getUser(player)).balance).toBe(50);
  const deposits = (await getTransactions(player)).filter((t) => t.type === "deposit").map((t) => [t.amount, t.status]);
  expect(deposits).toEqual([
    [30, "refunded"],
    [30, "completed"],
    [20, "completed"],
  ]);
});
