import { describe, expect, it } from "vitest";
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import type { QuestionReportGroup } from "@common/api/question-bank";
import { QUESTION_REPORT } from "@common/messages";
import { fakeFetch } from "@/test/fake-fetch";
import { renderPage, testUser } from "@/test/render-page";
import ReportsPage from "./reports-page";

const operator = testUser({ role: "admin", twoFactorEnabled: true });

const group = (over: Partial<QuestionReportGroup> = {}): QuestionReportGroup => ({
  question: {
    id: 5,
    categoryId: 3,
    text: "Which planet has the most moons?",
    options: ["Saturn", "Jupiter", "Uranus", "Mars"],
    correctAnswer: "Jupiter",
    explanation: "As of 2020.",
    retiredAt: null,
  },
  open: 1,
  reports: [
    {
      id: 11,
      reason: "wrong_answer",
      note: "Saturn has more now",
      reporter: { id: 7, username: "bytebard" },
      tournamentId: 9,
      createdAt: "2026-03-01T12:00:00.000Z",
      resolution: null,
      resolvedBy: null,
      resolvedAt: null,
    },
  ],
  ...over,
});

describe("the reports queue", () => {
  it("shows reports grouped by question and resolves one with a note, then says the player was notified", async () => {
    const server = fakeFetch({
      "GET /api/admin/question-reports": () => ({ body: [group()] }),
      "POST /api/admin/question-reports/11/resolve": () => ({
        body: { ...group().reports[0], resolution: "retired", resolvedBy: "op", resolvedAt: "2026-03-01T13:00:00.000Z" },
      }),
    });
    renderPage([{ path: "/admin/reports", element: <ReportsPage /> }], { at: "/admin/reports", user: operator });
    const card = await screen.findByRole("article", { name: "Which planet has the most moons?" });
    expect(within(card).getByText("1 open")).toBeInTheDocument();
    expect(within(card).getByText("Saturn has more now")).toBeInTheDocument();
    expect(within(card).getByText(/bytebard/)).toBeInTheDocument();
    expect(within(card).getByText(QUESTION_REPORT.reasons.wrong_answer)).toBeInTheDocument();

    fireEvent.click(within(card).getByRole("button", { name: "Resolve" }));
    const dialog = await screen.findByRole("dialog", { name: "Resolve report" });
    fireEvent.click(within(dialog).getByRole("radio", { name: "Retired the question" }));
    fireEvent.change(within(dialog).getByLabelText("Note (for the audit log)"), { target: { value: "Outdated" } });
    fireEvent.click(within(dialog).getByRole("button", { name: "Resolve" }));
    await waitFor(() => expect(server.calls("POST /api/admin/question-reports/11/resolve")).toHaveLength(1));
    expect(server.calls("POST /api/admin/question-reports/11/resolve")[0]!.body).toEqual({ resolution: "retired", note: "Outdated" });
    expect(await screen.findByText(QUESTION_REPORT.resolved)).toBeInTheDocument();
  });

  it("says so when a report was resolved meanwhile", async () => {
    fakeFetch({
      "GET /api/admin/question-reports": () => ({ body: [group()] }),
      "POST /api/admin/question-reports/11/resolve": () => ({
        status: 409,
        body: { code: "question_report_already_resolved", message: QUESTION_REPORT.alreadyResolved("fixed") },
      }),
    });
    renderPage([{ path: "/admin/reports", element: <ReportsPage /> }], { at: "/admin/reports", user: operator });
    const card = await screen.findByRole("article", { name: "Which planet has the most moons?" });
    fireEvent.click(within(card).getByRole("button", { name: "Resolve" }));
    const dialog = await screen.findByRole("dialog", { name: "Resolve report" });
    fireEvent.click(within(dialog).getByRole("radio", { name: "Dismissed" }));
    fireEvent.click(within(dialog).getByRole("button", { name: "Resolve" }));
    expect(await within(dialog).findByRole("alert")).toHaveTextContent(QUESTION_REPORT.alreadyResolved("fixed"));
  });
});
