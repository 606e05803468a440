// Journey 2: register (every validation message once, the agreement to the legal documents
// included), log out, log in, and the toasts for a taken username and a wrong password.
import type { Page } from "@playwright/test";
import { LEGAL } from "../common/legal-messages";
import { expect, expectToast, test, toasts, uniqueName } from "./fixtures";

const submit = (page: Page, name: "Create Account" | "Sign In") => page.getByRole("button", { name, exact: true }).click();

async function logOut(page: Page) {
  await page.getByRole("button", { name: "Account menu" }).click();
  await page.getByRole("menuitem", { name: "Logout" }).click();
  await expectToast(page, "Logged out", "You have been successfully logged out.");
  await expect(page.getByRole("banner").getByRole("link", { name: "Sign In", exact: true })).toBeVisible();
}

test("register with every validation message, log out, log in, wrong password", async ({ page }) => {
  const username = uniqueName("newbie");
  const email = `${username.toLowerCase()}@example.com`;
  const password = "journey-pass-1";

  await page.goto("/auth?tab=register");
  await expect(page.getByRole("tab", { name: "Register" })).toHaveAttribute("aria-selected", "true");
  const user = page.getByLabel("Username");
  const mail = page.getByLabel("Email");
  const pass = page.getByLabel("Password", { exact: true });
  const confirm = page.getByLabel("Confirm Password");
  const agree = page.getByRole("checkbox", { name: "I agree to the Terms of Service and Official Rules and have read the Privacy Policy" });

  // Nothing filled in: each field says what it needs, and the agreement is asked for.
  await submit(page, "Create Account");
  await expect(user).toHaveAccessibleDescription("Username must be at least 3 characters.");
  await expect(mail).toHaveAccessibleDescription("Please enter a valid email.");
  await expect(pass).toHaveAccessibleDescription("Password must be at least 6 characters.");
  await expect(agree).toHaveAccessibleDescription(LEGAL.mustAgree);
  await expect(page.getByRole("alert")).toHaveCount(4);
  // Each document is a link to its page.
  await expect(page.getByRole("link", { name: "Official Rules" })).toHaveAttribute("href", "/rules");

  // Characters a username may not have.
  await user.fill("bad name!");
  await submit(page, "Create Account");
  await expect(user).toHaveAccessibleDescription("Username may contain only letters, digits, '.', '_' and '-'.");

  // Everything valid but the confirmation.
  await user.fill(username);
  await mail.fill(email);
  await pass.fill(password);
  await confirm.fill(`${password}-typo`);
  await agree.check();
  await submit(page, "Create Account");
  await expect(confirm).toHaveAccessibleDescription("Passwords don't match");
  await expect(page.getByRole("alert")).toHaveCount(1);

  await confirm.fill(password);
  await submit(page, "Create Account");
  await expectToast(page, "Registration successful", `Welcome to Trivia Arena, ${username}!`);
  // Signed in: the auth page sends the player home, and the header shows the account.
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole("button", { name: "Account menu" })).toContainText(username);

  await logOut(page);

  // The same username again: the server's refusal in a toast.
  await page.goto("/auth?tab=register");
  await page.getByLabel("Username").fill(username);
  await page.getByLabel("Email").fill(`other-${email}`);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByLabel("Confirm Password").fill(password);
  await agree.check();
  await submit(page, "Create Account");
  await expectToast(page, "Registration failed", "Username already exists");
  await expect(page).toHaveURL(/\/auth\?tab=register$/);

  // Log in: the login form's own messages, then the real thing.
  await page.getByRole("tab", { name: "Login" }).click();
  const loginUser = page.getByLabel("Username");
  const loginPass = page.getByLabel("Password");
  await submit(page, "Sign In");
  await expect(loginUser).toHaveAccessibleDescription("Username must be at least 3 characters.");
  await expect(loginPass).toHaveAccessibleDescription("Password must be at least 6 characters.");
  await loginUser.fill(username);
  await loginPass.fill(password);
  await submit(page, "Sign In");
  await expectToast(page, "Login successful", `Welcome back, ${username}!`);
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole("button", { name: "Account menu" })).toContainText(username);

  await logOut(page);

  // A wrong password: the toast, and still signed out on /auth.
  await page.getByRole("banner").getByRole("link", { name: "Sign In", exact: true }).click();
  await expect(page).toHaveURL(/\/auth$/);
  await page.getByLabel("Username").fill(username);
  await page.getByLabel("Password").fill("not-the-password");
  await submit(page, "Sign In");
  await expectToast(page, "Login failed", "Invalid username or password");
  // The server's message only: no status code, no JSON.
  await expect(toasts(page).getByRole("listitem").filter({ hasText: "Login failed" }).first()).not.toContainText(/401|\{/);
  await expect(page).toHaveURL(/\/auth$/);
  await expect(page.getByRole("banner").getByRole("link", { name: "Sign In", exact: true })).toBeVisible();
});
