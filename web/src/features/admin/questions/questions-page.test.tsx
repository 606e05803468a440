import { describe, expect, it } from "vitest";
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import type { AdminQuestion, CategorySupply, QuestionSupply } from "@common/api/admin";
import { QUESTION_BANK, QUESTION_IMPORT } from "@common/console-messages";
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
  state: "held",
  practiceOnly: false,
  answerShownAt: null,
  retiredAt: null,
  tournaments: 4,
  answers: 40,
  correctRate: 0.9,
  suggestedDifficulty: 1,
  ...over,
});

const page = (items: AdminQuestion[]) => ({ items, total: items.length, page: 1, pageSize: 24, nextPage: null });

const category = (over: Partial<CategorySupply> = {}): CategorySupply => ({
  categoryId: 3,
  name: "Science",
  fresh: 600,
  freshByDifficulty: { 1: 200, 2: 250, 3: 150 },
  held: 20,
  burnedRecently: 140,
  practicePool: 310,
  daysLeft: 7.5,
  low: false,
  shortfall: null,
  ...over,
});

const supply = (over: Partial<QuestionSupply> = {}): QuestionSupply => ({
  generatedAt: "2026-11-26T10:00:00.000Z",
  demoReuse: false,
  burnWindowDays: 7,
  warnBelowDays: 7,
  categories: [category()],
  ...over,
});

function open(routes: Parameters<typeof fakeFetch>[0] = {}) {
  const server = fakeFetch({
    "GET /api/categories": () => ({ body: [{ id: 3, name: "Science", slug: "science" }] }),
    "GET /api/admin/questions/supply": () => ({ body: supply() }),
    "GET /api/admin/questions": () => ({ body: page([q()]) }),
    ...routes,
  });
  renderPage([{ path: "/admin/questions", element: <QuestionsPage /> }], { at: "/admin/questions", user: operator });
  return server;
}

/** The screen opens on the supply; the bank is the second tab. */
function openBank(routes: Parameters<typeof fakeFetch>[0] = {}) {
  const server = open(routes);
  fireEvent.mouseDown(screen.getByRole("tab", { name: "Bank" }));
  return server;
}

describe("the supply tab", () => {
  it("opens first: per category the fresh questions by difficulty, held, burned, practice pool and days left, with a warning and the scheduler's refusal", async () => {
    const slotStart = "2026-11-26T15:00:00.000Z";
    open({
      "GET /api/admin/questions/supply": () => ({
        body: supply({
          categories: [
            category(),
            category({
              categoryId: 4,
              name: "History",
              fresh: 8,
              freshByDifficulty: { 1: 5, 2: 3, 3: 0 },
              held: 10,
              burnedRecently: 60,
              practicePool: 90,
              daysLeft: 0,
              low: true,
              shortfall: { slotStart, needed: 10, available: 8, notedAt: "2026-11-26T12:00:00.000Z" },
            }),
            category({ categoryId: 5, name: "Music", fresh: 25, freshByDifficulty: { 1: 10, 2: 10, 3: 5 }, daysLeft: null }),
          ],
        }),
      }),
    });
    expect(screen.getByRole("tab", { name: "Supply" })).toHaveAttribute("aria-selected", "true");
    const table = await screen.findByRole("table", { name: "Question supply per category" });
    expect(
      within(table)
        .getAllByRole("columnheader")
        .map((h) => h.textContent),
    ).toEqual(["Category", "Fresh", "In prize tournaments", "Burned in the last 7 days", "Practice pool", "Days left"]);
    const [, science, history, shortfall, music] = within(table).getAllByRole("row");
    expect(
      within(science!)
        .getAllByRole("cell")
        .map((c) => c.textContent),
    ).toEqual(["Science", "600200 easy · 250 medium · 150 hard", "20", "140", "310", "7.5 days"]);
    expect(within(science!).queryByText("Running low")).not.toBeInTheDocument();
    expect(within(history!).getByText("Running low")).toBeInTheDocument();
    expect(within(history!).getByText("5 easy · 3 medium · 0 hard")).toBeInTheDocument();
    expect(within(history!).getByText("0 days")).toBeInTheDocument();
    expect(shortfall).toHaveTextContent(
      `The scheduler skipped the ${new Date(slotStart).toLocaleString()} live show: 8 fresh questions, 10 needed. Import or write new questions.`,
    );
    expect(within(music!).getByText("—")).toBeInTheDocument();
    // At 375 px the same figures are cards, the refusal on History's card.
    const cards = within(screen.getByRole("list", { name: "Question supply per category" })).getAllByRole("listitem");
    expect(cards[1]).toHaveTextContent("Running low");
    expect(cards[1]).toHaveTextContent("The scheduler skipped the");
    expect(screen.queryByRole("note")).not.toBeInTheDocument();
  });

  it("says when this deployment reuses the demo bank, so the limits do not apply", async () => {
    open({ "GET /api/admin/questions/supply": () => ({ body: supply({ demoReuse: true }) }) });
    expect(await screen.findByRole("note")).toHaveTextContent(/reuses the public demo bank \(DEMO_QUESTION_REUSE/);
  });
});

describe("the question bank screen", () => {
  it("lists questions with their usage, real correct rate and a suggested difficulty, and filters by status and text", async () => {
    const server = openBank();
    const row = await screen.findByRole("article", { name: "Which planet is closest to the Sun?" });
    expect(within(row).getByText("In a prize tournament")).toBeInTheDocument();
    expect(within(row).getByText("90% correct of 40 answers")).toBeInTheDocument();
    expect(within(row).getByText("Suggested: Easy")).toBeInTheDocument();
    expect(within(row).getByText("4 tournaments · 2 prize uses")).toBeInTheDocument();

    const status = screen.getByLabelText("Status");
    expect(
      within(status)
        .getAllByRole("option")
        .map((o) => [o.getAttribute("value"), o.textContent]),
    ).toEqual([
      ["", "All"],
      ["fresh", "Fresh"],
      ["held", "In a prize tournament"],
      ["burned", "Burned (answer shown)"],
      ["practice_only", "Practice only"],
      ["retired", "Retired by an operator"],
    ]);
    fireEvent.change(status, { target: { value: "burned" } });
    fireEvent.change(screen.getByLabelText("Search"), { target: { value: "planet" } });
    await waitFor(() => {
      const last = server.calls("GET /api/admin/questions").at(-1)!;
      expect(last.query.get("status")).toBe("burned");
      expect(last.query.get("q")).toBe("planet");
    });
  });

  it("creates a question and shows every reason the server gives for a refusal", async () => {
    let first = true;
    const server = openBank({
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
    openBank({ "PUT /api/admin/questions/1": () => ({ status: 409, body: { code: "question_committed", message } }) });
    const row = await screen.findByRole("article", { name: "Which planet is closest to the Sun?" });
    fireEvent.click(within(row).getByRole("button", { name: "Edit" }));
    const dialog = await screen.findByRole("dialog", { name: "Edit question" });
    expect(within(dialog).getByLabelText("Question")).toHaveValue("Which planet is closest to the Sun?");
    fireEvent.click(within(dialog).getByRole("button", { name: "Save" }));
    expect(await within(dialog).findByText(message)).toBeInTheDocument();
  });

  it("retires and restores", async () => {
    const server = openBank({
      "POST /api/admin/questions/1/retire": () => ({ body: q({ retiredAt: "2026-03-01T00:00:00.000Z" }) }),
    });
    const row = await screen.findByRole("article", { name: "Which planet is closest to the Sun?" });
    fireEvent.click(within(row).getByRole("button", { name: "Retire" }));
    await waitFor(() => expect(server.calls("POST /api/admin/questions/1/retire")).toHaveLength(1));
    expect(await screen.findByText(QUESTION_BANK.retired)).toBeInTheDocument();
  });

  it("shows each question's state, when a burned one's answer was shown, and offers practice only where prize play could take it", async () => {
    const shownAt = "2026-11-20T18:30:00.000Z";
    const items = [
      q({ id: 11, question: "A fresh question?", state: "fresh", paidUses: 0 }),
      q({ id: 12, question: "A held question?", state: "held" }),
      q({ id: 13, question: "A burned question?", state: "burned", answerShownAt: shownAt }),
      q({ id: 14, question: "A practice question?", state: "practice_only", practiceOnly: true, paidUses: 0 }),
      q({ id: 15, question: "A retired question?", state: "retired", retiredAt: "2026-11-21T00:00:00.000Z" }),
    ];
    const server = openBank({
      "GET /api/admin/questions": () => ({ body: page(items) }),
      "POST /api/admin/questions/11/practice-only": () => ({ body: { ...items[0], state: "practice_only", practiceOnly: true } }),
      "POST /api/admin/questions/14/practice-only": () => ({ body: { ...items[3], state: "fresh", practiceOnly: false } }),
    });
    const card = (name: string) => screen.findByRole("article", { name });
    const fresh = await card("A fresh question?");
    const [held, burned, practice, retired] = await Promise.all(
      ["A held question?", "A burned question?", "A practice question?", "A retired question?"].map(card),
    );
    expect(within(fresh).getByText("Fresh")).toBeInTheDocument();
    expect(within(held!).getByText("In a prize tournament")).toBeInTheDocument();
    expect(within(burned!).getByText("Burned (answer shown)")).toBeInTheDocument();
    expect(within(burned!).getByText(`Answer shown ${new Date(shownAt).toLocaleString()}`)).toBeInTheDocument();
    expect(within(practice!).getByText("Practice only")).toBeInTheDocument();
    expect(within(retired!).getByText("Retired by an operator")).toBeInTheDocument();

    // Fresh and held ones may be kept for practice; a practice-only one may go back; burned and retired ones get no choice.
    expect(within(held!).getByRole("button", { name: "Practice only" })).toBeInTheDocument();
    for (const c of [burned!, retired!]) {
      expect(within(c).queryByRole("button", { name: "Practice only" })).not.toBeInTheDocument();
      expect(within(c).queryByRole("button", { name: "Back to prize play" })).not.toBeInTheDocument();
    }
    expect(within(practice!).queryByRole("button", { name: "Practice only" })).not.toBeInTheDocument();

    const listed = server.calls("GET /api/admin/questions").length;
    fireEvent.click(within(fresh).getByRole("button", { name: "Practice only" }));
    expect(await screen.findByText(QUESTION_BANK.practiceOnly)).toBeInTheDocument();
    expect(server.calls("POST /api/admin/questions/11/practice-only").map((r) => r.body)).toEqual([{ practiceOnly: true }]);
    // The bank is read again (the supply too, under the same key).
    await waitFor(() => expect(server.calls("GET /api/admin/questions").length).toBeGreaterThan(listed));

    fireEvent.click(within(practice!).getByRole("button", { name: "Back to prize play" }));
    expect(await screen.findByText(QUESTION_BANK.backToSupply)).toBeInTheDocument();
    expect(server.calls("POST /api/admin/questions/14/practice-only").map((r) => r.body)).toEqual([{ practiceOnly: false }]);
  });

  it("imports a file and shows the validation report by row", async () => {
    const rejected = [{ row: 4, reasons: [QUESTION_IMPORT.difficulty("4"), QUESTION_IMPORT.explanationEmpty] }];
    const server = openBank({ "POST /api/admin/questions/import": () => ({ body: { imported: 4, updated: 0, rejected } }) });
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
    openBank({
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
