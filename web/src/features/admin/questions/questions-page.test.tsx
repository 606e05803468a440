import { describe, expect, it } from "vitest";
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import type { AdminQuestion } from "@common/api/admin";
import { QUESTION_BANK, QUESTION_IMPORT } from "@common/messages";
import { fakeFetch } from "@/test/fake-fetch";
import { renderPage, testUser } from "@/test/render-page";
import QuestionsPage from "./questions-page";

const operator = testUser({ role: "admin", twoFactorEnabled: true });

const q = (over: Partial<AdminQuestion> = {}): AdminQuestion => ({
  id: 1,
  categoryId: 3,
  question: "Which planet is closest to the Sun?",
  options: ["Mercury", "Venus", "Mars", "Earth"],
  correctAnswer: "Mercury",
  difficulty: 3,
  explanation: "It orbits closest.",
  source: "import",
  paidUses: 2,
  prizeRetired: false,
  retiredAt: null,
  tournaments: 4,
  answers: 40,
  correctRate: 0.9,
  suggestedDifficulty: 1,
  ...over,
});

const page = (items: AdminQuestion[]) => ({ items, total: items.length, page: 1, pageSize: 24, nextPage: null });

function open(routes: Parameters<typeof fakeFetch>[0] = {}) {
  const server = fakeFetch({
    "GET /api/categories": () => ({ body: [{ id: 3, name: "Science", slug: "science" }] }),
    "GET /api/admin/questions": () => ({ body: page([q()]) }),
    ...routes,
  });
  renderPage([{ path: "/admin/questions", element: <QuestionsPage /> }], { at: "/admin/questions", user: operator });
  return server;
}

describe("the question bank screen", () => {
  it("lists questions with their usage, real correct rate and a suggested difficulty, and filters by status and text", async () => {
    const server = open();
    const row = await screen.findByRole("article", { name: "Which planet is closest to the Sun?" });
    expect(within(row).getByText("90% correct of 40 answers")).toBeInTheDocument();
    expect(within(row).getByText("Suggested: Easy")).toBeInTheDocument();
    expect(within(row).getByText("4 tournaments · 2 prize uses")).toBeInTheDocument();

    fireEvent.change(screen.getByLabelText("Status"), { target: { value: "retired" } });
    fireEvent.change(screen.getByLabelText("Search"), { target: { value: "planet" } });
    await waitFor(() => {
      const last = server.calls("GET /api/admin/questions").at(-1)!;
      expect(last.query.get("status")).toBe("retired");
      expect(last.query.get("q")).toBe("planet");
    });
  });

  it("creates a question and shows every reason the server gives for a refusal", async () => {
    let first = true;
    const server = open({
      "POST /api/admin/questions": () => {
        if (first) {
          first = false;
          const reasons = [QUESTION_IMPORT.explanationEmpty];
          return { status: 400, body: { code: "question_invalid", message: QUESTION_BANK.invalid(reasons), reasons } };
        }
        return { status: 201, body: q({ id: 2 }) };
      },
    });
    await screen.findByRole("article", { name: "Which planet is closest to the Sun?" });
    fireEvent.click(screen.getByRole("button", { name: "New question" }));
    const dialog = await screen.findByRole("dialog", { name: "New question" });
    fireEvent.change(within(dialog).getByLabelText("Question"), { target: { value: "Which gas do plants take in?" } });
    ["Carbon dioxide", "Oxygen", "Nitrogen", "Helium"].forEach((o, i) =>
      fireEvent.change(within(dialog).getByLabelText(`Option ${String.fromCharCode(65 + i)}`), { target: { value: o } }),
    );
    fireEvent.change(within(dialog).getByLabelText("Correct answer"), { target: { value: "Carbon dioxide" } });
    fireEvent.click(within(dialog).getByRole("button", { name: "Save" }));
    expect(await within(dialog).findByText(QUESTION_IMPORT.explanationEmpty)).toBeInTheDocument();
    fireEvent.change(within(dialog).getByLabelText("Explanation"), { target: { value: "Photosynthesis." } });
    fireEvent.click(within(dialog).getByRole("button", { name: "Save" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    expect(server.calls("POST /api/admin/questions").at(-1)!.body).toEqual({
      categoryId: 3,
      question: "Which gas do plants take in?",
      options: ["Carbon dioxide", "Oxygen", "Nitrogen", "Helium"],
      correctAnswer: "Carbon dioxide",
      difficulty: 1,
      explanation: "Photosynthesis.",
    });
  });

  it("says why an edit is refused while a tournament has committed to the question", async () => {
    const message = QUESTION_BANK.committed([12]);
    open({ "PUT /api/admin/questions/1": () => ({ status: 409, body: { code: "question_committed", message } }) });
    const row = await screen.findByRole("article", { name: "Which planet is closest to the Sun?" });
    fireEvent.click(within(row).getByRole("button", { name: "Edit" }));
    const dialog = await screen.findByRole("dialog", { name: "Edit question" });
    expect(within(dialog).getByLabelText("Question")).toHaveValue("Which planet is closest to the Sun?");
    fireEvent.click(within(dialog).getByRole("button", { name: "Save" }));
    expect(await within(dialog).findByText(message)).toBeInTheDocument();
  });

  it("retires and restores", async () => {
    const server = open({
      "POST /api/admin/questions/1/retire": () => ({ body: q({ retiredAt: "2026-03-01T00:00:00.000Z" }) }),
    });
    const row = await screen.findByRole("article", { name: "Which planet is closest to the Sun?" });
    fireEvent.click(within(row).getByRole("button", { name: "Retire" }));
    await waitFor(() => expect(server.calls("POST /api/admin/questions/1/retire")).toHaveLength(1));
    expect(await screen.findByText(QUESTION_BANK.retired)).toBeInTheDocument();
  });

  it("imports a file and shows the validation report by row", async () => {
    const rejected = [{ row: 4, reasons: [QUESTION_IMPORT.difficulty("4"), QUESTION_IMPORT.explanationEmpty] }];
    const server = open({ "POST /api/admin/questions/import": () => ({ body: { imported: 4, updated: 0, rejected } }) });
    await screen.findByRole("article", { name: "Which planet is closest to the Sun?" });
    fireEvent.mouseDown(screen.getByRole("tab", { name: "Import" }));
    fireEvent.change(await screen.findByLabelText("File contents"), { target: { value: "category,question\n..." } });
    fireEvent.click(screen.getByRole("button", { name: "Import questions" }));
    const report = await screen.findByRole("region", { name: "Import report" });
    expect(within(report).getByText("4 imported, 0 updated, 1 row refused")).toBeInTheDocument();
    expect(within(report).getByText("Row 4")).toBeInTheDocument();
    expect(within(report).getByText(QUESTION_IMPORT.difficulty("4"))).toBeInTheDocument();
    expect(server.calls("POST /api/admin/questions/import")[0]!.body).toEqual({ format: "csv", content: "category,question\n..." });
  });

  it("shows the report of a file with no valid row", async () => {
    const rejected = [{ row: 0, reasons: [QUESTION_IMPORT.csvEmpty] }];
    open({
      "POST /api/admin/questions/import": () => ({
        status: 400,
        body: { code: "invalid_request", message: QUESTION_IMPORT.nothingValid, imported: 0, updated: 0, rejected },
      }),
    });
    await screen.findByRole("article", { name: "Which planet is closest to the Sun?" });
    fireEvent.mouseDown(screen.getByRole("tab", { name: "Import" }));
    fireEvent.change(await screen.findByLabelText("File contents"), { target: { value: "x" } });
    fireEvent.click(screen.getByRole("button", { name: "Import questions" }));
    const report = await screen.findByRole("region", { name: "Import report" });
    expect(within(report).getByText(QUESTION_IMPORT.nothingValid)).toBeInTheDocument();
    expect(within(report).getByText("The file as a whole")).toBeInTheDocument();
  });
});
