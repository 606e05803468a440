import { describe, expect, it } from "vitest";
import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { fakeFetch } from "@/test/fake-fetch";
import { renderPage } from "@/test/render-page";
import { PasswordForm } from "./password-form";
import type { PasswordFormVariant } from "./schemas";

const WORDING = {
  dashboard: {
    current: "Current password is required.",
    min: "New password must be at least 8 characters.",
    confirm: "Please confirm your new password.",
    mismatch: "Passwords don't match.",
    failed: "Failed to update password",
    submit: "Update Password",
  },
  profile: {
    current: "Current password is required",
    min: "Password must be at least 8 characters long",
    confirm: "Please confirm your password",
    mismatch: "Passwords do not match",
    failed: "Password update failed",
    submit: "Change Password",
  },
} as const;

const render = (variant: PasswordFormVariant) => renderPage([{ path: "/", element: <PasswordForm variant={variant} /> }], { at: "/" });

describe.each(["dashboard", "profile"] as const)("password form (%s wording)", (variant) => {
  const w = WORDING[variant];

  it("says what is missing", async () => {
    const u = userEvent.setup();
    const server = fakeFetch({});
    render(variant);
    await u.click(screen.getByRole("button", { name: w.submit }));
    expect(await screen.findByText(w.current)).toBeVisible();
    expect(screen.getByText(w.min)).toBeVisible();
    expect(screen.getByText(w.confirm)).toBeVisible();
    expect(server.requests).toHaveLength(0);
  });

  it("reports a mismatch on the confirmation field", async () => {
    const u = userEvent.setup();
    fakeFetch({});
    render(variant);
    await u.type(screen.getByLabelText("Current Password"), "old-secret");
    await u.type(screen.getByLabelText("New Password"), "new-secret-1");
    await u.type(screen.getByLabelText("Confirm New Password"), "new-secret-2");
    await u.click(screen.getByRole("button", { name: w.submit }));
    expect(await screen.findByText(w.mismatch)).toBeVisible();
    expect(screen.getByLabelText("Confirm New Password")).toHaveAttribute("aria-invalid", "true");
  });

  it("shows the server's refusal", async () => {
    const u = userEvent.setup();
    fakeFetch({ "PATCH /api/user/password": () => ({ status: 400, body: { message: "Current password is incorrect" } }) });
    render(variant);
    await u.type(screen.getByLabelText("Current Password"), "wrong-one");
    await u.type(screen.getByLabelText("New Password"), "new-secret-1");
    await u.type(screen.getByLabelText("Confirm New Password"), "new-secret-1");
    await u.click(screen.getByRole("button", { name: w.submit }));
    expect(await screen.findByText(w.failed)).toBeVisible();
    expect(screen.getByText("Current password is incorrect")).toBeVisible();
    expect(screen.getByLabelText("Current Password")).toHaveValue("wrong-one");
  });

  it("changes the password, toasts and clears the form", async () => {
    const u = userEvent.setup();
    const server = fakeFetch({ "PATCH /api/user/password": () => ({ body: { message: "Password updated" } }) });
    render(variant);
    await u.type(screen.getByLabelText("Current Password"), "old-secret");
    await u.type(screen.getByLabelText("New Password"), "new-secret-1");
    await u.type(screen.getByLabelText("Confirm New Password"), "new-secret-1");
    await u.click(screen.getByRole("button", { name: w.submit }));

    expect(await screen.findByText("Password updated")).toBeVisible();
    expect(screen.getByText("Your password has been successfully changed.")).toBeVisible();
    await waitFor(() => expect(screen.getByLabelText("Current Password")).toHaveValue(""));
    expect(screen.getByLabelText("New Password")).toHaveValue("");
    expect(screen.getByLabelText("Confirm New Password")).toHaveValue("");
    // Only the dashboard's form sends the confirmation.
    const sent = server.calls("PATCH /api/user/password")[0]!.body;
    expect(sent).toEqual(
      variant === "dashboard"
        ? { currentPassword: "old-secret", newPassword: "new-secret-1", confirmPassword: "new-secret-1" }
        : { currentPassword: "old-secret", newPassword: "new-secret-1" },
    );
  });
});
