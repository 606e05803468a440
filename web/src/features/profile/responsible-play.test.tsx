import { describe, expect, it } from "vitest";
import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { LimitView, ResponsiblePlayState } from "@common/api/responsible-play";
import { LIMIT_KINDS } from "@common/api/responsible-play";
import { fakeFetch } from "@/test/fake-fetch";
import { renderPage } from "@/test/render-page";
import { ResponsiblePlaySettings } from "./responsible-play-settings";

const PENDING_FROM = "2026-11-25T10:00:00.000Z";

function stateWith(
  limits: Partial<Record<string, Partial<LimitView>>> = {},
  extra: Partial<ResponsiblePlayState> = {},
): ResponsiblePlayState {
  return {
    dateOfBirth: "1990-05-17",
    limits: LIMIT_KINDS.map((kind) => ({ kind, amount: null, pending: null, used: 0, left: null, ...limits[kind] })),
    exclusion: null,
    ...extra,
  };
}

const render = () => renderPage([{ path: "/", element: <ResponsiblePlaySettings /> }], { at: "/" });

describe("responsible play in the profile", () => {
  it("shows each limit with its usage and a raise still waiting, and saves only what changed", async () => {
    const u = userEvent.setup();
    const server = fakeFetch({
      "GET /api/user/responsible-play": () => ({
        body: stateWith({ deposit_daily: { amount: 50, used: 30, left: 20, pending: { amount: 100, from: PENDING_FROM } } }),
      }),
      "PUT /api/user/responsible-play/limits": () => ({
        body: {
          ...stateWith({ deposit_daily: { amount: 50, used: 30, left: 20 }, entry_fees_weekly: { amount: 25, left: 25 } }),
          message: "Limits saved",
        },
      }),
    });
    render();
    const daily = await screen.findByLabelText("Daily deposit limit ($)");
    expect(daily).toHaveValue("50");
    expect(screen.getByText("$30.00 used in the last 24 hours; $20.00 left.")).toBeVisible();
    expect(screen.getByText(/^Rises to \$100\.00 from /)).toBeVisible();

    await u.type(screen.getByLabelText("Weekly entry-fee limit ($)"), "25");
    await u.click(screen.getByRole("button", { name: "Save limits" }));
    expect(await screen.findByText("Limits saved")).toBeVisible();
    // The daily limit was not touched, so its waiting raise is not cancelled by resending it.
    expect(server.calls("PUT /api/user/responsible-play/limits")[0]!.body).toEqual({ entry_fees_weekly: "25" });
  });

  it("shows a refused limit in the server's words", async () => {
    const u = userEvent.setup();
    fakeFetch({
      "GET /api/user/responsible-play": () => ({ body: stateWith() }),
      "PUT /api/user/responsible-play/limits": () => ({
        status: 400,
        body: { code: "invalid_request", message: "A limit must be a positive amount, or empty for no limit" },
      }),
    });
    render();
    await u.type(await screen.findByLabelText("Monthly deposit limit ($)"), "-4");
    await u.click(screen.getByRole("button", { name: "Save limits" }));
    expect(await screen.findByText("A limit must be a positive amount, or empty for no limit")).toBeVisible();
  });

  it("confirms a cool-off in a dialog that says it cannot be undone, with the password", async () => {
    const u = userEvent.setup();
    const endsAt = "2026-12-01T12:00:00.000Z";
    const server = fakeFetch({
      "GET /api/user/responsible-play": () => ({ body: stateWith() }),
      "POST /api/user/responsible-play/cool-off": (req) =>
        (req.body as { password: string }).password === "right-password"
          ? {
              body: {
                ...stateWith({}, { exclusion: { kind: "cool_off", startsAt: "2026-11-24T12:00:00.000Z", endsAt } }),
                message: "Your break has started. It ends 1 Dec 2026, 12:00 UTC.",
              },
            }
          : { status: 400, body: { code: "wrong_password", message: "Password is incorrect" } },
    });
    render();
    await u.selectOptions(await screen.findByLabelText("Length", { selector: "#cool_off-period" }), "7d");
    await u.click(screen.getByRole("button", { name: "Start cool-off" }));
    const dialog = await screen.findByRole("dialog");
    expect(within(dialog).getByText("Take a break for 7 days?")).toBeVisible();
    expect(dialog).toHaveTextContent("cannot be ended early");

    await u.type(within(dialog).getByLabelText("Password"), "wrong");
    await u.click(within(dialog).getByRole("button", { name: "Yes, start cool-off" }));
    expect(await within(dialog).findByText("Password is incorrect")).toBeVisible();

    await u.clear(within(dialog).getByLabelText("Password"));
    await u.type(within(dialog).getByLabelText("Password"), "right-password");
    await u.click(within(dialog).getByRole("button", { name: "Yes, start cool-off" }));
    expect(await screen.findByText("Your break has started. It ends 1 Dec 2026, 12:00 UTC.")).toBeVisible();
    expect(await screen.findByText(/You are on a break until/)).toBeVisible();
    expect(server.calls("POST /api/user/responsible-play/cool-off").at(-1)!.body).toEqual({ period: "7d", password: "right-password" });
  });

  it("warns that a self-exclusion cannot be undone, and shows one in force", async () => {
    const u = userEvent.setup();
    fakeFetch({
      "GET /api/user/responsible-play": () => ({
        body: stateWith({}, { exclusion: { kind: "self_exclusion", startsAt: "2026-11-24T12:00:00.000Z", endsAt: null } }),
      }),
    });
    render();
    expect(await screen.findByText(/You have excluded yourself permanently/)).toBeVisible();
    await u.selectOptions(screen.getByLabelText("Length", { selector: "#self_exclusion-period" }), "permanent");
    await u.click(screen.getByRole("button", { name: "Exclude myself" }));
    const dialog = await screen.findByRole("dialog");
    expect(within(dialog).getByText("Exclude yourself permanently?")).toBeVisible();
    expect(dialog).toHaveTextContent("cannot be undone or shortened");
  });

  it("asks for the date of birth when none is on file", async () => {
    fakeFetch({ "GET /api/user/responsible-play": () => ({ body: stateWith({}, { dateOfBirth: null }) }) });
    render();
    expect(await screen.findByLabelText("Date of birth")).toBeVisible();
    expect(screen.getByRole("button", { name: "Save date of birth" })).toBeVisible();
  });
});
