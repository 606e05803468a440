import { afterEach, describe, expect, it, vi } from "vitest";
import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { EMAIL, VALIDATION } from "@common/messages";
import { fakeFetch } from "@/test/fake-fetch";
import { renderPage, testUser } from "@/test/render-page";
import AuthPage from "./auth-page";
import ForgotPasswordPage from "./forgot-password-page";
import ResetPasswordPage from "./reset-password-page";
import VerifyEmailPage from "./verify-email-page";

const routes = [
  { path: "/auth", element: <AuthPage /> },
  { path: "/forgot-password", element: <ForgotPasswordPage /> },
  { path: "/reset-password", element: <ResetPasswordPage /> },
  { path: "/verify-email", element: <VerifyEmailPage /> },
];

afterEach(() => vi.unstubAllGlobals());

describe("forgot password", () => {
  it("is linked from the sign-in form", async () => {
    const u = userEvent.setup();
    fakeFetch({});
    renderPage(routes, { at: "/auth", user: null });
    await u.click(screen.getByRole("link", { name: "Forgot password?" }));
    expect(await screen.findByRole("heading", { name: "Forgot your password?" })).toBeVisible();
  });

  it("checks the address, sends it, and shows the same message whatever the server found", async () => {
    const u = userEvent.setup();
    const server = fakeFetch({ "POST /api/auth/forgot-password": () => ({ body: { message: EMAIL.resetRequested } }) });
    renderPage(routes, { at: "/forgot-password", user: null });
    await u.type(screen.getByLabelText("Email"), "not-an-address");
    await u.click(screen.getByRole("button", { name: "Send reset link" }));
    expect(await screen.findByText(VALIDATION.emailInvalid)).toBeVisible();
    expect(server.requests).toHaveLength(0);

    await u.clear(screen.getByLabelText("Email"));
    await u.type(screen.getByLabelText("Email"), "ada@example.com");
    await u.click(screen.getByRole("button", { name: "Send reset link" }));
    expect(await screen.findByRole("status")).toHaveTextContent(EMAIL.resetRequested);
    expect(server.calls("POST /api/auth/forgot-password")[0]!.body).toEqual({ email: "ada@example.com" });
  });

  it("says in words when there are too many requests", async () => {
    const u = userEvent.setup();
    fakeFetch({
      "POST /api/auth/forgot-password": () => ({
        status: 429,
        body: { code: "rate_limited", message: "Too many attempts. Please wait a few minutes and try again." },
      }),
    });
    renderPage(routes, { at: "/forgot-password", user: null });
    await u.type(screen.getByLabelText("Email"), "ada@example.com");
    await u.click(screen.getByRole("button", { name: "Send reset link" }));
    expect(await screen.findByText("Could not send the link")).toBeVisible();
    expect(screen.getByText("Too many attempts. Please wait a few minutes and try again.")).toBeVisible();
  });
});

describe("reset password", () => {
  it("sets the new password with the link's token, then sends the person to sign in", async () => {
    const u = userEvent.setup();
    const server = fakeFetch({ "POST /api/auth/reset-password": () => ({ body: { message: EMAIL.resetDone } }) });
    const page = renderPage(routes, { at: "/reset-password?token=tok_123", user: null });
    await u.type(screen.getByLabelText("New Password"), "brand-new-pass");
    await u.type(screen.getByLabelText("Confirm New Password"), "brand-new-pas");
    await u.click(screen.getByRole("button", { name: "Reset password" }));
    expect(await screen.findByText(VALIDATION.passwordsDontMatch)).toBeVisible();
    expect(server.requests).toHaveLength(0);

    await u.type(screen.getByLabelText("Confirm New Password"), "s");
    await u.click(screen.getByRole("button", { name: "Reset password" }));
    expect(await screen.findByText("Password reset")).toBeVisible();
    expect(screen.getByText(EMAIL.resetDone)).toBeVisible();
    await waitFor(() => expect(page.location()).toBe("/auth"));
    expect(await screen.findByRole("button", { name: "Sign In" })).toBeVisible();
    expect(server.calls("POST /api/auth/reset-password")[0]!.body).toEqual({ token: "tok_123", newPassword: "brand-new-pass" });
  });

  it("offers a new link when the token is used or expired, and when the URL has none", async () => {
    const u = userEvent.setup();
    fakeFetch({
      "POST /api/auth/reset-password": () => ({ status: 400, body: { code: "reset_token_invalid", message: EMAIL.resetTokenInvalid } }),
    });
    renderPage(routes, { at: "/reset-password?token=used", user: null });
    await u.type(screen.getByLabelText("New Password"), "brand-new-pass");
    await u.type(screen.getByLabelText("Confirm New Password"), "brand-new-pass");
    await u.click(screen.getByRole("button", { name: "Reset password" }));
    expect(await screen.findByRole("alert")).toHaveTextContent(EMAIL.resetTokenInvalid);
    expect(screen.getByRole("link", { name: "Ask for a new link" })).toHaveAttribute("href", "/forgot-password");

    renderPage(routes, { at: "/reset-password", user: null });
    expect(screen.getAllByRole("alert").some((a) => a.textContent === `${EMAIL.verifyTokenMissing}Ask for a new link`)).toBe(true);
  });
});

describe("verify email", () => {
  it("uses the token once and says the address is verified", async () => {
    const server = fakeFetch({
      "POST /api/auth/verify-email": () => ({ body: { message: EMAIL.verified } }),
      "GET /api/session": () => ({ body: { user: testUser({ emailVerified: true }) } }),
    });
    renderPage(routes, { at: "/verify-email?token=tok_abc", user: testUser({ emailVerified: false }) });
    expect(await screen.findByText(EMAIL.verified)).toBeVisible();
    expect(screen.getByRole("link", { name: "Go to Dashboard" })).toHaveAttribute("href", "/dashboard");
    expect(server.calls("POST /api/auth/verify-email").map((r) => r.body)).toEqual([{ token: "tok_abc" }]);
  });

  it("shows the server's reason for a dead link and offers to sign in", async () => {
    fakeFetch({
      "POST /api/auth/verify-email": () => ({ status: 400, body: { code: "verify_token_invalid", message: EMAIL.verifyTokenInvalid } }),
    });
    renderPage(routes, { at: "/verify-email?token=old", user: null });
    expect(await screen.findByRole("alert")).toHaveTextContent(EMAIL.verifyTokenInvalid);
    expect(screen.getByRole("link", { name: "Sign in" })).toHaveAttribute("href", "/auth");
  });
});
