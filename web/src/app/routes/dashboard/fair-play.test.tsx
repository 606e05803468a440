import { describe, expect, it, vi } from "vitest";
import { fireEvent, screen, within } from "@testing-library/react";
import type { AnswerReceipt, FairnessReport, TournamentReceipts } from "@common/api/fair-play";
import type { UserTournamentEntry } from "@common/api/tournaments";
import type { Transaction } from "@common/api/types";
import { FAIR_PLAY, VERIFY_FAIRNESS } from "@common/messages";
import { fakeFetch } from "@/test/fake-fetch";
import { renderPage, testUser } from "@/test/render-page";
import DashboardPage from "./dashboard-page";

const entry = (overrides: Partial<UserTournamentEntry> = {}): UserTournamentEntry => ({
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
  ...overrides,
});

const receipt = (questionId: number, answer: string, points: number): AnswerReceipt => ({
  v: 1,
  tournamentId: 11,
  userId: 7,
  questionId,
  answer,
  receivedAt: "2026-02-01T18:01:02.000Z",
  responseMs: 2340,
  points,
  signature: String(questionId).repeat(64).slice(0, 64),
});
const r1 = receipt(31, "Rome", 1150);
const r2 = receipt(32, "1492", 0);
const receipts: TournamentReceipts = {
  tournamentId: 11,
  receipts: [
    { ...r1, question: "Which city was the capital of the Roman Empire?" },
    { ...r2, question: "When did the Berlin Wall fall?" },
  ],
};
const report: FairnessReport = {
  scheme: "flat-v1",
  tournamentId: 11,
  commitment: "ab".repeat(32),
  salt: "cd".repeat(16),
  drawWidth: 1,
  questions: [
    { questionId: 31, question: "Capital of Italy?", correctAnswer: "Rome", slot: 0, issuedAt: null, closedAt: null, timesIssued: 1 },
    {
      questionId: 32,
      question: "Year the Berlin Wall fell?",
      correctAnswer: "1989",
      slot: 1,
      issuedAt: null,
      closedAt: null,
      timesIssued: 1,
    },
  ],
};

function server(entries: UserTournamentEntry[], transactions: Transaction[] = []) {
  return fakeFetch({
    "GET /api/session": () => ({ body: { user: testUser() } }),
    "GET /api/user/stats": () => ({ body: null }),
    "GET /api/user/tournaments": () => ({ body: entries }),
    "GET /api/tournaments": () => ({ body: { items: [], total: 0, page: 1, pageSize: 24, nextPage: null } }),
    "GET /api/user/tournaments/11/receipts": () => ({ body: receipts }),
    "GET /api/tournaments/11/fairness": () => ({ body: report }),
    // The first receipt is the server's; the second was edited after signing.
    "POST /api/receipts/verify": (req) => ({ body: { genuine: (req.body as AnswerReceipt).questionId === 31 } }),
    "GET /api/user/transactions": () => ({ body: transactions }),
    "GET /api/config": () => ({ body: null }),
  });
}

const routes = [{ path: "/dashboard", element: <DashboardPage /> }];

describe("dashboard: prizes under review", () => {
  it("shows a held prize as under review with its reason, never as won", async () => {
    server([entry({ prizeStatus: "held", reviewReason: "Unusual answer timing" })]);
    renderPage(routes, { at: "/dashboard?tab=tournaments" });
    expect(await screen.findByText(FAIR_PLAY.prizeUnderReview)).toBeInTheDocument();
    expect(screen.getByText("Unusual answer timing")).toBeInTheDocument();
    expect(screen.queryByText(/Won \$/)).not.toBeInTheDocument();
  });

  it("shows a forfeited prize as forfeited", async () => {
    server([entry({ prizeStatus: "forfeited", reviewReason: "Shared device or network with another player" })]);
    renderPage(routes, { at: "/dashboard?tab=tournaments" });
    expect(await screen.findByText(FAIR_PLAY.prizeForfeited)).toBeInTheDocument();
    expect(screen.queryByText(/Won \$/)).not.toBeInTheDocument();
  });

  it("lists held and forfeited prize rows as Under review and Forfeited, outside the prizes won", async () => {
    const row = (id: number, status: Transaction["status"], amount: number): Transaction => ({
      id,
      userId: 7,
      amount,
      type: "prize",
      status,
      reference: `prize:${id}:7`,
      description: "1st place",
      createdAt: "2026-02-01T18:30:00.000Z",
    });
    server([], [row(3, "held", 42.5), row(2, "forfeited", 10), row(1, "completed", 5)]);
    renderPage(routes, { at: "/dashboard?tab=transactions" });
    const list = await screen.findByRole("list", { name: "Transactions" });
    const [held, forfeited] = within(list).getAllByRole("listitem");
    expect(within(held!).getByText("Under review")).toBeVisible();
    expect(within(forfeited!).getByText("Forfeited")).toBeVisible();
    expect(screen.getByText("Prizes Won").nextElementSibling).toHaveTextContent("$5.00");
    expect(screen.getByText("Under Review").nextElementSibling).toHaveTextContent("$42.50");
  });
});

describe("dashboard: answer receipts", () => {
  it("lists a finished tournament's receipts with the correct answers, copies and checks them", async () => {
    const writeText = vi.fn(() => Promise.resolve());
    vi.stubGlobal("navigator", { ...navigator, clipboard: { writeText } });
    const api = server([entry()]);
    renderPage(routes, { at: "/dashboard?tab=tournaments" });
    fireEvent.click(await screen.findByRole("button", { name: "Answer receipts" }));

    const list = await screen.findByRole("list", { name: "Answer receipts of History Sprint" });
    const [first, second] = within(list).getAllByRole("listitem");
    expect(first).toHaveTextContent("Which city was the capital of the Roman Empire?");
    expect(first).toHaveTextContent("Your answer: Rome");
    expect(first).toHaveTextContent(`Received ${new Date(r1.receivedAt).toLocaleString()}`);
    expect(first).toHaveTextContent("2.34 s");
    expect(first).toHaveTextContent("1150 points");
    expect(await within(second!).findByText("Correct answer: 1989")).toBeInTheDocument();

    fireEvent.click(within(first!).getByRole("button", { name: "Copy receipt" }));
    expect(JSON.parse((writeText.mock.calls[0] as unknown[])[0] as string)).toEqual(r1);

    fireEvent.click(within(first!).getByRole("button", { name: "Check" }));
    expect(await within(first!).findByText(VERIFY_FAIRNESS.receiptGenuine)).toBeInTheDocument();
    fireEvent.click(within(second!).getByRole("button", { name: "Check" }));
    expect(await within(second!).findByText(VERIFY_FAIRNESS.receiptNotGenuine)).toBeInTheDocument();
    expect(api.calls("POST /api/receipts/verify").map((r) => r.body)).toEqual([r1, r2]);
    expect(screen.getByRole("link", { name: /Check any receipt/ })).toHaveAttribute("href", "/verify-receipt");
    vi.unstubAllGlobals();
  });

  it("offers receipts only for finished tournaments", async () => {
    server([entry({ id: 12, status: "live", finished: false, prize: 0, rank: null })]);
    renderPage(routes, { at: "/dashboard?tab=tournaments" });
    expect((await screen.findAllByText("History Sprint")).length).toBeGreaterThan(0);
    expect(screen.queryByRole("button", { name: "Answer receipts" })).not.toBeInTheDocument();
  });
});
