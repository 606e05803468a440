// The host's tools in the console's live view: pause and resume, void a question with a reason,
// disqualify a player (done at once, or sent for a second operator's approval), the CSV export.
import { describe, expect, it, vi } from "vitest";
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { HOST_TOOLS } from "@common/console-messages";
import { AUTH } from "@common/messages";
import { fakeFetch } from "@/test/fake-fetch";
import { renderPage, testUser } from "@/test/render-page";
import TournamentDetailPage from "./tournament-detail-page";

const operator = testUser({ role: "admin", twoFactorEnabled: true });

const detail = {
  id: 5,
  title: "Friday Show",
  description: "A show.",
  categoryId: 3,
  categoryName: "History",
  entryFee: 5,
  prizePool: 42.5,
  maxParticipants: 100,
  currentParticipants: 3,
  minLevel: 1,
  startTime: "2030-01-01T18:00:00.000Z",
  endTime: "2030-01-01T18:30:00.000Z",
  status: "live",
  imageUrl: null,
  isFree: false,
  kind: "standard",
  format: "live_show",
  createdAt: "2029-12-01T10:00:00.000Z",
  houseFunded: false,
  durationMinutes: 30,
  questionDraw: 1,
  questions: [],
  editable: false,
};

const live = (o: Record<string, unknown> = {}) => ({
  tournamentId: 5,
  status: "live",
  format: "live_show",
  participants: 3,
  sockets: 3,
  connectedPlayers: 3,
  answersPerSecond: 0,
  show: { index: 1, total: 10, stage: "reveal", closesAt: null },
  progress: null,
  flags: [],
  cheatAttempts: [],
  cheatAttemptCount: 0,
  paused: false,
  questions: [
    { index: 0, questionId: 100, question: "Which king?", voidReason: "Two right options" },
    { index: 1, questionId: 101, question: "Which queen?", voidReason: null },
  ],
  players: [
    { userId: 7, username: "ana", rank: 1, score: 1100, disqualifiedReason: null },
    { userId: 8, username: "bo", rank: null, score: 0, disqualifiedReason: "Collusion" },
  ],
  ...o,
});

const open = () =>
  renderPage([{ path: "/admin/tournaments/:id", element: <TournamentDetailPage /> }], { at: "/admin/tournaments/5", user: operator });

describe("the host's tools in the live view", () => {
  it("pauses before the next question and resumes", async () => {
    let paused = false;
    const api = fakeFetch({
      "GET /api/admin/tournaments/5": () => ({ body: detail }),
      "GET /api/admin/tournaments/5/live": () => ({ body: live({ paused }) }),
      "POST /api/admin/tournaments/5/pause": () => {
        paused = true;
        return { body: { tournamentId: 5, changed: true, message: HOST_TOOLS.paused } };
      },
      "POST /api/admin/tournaments/5/resume": () => {
        paused = false;
        return { body: { tournamentId: 5, changed: true, message: HOST_TOOLS.resumed } };
      },
    });
    open();
    const tools = await screen.findByRole("region", { name: "Host tools" });
    fireEvent.click(await within(tools).findByRole("button", { name: "Pause before the next question" }));
    fireEvent.click(await within(tools).findByRole("button", { name: "Resume the show" }));
    expect(within(tools).getByRole("status")).toHaveTextContent(HOST_TOOLS.paused);
    await waitFor(() => expect(api.calls("POST /api/admin/tournaments/5/resume")).toHaveLength(1));
    expect(api.calls("POST /api/admin/tournaments/5/pause")).toHaveLength(1);
    await within(tools).findByRole("button", { name: "Pause before the next question" });
  });

  it("voids a question with a reason, and shows the ones voided", async () => {
    const api = fakeFetch({
      "GET /api/admin/tournaments/5": () => ({ body: detail }),
      "GET /api/admin/tournaments/5/live": () => ({ body: live() }),
      "POST /api/admin/tournaments/5/void-question": () => ({ body: { tournamentId: 5, changed: true, message: HOST_TOOLS.voided(1) } }),
    });
    open();
    const tools = await screen.findByRole("region", { name: "Host tools" });
    expect(await within(tools).findByText("Voided: Two right options")).toBeVisible();
    expect(within(tools).queryByRole("button", { name: "Void question 1" })).toBeNull();
    fireEvent.click(within(tools).getByRole("button", { name: "Void question 2" }));
    const dialog = await screen.findByRole("dialog");
    fireEvent.change(within(dialog).getByLabelText(HOST_TOOLS.reasonLabel), { target: { value: "Typo in the answer" } });
    fireEvent.click(within(dialog).getByRole("button", { name: "Void it" }));
    await waitFor(() => expect(api.calls("POST /api/admin/tournaments/5/void-question")).toHaveLength(1));
    expect(api.calls("POST /api/admin/tournaments/5/void-question")[0]!.body).toEqual({ index: 1, reason: "Typo in the answer" });
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
  });

  it("disqualifies a player; with money in the tournament it says a second operator must approve", async () => {
    const api = fakeFetch({
      "GET /api/admin/tournaments/5": () => ({ body: detail }),
      "GET /api/admin/tournaments/5/live": () => ({ body: live() }),
      "POST /api/admin/tournaments/5/disqualify": () => ({
        status: 202,
        body: { approvalId: 12, message: HOST_TOOLS.disqualifyApprovalRequested },
      }),
    });
    open();
    const tools = await screen.findByRole("region", { name: "Host tools" });
    const players = within(tools).getByRole("table", { name: "Players" });
    expect(await within(players).findByText("Disqualified: Collusion")).toBeVisible();
    fireEvent.click(within(players).getByRole("button", { name: "Disqualify ana" }));
    const dialog = await screen.findByRole("dialog");
    fireEvent.change(within(dialog).getByLabelText(HOST_TOOLS.disqualifyReasonLabel), { target: { value: "Second account" } });
    fireEvent.click(within(dialog).getByRole("button", { name: "Disqualify" }));
    await waitFor(() => expect(api.calls("POST /api/admin/tournaments/5/disqualify")).toHaveLength(1));
    expect(api.calls("POST /api/admin/tournaments/5/disqualify")[0]!.body).toEqual({ userId: 7, reason: "Second account" });
    expect(await screen.findByText(HOST_TOOLS.disqualifyApprovalRequested)).toBeVisible();
  });

  it("keeps the dialog open with the server's refusal", async () => {
    fakeFetch({
      "GET /api/admin/tournaments/5": () => ({ body: detail }),
      "GET /api/admin/tournaments/5/live": () => ({ body: live() }),
      "POST /api/admin/tournaments/5/void-question": () => ({
        status: 409,
        body: { code: "tournament_not_running", message: HOST_TOOLS.settled },
      }),
    });
    open();
    const tools = await screen.findByRole("region", { name: "Host tools" });
    fireEvent.click(await within(tools).findByRole("button", { name: "Void question 2" }));
    const dialog = await screen.findByRole("dialog");
    fireEvent.change(within(dialog).getByLabelText(HOST_TOOLS.reasonLabel), { target: { value: "Late" } });
    fireEvent.click(within(dialog).getByRole("button", { name: "Void it" }));
    expect(await within(dialog).findByRole("alert")).toHaveTextContent(HOST_TOOLS.settled);
  });

  it("exports the results as a CSV download", async () => {
    const saved: Blob[] = [];
    vi.spyOn(URL, "createObjectURL").mockImplementation((blob) => {
      saved.push(blob as Blob);
      return "blob:results";
    });
    vi.spyOn(URL, "revokeObjectURL").mockImplementation(() => undefined);
    const api = fakeFetch({
      "GET /api/admin/tournaments/5": () => ({ body: detail }),
      "GET /api/admin/tournaments/5/live": () => ({ body: live({ status: "completed" }) }),
      "GET /api/admin/tournaments/5/results.csv": () => ({
        text: "rank,user_id\r\n1,7\r\n",
        headers: { "Content-Type": "text/csv", "Content-Disposition": 'attachment; filename="tournament-5-results.csv"' },
      }),
    });
    open();
    const tools = await screen.findByRole("region", { name: "Host tools" });
    // Settled: nothing left to pause, void or disqualify, the export stays.
    expect(within(tools).queryByRole("button", { name: /Pause|Void|Disqualify/ })).toBeNull();
    fireEvent.click(within(tools).getByRole("button", { name: "Export results (CSV)" }));
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(await saved[0]!.text()).toBe("rank,user_id\r\n1,7\r\n");
    expect(api.calls("GET /api/admin/tournaments/5/results.csv")).toHaveLength(1);
  });

  it("asks for the step-up the server wants before the CSV (every answer with its receipt) is downloaded", async () => {
    const saved: Blob[] = [];
    vi.spyOn(URL, "createObjectURL").mockImplementation((blob) => {
      saved.push(blob as Blob);
      return "blob:results";
    });
    vi.spyOn(URL, "revokeObjectURL").mockImplementation(() => undefined);
    let steppedUp = false;
    const api = fakeFetch({
      "GET /api/admin/tournaments/5": () => ({ body: detail }),
      "GET /api/admin/tournaments/5/live": () => ({ body: live({ status: "completed" }) }),
      "GET /api/admin/tournaments/5/results.csv": () =>
        steppedUp
          ? {
              text: "rank,user_id\r\n1,7\r\n",
              headers: { "Content-Type": "text/csv", "Content-Disposition": 'attachment; filename="tournament-5-results.csv"' },
            }
          : { status: 403, body: { code: "step_up_required", message: AUTH.stepUpRequired } },
      "POST /api/auth/step-up": () => {
        steppedUp = true;
        return { body: { stepUpUntil: Date.now() + 600_000 } };
      },
    });
    open();
    const tools = await screen.findByRole("region", { name: "Host tools" });
    fireEvent.click(within(tools).getByRole("button", { name: "Export results (CSV)" }));
    const dialog = await screen.findByRole("dialog", { name: "Confirm it's you" });
    expect(saved).toHaveLength(0);
    fireEvent.change(within(dialog).getByLabelText("Password"), { target: { value: "my-password" } });
    fireEvent.change(within(dialog).getByLabelText("Authentication code"), { target: { value: "123456" } });
    fireEvent.click(within(dialog).getByRole("button", { name: "Confirm" }));
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(await saved[0]!.text()).toBe("rank,user_id\r\n1,7\r\n");
    expect(api.calls("GET /api/admin/tournaments/5/results.csv")).toHaveLength(2);
    expect(api.calls("POST /api/auth/step-up")).toHaveLength(1);
  });
});
