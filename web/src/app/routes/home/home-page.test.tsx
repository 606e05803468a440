import { describe, expect, it } from "vitest";
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { Tooltip } from "radix-ui";
import type { Category, Tournament } from "@common/api/types";
import type { GlobalLeaderboardEntry } from "@common/api/tournaments";
import { FAIR_PLAY_GUARANTEE, REQUEST_FAILED } from "@common/messages";
import { fakeFetch } from "@/test/fake-fetch";
import { renderPage, testUser } from "@/test/render-page";
import HomePage from "./home-page";

const tournament = (id: number, title: string, isFree: boolean, status: "live" | "upcoming" = "upcoming"): Tournament => ({
  id,
  title,
  description: `${title} description`,
  categoryId: 1,
  categoryName: "General Knowledge",
  entryFee: isFree ? 0 : 5,
  prizePool: 0,
  maxParticipants: 50,
  currentParticipants: 12,
  minLevel: 1,
  startTime: new Date(Date.now() + (status === "live" ? -60_000 : id * 3_600_000)).toISOString(),
  endTime: null,
  status,
  imageUrl: null,
  isFree,
  kind: "standard",
  format: "self_paced",
  createdAt: "2026-01-01T00:00:00.000Z",
});

// In the server's order: live first, then upcoming soonest first. The first three are all paid.
const TOURNAMENTS = [
  tournament(1, "Paid Live Cup", false, "live"),
  tournament(2, "Paid Morning Cup", false),
  tournament(3, "Paid Noon Cup", false),
  tournament(4, "Free Afternoon Quiz", true),
  tournament(5, "Free Evening Quiz", true),
  tournament(6, "Free Night Quiz", true),
  tournament(7, "Free Late Quiz", true),
];
const CATEGORIES: Category[] = [
  { id: 1, slug: "general-knowledge", name: "General Knowledge", description: "", icon: "brain", activeTournaments: 4 },
  { id: 2, slug: "music", name: "Music", description: "", icon: "music", activeTournaments: 1 },
];
const player = (id: number, username: string, region = "Global"): GlobalLeaderboardEntry => ({
  id,
  username,
  avatar: null,
  region,
  level: 3,
  tournamentsPlayed: 9,
  tournamentsWon: 2,
  totalPrize: 120.5,
});

function show({
  leaderboard = [] as GlobalLeaderboardEntry[],
  user = testUser() as ReturnType<typeof testUser> | null,
  figures = { paidToWinnersCents: 4_321_50, tournamentsCompleted: 87 },
} = {}) {
  const api = fakeFetch({
    "GET /api/tournaments": (req) => {
      const price = req.query.get("price");
      const rows = TOURNAMENTS.filter((t) => !price || (price === "free") === t.isFree);
      const pageSize = Number(req.query.get("pageSize"));
      return {
        body: { items: rows.slice(0, pageSize), total: rows.length, page: 1, pageSize, nextPage: rows.length > pageSize ? 2 : null },
      };
    },
    "GET /api/categories": () => ({ body: CATEGORIES }),
    "GET /api/leaderboard": () => ({ body: leaderboard }),
    "GET /api/stats": () => ({ body: figures }),
  });
  renderPage(
    [
      {
        path: "/",
        element: (
          <Tooltip.Provider>
            <HomePage />
          </Tooltip.Provider>
        ),
      },
    ],
    { at: "/", user },
  );
  return api;
}

describe("home page", () => {
  it("shows the real prizes paid and tournaments completed, not the spec's claims they have not reached", async () => {
    show();
    const paid = screen.getByText("Paid to winners").nextElementSibling!;
    await waitFor(() => expect(paid).toHaveTextContent("$4,321"));
    expect(screen.getByText("Tournaments completed").nextElementSibling).toHaveTextContent("87");
    expect(document.body.textContent).not.toMatch(/1\.2M|35,000/);
  });

  it("shows a claim once the real figure reaches it", async () => {
    show({ figures: { paidToWinnersCents: 130_000_000, tournamentsCompleted: 12 } });
    await waitFor(() => expect(screen.getByText("Paid to winners").nextElementSibling).toHaveTextContent("$1.2M+"));
    expect(screen.getByText("Tournaments completed").nextElementSibling).toHaveTextContent("12");
  });

  it("links Play Now to /tournaments and, with words that say where it goes, to /learn-more", async () => {
    show();
    expect(screen.getByRole("link", { name: /Play Now/ })).toHaveAttribute("href", "/tournaments");
    expect(screen.getByRole("link", { name: "Learn more about Trivia Arena" })).toHaveAttribute("href", "/learn-more");
  });

  it("says in plain words when the tournaments cannot be loaded, never the raw answer", async () => {
    fakeFetch({
      "GET /api/tournaments": () => ({ status: 500, body: "upstream connect error" }),
      "GET /api/categories": () => ({ body: CATEGORIES }),
      "GET /api/leaderboard": () => ({ body: [] }),
    });
    renderPage(
      [
        {
          path: "/",
          element: (
            <Tooltip.Provider>
              <HomePage />
            </Tooltip.Provider>
          ),
        },
      ],
      { at: "/" },
    );
    const section = screen.getByRole("region", { name: "Live Tournaments" });
    expect(await within(section).findByText(REQUEST_FAILED.server)).toBeVisible();
    expect(section.textContent).not.toMatch(/500|upstream/);
  });

  it("shows the next 3 real tournaments, and each price pill asks the server for its own next 3", async () => {
    const api = show();
    const section = screen.getByRole("region", { name: "Live Tournaments" });
    const titles = () =>
      within(section)
        .getAllByRole("heading", { level: 3 })
        .map((h) => h.textContent);
    await within(section).findByText("Paid Live Cup");
    expect(titles()).toEqual(["Paid Live Cup", "Paid Morning Cup", "Paid Noon Cup"]);
    expect(within(section).getByText("Live Now")).toBeVisible();

    fireEvent.click(within(section).getByRole("button", { name: "Free" }));
    expect(await within(section).findByText("Free Afternoon Quiz")).toBeVisible();
    expect(titles()).toEqual(["Free Afternoon Quiz", "Free Evening Quiz", "Free Night Quiz"]);
    expect(within(section).getByRole("button", { name: "Free" })).toHaveAttribute("aria-pressed", "true");

    fireEvent.click(within(section).getByRole("button", { name: "Paid" }));
    expect(await within(section).findByText("Paid Noon Cup")).toBeVisible();
    expect(titles()).toEqual(["Paid Live Cup", "Paid Morning Cup", "Paid Noon Cup"]);

    const asked = api.calls("GET /api/tournaments").map((r) => Object.fromEntries(r.query));
    expect(asked).toEqual([
      { kind: "standard", status: "active", pageSize: "3" },
      { kind: "standard", status: "active", pageSize: "3", price: "free" },
      { kind: "standard", status: "active", pageSize: "3", price: "paid" },
    ]);
  });

  it("shows the categories with their real active counts, linking to the filtered list", async () => {
    show();
    const link = await screen.findByRole("link", { name: /General Knowledge/ });
    expect(link).toHaveAttribute("href", "/tournaments?category=general-knowledge");
    expect(within(link).getByText("4 active tournaments")).toBeVisible();
    expect(screen.getByText("1 active tournament")).toBeVisible();
  });

  it("shows an honest empty state when nobody is ranked yet", async () => {
    show();
    expect(await screen.findByRole("heading", { name: "No prize winners this week yet" })).toBeVisible();
  });

  it("lists this week's top players, and Your Region asks the server for the player's country", async () => {
    const api = show({
      leaderboard: [player(1, "ana", "PT"), player(2, "bytebard")],
      user: testUser({ country: "PT" }),
    });
    const section = screen.getByRole("region", { name: "Top Players This Week" });
    expect(await within(section).findByRole("link", { name: /bytebard/ })).toHaveAttribute("href", "/players/bytebard");
    expect(api.calls("GET /api/leaderboard").map((r) => r.query.toString())).toEqual(["period=week"]);
    fireEvent.click(within(section).getByRole("button", { name: "Your Region" }));
    await waitFor(() => expect(api.calls("GET /api/leaderboard").map((r) => r.query.toString())).toContain("period=week&region=PT"));
  });

  it("asks a visitor to sign in for Your Region", async () => {
    show({ leaderboard: [player(2, "bytebard")], user: null });
    const section = screen.getByRole("region", { name: "Top Players This Week" });
    await within(section).findByRole("link", { name: /bytebard/ });
    fireEvent.click(within(section).getByRole("button", { name: "Your Region" }));
    expect(within(section).getByRole("heading", { name: "Sign in to see your region" })).toBeVisible();
  });

  it("asks a player without a country to choose one, and says so when nobody from it won this week", async () => {
    show({ leaderboard: [player(2, "bytebard")], user: testUser({ country: null }) });
    const section = screen.getByRole("region", { name: "Top Players This Week" });
    await within(section).findByRole("link", { name: /bytebard/ });
    fireEvent.click(within(section).getByRole("button", { name: "Your Region" }));
    expect(within(section).getByRole("heading", { name: "No country set" })).toBeVisible();
  });

  it("says so when nobody from the player's country won a prize this week", async () => {
    fakeFetch({
      "GET /api/tournaments": () => ({ body: { items: [], total: 0, page: 1, pageSize: 3, nextPage: null } }),
      "GET /api/categories": () => ({ body: CATEGORIES }),
      "GET /api/leaderboard": (req) => ({ body: req.query.get("region") ? [] : [player(2, "bytebard")] }),
    });
    renderPage(
      [
        {
          path: "/",
          element: (
            <Tooltip.Provider>
              <HomePage />
            </Tooltip.Provider>
          ),
        },
      ],
      { at: "/", user: testUser({ country: "PT" }) },
    );
    const section = screen.getByRole("region", { name: "Top Players This Week" });
    await within(section).findByRole("link", { name: /bytebard/ });
    fireEvent.click(within(section).getByRole("button", { name: "Your Region" }));
    expect(await within(section).findByRole("heading", { name: "No prize winners from Portugal this week yet" })).toBeVisible();
  });

  it("says what fair play means now, in plain words, and links the receipt check", () => {
    show();
    const card = screen.getByRole("heading", { name: "Fair Play Guarantee" }).parentElement!;
    for (const claim of FAIR_PLAY_GUARANTEE) expect(card).toHaveTextContent(claim);
    expect(card).not.toHaveTextContent("suspicious play is recorded");
    expect(within(card).getByRole("link", { name: "Check an answer receipt" })).toHaveAttribute("href", "/verify-receipt");
  });
});
