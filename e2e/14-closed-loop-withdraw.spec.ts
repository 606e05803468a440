// Journey 14: money back where it came from. A player deposits $25 by card a moment ago and wins
// $13 in a house-funded free tournament, then withdraws $30: the confirm page shows $25.00 back
// to the card and $5.00 to the bank account before, and after "$25.00 back to your card ending
// 4242" and "$5.00 to your bank account, 1-3 business days"; the transactions tab shows both rows.
import { MONEY } from "../common/messages";
import {
  createAccount,
  depositSandbox,
  expect,
  followMailLink,
  getTransactions,
  signIn,
  test,
  transactionRows,
  verifyIdentityByApi,
  winHousePrize,
  walletBalance,
} from "./fixtures";

test("a withdrawal sends the card deposit back to the card and only the winnings to the bank", async ({ page, context }) => {
  test.setTimeout(180_000);
  const player = await createAccount("loop");
  await depositSandbox(player, 25);
  await winHousePrize(player);
  await signIn(context, player);

  await page.goto("/dashboard");
  await followMailLink(page, player.email, "Verify your email address for Trivia Arena");
  await expect(page.getByText("Your email address is verified.")).toBeVisible();
  await page.getByRole("link", { name: "Go to Dashboard" }).click();
  // The $5.00 bank part needs a verified identity in the holder's name; the card part would not.
  await verifyIdentityByApi(player, { firstName: "Ada", lastName: "Lovelace" });

  // A deposit made a moment ago can leave at once, back to its card: all $38.00 is withdrawable.
  await expect(walletBalance(page)).toHaveText("$38.00");
  const figures = page.getByRole("list", { name: "Withdrawable balance" });
  await expect(figures.getByRole("listitem").filter({ hasText: "Withdrawable now" })).toContainText("$38.00");

  await page.getByRole("button", { name: "Withdraw Winnings" }).click();
  const dialog = page.getByRole("dialog", { name: "Withdraw Winnings" });
  await dialog.getByLabel("Amount (USD)").fill("30");
  await dialog.getByLabel("Withdrawal Method").selectOption({ label: "Bank Account" });
  await dialog.getByRole("button", { name: "Continue" }).click();
  await expect(page).toHaveURL(/\/withdraw-confirm\/30\?method=bank_account$/);

  // Before: the two parts.
  await expect(page.getByRole("heading", { name: "Confirm Withdrawal" })).toBeVisible();
  await expect(page.getByTestId("card-part")).toHaveText("$25.00");
  await expect(page.getByTestId("bank-part")).toHaveText("$5.00");

  const form = page.getByRole("form", { name: "Bank account" });
  await form.getByLabel("Account Holder Name").fill("Ada Lovelace");
  await form.getByLabel("Account Number").fill("000123456789");
  await form.getByLabel("Routing Number").fill("021000021");
  await form.getByRole("button", { name: "Withdraw $30.00" }).click();
  const stepUp = page.getByRole("dialog", { name: "Confirm it's you" });
  await stepUp.getByLabel("Password").fill(player.password);
  await stepUp.getByRole("button", { name: "Confirm" }).click();

  // After: each part on its own line.
  await expect(page.getByRole("heading", { name: "Withdrawal Requested" })).toBeVisible();
  const parts = page.getByRole("list", { name: "Withdrawal parts" });
  await expect(parts.getByRole("listitem")).toHaveText([MONEY.cardRefundPart("25.00", "4242"), MONEY.bankPart("5.00")]);

  await page.getByRole("link", { name: "Return to Dashboard" }).click();
  await expect(walletBalance(page)).toHaveText("$8.00");
  await page.getByRole("tab", { name: "Transaction History" }).click();
  const rows = transactionRows(page);
  await expect(rows.filter({ hasText: "Refund to card …4242" })).toContainText("-$25.00");
  await expect(rows.filter({ hasText: "to checking account ••••6789" })).toContainText("-$5.00");
  const ledger = (await getTransactions(player)).map((t) => [t.type, t.amount, t.status]);
  expect(ledger).toContainEqual(["withdrawal", -25, "completed"]);
  expect(ledger).toContainEqual(["withdrawal", -5, "pending"]);
});
