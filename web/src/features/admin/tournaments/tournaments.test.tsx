import { describe, expect, it, vi } from "vitest";
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { ADMIN_TOURNAMENTS } from "@common/console-messages";
import { fakeFetch } from "@/test/fake-fetch";
import { renderPage, testUser } from "@/test/render-page";
import TournamentsPage from "./tournaments-page";
import TournamentDetailPage from "./tournament-detail-page";

const operator = testUser({ role: "admin", twoFactorEnabled: true });

const row = (o: Record<string, unknown> = {}) => ({
  id: 5,
  title: "Friday Cup",
  description: "A cup.",
  categoryId: 3,
  categoryName: "History",
  entryFee: 5,
  prizePool: 42.5,
  maxParticipants: 100,
  currentParticipants: 10,
  minLevel: 1,
  startTime: "2030-01-01T18:00:00.000Z",
  endTime: "2030-01-01T18:30:00.000Z",
  status: "upcoming",
  imageUrl: null,
  isFree: false,
  kind: "standard",
  format: "live_show",
  createdAt: "2029-12-01T10:00:00.000Z",
  houseFunded: false,
  ...o,
});

const page = (items: unknown[]) => ({ items, total: items.length, page: 1, pageSize: 24, nextPage: null });

const bank = Array.from({ length: 12 }, (_, i) => ({
  id: 100 + i,
  categoryId: 3,
  question: `Which king number ${i}?`,
  options: ["a", "b", "c", "d"],
  correctAnswer: "a",
  difficulty: 1 + (i % 3),
  explanation: null,
  source: "import",
  paidUses: 0,
  retired: false,
}));

describe("the console's tournament list", () => {
  it("shows status, players, fee, pool and the house-funded flag, and filters on the server", async () => {
    const api = fakeFetch({
      "GET /api/admin/tournaments": (req) => ({
        body: page(
          req.query.get("status") === "live"
            ? [row({ id: 6, title: "Live One", status: "live" })]
            : [row(), row({ id: 7, title: "House Cup", isFree: true, entryFee: 0, houseFunded: true, prizePool: 600 })],
        ),
      }),
    });
    renderPage([{ path: "/admin/tournaments", element: <TournamentsPage /> }], { at: "/admin/tournaments", user: operator });
    const list = await screen.findByRole("list", { name: "Tournaments" });
    const [first, second] = within(list).getAllByRole("listitem");
    expect(first).toHaveTextContent("Friday Cup");
    expect(first).toHaveTextContent("10/100 players");
    expect(first).toHaveTextContent("fee $5.00");
    expect(first).toHaveTextContent("pool $42.50");
    expect(second).toHaveTextContent("house-funded");
    expect(second).toHaveTextContent("fee free");
    expect(api.calls("GET /api/admin/tournaments")[0]!.query.get("kind")).toBe("standard");

    fireEvent.change(screen.getByRole("combobox", { name: "Status" }), { target: { value: "live" } });
    expect(await screen.findByText("Live One")).toBeVisible();
    expect(api.calls("GET /api/admin/tournaments").at(-1)!.query.get("status")).toBe("live");
  });

  it("creates a tournament from ten picked questions; a large house pool goes to approval", async () => {
    const api = fakeFetch({
      "GET /api/admin/tournaments": () => ({ body: page([]) }),
      "GET /api/categories": () => ({
        body: [{ id: 3, slug: "history", name: "History", description: "", icon: "brain", activeTournaments: 0 }],
      }),
      "GET /api/admin/questions": () => ({ body: { items: bank, total: bank.length, page: 1, pageSize: 100, nextPage: null } }),
      "POST /api/admin/tournaments": () => ({
        status: 202,
        body: { approvalId: 9, message: ADMIN_TOURNAMENTS.approvalRequested("$900.00", "$500.00") },
      }),
    });
    renderPage([{ path: "/admin/tournaments", element: <TournamentsPage /> }], { at: "/admin/tournaments", user: operator });
    fireEvent.click(await screen.findByRole("button", { name: "New tournament" }));
    fireEvent.change(screen.getByLabelText("Title"), { target: { value: "Kings Night" } });
    fireEvent.change(screen.getByLabelText("Description"), { target: { value: "All about kings." } });
    await screen.findByRole("option", { name: "History" });
    fireEvent.change(screen.getByLabelText("Category"), { target: { value: "3" } });
    fireEvent.change(screen.getByLabelText("Entry"), { target: { value: "free" } });
    fireEvent.change(screen.getByLabelText("House-funded prize pool (USD)"), { target: { value: "900" } });
    fireEvent.click(screen.getByRole("radio", { name: "Pick 10 from the bank" }));
    fireEvent.change(await screen.findByRole("textbox", { name: "Search the bank" }), { target: { value: "number 1" } });
    // "number 1", "number 10", "number 11": the search narrows the bank.
    await vi.waitFor(() => expect(within(screen.getByRole("list", { name: "Bank" })).getAllByRole("listitem")).toHaveLength(3));
    fireEvent.click(screen.getByRole("button", { name: "Add: Which king number 11?" }));
    fireEvent.change(screen.getByRole("textbox", { name: "Search the bank" }), { target: { value: "" } });
    for (let i = 0; i < 9; i++) fireEvent.click(screen.getByRole("button", { name: `Add: Which king number ${i}?` }));
    expect(screen.getByText("Picked 10 of 10, in the order they are asked")).toBeVisible();
    expect(screen.getByRole("button", { name: "Add: Which king number 9?" })).toBeDisabled();
    fireEvent.click(screen.getByRole("button", { name: "Create tournament" }));

    await vi.waitFor(() => expect(api.calls("POST /api/admin/tournaments")).toHaveLength(1));
    expect(api.calls("POST /api/admin/tournaments")[0]!.body).toMatchObject({
      title: "Kings Night",
      categoryId: 3,
      isFree: true,
      entryFee: 0,
      prizePool: 900,
      questionIds: [111, 100, 101, 102, 103, 104, 105, 106, 107, 108],
    });
    expect(await screen.findByText(ADMIN_TOURNAMENTS.approvalRequested("$900.00", "$500.00"))).toBeVisible();
  });
});

describe("one tournament in the console", () => {
  const detail = (o: Record<string, unknown> = {}) => ({
    ...row({ status: "live", ...o }),
    durationMinutes: 30,
    questionDraw: 1,
    questions: [{ id: 100, question: "Which king?", difficulty: 1 }],
    editable: false,
    ...o,
  });
  const live = (answersPerSecond: number) => ({
    tournamentId: 5,
    status: "live",
    format: "live_show",
    participants: 10,
    sockets: 8,
    connectedPlayers: 7,
    answersPerSecond,
    show: { index: 2, total: 10, stage: "question", closesAt: "2030-01-01T18:05:00.000Z" },
    progress: null,
    flags: [{ userId: 4, username: "speedy", flags: [{ kind: "inhuman_speed", detail: "3 correct answers under the reading floor" }] }],
    cheatAttempts: [{ userId: 4, username: "speedy", reason: "Answered before the start", at: "2030-01-01T17:59:00.000Z" }],
    cheatAttemptCount: 1,
    paused: false,
    questions: [],
    players: [],
  });

  it("shows the live room, asked again every 2 s", async () => {
    let n = 0;
    fakeFetch({
      "GET /api/admin/tournaments/5": () => ({ body: detail() }),
      "GET /api/admin/tournaments/5/live": () => ({ body: live(++n === 1 ? 1.5 : 4.2) }),
    });
    renderPage([{ path: "/admin/tournaments/:id", element: <TournamentDetailPage /> }], { at: "/admin/tournaments/5", user: operator });
    const view = await screen.findByRole("region", { name: "Live view" });
    await within(view).findByText("7 of 10");
    expect(view).toHaveTextContent("1.5");
    expect(view).toHaveTextContent("3 of 10 · question");
    expect(view).toHaveTextContent("speedy: 3 correct answers under the reading floor");
    expect(view).toHaveTextContent("Refused answers (1)");
    await within(view).findByText("4.2", {}, { timeout: 4000 });
  });

  it("cancels with a reason and says how many players were refunded, once the page shows it cancelled", async () => {
    let status: "upcoming" | "cancelled" = "upcoming";
    const api = fakeFetch({
      "GET /api/admin/tournaments/5": () => ({ body: detail({ status, currentParticipants: 3 }) }),
      "GET /api/admin/tournaments/5/live": () => ({ body: live(0) }),
      "POST /api/admin/tournaments/5/cancel": () => {
        status = "cancelled";
        return { body: { tournamentId: 5, cancelled: true, playersRefunded: 3, refundedCents: 1500 } };
      },
    });
    renderPage([{ path: "/admin/tournaments/:id", element: <TournamentDetailPage /> }], { at: "/admin/tournaments/5", user: operator });
    fireEvent.click(await screen.findByRole("button", { name: "Cancel tournament" }));
    const dialog = await screen.findByRole("dialog");
    expect(dialog).toHaveTextContent("Its 3 players get their $5.00 entry fee back");
    fireEvent.change(within(dialog).getByLabelText(ADMIN_TOURNAMENTS.cancelReason), { target: { value: "The host is ill." } });
    fireEvent.click(within(dialog).getByRole("button", { name: "Cancel and refund" }));
    expect(await screen.findByText(ADMIN_TOURNAMENTS.cancelled(3))).toBeVisible();
    expect(api.calls("POST /api/admin/tournaments/5/cancel")[0]!.body).toEqual({ reason: "The host is ill." });
    // The refetched tournament is cancelled: no dialog, no cancel button, and the toast stayed.
    await waitFor(() => expect(screen.queryByRole("button", { name: "Cancel tournament" })).toBeNull());
    expect(screen.queryByRole("dialog")).toBeNull();
    expect(screen.getByText(ADMIN_TOURNAMENTS.cancelled(3))).toBeVisible();
  });

  it("shows the server's refusal of an edit in words", async () => {
    fakeFetch({
      "GET /api/admin/tournaments/5": () => ({ body: detail({ status: "upcoming", currentParticipants: 0, editable: true }) }),
      "GET /api/categories": () => ({
        body: [{ id: 3, slug: "history", name: "History", description: "", icon: "brain", activeTournaments: 0 }],
      }),
      "GET /api/admin/questions": () => ({ body: { items: bank, total: bank.length, page: 1, pageSize: 100, nextPage: null } }),
      "PATCH /api/admin/tournaments/5": () => ({
        status: 409,
        body: { code: "tournament_has_players", message: ADMIN_TOURNAMENTS.hasPlayers },
      }),
    });
    renderPage([{ path: "/admin/tournaments/:id", element: <TournamentDetailPage /> }], { at: "/admin/tournaments/5", user: operator });
    const form = await screen.findByRole("region", { name: "Edit" });
    expect(within(form).getByLabelText("Title")).toHaveValue("Friday Cup");
    fireEvent.click(within(form).getByRole("button", { name: "Save changes" }));
    expect(await within(form).findByText(ADMIN_TOURNAMENTS.hasPlayers)).toBeVisible();
  });
});
