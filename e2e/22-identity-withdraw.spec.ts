// Journey 22: a new player deposits $25, wins $13 in a house-funded free tournament and withdraws
// $30: $25 goes back to the card, and the $5 bank part waits for a verified identity. Before it,
// the withdrawal page and the refusal say so; the player verifies in the sandbox's page; an
// account in another name is refused with the verified legal name; in the player's own name the
// withdrawal goes through (docs/identity-and-tax.md).
import { IDENTITY, MONEY } from "../common/messages";
import {
  createAccount,
  depositSandbox,
  expect,
  expectToast,
  followMailLink,
  getTransactions,
  signIn,
  test,
  verifyIdentityInSandbox,
  walletBalance,
  winHousePrize,
} from "./fixtures";

test("sign up, deposit, win, verify identity in the sandbox, withdraw to a bank account in the verified name", async ({
  page,
  context,
}) => {
  test.setTimeout(180_000);
  const player = await createAccount("ident");
  await depositSandbox(player, 25);
  await winHousePrize(player);
  await signIn(context, player);

  await page.goto("/dashboard");
  await followMailLink(page, player.email, "Verify your email address for Trivia Arena");
  await expect(page.getByText("Your email address is verified.")).toBeVisible();

  // Before verifying: the withdrawal page says what is missing, and the Worker refuses the bank part.
  await page.goto("/withdraw-confirm/30?method=bank_account");
  await expect(page.getByTestId("bank-part")).toHaveText("$5.00");
  const notice = page.getByRole("region", { name: "Identity" });
  await expect(notice).toContainText("Identity: Not started");
  await expect(notice).toContainText(IDENTITY.verificationRequired);
  const form = page.getByRole("form", { name: "Bank account" });
  await form.getByLabel("Account Holder Name").fill("Ada Lovelace");
  await form.getByLabel("Account Number").fill("000123456789");
  await form.getByLabel("Routing Number").fill("021000021");
  await form.getByRole("button", { name: "Withdraw $30.00" }).click();
  const stepUp = page.getByRole("dialog", { name: "Confirm it's you" });
  await stepUp.getByLabel("Password").fill(player.password);
  await stepUp.getByRole("button", { name: "Confirm" }).click();
  await expectToast(page, "Withdrawal Error", IDENTITY.verificationRequired);
  expect((await getTransactions(player)).filter((t) => t.type === "withdrawal")).toEqual([]);

  // The sandbox's verification page: the legal name, date of birth and document typed there.
  await verifyIdentityInSandbox(page, { firstName: "Ada King", lastName: "Lovelace" });
  await expect(page.getByText("Verified as Ada King Lovelace")).toBeVisible();

  // Another person's bank account is refused with the verified name.
  await page.goto("/withdraw-confirm/30?method=bank_account");
  await expect(page.getByTestId("identity-verified-name")).toContainText("Verified as Ada King Lovelace");
  await form.getByLabel("Account Holder Name").fill("Charles Babbage");
  await form.getByLabel("Account Number").fill("000123456789");
  await form.getByLabel("Routing Number").fill("021000021");
  await form.getByRole("button", { name: "Withdraw $30.00" }).click();
  await expectToast(page, "Withdrawal Error", IDENTITY.nameMismatch("Ada King Lovelace"));

  // The player's own account (the middle name left out) goes through.
  await form.getByLabel("Account Holder Name").fill("ada lovelace");
  await form.getByRole("button", { name: "Withdraw $30.00" }).click();
  await expect(page.getByRole("heading", { name: "Withdrawal Requested" })).toBeVisible();
  const parts = page.getByRole("list", { name: "Withdrawal parts" });
  await expect(parts.getByRole("listitem")).toHaveText([MONEY.cardRefundPart("25.00", "4242"), MONEY.bankPart("5.00")]);
  await page.getByRole("link", { name: "Return to Dashboard" }).click();
  await expect(walletBalance(page)).toHaveText("$8.00");
  const ledger = (await getTransactions(player)).map((t) => [t.type, t.amount, t.status]);
  expect(ledger).toContainEqual(["withdrawal", -5, "pending"]);
});
