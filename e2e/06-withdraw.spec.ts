// Journey 6: a prize won in a house-funded free tournament leaves at once: withdraw $10 of it to a
// bank account; an invalid routing number is refused with its message; an amount above the balance
// gets the Insufficient Balance card. (Card deposits go back to their card first, with no hold:
// journey 14.)
// Withdrawing needs a verified email address: the player first opens the link mailed at sign-up;
// then a verified identity in the account holder's name (the sandbox's verification page); the
// first withdrawal asks for the password (step-up).
import {
  createAccount,
  expect,
  expectToast,
  followMailLink,
  getTransactions,
  signIn,
  test,
  transactionRows,
  verifyIdentityInSandbox,
  winHousePrize,
  walletBalance,
} from "./fixtures";

test("withdraw $10 of a prize to a bank account; invalid routing number; above-balance card", async ({ page, context }) => {
  test.setTimeout(180_000);
  const player = await createAccount("winner");
  await winHousePrize(player);
  await signIn(context, player);

  // Verifying the email address: the wallet asks for it, the link is in the mail sent at sign-up.
  await page.goto("/dashboard");
  await expect(page.getByRole("region", { name: "Verify your email address" })).toBeVisible();
  await followMailLink(page, player.email, "Verify your email address for Trivia Arena");
  await expect(page.getByText("Your email address is verified.")).toBeVisible();
  await page.getByRole("link", { name: "Go to Dashboard" }).click();
  await expect(page.getByRole("region", { name: "Verify your email address" })).toHaveCount(0);

  // A bank withdrawal also needs the player's identity verified (the sandbox's page), in the
  // name the bank account is held in.
  await verifyIdentityInSandbox(page, { firstName: "Ada", lastName: "Lovelace" });
  await page.goto("/dashboard");

  await expect(walletBalance(page)).toHaveText("$13.00");
  const figures = page.getByRole("list", { name: "Withdrawable balance" });
  await expect(figures.getByRole("listitem").filter({ hasText: "Withdrawable now" })).toContainText("$13.00");

  // The amount dialog: more than the balance, then no method.
  await page.getByRole("button", { name: "Withdraw Winnings" }).click();
  const dialog = page.getByRole("dialog", { name: "Withdraw Winnings" });
  const amount = dialog.getByLabel("Amount (USD)");
  const method = dialog.getByLabel("Withdrawal Method");
  await amount.fill("40");
  await method.selectOption({ label: "Bank Account" });
  await dialog.getByRole("button", { name: "Continue" }).click();
  await expect(amount).toHaveAccessibleDescription("Cannot withdraw more than your available balance");

  await amount.fill("10");
  await method.selectOption({ label: "Select a withdrawal method" });
  await dialog.getByRole("button", { name: "Continue" }).click();
  await expectToast(page, "Withdrawal Failed", "Please select a withdrawal method");
  await expect(method).toHaveAccessibleDescription("Please select a withdrawal method");

  await method.selectOption({ label: "Bank Account" });
  await dialog.getByRole("button", { name: "Continue" }).click();
  await expect(page).toHaveURL(/\/withdraw-confirm\/10\?method=bank_account$/);

  // The bank details page.
  await expect(page.getByRole("heading", { name: "Confirm Withdrawal" })).toBeVisible();
  const form = page.getByRole("form", { name: "Bank account" });
  const submit = form.getByRole("button", { name: "Withdraw $10.00" });
  await submit.click();
  await expectToast(page, "Missing Information", "Please fill in all bank account fields.");

  await form.getByLabel("Account Holder Name").fill("Ada Lovelace");
  await form.getByLabel("Account Number").fill("000123456789");
  await form.getByLabel("Routing Number").fill("123456789");
  await submit.click();
  await expect(form.getByLabel("Routing Number")).toHaveAccessibleDescription("Invalid routing number");
  expect((await getTransactions(player)).map((t) => t.type)).toEqual(["prize"]);

  await form.getByLabel("Routing Number").fill("021000021");
  await form.getByRole("radio", { name: "savings" }).click();
  await submit.click();

  // Step-up: money leaving the account needs the password confirmed in this session; a wrong
  // one is refused in the dialog, the right one sends the withdrawal.
  const stepUp = page.getByRole("dialog", { name: "Confirm it's you" });
  await expect(stepUp.getByText("Please confirm your password to continue.")).toBeVisible();
  await stepUp.getByLabel("Password").fill("not-my-password");
  await stepUp.getByRole("button", { name: "Confirm" }).click();
  await expect(stepUp.getByText("Password is incorrect")).toBeVisible();
  expect((await getTransactions(player)).map((t) => t.type)).toEqual(["prize"]);
  await stepUp.getByLabel("Password").fill(player.password);
  await stepUp.getByRole("button", { name: "Confirm" }).click();
  await expect(stepUp).toBeHidden();

  await expectToast(
    page,
    "Withdrawal Requested",
    "$10.00 is on its way to your bank account and should arrive in 1-3 business days. Follow it under Transaction History.",
  );
  await expect(page).toHaveURL(/\/dashboard\?tab=transactions$/);
  await expect(walletBalance(page)).toHaveText("$3.00");
  await expect(figures.getByRole("listitem").filter({ hasText: "Withdrawable now" })).toContainText("$3.00");

  await page.getByRole("tab", { name: "Transaction History" }).click();
  const newest = transactionRows(page).first();
  await expect(newest).toContainText("Withdrawal");
  await expect(newest).toContainText("-$10.00");
  await expect(newest).toContainText("pending");
  expect((await getTransactions(player)).map((t) => [t.type, t.amount, t.status])).toEqual([
    ["withdrawal", -10, "pending"],
    ["prize", 13, "completed"],
  ]);

  // More than the $3.00 left.
  await page.goto("/withdraw-confirm/100?method=bank_account");
  await expect(page.getByRole("heading", { name: "Insufficient Balance" })).toBeVisible();
  await expect(page.getByText("You don't have enough funds to complete this withdrawal.")).toBeVisible();
  await page.getByRole("link", { name: "Return to Dashboard" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(walletBalance(page)).toHaveText("$3.00");
});
