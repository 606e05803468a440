import { describe, expect, it } from "vitest";
import { fireEvent, screen, waitFor } from "@testing-library/react";
import type { GlobalLeaderboardEntry } from "@common/api/tournaments";
import { fakeFetch } from "@/test/fake-fetch";
import { renderPage, testUser } from "@/test/render-page";
import LeaderboardsPage from "./components/leaderboards-page";

const entry = (id: number, username: string, totalPrize: number): GlobalLeaderboardEntry => ({
  id,
  username,
  avatar: `/api/users/${username}/avatar?v=2`,
  region: "DE",
  level: 4,
  tournamentsPlayed: 3,
  tournamentsWon: 1,
  totalPrize,
});

describe("leaderboards page", () => {
  it("shows all time first, and This Week asks the server for the last seven days", async () => {
    const api = fakeFetch({
      "GET /api/leaderboard": (req) => ({
        body: req.query.get("period") === "week" ? [entry(2, "weekly_star", 12)] : [entry(1, "veteran", 900)],
      }),
    });
    renderPage([{ path: "/leaderboards", element: <LeaderboardsPage /> }], { at: "/leaderboards", user: testUser() });
    expect(await screen.findByRole("link", { name: /veteran/ })).toBeVisible();
    fireEvent.click(screen.getByRole("button", { name: "This Week" }));
    expect(await screen.findByRole("link", { name: /weekly_star/ })).toBeVisible();
    expect(screen.getByText("Players ranked by the prizes they won in the last seven days.")).toBeVisible();
    await waitFor(() => expect(api.calls("GET /api/leaderboard").map((r) => r.query.get("period"))).toEqual(["all", "week"]));
    // Avatars come from their own URL.
    expect(screen.getByRole("img", { name: "weekly_star's avatar" })).toHaveAttribute("src", "/api/users/weekly_star/avatar?v=2");
  });
});
