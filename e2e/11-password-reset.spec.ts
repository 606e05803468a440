// Journey 11: a player who forgot the password asks for a reset from the sign-in form, opens the
// mail in the local outbox, follows its link, sets a new password and signs in with it; the
// session the account had before the reset is gone.
import { createAccount, expect, expectToast, followMailLink, test } from "./fixtures";

test("forgot password: reset link from the outbox, new password, old session ended", async ({ page }) => {
  const player = await createAccount("forgetful");
  // The account's earlier session (its own API client) works before the reset.
  expect((await player.api.get("/api/user")).status()).toBe(200);

  await page.goto("/auth");
  await page.getByRole("link", { name: "Forgot password?" }).click();
  await expect(page).toHaveURL(/\/forgot-password$/);
  await page.getByLabel("Email").fill(player.email);
  await page.getByRole("button", { name: "Send reset link" }).click();
  await expect(page.getByRole("status")).toContainText("If an account uses that address, we sent it a link");

  await followMailLink(page, player.email, "Reset your Trivia Arena password");
  await expect(page).toHaveURL(/\/reset-password\?token=[\w-]{43}$/);
  const newPassword = "a-brand-new-pass-2";
  await page.getByLabel("New Password", { exact: true }).fill(newPassword);
  await page.getByLabel("Confirm New Password").fill(newPassword);
  await page.getByRole("button", { name: "Reset password" }).click();
  await expectToast(page, "Password reset", "Sign in with the new password.");
  await expect(page).toHaveURL(/\/auth$/);

  // The old password no longer works; the new one does.
  await page.getByLabel("Username").fill(player.username);
  await page.getByLabel("Password", { exact: true }).fill(player.password);
  await page.getByRole("button", { name: "Sign In" }).click();
  await expectToast(page, "Login failed", "Invalid username or password");
  await page.getByLabel("Password", { exact: true }).fill(newPassword);
  await page.getByRole("button", { name: "Sign In" }).click();
  await expectToast(page, "Login successful", `Welcome back, ${player.username}!`);

  // The session from before the reset is over.
  expect((await player.api.get("/api/user")).status()).toBe(401);
});
