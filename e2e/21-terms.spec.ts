// Journey 21: the legal documents. A player whose accepted Terms of Service are an older version
// than the one in force (as after a new version is published) starts a deposit: the terms dialog
// shows the new version, "I agree" records it and the deposit carries on to a successful payment.
// The rules page is reachable from the footer, and the profile's "Download my data" gives a JSON
// file of the player's own data.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import type { Page } from "@playwright/test";
import { LEGAL } from "../common/legal-messages";
import { CARDS, createAccount, expect, futureExpiry, getTransactions, signIn, test, type Account } from "./fixtures";
import { E2E_PERSIST_TO } from "./env";

/**
 * The player's acceptance of the Terms of Service names an older version than the one in force:
 * what a published new version looks like to them. Written to the journeys' local database with
 * wrangler, as `npm run admin:grant` writes operators; the app has no way to do it.
 */
function acceptedOnlyOlderTerms(account: Account) {
  const sql = `UPDATE terms_acceptances SET version = '0.9' WHERE user_id = ${account.id} AND document = 'terms'`;
  execFileSync("npx", ["wrangler", "d1", "execute", "DB", "--local", "--persist-to", E2E_PERSIST_TO, "--command", sql], { stdio: "pipe" });
}

async function payWith(page: Page, card: string, amountLabel: string) {
  const form = page.getByRole("form", { name: "Card details" });
  await form.getByLabel("Card number").fill(card);
  await form.getByLabel("Expiry (MM/YY)").fill(futureExpiry());
  await form.getByLabel("CVC").fill("123");
  await form.getByRole("button", { name: `Pay ${amountLabel}` }).click();
}

test("a new version of the terms is read and accepted before a deposit goes through; my data downloads", async ({ page, context }) => {
  const player = await createAccount("terms");
  acceptedOnlyOlderTerms(player);
  await signIn(context, player);

  // The rules, from the footer, before anything else.
  await page.goto("/");
  await page.getByRole("contentinfo").getByRole("link", { name: "Official Contest Rules" }).click();
  await expect(page).toHaveURL(/\/rules$/);
  await expect(page.getByRole("heading", { level: 1, name: "Official Contest Rules" })).toBeVisible();
  await expect(page.getByText(/refused from these regions:/)).toBeVisible();

  // The deposit is held until the new version is accepted.
  await page.goto("/checkout/25");
  const dialog = page.getByRole("dialog", { name: LEGAL.dialogTitle });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole("region", { name: "Terms of Service" })).toBeVisible();
  await expect(dialog.getByRole("region", { name: "Terms of Service" }).getByText(/^Version \d/)).toBeVisible();
  await dialog.getByRole("button", { name: LEGAL.acceptButton }).click();
  await expect(dialog).toBeHidden();
  await payWith(page, CARDS.success, "$25.00");
  await expect(page.getByRole("heading", { name: "Deposit Successful" })).toBeVisible();
  expect((await getTransactions(player)).map((t) => [t.type, t.amount])).toEqual([["deposit", 25]]);

  // Download my data: a JSON file of this player's own data.
  await page.goto("/profile?tab=security");
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: LEGAL.exportButton }).click()]);
  expect(download.suggestedFilename()).toMatch(/^trivia-arena-data-\d{4}-\d{2}-\d{2}\.json$/);
  const data = JSON.parse(readFileSync((await download.path())!, "utf8"));
  expect(data.profile.username).toBe(player.username);
  expect(data.ledger.map((t: { type: string }) => t.type)).toEqual(["deposit"]);
  expect(data.termsAcceptances.filter((a: { document: string }) => a.document === "terms")).toHaveLength(2);
});
