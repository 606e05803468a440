// The overview as an operator reads it: the figures, what the house owes, the reconciliation
// in green when it holds and in red, with the accounts, when it does not, and a warning naming the
// categories whose fresh questions run low.
import { describe, expect, it, vi } from "vitest";
import { screen, within } from "@testing-library/react";
import type { AdminOverview } from "@common/api/console";
import { SUPPLY_TEXT } from "../questions/labels";
import { fakeFetch } from "@/test/fake-fetch";
import { renderPage, testUser } from "@/test/render-page";
import OverviewPage from "./overview-page";

// happy-dom has no canvas: the chart library is replaced by a recorder of what it was given.
const plotted: unknown[] = [];
vi.mock("uplot", () => ({
  default: class {
    constructor(_opts: unknown, data: unknown) {
      plotted.push(data);
    }
    setSize() {}
    destroy() {}
  },
}));

const figures = {
  deposits: 1200.5,
  withdrawals: 300,
  entryFees: 250,
  entryRefunds: 10,
  prizes: 180,
  houseShare: 37.5,
  houseFundedPrizes: 20,
  cardRefunds: 5,
  chargebacks: 0,
  chargebackReversals: 0,
  adjustments: -1.5,
};

const overview = (o: Partial<AdminOverview> = {}): AdminOverview => ({
  generatedAt: "2026-11-23T12:00:00.000Z",
  today: { ...figures, deposits: 40 },
  last30Days: figures,
  playerBalances: 4321.09,
  pendingPayouts: { count: 3, amount: 150 },
  daily: Array.from({ length: 30 }, (_, i) => ({
    day: `2026-10-${String(i + 1).padStart(2, "0")}`,
    deposits: i,
    withdrawals: 0,
    entryFees: 1,
  })),
  reconciliation: {
    ok: true,
    mismatches: [],
    identity: { moneyIn: 5000, moneyOut: 678.91, balances: 4321.09, difference: 0, holds: true },
  },
  lowQuestionSupply: [],
  ...o,
});

const admin = testUser({ role: "admin", twoFactorEnabled: true });
const routes = [{ path: "/admin", element: <OverviewPage /> }];

describe("the overview", () => {
  it("shows the figures for today and 30 days, what the house owes, pending payouts and a chart", async () => {
    fakeFetch({ "GET /api/admin/overview": () => ({ body: overview() }) });
    renderPage(routes, { at: "/admin", user: admin });
    expect(await screen.findByText("$4321.09")).toBeInTheDocument();
    const deposits = screen.getByRole("row", { name: /Deposits/ });
    expect(within(deposits).getByText("$40.00")).toBeInTheDocument();
    expect(within(deposits).getByText("$1200.50")).toBeInTheDocument();
    expect(within(screen.getByRole("row", { name: /House.s share/ })).getAllByText("$37.50")).toHaveLength(2);
    expect(screen.getByText(/3 pending payouts/)).toBeInTheDocument();
    expect(screen.getByRole("status", { name: "Reconciliation" })).toHaveTextContent("Books balance");
    // x (days) and three series of 30 points; StrictMode mounts the chart twice, the last one stays.
    const data = plotted.at(-1) as number[][];
    expect(data).toHaveLength(4);
    expect(data[1]).toHaveLength(30);
    expect(data[1]![29]).toBe(29);
    expect(screen.queryByRole("alert", { name: SUPPLY_TEXT.overviewTitle })).not.toBeInTheDocument();
  });

  it("warns about categories short of fresh questions, says when a slot was skipped, and links to the supply", async () => {
    fakeFetch({
      "GET /api/admin/overview": () => ({
        body: overview({
          lowQuestionSupply: [
            { categoryId: 4, name: "History", fresh: 40, daysLeft: 0.5, refusedSlot: false },
            { categoryId: 7, name: "Music", fresh: 3, daysLeft: 0, refusedSlot: true },
          ],
        }),
      }),
    });
    renderPage(routes, { at: "/admin", user: admin });
    const warning = await screen.findByRole("alert", { name: "Questions running low" });
    const items = within(warning).getAllByRole("listitem");
    expect(items.map((i) => i.textContent)).toEqual([
      "History: 40 fresh questions, 0.5 days left",
      "Music: 3 fresh questions, 0 days left; a slot was skipped",
    ]);
    expect(within(warning).getByRole("link", { name: "Open the question supply" })).toHaveAttribute("href", "/admin/questions");
  });

  it("shows red with the difference and the accounts when the books do not balance", async () => {
    fakeFetch({
      "GET /api/admin/overview": () => ({
        body: overview({
          reconciliation: {
            ok: false,
            mismatches: [{ userId: 12, username: "mallory", balance: 52.34, ledger: 40, difference: 12.34 }],
            identity: { moneyIn: 5000, moneyOut: 678.91, balances: 4333.43, difference: -12.34, holds: false },
          },
        }),
      }),
    });
    renderPage(routes, { at: "/admin", user: admin });
    const status = await screen.findByRole("alert", { name: "Reconciliation" });
    expect(status).toHaveTextContent("Books do not balance");
    expect(status).toHaveTextContent("-$12.34");
    expect(within(status).getAllByText("mallory").length).toBeGreaterThan(0);
  });

  it("says what went wrong when the overview cannot load", async () => {
    fakeFetch({ "GET /api/admin/overview": () => ({ status: 403, body: { code: "admin_two_factor_required", message: "Turn on 2FA." } }) });
    renderPage(routes, { at: "/admin", user: admin });
    expect(await screen.findByText("Turn on 2FA.")).toBeInTheDocument();
  });
});
