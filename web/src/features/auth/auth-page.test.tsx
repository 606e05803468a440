import { afterEach, describe, expect, it, vi } from "vitest";
import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { AUTH, FAIR_PLAY, REQUEST_FAILED } from "@common/messages";
import { LEGAL } from "@common/legal-messages";
import { fakeFetch } from "@/test/fake-fetch";
import { fakeTurnstile, turnstileScript } from "@/test/fake-turnstile";
import { CONFIG_KEY } from "@/lib/config";
import { renderPage, testUser } from "@/test/render-page";
import { ProtectedRoute } from "@/app/layout/protected-route";
import AuthPage from "./auth-page";

const show = (at = "/auth") => renderPage([{ path: "/auth", element: <AuthPage /> }], { at, user: null });

/** Nothing a person reads carries a status code, braces or the raw body. */
function expectNoRawError() {
  expect(document.body.textContent).not.toMatch(/\d{3}:|[{}]|"message"/);
}

async function signIn(u: ReturnType<typeof userEvent.setup>) {
  await u.type(screen.getByLabelText("Username"), "quiz_master");
  await u.type(screen.getByLabelText("Password"), "wrong-password");
  await u.click(screen.getByRole("button", { name: "Sign In" }));
}

async function signUp(u: ReturnType<typeof userEvent.setup>) {
  await u.type(screen.getByLabelText("Username"), "quiz_master");
  await u.type(screen.getByLabelText("Email"), "quiz@example.com");
  await u.type(screen.getByLabelText("Password"), "secret123");
  await u.type(screen.getByLabelText("Confirm Password"), "secret123");
  await u.click(screen.getByRole("checkbox", { name: TERMS_BOX }));
  await u.click(screen.getByRole("button", { name: "Create Account" }));
}

const TERMS_BOX = "I agree to the Terms of Service and Official Rules and have read the Privacy Policy";

afterEach(() => vi.unstubAllGlobals());

describe("signing in with two-factor authentication", () => {
  it("asks for the code when the server answers two_factor_required, then sends it", async () => {
    const u = userEvent.setup();
    const api = fakeFetch({
      "POST /api/login": (req) =>
        (req.body as { totpCode?: string }).totpCode
          ? { status: 401, body: { code: "two_factor_invalid", message: AUTH.twoFactorInvalid, twoFactorRequired: true } }
          : { status: 401, body: { code: "two_factor_required", message: AUTH.twoFactorRequired, twoFactorRequired: true } },
    });
    show();
    await signIn(u);
    const code = await screen.findByLabelText("Two-factor code (or a recovery code)");
    expect(screen.queryByText("Login failed")).not.toBeInTheDocument();
    await u.type(code, "123456");
    await u.click(screen.getByRole("button", { name: "Sign In" }));
    expect(await screen.findByText(AUTH.twoFactorInvalid)).toBeVisible();
    expect(api.calls("POST /api/login").map((r) => (r.body as { totpCode?: string }).totpCode)).toEqual([undefined, "123456"]);
  });

  it("does not take a refusal's wording for the two-factor step: only its code", async () => {
    const u = userEvent.setup();
    fakeFetch({ "POST /api/login": () => ({ status: 401, body: { code: "invalid_credentials", message: AUTH.twoFactorRequired } }) });
    show();
    await signIn(u);
    expect(await screen.findByText("Login failed")).toBeVisible();
    expect(screen.queryByLabelText("Two-factor code (or a recovery code)")).not.toBeInTheDocument();
  });
});

describe("auth page errors", () => {
  it("shows a failed login as the server's message only", async () => {
    const u = userEvent.setup();
    fakeFetch({ "POST /api/login": () => ({ status: 401, body: { message: AUTH.invalidCredentials } }) });
    show();
    await signIn(u);
    expect(await screen.findByText("Login failed")).toBeVisible();
    expect(screen.getByText(AUTH.invalidCredentials)).toBeVisible();
    expectNoRawError();
  });

  it("shows a failed registration as the server's message only", async () => {
    const u = userEvent.setup();
    fakeFetch({ "POST /api/register": () => ({ status: 409, body: { message: AUTH.usernameTaken } }) });
    show("/auth?tab=register");
    await signUp(u);
    expect(await screen.findByText("Registration failed")).toBeVisible();
    expect(screen.getByText(AUTH.usernameTaken)).toBeVisible();
    expectNoRawError();
  });

  it("shows a plain sentence when the failure carries no message", async () => {
    const u = userEvent.setup();
    const gateway = () =>
      new Response("<html><body>502 Bad Gateway</body></html>", { status: 502, headers: { "Content-Type": "text/html" } });
    // A proxy's HTML page, not the Worker's JSON.
    vi.stubGlobal("fetch", async () => gateway());
    show();
    await signIn(u);
    expect(await screen.findByText(REQUEST_FAILED.server)).toBeVisible();
    expect(document.body.textContent).not.toMatch(/Bad Gateway|<html>|502/);
  });

  it("shows a plain sentence when the server cannot be reached", async () => {
    const u = userEvent.setup();
    vi.stubGlobal("fetch", async () => {
      throw new TypeError("Failed to fetch");
    });
    show("/auth?tab=register");
    await signUp(u);
    expect(await screen.findByText(REQUEST_FAILED.network)).toBeVisible();
    expect(document.body.textContent).not.toMatch(/Failed to fetch/);
  });
});

describe("signing in past the account's budget of wrong passwords", () => {
  it("shows Turnstile for login when the server asks for it, and sends the solved token with the next try", async () => {
    const u = userEvent.setup();
    const turnstile = fakeTurnstile();
    const api = fakeFetch({
      "GET /api/config": () => ({
        body: {
          paymentProvider: "sandbox",
          stripePublishableKey: null,
          minDeposit: 0.5,
          maxDeposit: 1000,
          supportEmail: null,
          turnstileSiteKey: "site-key-1",
        },
      }),
      "POST /api/login": (req) =>
        (req.body as { turnstileToken?: string }).turnstileToken
          ? { body: { id: 9, username: "quiz_master" } }
          : { status: 403, body: { code: "bot_check_required", message: AUTH.loginBotCheckRequired, botCheckRequired: true } },
    });
    show();
    await signIn(u);
    expect(await screen.findByText(AUTH.loginBotCheckRequired)).toBeVisible();
    expect(screen.queryByText("Login failed")).not.toBeInTheDocument();
    await vi.waitFor(() => expect(turnstile.live()).toHaveLength(1));
    expect(turnstile.live()[0]!.options).toMatchObject({ sitekey: "site-key-1", action: "login" });
    // Not sent again until the check is solved.
    await u.click(screen.getByRole("button", { name: "Sign In" }));
    expect(await screen.findByText(FAIR_PLAY.botCheckPending)).toBeVisible();
    expect(api.calls("POST /api/login")).toHaveLength(1);
    turnstile.solve("login-token");
    await u.click(screen.getByRole("button", { name: "Sign In" }));
    expect(await screen.findByText("Login successful")).toBeVisible();
    expect(api.calls("POST /api/login").map((r) => (r.body as { turnstileToken?: string }).turnstileToken)).toEqual([
      undefined,
      "login-token",
    ]);
  });
});

describe("registering with the bot check", () => {
  const config = (turnstileSiteKey: string | null) => ({
    body: {
      paymentProvider: "sandbox",
      stripePublishableKey: null,
      minDeposit: 0.5,
      maxDeposit: 1000,
      supportEmail: null,
      turnstileSiteKey,
    },
  });
  const created = { body: { id: 9, username: "quiz_master" }, status: 201 };

  it("shows Turnstile when the deployment has a site key, sends its token and asks again after a refusal", async () => {
    const u = userEvent.setup();
    const turnstile = fakeTurnstile();
    let refuse = true;
    const api = fakeFetch({
      "GET /api/config": () => config("site-key-1"),
      "POST /api/register": () =>
        refuse ? { status: 403, body: { code: "bot_check_failed", message: FAIR_PLAY.botCheckFailed } } : created,
    });
    show("/auth?tab=register");
    await vi.waitFor(() => expect(turnstile.live()).toHaveLength(1));
    expect(turnstile.live()[0]!.options).toMatchObject({ sitekey: "site-key-1", action: "register" });
    expect(turnstile.live()[0]!.container).toBe(screen.getByTestId("turnstile"));
    // The script is not fetched again when Turnstile is already on the page.
    expect(turnstileScript()).toBeNull();

    await signUp(u);
    expect(await screen.findByText(FAIR_PLAY.botCheckPending)).toBeVisible();
    expect(api.calls("POST /api/register")).toHaveLength(0);

    turnstile.solve("token-1");
    await u.click(screen.getByRole("button", { name: "Create Account" }));
    expect(await screen.findByText(FAIR_PLAY.botCheckFailed)).toBeVisible();
    expect(api.calls("POST /api/register").map((r) => (r.body as { turnstileToken?: string }).turnstileToken)).toEqual(["token-1"]);
    expect(turnstile.api.reset).toHaveBeenCalledWith(turnstile.live()[0]!.id);

    // The spent token is not sent again: the player solves the check anew.
    refuse = false;
    await u.click(screen.getByRole("button", { name: "Create Account" }));
    expect(await screen.findByText(FAIR_PLAY.botCheckPending)).toBeVisible();
    expect(api.calls("POST /api/register")).toHaveLength(1);
    turnstile.solve("token-2");
    await u.click(screen.getByRole("button", { name: "Create Account" }));
    expect(await screen.findByText("Registration successful")).toBeVisible();
    expect(api.calls("POST /api/register").map((r) => (r.body as { turnstileToken?: string }).turnstileToken)).toEqual([
      "token-1",
      "token-2",
    ]);
  });

  it("loads and shows nothing of Turnstile when the check is off, and sends no token", async () => {
    const u = userEvent.setup();
    const api = fakeFetch({ "GET /api/config": () => config(null), "POST /api/register": () => created });
    const page = show("/auth?tab=register");
    await vi.waitFor(() => expect(page.queryClient.getQueryData(CONFIG_KEY)).toEqual(config(null).body));
    await signUp(u);
    expect(await screen.findByText("Registration successful")).toBeVisible();
    expect(screen.queryByTestId("turnstile")).not.toBeInTheDocument();
    expect(turnstileScript()).toBeNull();
    expect(api.calls("POST /api/register")[0]!.body).not.toHaveProperty("turnstileToken");
  });
});

describe("after signing in, the player lands where they were going", () => {
  const app = (at: string) =>
    renderPage(
      [
        { path: "/auth", element: <AuthPage /> },
        { element: <ProtectedRoute />, children: [{ path: "/withdraw-confirm/:amount", element: <p>bank details page</p> }] },
      ],
      { at, user: null },
    );

  it("a protected page sends a signed-out visitor to sign in, then back to that page with its query", async () => {
    const u = userEvent.setup();
    fakeFetch({ "POST /api/login": () => ({ body: testUser() }) });
    const page = app("/withdraw-confirm/10?method=bank_account");
    expect(await screen.findByRole("button", { name: "Sign In" })).toBeVisible();
    expect(page.location()).toBe("/auth?next=%2Fwithdraw-confirm%2F10%3Fmethod%3Dbank_account");
    // Switching tabs keeps the way back.
    await u.click(screen.getByRole("tab", { name: "Register" }));
    await u.click(screen.getByRole("tab", { name: "Login" }));
    await signIn(u);
    expect(await screen.findByText("bank details page")).toBeVisible();
  });

  it.each(["//evil.com", "https://evil.com/x", "/\\evil.com"])("ignores %s as a way back and goes home", async (next) => {
    const u = userEvent.setup();
    fakeFetch({ "POST /api/login": () => ({ body: testUser() }) });
    const page = app(`/auth?next=${encodeURIComponent(next)}`);
    await signIn(u);
    await waitFor(() => expect(page.location()).toBe("/"));
  });
});

describe("agreeing to the documents at sign-up", () => {
  const config = () => ({
    body: {
      paymentProvider: "sandbox",
      stripePublishableKey: null,
      minDeposit: 0.5,
      maxDeposit: 1000,
      supportEmail: null,
      turnstileSiteKey: null,
    },
  });
  const created = { body: { id: 9, username: "quiz_master" }, status: 201 };

  it("links each document, refuses to send until the box is ticked, then sends the agreement", async () => {
    const u = userEvent.setup();
    const api = fakeFetch({ "GET /api/config": config, "POST /api/register": () => created });
    show("/auth?tab=register");
    for (const [name, href] of [
      ["Terms of Service", "/terms"],
      ["Official Rules", "/rules"],
      ["Privacy Policy", "/privacy"],
    ]) {
      expect(screen.getByRole("link", { name })).toHaveAttribute("href", href);
    }
    await u.type(screen.getByLabelText("Username"), "quiz_master");
    await u.type(screen.getByLabelText("Email"), "quiz@example.com");
    await u.type(screen.getByLabelText("Password"), "secret123");
    await u.type(screen.getByLabelText("Confirm Password"), "secret123");
    await u.click(screen.getByRole("button", { name: "Create Account" }));
    expect(await screen.findByText(LEGAL.mustAgree)).toBeVisible();
    expect(screen.getByRole("checkbox", { name: TERMS_BOX })).toHaveAttribute("aria-invalid", "true");
    expect(api.calls("POST /api/register")).toHaveLength(0);

    await u.click(screen.getByRole("checkbox", { name: TERMS_BOX }));
    await u.click(screen.getByRole("button", { name: "Create Account" }));
    expect(await screen.findByText("Registration successful")).toBeVisible();
    expect(api.calls("POST /api/register")[0]!.body).toMatchObject({ username: "quiz_master", acceptTerms: true });
  });
});
