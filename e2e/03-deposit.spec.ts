// Journey 3: deposit $25 with the sandbox's success card, see it on the result page, in the
// wallet and in Transaction History; the declined card says "Payment Failed" and credits nothing.
import type { Page } from "@playwright/test";
import {
  ADULT_DATE_OF_BIRTH,
  CARDS,
  createAccount,
  expect,
  expectToast,
  futureExpiry,
  getTransactions,
  getUser,
  signIn,
  test,
  transactionRows,
  walletBalance,
} from "./fixtures";

async function startDeposit(page: Page, amount: string) {
  await page.getByRole("button", { name: "Deposit Funds" }).click();
  const dialog = page.getByRole("dialog", { name: "Deposit Funds" });
  await dialog.getByLabel("Amount (USD)").fill(amount);
  await dialog.getByRole("button", { name: "Continue to Checkout" }).click();
}

async function payWith(page: Page, card: string, amountLabel: string) {
  await expect(page.getByRole("heading", { name: "Checkout" })).toBeVisible();
  const form = page.getByRole("form", { name: "Card details" });
  await form.getByLabel("Card number").fill(card);
  await form.getByLabel("Expiry (MM/YY)").fill(futureExpiry());
  await form.getByLabel("CVC").fill("123");
  await form.getByRole("button", { name: `Pay ${amountLabel}` }).click();
}

test("deposit $25 with the success card; the declined card credits nothing @mobile", async ({ page, context }) => {
  // A new player who has never been asked for a date of birth: the first checkout asks, once.
  const player = await createAccount("depositor", { dateOfBirth: false });
  await signIn(context, player);

  await page.goto("/dashboard");
  await expect(walletBalance(page)).toHaveText("$0.00");

  // The amount dialog checks the amount first.
  await page.getByRole("button", { name: "Deposit Funds" }).click();
  const dialog = page.getByRole("dialog", { name: "Deposit Funds" });
  await dialog.getByRole("button", { name: "Continue to Checkout" }).click();
  await expect(dialog.getByLabel("Amount (USD)")).toHaveAccessibleDescription("Amount is required");
  await expectToast(page, "Deposit Error", "Please enter a valid amount.");
  await dialog.getByRole("button", { name: "Cancel" }).click();

  // $25 with the success card.
  await startDeposit(page, "25");
  await expect(page).toHaveURL(/\/checkout\/25$/);
  await expect(page.getByRole("heading", { name: "Your date of birth" })).toBeVisible();
  await page.getByLabel("Date of birth").fill(ADULT_DATE_OF_BIRTH);
  await page.getByRole("button", { name: "Save and continue" }).click();
  await payWith(page, CARDS.success, "$25.00");
  await expect(page).toHaveURL(/\/payment-success\?/);
  await expect(page.getByRole("heading", { name: "Deposit Successful" })).toBeVisible();
  await expect(page.getByText("$25.00 has been added to your account.")).toBeVisible();

  await page.getByRole("link", { name: "View Transactions" }).click();
  await expect(page).toHaveURL(/\/dashboard\?tab=transactions$/);
  await expect(walletBalance(page)).toHaveText("$25.00");
  const rows = transactionRows(page);
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText("Deposit");
  await expect(rows.first()).toContainText("+$25.00");
  await expect(rows.first()).toContainText("completed");

  // A reload of the result page does not credit the payment twice.
  await page.goBack();
  await expect(page.getByRole("heading", { name: "Deposit Successful" })).toBeVisible();
  await page.reload();
  await expect(page.getByRole("heading", { name: "Deposit Successful" })).toBeVisible();

  // $10 with the declined card: the toast, still on checkout, nothing credited.
  await page.goto("/dashboard");
  await startDeposit(page, "10");
  await expect(page).toHaveURL(/\/checkout\/10$/);
  await payWith(page, CARDS.declined, "$10.00");
  await expectToast(page, "Payment Failed", "Your card was declined.");
  await expect(page).toHaveURL(/\/checkout\/10$/);

  await page.goto("/dashboard?tab=transactions");
  await expect(walletBalance(page)).toHaveText("$25.00");
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText("+$25.00");

  // The server agrees: one deposit, $25.00.
  expect((await getUser(player)).balance).toBe(25);
  expect((await getTransactions(player)).map((t) => [t.type, t.amount, t.status])).toEqual([["deposit", 25, "completed"]]);
});
