// The join button and responsible play: the date-of-birth question asked in the flow (then the
// join goes on), and the server's limit and exclusion refusals shown in its own words.
import { describe, expect, it, vi } from "vitest";
import { fireEvent, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { Tournament } from "@common/api/types";
import { fakeFetch } from "@/test/fake-fetch";
import { renderPage } from "@/test/render-page";
import { CONFIG_KEY } from "@/lib/config";
import { JoinButton } from "./components/join-button";

const tournament: Tournament = {
  id: 42,
  title: "History Showdown",
  description: "Empires and revolutions.",
  categoryId: 4,
  categoryName: "History",
  entryFee: 5,
  prizePool: 0,
  maxParticipants: 50,
  currentParticipants: 12,
  minLevel: 1,
  startTime: new Date(Date.now() + 3_600_000).toISOString(),
  endTime: null,
  status: "upcoming",
  imageUrl: null,
  isFree: false,
  kind: "standard",
  format: "self_paced",
  createdAt: "2026-01-01T00:00:00.000Z",
};

const CONFIG = {
  paymentProvider: "sandbox",
  stripePublishableKey: null,
  minDeposit: 0.5,
  maxDeposit: 1000,
  supportEmail: null,
  turnstileSiteKey: null,
};

async function renderButton() {
  const page = renderPage([{ path: "/t", element: <JoinButton tournament={tournament} /> }], { at: "/t" });
  await vi.waitFor(() => expect(page.queryClient.getQueryData(CONFIG_KEY)).toBeDefined());
  return page;
}

describe("join button: responsible play", () => {
  it("asks for the date of birth when the server needs it, then joins without a second press", async () => {
    let dobGiven = false;
    const api = fakeFetch({
      "GET /api/config": () => ({ body: CONFIG }),
      "POST /api/tournaments/42/join": () =>
        dobGiven
          ? { body: { joined: true, balance: 45, tournament } }
          : {
              status: 403,
              body: { code: "date_of_birth_required", message: "Please enter your date of birth before your first deposit or paid entry." },
            },
      "PUT /api/user/date-of-birth": () => {
        dobGiven = true;
        return { body: { dateOfBirth: "1990-05-17", limits: [], exclusion: null } };
      },
    });
    await renderButton();
    fireEvent.click(screen.getByRole("button", { name: "Join Tournament" }));
    const dialog = await screen.findByRole("dialog");
    expect(dialog).toHaveTextContent("Your date of birth");
    await userEvent.type(screen.getByLabelText("Date of birth"), "1990-05-17");
    await userEvent.click(screen.getByRole("button", { name: "Save and continue" }));
    expect(await screen.findByText("Successfully joined tournament!")).toBeVisible();
    expect(api.calls("POST /api/tournaments/42/join")).toHaveLength(2);
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
  });

  it.each([
    [
      "spend_limit_reached",
      "This would go over your daily entry-fee limit of $10.00 (the last 24 hours). You can spend on entry fees up to $5.00 now.",
    ],
    ["cooling_off", "You are taking a break until 25 Nov 2026, 10:00 UTC: deposits and joining tournaments are paused until then."],
    ["self_excluded", "You have excluded yourself permanently: deposits and joining tournaments are closed on this account."],
    ["region_barred", "Deposits, paid tournaments and withdrawals are not available in your region (US-WA)."],
  ])("shows a %s refusal in the server's words", async (code, message) => {
    fakeFetch({
      "GET /api/config": () => ({ body: CONFIG }),
      "POST /api/tournaments/42/join": () => ({ status: code === "spend_limit_reached" ? 409 : 403, body: { code, message } }),
    });
    await renderButton();
    fireEvent.click(screen.getByRole("button", { name: "Join Tournament" }));
    expect(await screen.findByText(message)).toBeVisible();
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
  });
});
