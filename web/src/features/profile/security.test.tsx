import { describe, expect, it } from "vitest";
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { AUTH } from "@common/messages";
import { USER_KEY } from "@/lib/session";
import { fakeFetch } from "@/test/fake-fetch";
import { renderPage, testUser } from "@/test/render-page";
import { DeleteAccount } from "./delete-account";
import { TwoFactorSettings } from "./two-factor-settings";

const SECRET = "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP";
const URI = `otpauth://totp/Trivia%20Arena:quiz_master?secret=${SECRET}&issuer=Trivia%20Arena`;
const CODES = [
  "ABCDE12345",
  "FGHIJ67890",
  "KLMNO12345",
  "PQRST67890",
  "UVWXY12345",
  "Z2345ABCDE",
  "FGHIJ23456",
  "KLMNO34567",
  "PQRST45678",
  "UVWXY56789",
];

describe("two-factor enrolment", () => {
  it("asks for the password first when the session has not confirmed it lately, then starts the setup", async () => {
    const u = userEvent.setup();
    let steppedUp = false;
    const server = fakeFetch({
      "POST /api/user/2fa/setup": () =>
        steppedUp
          ? { body: { secret: SECRET, otpauthUri: URI } }
          : { status: 403, body: { code: "step_up_required", message: AUTH.stepUpRequired } },
      "POST /api/auth/step-up": () => {
        steppedUp = true;
        return { body: { stepUpUntil: Date.now() + 600_000 } };
      },
    });
    const user = testUser();
    renderPage([{ path: "/", element: <TwoFactorSettings user={user} /> }], { at: "/", user });

    await u.click(screen.getByRole("button", { name: "Enable 2FA" }));
    const dialog = await screen.findByRole("dialog", { name: "Confirm it's you" });
    await u.type(within(dialog).getByLabelText("Password"), "secret123");
    await u.click(within(dialog).getByRole("button", { name: "Confirm" }));
    expect(await screen.findByLabelText("Setup key")).toHaveTextContent("JBSW Y3DP");
    expect(server.calls("POST /api/user/2fa/setup")).toHaveLength(2);
  });

  it("shows the QR code and the secret, then the recovery codes once enabled", async () => {
    const u = userEvent.setup();
    const server = fakeFetch({
      "POST /api/user/2fa/setup": () => ({ body: { secret: SECRET, otpauthUri: URI } }),
      "POST /api/user/2fa/enable": (req) =>
        (req.body as { code: string }).code === "123456"
          ? { body: { recoveryCodes: CODES } }
          : { status: 400, body: { message: "Invalid two-factor code" } },
    });
    const user = testUser();
    const page = renderPage([{ path: "/", element: <TwoFactorSettings user={user} /> }], { at: "/", user });

    await u.click(screen.getByRole("button", { name: "Enable 2FA" }));
    const qr = await screen.findByRole("img", { name: "QR code for your authenticator app" });
    expect(qr.getAttribute("src")).toMatch(/^data:image\/svg\+xml/);
    expect(decodeURIComponent(qr.getAttribute("src")!)).toContain("<svg");
    expect(screen.getByLabelText("Setup key")).toHaveTextContent("JBSW Y3DP EHPK 3PXP JBSW Y3DP EHPK 3PXP");

    await u.type(screen.getByLabelText("Authentication code"), "000000");
    await u.click(screen.getByRole("button", { name: "Verify and Enable" }));
    expect(await screen.findByText("Invalid two-factor code")).toBeVisible();
    expect(screen.queryByRole("list", { name: "Recovery codes" })).not.toBeInTheDocument();

    await u.clear(screen.getByLabelText("Authentication code"));
    await u.type(screen.getByLabelText("Authentication code"), "123456");
    await u.click(screen.getByRole("button", { name: "Verify and Enable" }));

    const list = await screen.findByRole("list", { name: "Recovery codes" });
    expect(
      within(list)
        .getAllByRole("listitem")
        .map((li) => li.textContent),
    ).toEqual(CODES);
    expect(screen.queryByRole("img", { name: /QR code/ })).not.toBeInTheDocument();
    expect(server.calls("POST /api/user/2fa/enable").map((r) => r.body)).toEqual([{ code: "000000" }, { code: "123456" }]);
    // The cached user is refreshed so the page shows 2FA as on.
    expect(page.queryClient.getQueryState(USER_KEY)?.isInvalidated).toBe(true);

    // Shown once: dismissed, they are gone for good.
    await u.click(screen.getByRole("button", { name: "I have saved my codes" }));
    expect(screen.queryByRole("list", { name: "Recovery codes" })).not.toBeInTheDocument();
  });

  it("disables with the password and a code", async () => {
    const u = userEvent.setup();
    const server = fakeFetch({
      "POST /api/user/2fa/disable": () => ({ body: { message: "Two-factor authentication disabled" } }),
      "GET /api/session": () => ({ body: { user: testUser() } }),
    });
    const user = testUser({ twoFactorEnabled: true });
    renderPage([{ path: "/", element: <TwoFactorSettings user={user} /> }], { at: "/", user });
    expect(screen.getByText("Enabled")).toBeVisible();
    await u.click(screen.getByRole("button", { name: "Disable 2FA" }));
    const dialog = await screen.findByRole("dialog");
    await u.type(within(dialog).getByLabelText("Password"), "secret-pass");
    await u.type(within(dialog).getByLabelText("Authentication code"), "654321");
    await u.click(within(dialog).getByRole("button", { name: "Disable 2FA" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    expect(server.calls("POST /api/user/2fa/disable")[0]!.body).toEqual({ password: "secret-pass", code: "654321" });
  });
});

describe("delete account", () => {
  it("needs DELETE typed and shows the server's refusal while money remains", async () => {
    const u = userEvent.setup();
    fakeFetch({
      "DELETE /api/user": () => ({
        status: 409,
        body: { message: "Withdraw your remaining balance of $50.00 before deleting your account." },
      }),
    });
    const page = renderPage([{ path: "/profile", element: <DeleteAccount /> }], { at: "/profile" });
    await u.click(screen.getByRole("button", { name: "Delete Account" }));
    const dialog = await screen.findByRole("dialog", { name: "Delete your account?" });
    const confirm = within(dialog).getByRole("button", { name: "Delete Account" });
    await u.type(within(dialog).getByLabelText("Password"), "secret-pass");
    await u.type(within(dialog).getByLabelText("Type DELETE to confirm"), "delete");
    expect(confirm).toBeDisabled();
    await u.clear(within(dialog).getByLabelText("Type DELETE to confirm"));
    await u.type(within(dialog).getByLabelText("Type DELETE to confirm"), "DELETE");
    await u.click(confirm);
    expect(await within(dialog).findByText("Withdraw your remaining balance of $50.00 before deleting your account.")).toBeVisible();
    expect(page.location()).toBe("/profile");
  });

  it("signs out and goes home once deleted", async () => {
    const u = userEvent.setup();
    const server = fakeFetch({ "DELETE /api/user": () => ({ body: { message: "Account deleted" } }) });
    const page = renderPage([{ path: "/profile", element: <DeleteAccount /> }], { at: "/profile" });
    await u.click(screen.getByRole("button", { name: "Delete Account" }));
    const dialog = await screen.findByRole("dialog");
    await u.type(within(dialog).getByLabelText("Type DELETE to confirm"), "DELETE");
    await u.type(within(dialog).getByLabelText("Password"), "secret-pass");
    await u.click(within(dialog).getByRole("button", { name: "Delete Account" }));
    await waitFor(() => expect(page.location()).toBe("/"));
    expect(page.queryClient.getQueryData(USER_KEY)).toBeNull();
    expect(server.calls("DELETE /api/user")[0]!.body).toEqual({ password: "secret-pass", confirm: "DELETE" });
  });
});
