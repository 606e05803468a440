// Journey 17: tax details. A player files a W-9 on the profile's Tax information tab (after the
// password step-up) and sees it on file with only the TIN's last 4 digits; an operator opens the
// console's Tax screen, reads the year's 1099-MISC summary and downloads the CSV.
// (The threshold refusal of a withdrawal needs $2,000 of prizes: it has Worker tests.)
import { readFileSync } from "node:fs";
import { createAccount, expect, expectToast, freshTotp, newOperator, signIn, test } from "./fixtures";

test("a player files a W-9; an operator downloads the year's 1099-MISC data", async ({ page, context, newPlayerContext }) => {
  test.setTimeout(120_000);
  const player = await createAccount("taxpayer");
  await signIn(context, player);

  await page.goto("/profile?tab=tax");
  await expect(page.getByText("No W-9 on file.")).toBeVisible();
  const form = page.getByRole("form", { name: "Form W-9" });
  await form.getByLabel("Legal name (as on your tax return)").fill("Ada Lovelace");
  await form.getByLabel("SSN", { exact: true }).fill("536-22-7481");
  await form.getByLabel("Address (number, street, apt.)").fill("12 Analytical Way");
  await form.getByLabel("City", { exact: true }).fill("Boston");
  await form.getByLabel("State", { exact: true }).selectOption("MA");
  await form.getByLabel("ZIP code").fill("02110");
  await form.getByLabel("Signature: type your legal name").fill("Ada Lovelace");
  await form.getByRole("button", { name: "Sign and file W-9" }).click();
  await expect(form.getByText("You must certify the statements on the form to file it")).toBeVisible();
  await form.getByLabel("I certify the statements above under penalties of perjury").click();
  await form.getByRole("button", { name: "Sign and file W-9" }).click();

  // The form holds a TIN: the password is confirmed first.
  const stepUp = page.getByRole("dialog", { name: "Confirm it's you" });
  await stepUp.getByLabel("Password").fill(player.password);
  await stepUp.getByRole("button", { name: "Confirm" }).click();
  await expectToast(page, "Tax information saved", "Your W-9 is on file.");
  const onFile = page.getByLabel("W-9 on file");
  await expect(onFile.getByText("***-**-7481")).toBeVisible();
  await expect(onFile.getByText("Ada Lovelace")).toBeVisible();
  await expect(page.getByText("536-22-7481")).toHaveCount(0);
  await page.reload();
  await expect(page.getByLabel("W-9 on file").getByText("***-**-7481")).toBeVisible();
  expect(await page.content()).not.toContain("536227481");

  // The operator's side.
  const op = await newOperator("taxop");
  const opContext = await newPlayerContext("operator");
  await signIn(opContext, op);
  const console_ = await opContext.newPage();
  await console_.goto("/admin/tax");
  const year = new Date().getUTCFullYear();
  await console_.getByLabel("Tax year").selectOption(String(year));
  const summary = console_.getByRole("region", { name: `1099-MISC ${year}` });
  await expect(summary.getByRole("row", { name: /Payees reported/ })).toBeVisible();

  const downloading = console_.waitForEvent("download");
  await console_.getByRole("button", { name: "Download CSV" }).click();
  // The file holds TINs: a step-up older than the operators' 15 minutes is asked for again.
  const opStepUp = console_.getByRole("dialog", { name: "Confirm it's you" });
  const first = await Promise.race([downloading.then(() => "download" as const), opStepUp.waitFor().then(() => "dialog" as const)]);
  if (first === "dialog") {
    await opStepUp.getByLabel("Password").fill(op.password);
    await opStepUp.getByLabel("Authentication code").fill(await freshTotp(op.totpSecret));
    await opStepUp.getByRole("button", { name: "Confirm" }).click();
  }
  const download = await downloading;
  expect(download.suggestedFilename()).toBe(`1099-misc-${year}.csv`);
  const lines = readFileSync(await download.path(), "utf8")
    .trim()
    .split("\r\n");
  expect(lines[0]).toMatch(/^record_type,payment_year,type_of_return,amount_codes,tin_type,tin,/);
  expect(lines[1]).toMatch(new RegExp(`^A,${year},A,3,1,123456789,,TRIVIA ARENA DEMO INC,`));
  expect(lines.at(-1)).toMatch(new RegExp(`^C,${year},A,3,`));
});
