import { describe, expect, it } from "vitest";
import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { FairPlayOverview } from "@common/api/console-players";
import type { HeldPrize } from "@common/api/fair-play";
import type { FrozenAccount } from "@common/api/admin";
import { fakeFetch } from "@/test/fake-fetch";
import { renderPage, testUser } from "@/test/render-page";
import FairPlayScreen from "./fair-play-screen";

const OPERATOR = testUser({ role: "admin", twoFactorEnabled: true });

const OVERVIEW: FairPlayOverview = {
  cheatAttempts: [
    {
      id: 31,
      userId: 5,
      username: "speedy",
      tournamentId: 9,
      tournamentTitle: "Friday Night Science",
      reason: "Answered question 7 before it was issued",
      timestamp: "2026-11-20T20:15:00.000Z",
      reviewed: false,
      resolution: null,
      suppressed: 0,
    },
    {
      id: 30,
      userId: 6,
      username: "prober",
      tournamentId: 9,
      tournamentTitle: "Friday Night Science",
      reason: "Answered question 123456, which is not part of this tournament",
      timestamp: "2026-11-20T20:10:00.000Z",
      reviewed: false,
      resolution: null,
      suppressed: 12,
    },
  ],
  flagged: [
    {
      userId: 5,
      username: "speedy",
      tournamentId: 9,
      tournamentTitle: "Friday Night Science",
      rank: 1,
      prize: 42.5,
      prizeStatus: "held",
      flags: [{ kind: "inhuman_speed", detail: "3 correct answers under the reading floor" }],
    },
  ],
};

const HELD: HeldPrize[] = [
  {
    id: 77,
    userId: 5,
    username: "speedy",
    tournamentId: 9,
    tournamentTitle: "Friday Night Science",
    amount: 42.5,
    status: "held",
    flags: [{ kind: "inhuman_speed", detail: "3 correct answers under the reading floor" }],
    createdAt: "2026-11-20T21:00:00.000Z",
  },
];

const FROZEN: FrozenAccount[] = [
  {
    userId: 8,
    username: "owes_money",
    email: "o@example.com",
    balance: 0,
    owed: 12,
    reason: "refund",
    since: "2026-11-01T00:00:00.000Z",
    reversals: [],
  },
];

function setup(overrides: Record<string, () => { status?: number; body?: unknown }> = {}) {
  const fake = fakeFetch({
    "GET /api/admin/fair-play": () => ({ body: OVERVIEW }),
    "GET /api/admin/held-prizes": () => ({ body: HELD }),
    "GET /api/admin/frozen-accounts": () => ({ body: FROZEN }),
    "POST /api/admin/cheat-attempts/31/review": () => ({ body: { ...OVERVIEW.cheatAttempts[0], reviewed: true, resolution: "Warned" } }),
    "POST /api/admin/held-prizes/77/release": () => ({ body: { ...HELD[0], status: "completed" } }),
    "POST /api/admin/held-prizes/77/forfeit": () => ({ body: { ...HELD[0], status: "forfeited" } }),
    ...overrides,
  });
  renderPage([{ path: "/admin/fair-play", element: <FairPlayScreen /> }], { at: "/admin/fair-play", user: OPERATOR });
  return fake;
}

describe("fair play screen", () => {
  it("lists cheat attempts, flagged results, held prizes and frozen accounts", async () => {
    setup();
    const attempts = await screen.findByRole("region", { name: "Cheat attempts" });
    expect(await within(attempts).findByText("Answered question 7 before it was issued")).toBeVisible();
    // A player past the cap of stored rows: the rest are counted on their last row.
    expect(within(attempts).getByText("And 12 more refused answers after it, counted but not listed")).toBeVisible();
    expect(within(attempts).getAllByText(/more refused/)).toHaveLength(1);
    const flagged = screen.getByRole("region", { name: "Flagged results" });
    expect(await within(flagged).findByText("3 correct answers under the reading floor")).toBeVisible();
    const held = screen.getByRole("region", { name: "Held prizes" });
    expect(await within(held).findByText("$42.50")).toBeVisible();
    const frozen = screen.getByRole("region", { name: "Frozen accounts" });
    expect(await within(frozen).findByText("owes_money")).toBeVisible();
    expect(within(frozen).getByText("$12.00")).toBeVisible();
  });

  it("filters by tournament, player and review state", async () => {
    const u = userEvent.setup();
    const fake = setup();
    await screen.findByText("Answered question 7 before it was issued");
    await u.type(screen.getByLabelText("Tournament id"), "9");
    await u.type(screen.getByLabelText("Player id"), "5");
    await u.selectOptions(screen.getByLabelText("Review"), "open");
    await u.click(screen.getByRole("button", { name: "Apply filters" }));
    const last = fake.calls("GET /api/admin/fair-play").at(-1)!;
    expect(Object.fromEntries(last.query)).toEqual({ tournamentId: "9", userId: "5", review: "open" });
  });

  it("marks a cheat attempt reviewed with a resolution", async () => {
    const u = userEvent.setup();
    const fake = setup();
    await u.click(await screen.findByRole("button", { name: "Review attempt 31" }));
    const dialog = await screen.findByRole("dialog");
    await u.type(within(dialog).getByLabelText("Resolution"), "Warned");
    await u.click(within(dialog).getByRole("button", { name: "Mark reviewed" }));
    expect(fake.calls("POST /api/admin/cheat-attempts/31/review")[0]!.body).toEqual({ resolution: "Warned" });
    expect(await screen.findByText("Cheat attempt marked reviewed")).toBeVisible();
  });

  it("releases a held prize, and forfeits one with a reason; a refusal is shown as its message", async () => {
    const u = userEvent.setup();
    const fake = setup({
      "POST /api/admin/held-prizes/77/forfeit": () => ({
        status: 409,
        body: { code: "prize_not_held", message: "This prize has already been released or forfeited" },
      }),
    });
    await u.click(await screen.findByRole("button", { name: "Release prize 77" }));
    expect(fake.calls("POST /api/admin/held-prizes/77/release")).toHaveLength(1);
    expect(await screen.findByText("Prize released")).toBeVisible();

    await u.click(screen.getByRole("button", { name: "Forfeit prize 77" }));
    const dialog = await screen.findByRole("dialog");
    await u.type(within(dialog).getByLabelText("Reason"), "Two accounts on one device");
    await u.click(within(dialog).getByRole("button", { name: "Forfeit" }));
    expect(fake.calls("POST /api/admin/held-prizes/77/forfeit")[0]!.body).toEqual({ reason: "Two accounts on one device" });
    expect(await screen.findByText("This prize has already been released or forfeited")).toBeVisible();
  });
});
