import { describe, expect, it } from "vitest";
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { TournamentPage, UserStats, UserTournamentEntry } from "@common/api/tournaments";
import type { Tournament, Transaction } from "@common/api/types";
import { fakeFetch } from "@/test/fake-fetch";
import { renderPage, testUser } from "@/test/render-page";
import { MONEY } from "@common/messages";
import DashboardPage from "./dashboard-page";

const stats: UserStats = {
  questionsAnswered: 40,
  correctAnswers: 29,
  averageResponseTime: 4.6,
  fastestResponseTime: 1.3,
  favoriteCategory: "History",
  joinedDate: "2026-01-05T10:00:00.000Z",
  totalEarnings: 42.5,
  rank: 17,
  winRate: 25,
  categoryStats: [
    { categoryId: 3, category: "History", answered: 30, correct: 24, accuracy: 80 },
    { categoryId: 5, category: "Science", answered: 10, correct: 5, accuracy: 50 },
  ],
};

const entries: UserTournamentEntry[] = [
  {
    id: 11,
    title: "History Sprint",
    kind: "standard",
    finished: true,
    status: "completed",
    startTime: "2026-02-01T18:00:00.000Z",
    endTime: "2026-02-01T18:20:00.000Z",
    rank: 1,
    score: 4200,
    prize: 42.5,
    prizeStatus: "paid",
    reviewReason: null,
  },
];

const soon = (minutes: number) => new Date(Date.now() + minutes * 60_000).toISOString();
const upcoming = (id: number, title: string, start: string): Tournament => ({
  id,
  title,
  description: "",
  categoryId: 1,
  categoryName: "General Knowledge",
  entryFee: 5,
  prizePool: 0,
  maxParticipants: 50,
  currentParticipants: 3,
  minLevel: 1,
  startTime: start,
  endTime: null,
  status: "upcoming",
  imageUrl: null,
  isFree: false,
  kind: "standard",
  format: "self_paced",
  createdAt: "2026-01-01T00:00:00.000Z",
});
const page = (items: Tournament[]): TournamentPage => ({ items, total: items.length, page: 1, pageSize: 24, nextPage: null });

const ledger: Transaction[] = [
  {
    id: 4,
    userId: 7,
    amount: -10,
    type: "withdrawal",
    status: "pending",
    reference: "payout:1",
    description: "Withdrawal of $10.00",
    createdAt: "2026-03-02T10:00:00.000Z",
  },
  {
    id: 3,
    userId: 7,
    amount: 42.5,
    type: "prize",
    status: "completed",
    reference: "prize:11:7",
    description: "1st place",
    createdAt: "2026-02-01T18:30:00.000Z",
  },
  {
    id: 2,
    userId: 7,
    amount: -5,
    type: "tournament_entry",
    status: "completed",
    reference: "entry:11:7",
    description: null,
    createdAt: "2026-02-01T17:00:00.000Z",
  },
  {
    id: 1,
    userId: 7,
    amount: 25,
    type: "deposit",
    status: "completed",
    reference: "pi_1",
    description: null,
    createdAt: "2026-02-01T16:00:00.000Z",
  },
];

function server(user = testUser({ balance: 52.5, tournamentsPlayed: 4, tournamentsWon: 1, level: 2, experiencePoints: 1250 })) {
  return fakeFetch({
    "GET /api/session": () => ({ body: { user: user } }),
    "GET /api/user/stats": () => ({ body: stats }),
    "GET /api/user/tournaments": () => ({ body: entries }),
    "GET /api/tournaments": () => ({
      body: page([
        upcoming(21, "Science Showdown", soon(90)),
        upcoming(22, "Music Mania", soon(30)),
        upcoming(23, "Geo Quest", soon(300)),
        upcoming(24, "Movie Night", soon(600)),
      ]),
    }),
    "GET /api/user/transactions": () => ({ body: ledger }),
    "GET /api/config": () => ({
      body: { paymentProvider: "sandbox", stripePublishableKey: null, minDeposit: 0.5, maxDeposit: 1000, supportEmail: null },
    }),
  });
}

const routes = [{ path: "/dashboard", element: <DashboardPage /> }];

describe("dashboard", () => {
  it("shows the player, wallet and the four stat cards from real data", async () => {
    server();
    const user = testUser({ balance: 52.5, tournamentsPlayed: 4, tournamentsWon: 1, level: 2, experiencePoints: 1250 });
    renderPage(routes, { at: "/dashboard", user });

    expect(screen.getByRole("heading", { name: "quiz_master" })).toBeVisible();
    expect(screen.getByText("Level 2 · Beginner")).toBeVisible();
    expect(screen.getByText("1 won / 4 played")).toBeVisible();
    expect(screen.getByRole("progressbar", { name: "Experience toward the next level" })).toHaveAttribute("aria-valuenow", "25");
    expect(screen.getByText("750 XP until level 3")).toBeVisible();
    expect(screen.getByText("$52.50")).toBeVisible();

    const cards = screen.getByRole("region", { name: "Your statistics" });
    expect(within(cards).getByText("Tournaments Played").nextElementSibling).toHaveTextContent("4");
    expect(within(cards).getByText("Win Rate").nextElementSibling).toHaveTextContent("25%");
    expect(await within(cards).findByText("$42.50")).toBeVisible();
    expect(within(cards).getByText("#17")).toBeVisible();
  });

  it("hides the level badge at level 0 and shows an unranked player as —", async () => {
    fakeFetch({
      "GET /api/session": () => ({ body: { user: testUser({ level: 0 }) } }),
      "GET /api/user/stats": () => ({ body: { ...stats, rank: null, totalEarnings: 0 } }),
      "GET /api/user/tournaments": () => ({ body: [] }),
      "GET /api/tournaments": () => ({ body: page([]) }),
      "GET /api/config": () => ({
        body: { paymentProvider: "sandbox", stripePublishableKey: null, minDeposit: 0.5, maxDeposit: 1000, supportEmail: null },
      }),
    });
    renderPage(routes, { at: "/dashboard", user: testUser({ level: 0 }) });
    const cards = screen.getByRole("region", { name: "Your statistics" });
    expect(await within(cards).findByText("$0.00")).toBeVisible();
    expect(within(cards).getByText("Global Rank").nextElementSibling).toHaveTextContent("—");
    expect(screen.queryByText(/^Level 0/)).not.toBeInTheDocument();
    expect(await screen.findByText("You haven't joined any tournaments yet.")).toBeVisible();
  });

  it("lists recent tournaments, up to 3 upcoming with countdowns, and earned achievements", async () => {
    server();
    renderPage(routes, { at: "/dashboard" });
    expect(await screen.findByRole("link", { name: "History Sprint" })).toBeVisible();
    expect(screen.getByText("#1")).toBeVisible();
    expect(screen.getByText("Won $42.50")).toBeVisible();

    await screen.findByText("Music Mania");
    expect(screen.getByText("Science Showdown")).toBeVisible();
    expect(screen.getByText("Geo Quest")).toBeVisible();
    expect(screen.queryByText("Movie Night")).not.toBeInTheDocument();
    expect(screen.getByText("Starting in 30m")).toBeVisible();
    expect(screen.getAllByRole("link", { name: "Details" })).toHaveLength(3);

    expect(screen.getByText("First Victory", { exact: false }).textContent).toContain("(earned)");
    expect(screen.getByText("Sharp Mind", { exact: false }).textContent).toContain("(earned)");
    expect(screen.getByText("Regular", { exact: false }).textContent).toContain("(locked)");
    expect(screen.getByText("4/10")).toBeVisible();
  });

  it("puts only tournaments the player can still play under Upcoming: no finished practice runs", async () => {
    const entry = (id: number, title: string, kind: UserTournamentEntry["kind"], finished: boolean): UserTournamentEntry => ({
      id,
      title,
      kind,
      finished,
      status: "live",
      startTime: soon(-5),
      endTime: null,
      rank: null,
      score: 0,
      prize: 0,
      prizeStatus: "none",
      reviewReason: null,
    });
    fakeFetch({
      "GET /api/session": () => ({ body: { user: testUser() } }),
      "GET /api/user/stats": () => ({ body: stats }),
      "GET /api/user/tournaments": () => ({
        body: [
          entry(31, "Science Practice", "practice_run", true),
          entry(32, "History Practice", "practice_run", true),
          entry(33, "Music Practice", "practice_run", false),
          entry(34, "Geography Practice", "practice", false),
          entry(35, "Evening Cup", "standard", true),
        ],
      }),
      "GET /api/tournaments": () => ({ body: page([]) }),
      "GET /api/config": () => ({
        body: { paymentProvider: "sandbox", stripePublishableKey: null, minDeposit: 0.5, maxDeposit: 1000, supportEmail: null },
      }),
    });
    renderPage(routes, { at: "/dashboard" });
    const upcoming = (await screen.findByText("Upcoming Tournaments")).closest("[class*='rounded']") as HTMLElement;
    await within(upcoming).findByText("Music Practice");
    expect(within(upcoming).getAllByRole("link", { name: "Play Now" })).toHaveLength(1);
    for (const gone of ["Science Practice", "History Practice", "Geography Practice", "Evening Cup"]) {
      expect(within(upcoming).queryByText(gone)).not.toBeInTheDocument();
    }
  });

  it("stops offering Play Now for a joined live tournament once its end time has passed", async () => {
    const live = (id: number, title: string, endTime: string): UserTournamentEntry => ({
      id,
      title,
      kind: "standard",
      finished: false,
      status: "live",
      startTime: soon(-25),
      endTime,
      rank: null,
      score: 0,
      prize: 0,
      prizeStatus: "none",
      reviewReason: null,
    });
    fakeFetch({
      "GET /api/session": () => ({ body: { user: testUser() } }),
      "GET /api/user/stats": () => ({ body: stats }),
      "GET /api/user/tournaments": () => ({ body: [live(41, "Still On Cup", soon(5)), live(42, "Time Up Cup", soon(-1))] }),
      "GET /api/tournaments": () => ({ body: page([]) }),
      "GET /api/config": () => ({
        body: { paymentProvider: "sandbox", stripePublishableKey: null, minDeposit: 0.5, maxDeposit: 1000, supportEmail: null },
      }),
    });
    renderPage(routes, { at: "/dashboard" });
    const upcoming = (await screen.findByText("Upcoming Tournaments")).closest("[class*='rounded']") as HTMLElement;
    const over = (await within(upcoming).findByText("Time Up Cup")).closest("li") as HTMLElement;
    const on = within(upcoming).getByText("Still On Cup").closest("li") as HTMLElement;
    expect(within(on).getByRole("link", { name: "Play Now" })).toBeVisible();
    expect(within(over).queryByRole("link", { name: "Play Now" })).not.toBeInTheDocument();
    expect(within(over).getByText("Time is up · results coming")).toBeVisible();
  });

  it("shows real per-category accuracy and response times", async () => {
    server();
    renderPage(routes, { at: "/dashboard?tab=stats" });
    expect(await screen.findByRole("progressbar", { name: "History accuracy" })).toHaveAttribute("aria-valuenow", "80");
    expect(screen.getByRole("progressbar", { name: "Science accuracy" })).toHaveAttribute("aria-valuenow", "50");
    expect(screen.getByText("Average Response Time").nextElementSibling).toHaveTextContent("4.6s");
    expect(screen.getByText("Fastest Answer").nextElementSibling).toHaveTextContent("1.3s");
    expect(screen.getByText("Questions Answered").nextElementSibling).toHaveTextContent("40");
    expect(screen.getByText("Correct Answers").nextElementSibling).toHaveTextContent("29");
  });

  it("lists transactions with signed amounts, status badges and a summary", async () => {
    server();
    renderPage(routes, { at: "/dashboard?tab=transactions" });
    const list = await screen.findByRole("list", { name: "Transactions" });
    const rows = within(list).getAllByRole("listitem");
    expect(rows[0]).toHaveTextContent("Withdrawal");
    expect(rows[0]).toHaveTextContent("-$10.00");
    expect(within(rows[0]!).getByText("pending")).toBeVisible();
    expect(rows[1]).toHaveTextContent("+$42.50");
    expect(within(rows[1]!).getByText("completed")).toBeVisible();

    expect(screen.getByText("Total Deposited").nextElementSibling).toHaveTextContent("$25.00");
    expect(screen.getByText("Entry Fees").nextElementSibling).toHaveTextContent("$5.00");
    expect(screen.getByText("Prizes Won").nextElementSibling).toHaveTextContent("$42.50");
    expect(screen.getByText("Pending").nextElementSibling).toHaveTextContent("$10.00");
    expect(screen.getByText("Cards are entered at checkout; nothing is stored.")).toBeVisible();
    // The full account number is kept (sealed) for the bank file: the page says so, not "only the last 4 digits are kept".
    expect(screen.getByText(/full account number is stored encrypted and used only to make the bank transfer/)).toBeVisible();
    expect(document.body.textContent).not.toMatch(/last 4 digits are kept/);
  });

  it("shows a failed withdrawal with the operator's reason, refunded and counted nowhere", async () => {
    const failed: Transaction = {
      id: 5,
      userId: 7,
      amount: -25,
      type: "withdrawal",
      status: "failed",
      reference: "payout:2",
      description: `Withdrawal of $25.00 to checking account ••••6789${MONEY.withdrawalFailedNote("Account closed")}`,
      createdAt: "2026-03-03T10:00:00.000Z",
    };
    fakeFetch({ "GET /api/user/transactions": () => ({ body: [failed] }), "GET /api/config": () => ({ body: null }) });
    renderPage(routes, { at: "/dashboard?tab=transactions" });
    const list = await screen.findByRole("list", { name: "Transactions" });
    const [row] = within(list).getAllByRole("listitem");
    expect(row).toHaveTextContent("failed: Account closed. The money was returned to your balance.");
    expect(within(row!).getByText("failed")).toHaveClass("bg-destructive-solid");
    expect(screen.getByText("Total Withdrawn").nextElementSibling).toHaveTextContent("$0.00");
    expect(screen.getByText("Pending").nextElementSibling).toHaveTextContent("$0.00");
  });

  it("switches tabs from the keyboard and keeps the tab in the address", async () => {
    const u = userEvent.setup();
    server();
    const page = renderPage(routes, { at: "/dashboard" });
    screen.getByRole("tab", { name: "My Tournaments" }).focus();
    await u.keyboard("{ArrowRight}");
    await waitFor(() => expect(screen.getByRole("tab", { name: "Stats & Performance" })).toHaveAttribute("aria-selected", "true"));
    expect(page.location()).toBe("/dashboard?tab=stats");
  });
});
