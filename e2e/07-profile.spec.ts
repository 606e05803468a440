// Journey 7: the profile. Edit bio, location and a social link and see them on the profile
// card (also after a reload); the theme switch applies at once and survives a reload; the
// password change signs out the account's other sessions and keeps this one.
import type { WebSocket } from "@playwright/test";
import { createAccount, expect, expectToast, getUser, signIn, test } from "./fixtures";

test("profile: edit bio, location and a social link; theme switch persists", async ({ page, context }) => {
  const player = await createAccount("profiler");
  await signIn(context, player);

  await page.goto("/profile");
  await expect(page.getByRole("heading", { level: 1, name: "Profile" })).toBeVisible();
  await expect(page.getByRole("heading", { level: 2, name: player.username })).toBeVisible();
  await expect(page.getByText("No location set")).toBeVisible();
  await expect(page.getByText("No bio added yet. Tell the world about yourself!")).toBeVisible();
  await expect(page.getByRole("list", { name: "Social profiles" })).toHaveCount(0);

  const form = page.getByRole("form", { name: "Account information" });
  const bio = "Quiz night regular.\nHistory buff and coffee drinker.";
  await form.getByLabel("Bio").fill(bio);
  await form.getByLabel("Location").fill("Lisbon, Portugal");
  await form.getByLabel("GitHub").fill("octo-journey");
  await form.getByRole("button", { name: "Save Changes" }).click();
  await expectToast(page, "Profile updated", "Your profile has been successfully updated.");

  const expectCard = async () => {
    await expect(page.getByText("Lisbon, Portugal", { exact: true })).toBeVisible();
    await expect(page.getByRole("paragraph").filter({ hasText: "Quiz night regular." })).toHaveText(bio);
    await expect(page.getByText("No bio added yet. Tell the world about yourself!")).toHaveCount(0);
    const links = page.getByRole("list", { name: "Social profiles" }).getByRole("link");
    await expect(links).toHaveCount(1);
    await expect(links.first()).toHaveAccessibleName(/^GitHub/);
    await expect(links.first()).toHaveAttribute("href", "https://github.com/octo-journey");
    await expect(links.first()).toHaveAttribute("target", "_blank");
  };
  await expectCard();

  // Stored on the server: a fresh load shows the same card and fills the form.
  await page.reload();
  await expectCard();
  await expect(form.getByLabel("Bio")).toHaveValue(bio);
  await expect(form.getByLabel("Location")).toHaveValue("Lisbon, Portugal");
  await expect(form.getByLabel("GitHub")).toHaveValue("octo-journey");

  // Theme: dark by default; Light applies at once and is still light after a reload.
  const html = page.locator("html");
  await expect(html).toHaveClass(/\bdark\b/);
  await page.getByRole("tab", { name: "Appearance" }).click();
  await expect(page.getByRole("radio", { name: "Dark" })).toBeChecked();
  await page.getByRole("radio", { name: "Light" }).click();
  await expect(html).not.toHaveClass(/\bdark\b/);
  await page.reload();
  await expect(html).not.toHaveClass(/\bdark\b/);
  await expect(page.getByRole("radio", { name: "Light" })).toBeChecked();
  // Also on another page of the app.
  await page.goto("/dashboard");
  await expect(html).not.toHaveClass(/\bdark\b/);

  await page.goto("/profile?tab=appearance");
  await page.getByRole("radio", { name: "Dark" }).click();
  await expect(html).toHaveClass(/\bdark\b/);
  await page.reload();
  await expect(html).toHaveClass(/\bdark\b/);
  await expect(page.getByRole("radio", { name: "Dark" })).toBeChecked();

  // Password: the old session of another device (the account's API client) ends, this page's
  // session continues under a new token, and the new password signs in. The page's notification
  // socket is open first (its hello sent), as it is for a person who takes a moment to type: a
  // socket still connecting when the old token ends is refused once and then retried.
  const notificationSocketOpen = () =>
    new Promise<void>((resolve) => {
      // Any /ws socket of the page from now on: one may be replaced before it opens.
      const onSocket = (ws: WebSocket) => {
        if (new URL(ws.url()).pathname !== "/ws") return;
        ws.once("framesent", () => {
          page.off("websocket", onSocket);
          resolve();
        });
      };
      page.on("websocket", onSocket);
    });
  const firstSocket = notificationSocketOpen();
  await page.goto("/profile?tab=security");
  await firstSocket;
  const socketAfterChange = notificationSocketOpen();
  const passwordForm = page.getByRole("form", { name: "Change password" });
  await passwordForm.getByLabel("Current Password").fill(player.password);
  await passwordForm.getByLabel("New Password", { exact: true }).fill("journey-pass-2");
  await passwordForm.getByLabel("Confirm New Password").fill("journey-pass-2");
  await passwordForm.getByRole("button", { name: /Password/ }).click();
  await expectToast(page, "Password updated", "Your password has been successfully changed.");
  await expect(getUser(player)).rejects.toThrow(/401/);
  // The old socket was closed with the session; the page reconnects under its new token.
  await socketAfterChange;
  // Still signed in after a reload: the page holds the rotated token.
  await page.reload();
  await expect(page.getByRole("button", { name: "Account menu" })).toContainText(player.username);
  await expect(page.getByRole("form", { name: "Change password" })).toBeVisible();
  const login = await player.api.post("/api/login", { data: { username: player.username, password: "journey-pass-2" } });
  expect(login.status()).toBe(200);
});
