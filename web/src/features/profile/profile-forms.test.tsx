import { describe, expect, it } from "vitest";
import { screen, within } from "@testing-library/react";
import { AUTH } from "@common/messages";
import userEvent from "@testing-library/user-event";
import { SettingsTab } from "@/app/routes/dashboard/settings-tab";
import { fakeFetch } from "@/test/fake-fetch";
import { renderPage, testUser } from "@/test/render-page";
import { AccountInfoForm } from "./account-info-form";

const user = testUser();

const VARIANTS = [
  {
    name: "dashboard Account Settings",
    element: <SettingsTab user={user} />,
    username: "Username must be at least 3 characters.",
    email: "Please enter a valid email.",
    failed: "Failed to update profile",
  },
  {
    name: "profile page Account Info",
    element: <AccountInfoForm user={user} />,
    username: "Username must be at least 3 characters",
    email: "Invalid email address",
    failed: "Update failed",
  },
];

describe.each(VARIANTS)("$name form", (v) => {
  const render = () => renderPage([{ path: "/", element: v.element }], { at: "/", user });

  it("uses its own wording for a short username and a bad email", async () => {
    const u = userEvent.setup();
    const server = fakeFetch({});
    render();
    await u.clear(screen.getByLabelText("Username"));
    await u.type(screen.getByLabelText("Username"), "ab");
    await u.clear(screen.getByLabelText("Email"));
    await u.type(screen.getByLabelText("Email"), "not-an-email");
    await u.click(screen.getByRole("button", { name: "Save Changes" }));

    expect(await screen.findByText(v.username)).toBeVisible();
    expect(screen.getByText(v.email)).toBeVisible();
    // The other variant's wording never shows.
    const other = VARIANTS.find((x) => x !== v)!;
    expect(screen.queryByText(other.username)).not.toBeInTheDocument();
    expect(server.requests).toHaveLength(0);
  });

  it("shows the server's message when the name is taken", async () => {
    const u = userEvent.setup();
    fakeFetch({ "PATCH /api/user/profile": () => ({ status: 409, body: { message: "Username already exists" } }) });
    render();
    await u.clear(screen.getByLabelText("Username"));
    await u.type(screen.getByLabelText("Username"), "taken_name");
    await u.click(screen.getByRole("button", { name: "Save Changes" }));
    expect(await screen.findByText(v.failed)).toBeVisible();
    expect(screen.getByText("Username already exists")).toBeVisible();
  });

  it("saves and says so", async () => {
    const u = userEvent.setup();
    const saved = testUser({ username: "new_name" });
    const server = fakeFetch({ "PATCH /api/user/profile": () => ({ body: saved }), "GET /api/session": () => ({ body: { user: saved } }) });
    render();
    await u.clear(screen.getByLabelText("Username"));
    await u.type(screen.getByLabelText("Username"), "new_name");
    await u.click(screen.getByRole("button", { name: "Save Changes" }));
    expect(await screen.findByText("Profile updated")).toBeVisible();
    expect(screen.getByText("Your profile has been successfully updated.")).toBeVisible();
    expect(server.calls("PATCH /api/user/profile")[0]!.body).toMatchObject({ username: "new_name", email: user.email });
  });

  it("a new username opens the step-up dialog, then saves once the password is confirmed", async () => {
    const u = userEvent.setup();
    const saved = testUser({ username: "new_name" });
    let steppedUp = false;
    const server = fakeFetch({
      "PATCH /api/user/profile": () =>
        steppedUp ? { body: saved } : { status: 403, body: { code: "step_up_required", message: AUTH.stepUpRequired } },
      "POST /api/auth/step-up": () => {
        steppedUp = true;
        return { body: { stepUpUntil: Date.now() + 600_000 } };
      },
      "GET /api/session": () => ({ body: { user: saved } }),
    });
    render();
    await u.clear(screen.getByLabelText("Username"));
    await u.type(screen.getByLabelText("Username"), "new_name");
    await u.click(screen.getByRole("button", { name: "Save Changes" }));
    const dialog = await screen.findByRole("dialog", { name: "Confirm it's you" });
    await u.type(within(dialog).getByLabelText("Password"), "secret123");
    await u.click(within(dialog).getByRole("button", { name: "Confirm" }));
    expect(await screen.findByText("Profile updated")).toBeVisible();
    expect(server.calls("POST /api/auth/step-up")[0]!.body).toEqual({ password: "secret123" });
    expect(server.calls("PATCH /api/user/profile").map((r) => (r.body as { username: string }).username)).toEqual(["new_name", "new_name"]);
  });
});

describe("profile page Account Info extras", () => {
  it("sends bio, location and only the filled-in social links", async () => {
    const u = userEvent.setup();
    const server = fakeFetch({ "PATCH /api/user/profile": () => ({ body: user }), "GET /api/session": () => ({ body: { user } }) });
    renderPage([{ path: "/", element: <AccountInfoForm user={user} /> }], { at: "/", user });
    await u.type(screen.getByLabelText("Bio"), "Trivia since 1999.\nHistory buff.");
    await u.type(screen.getByLabelText("Location"), "Lisbon, Portugal");
    await u.type(screen.getByLabelText("GitHub"), "quizmaster");
    await u.click(screen.getByRole("button", { name: "Save Changes" }));
    await screen.findByText("Profile updated");
    expect(server.calls("PATCH /api/user/profile")[0]!.body).toEqual({
      username: user.username,
      email: user.email,
      bio: "Trivia since 1999.\nHistory buff.",
      location: "Lisbon, Portugal",
      country: null,
      socialLinks: { github: "quizmaster" },
    });
  });

  it("sends the country chosen for the regional leaderboard, starting from the one on the account", async () => {
    const u = userEvent.setup();
    const german = testUser({ country: "DE" });
    const server = fakeFetch({
      "PATCH /api/user/profile": () => ({ body: german }),
      "GET /api/session": () => ({ body: { user: german } }),
    });
    renderPage([{ path: "/", element: <AccountInfoForm user={german} /> }], { at: "/", user: german });
    expect(screen.getByLabelText("Country")).toHaveValue("DE");
    await u.selectOptions(screen.getByLabelText("Country"), "PT");
    await u.click(screen.getByRole("button", { name: "Save Changes" }));
    await screen.findByText("Profile updated");
    expect(server.calls("PATCH /api/user/profile")[0]!.body).toMatchObject({ country: "PT" });
  });
});
