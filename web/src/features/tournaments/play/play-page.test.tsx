import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { act, fireEvent, screen, within } from "@testing-library/react";
import type { PlayerQuestion, TournamentDetail } from "@common/api/tournaments";
import { PLAY, REQUEST_FAILED } from "@common/messages";
import { fakeFetch, type FakeAnswer } from "@/test/fake-fetch";
import { FakeWebSocket, fakeWebSockets } from "@/test/fake-websocket";
import { advance, correct, detail, locked, practiceDetail, question, settle, wrong } from "@/test/play-fixtures";
import { formatStart } from "@/features/tournaments/display";
import { renderPage, testUser } from "@/test/render-page";
import PlayPage from "./components/play-page";

/**
 * The room as the server keeps it: /next returns the open question until it is answered or its
 * 30 s plus 2 s grace are over, then issues the next one; past the last one, "No more questions".
 */
function fakeRoom(questions: PlayerQuestion[], answer: FakeAnswer) {
  let current = -1;
  let issuedAt = 0;
  let answered = false;
  const open = () => current >= 0 && !answered && Date.now() <= issuedAt + 32_000;
  return {
    next: (): FakeAnswer => {
      if (!open()) {
        if (current + 1 >= questions.length) return { status: 409, body: { code: "no_more_questions", message: "No more questions" } };
        current++;
        answered = false;
        // A question's own remainingMs says how much of its 30 s was already spent.
        issuedAt = Date.now() - (30_000 - questions[current]!.remainingMs);
      }
      return { body: { ...questions[current]!, remainingMs: Math.max(0, issuedAt + 30_000 - Date.now()) } };
    },
    answer: (): FakeAnswer => {
      answered = true;
      return answer;
    },
  };
}

interface Setup {
  tournament?: TournamentDetail | null;
  questions?: PlayerQuestion[];
  answer?: FakeAnswer;
  complete?: FakeAnswer;
  signedIn?: boolean;
}

function setup({
  tournament = detail(),
  questions = [question(0), question(1)],
  answer = { body: correct },
  complete = { body: { finished: true, score: 1100, questionsAnswered: 10 } },
  signedIn = true,
}: Setup = {}) {
  const room = fakeRoom(questions, answer);
  const api = fakeFetch({
    "GET /api/tournaments/9": () => (tournament ? { body: tournament } : { status: 404, body: { message: "Tournament not found" } }),
    "GET /api/tournaments/9/participants": () => ({ body: [{ userId: 7, username: "quiz_master", level: 2, hasCompleted: false }] }),
    "GET /api/tournaments/9/leaderboard": () => ({ body: [] }),
    "POST /api/tournaments/9/next": room.next,
    "POST /api/tournaments/9/answer": room.answer,
    "POST /api/tournaments/9/complete": () => complete,
  });
  const page = renderPage([{ path: "/tournaments/:id/play", element: <PlayPage /> }], {
    at: "/tournaments/9/play",
    user: signedIn ? testUser() : null,
  });
  return { api, page };
}

/** An option by its text; once answered its name also says "Correct answer" or "Your answer, incorrect". */
const option = (name: string) => screen.getByRole("radio", { name: new RegExp(`^${name}\\b`) });
const submit = () => screen.getByRole("button", { name: "Submit Answer" });
const timer = () => screen.getByRole("timer");

beforeEach(() => {
  vi.useFakeTimers();
  fakeWebSockets();
});
afterEach(() => vi.useRealTimers());

describe("play screen: answering", () => {
  // Practice shows each result at once; prize play's locked replies are further down.
  it("enables Submit only once an option is chosen, then locks and highlights the answer", async () => {
    const { api } = setup({ tournament: practiceDetail() });
    await settle();
    expect(screen.getByText("Question 1 of 10")).toBeVisible();
    expect(timer()).toHaveTextContent("30s");
    expect(submit()).toBeDisabled();

    fireEvent.click(option("Venus"));
    fireEvent.click(option("Mercury"));
    expect(option("Mercury")).toBeChecked();
    expect(submit()).toBeEnabled();
    fireEvent.click(submit());
    await settle();

    expect(api.calls("POST /api/tournaments/9/answer").map((r) => r.body)).toEqual([{ questionId: 100, answer: "Mercury" }]);
    expect(screen.getByText("Correct answer!")).toBeInTheDocument();
    expect(screen.getByText("+1100 points and +15 XP")).toBeInTheDocument();
    for (const name of ["Venus", "Mercury", "Mars", "Earth"]) expect(option(name)).toBeDisabled();
    expect(submit()).toBeDisabled();
    expect(screen.getByLabelText("Correct answer")).toBeInTheDocument();

    // Locked: another click changes nothing and sends nothing.
    fireEvent.click(option("Mars"));
    expect(option("Mercury")).toBeChecked();
    expect(api.calls("POST /api/tournaments/9/answer")).toHaveLength(1);

    // settle() above already spent a few of the pause's 2000 ms.
    const before = api.calls("POST /api/tournaments/9/next").length;
    await advance(1_950);
    expect(api.calls("POST /api/tournaments/9/next")).toHaveLength(before);
    expect(screen.getByText("Question 1 of 10")).toBeVisible();
    await advance(50);
    await settle();
    expect(api.calls("POST /api/tournaments/9/next")).toHaveLength(before + 1);
    expect(screen.getByText("Question 2 of 10")).toBeVisible();
    expect(submit()).toBeDisabled();
  });

  it("marks a wrong pick and names the correct answer", async () => {
    setup({ tournament: practiceDetail(), answer: { body: wrong } });
    await settle();
    fireEvent.click(option("Venus"));
    fireEvent.click(submit());
    await settle();
    expect(screen.getByText("Incorrect answer")).toBeInTheDocument();
    expect(screen.getByText("The correct answer was: Mercury")).toBeInTheDocument();
    expect(screen.getByLabelText("Your answer, incorrect")).toBeInTheDocument();
    expect(screen.getByLabelText("Correct answer")).toBeInTheDocument();
  });

  it("keeps the choice open when submitting fails with time left", async () => {
    setup({ answer: { status: 503, body: { message: "Service unavailable" } } });
    await settle();
    fireEvent.click(option("Mercury"));
    fireEvent.click(submit());
    await settle();
    expect(screen.getByText("Failed to submit answer")).toBeInTheDocument();
    expect(screen.getByText("Service unavailable")).toBeInTheDocument();
    expect(submit()).toBeEnabled();
  });

  it("says why in plain words when the failure carries no message of the server's", async () => {
    setup({ answer: { status: 502 } });
    await settle();
    fireEvent.click(option("Mercury"));
    fireEvent.click(submit());
    await settle();
    expect(screen.getByText("Failed to submit answer")).toBeInTheDocument();
    expect(screen.getByText(REQUEST_FAILED.server)).toBeInTheDocument();
    expect(document.body.textContent).not.toMatch(/502/);
  });
});

describe("play screen: the 30 s timer", () => {
  it("changes colour at 20 s, warns from 10 s, and auto-submits the chosen option at zero", async () => {
    const { api } = setup();
    await settle();
    fireEvent.click(option("Mars"));
    const bar = () => screen.getByRole("progressbar", { name: "Time left" }).firstElementChild!;
    expect(bar()).toHaveClass("bg-success");

    await advance(9_000);
    expect(timer()).toHaveTextContent("21s");
    expect(bar()).toHaveClass("bg-success");
    await advance(1_000);
    expect(timer()).toHaveTextContent("20s");
    expect(bar()).toHaveClass("bg-warning");
    expect(timer()).not.toHaveAttribute("data-warning");

    await advance(9_000);
    expect(timer()).toHaveTextContent("11s");
    expect(timer()).not.toHaveAttribute("data-warning");
    await advance(1_000);
    expect(timer()).toHaveTextContent("10s");
    expect(timer()).toHaveAttribute("data-warning");
    expect(bar()).toHaveClass("bg-destructive");

    await advance(9_750);
    expect(api.calls("POST /api/tournaments/9/answer")).toHaveLength(0);
    await advance(250);
    expect(api.calls("POST /api/tournaments/9/answer").map((r) => r.body)).toEqual([{ questionId: 100, answer: "Mars" }]);
  });

  it("sends nothing when no option was chosen, then moves on after the pause", async () => {
    const { api } = setup();
    await settle();
    const before = api.calls("POST /api/tournaments/9/next").length;
    await advance(30_000);
    expect(screen.getByText("Time's up! No answer was given for this question.")).toBeVisible();
    expect(option("Venus")).toBeDisabled();
    expect(api.calls("POST /api/tournaments/9/answer")).toHaveLength(0);
    await advance(2_000);
    expect(api.calls("POST /api/tournaments/9/next")).toHaveLength(before + 1);
    expect(screen.getByText("Question 2 of 10")).toBeVisible();
  });

  it("moves on even while the server still holds a timed-out question open in its grace period", async () => {
    const { api } = setup();
    await settle();
    await advance(30_000 + 2_000);
    expect(screen.queryByText("Question 2 of 10")).not.toBeInTheDocument();
    await advance(2_000);
    expect(screen.getByText("Question 2 of 10")).toBeVisible();
    expect(api.calls("POST /api/tournaments/9/answer")).toHaveLength(0);
  });

  it("resumes after a reload with the time the server says is left", async () => {
    setup({ questions: [question(3, { remainingMs: 12_000 })] });
    await settle();
    expect(screen.getByText("Question 4 of 10")).toBeVisible();
    expect(timer()).toHaveTextContent("12s");
    expect(timer()).not.toHaveAttribute("data-warning");
    await advance(2_000);
    expect(timer()).toHaveAttribute("data-warning");
  });
});

describe("play screen: finishing", () => {
  it("after the last question of practice: toast, completion call, then the dashboard", async () => {
    const { api, page } = setup({ tournament: practiceDetail(), questions: [question(9)] });
    await settle();
    fireEvent.click(option("Mercury"));
    fireEvent.click(submit());
    await advance(2_000);
    await settle();
    expect(screen.getByText("Tournament completed!")).toBeInTheDocument();
    expect(api.calls("POST /api/tournaments/9/complete")).toHaveLength(1);
    expect(page.location()).toBe("/dashboard?tab=tournaments");
  });

  it("goes back to the tournament when completing fails", async () => {
    const { page } = setup({ questions: [question(9)], complete: { status: 500, body: { message: "Internal server error" } } });
    await settle();
    fireEvent.click(option("Mercury"));
    fireEvent.click(submit());
    await advance(2_000);
    expect(page.location()).toBe("/tournaments/9");
  });
});

describe("play screen: its own checks", () => {
  it("asks a signed-out visitor to sign in", async () => {
    setup({ signedIn: false });
    await settle();
    expect(screen.getByRole("heading", { name: "Sign in to play" })).toBeVisible();
    expect(screen.getByRole("link", { name: "Sign In" })).toHaveAttribute("href", "/auth");
  });

  it("shows No Questions Available for a missing tournament", async () => {
    const { page } = setup({ tournament: null });
    await settle();
    expect(screen.getByRole("heading", { name: "No Questions Available" })).toBeVisible();
    expect(screen.getByText("There are no questions available for this tournament.")).toBeVisible();
    fireEvent.click(screen.getByRole("button", { name: "Back to Tournament" }));
    expect(page.location()).toBe("/tournaments/9");
  });

  it("sends a player who has not joined to the tournament to join", async () => {
    setup({ tournament: detail({ joined: false }) });
    await settle();
    expect(screen.getByRole("heading", { name: "Join to Play" })).toBeVisible();
    expect(screen.getByRole("link", { name: "Go to Tournament to Join" })).toHaveAttribute("href", "/tournaments/9");
  });

  it("says the tournament is not live yet", async () => {
    const { api } = setup({ tournament: detail({ status: "upcoming", startTime: new Date(Date.now() + 600_000).toISOString() }) });
    await settle();
    expect(screen.getByRole("heading", { name: "Tournament Not Live Yet" })).toBeVisible();
    expect(api.calls("POST /api/tournaments/9/next")).toHaveLength(0);
  });

  it("shows Practice Mode for practice titles", async () => {
    setup({
      tournament: detail({ title: "Science Practice", kind: "practice", isFree: true, entryFee: 0, maxParticipants: null, minPlayers: 0 }),
    });
    await settle();
    expect(screen.getByText("Practice Mode")).toBeVisible();
  });
});

describe("play screen: leaderboard panel", () => {
  it("shows the top 5 from the tournament socket", async () => {
    setup({ tournament: practiceDetail() });
    await settle();
    fireEvent.click(screen.getByRole("button", { name: "Show Leaderboard" }));
    const ws = FakeWebSocket.latest();
    expect(ws.url).toMatch(/\/api\/tournaments\/9\/ws$/);
    act(() => ws.open());
    const top = Array.from({ length: 7 }, (_, i) => ({
      userId: 20 + i,
      username: `player${i + 1}`,
      level: 1,
      score: 1000 - i * 100,
      questionsAnswered: 3,
      rank: i + 1,
      prize: 0,
    }));
    act(() => ws.receive({ type: "leaderboard", top, me: { rank: 12, score: 150 }, version: 4 }));
    const panel = screen.getByRole("list");
    expect(within(panel).getAllByRole("listitem")).toHaveLength(5);
    expect(within(panel).getByText("player1")).toBeVisible();
    expect(within(panel).queryByText("player6")).not.toBeInTheDocument();
    expect(screen.getByText("#12")).toBeVisible();
    fireEvent.click(screen.getByRole("button", { name: "Hide Leaderboard" }));
    expect(screen.queryByRole("list")).not.toBeInTheDocument();
  });

  it("polls the leaderboard every 5 s while the socket is not open", async () => {
    const { api } = setup();
    await settle();
    const polled = () => api.calls("GET /api/tournaments/9/leaderboard").length;
    const first = polled();
    expect(first).toBeGreaterThan(0);
    await advance(5_000);
    expect(polled()).toBe(first + 1);
    act(() => FakeWebSocket.latest().open());
    await advance(15_000);
    expect(polled()).toBe(first + 1);
  });
});

describe("play screen: prize play keeps every verdict until the end", () => {
  const endTime = new Date(Date.now() + 3_600_000).toISOString();
  const prize = () => detail({ endTime });

  it("says so before the first question", async () => {
    setup({ tournament: prize() });
    await settle();
    const note = screen.getByRole("note");
    expect(note).toHaveTextContent(PLAY.verdictAtEnd);
    // Above the question, from the first one on.
    const first = screen.getByText("Question 1 of 10");
    expect(note.compareDocumentPosition(first) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  it("does not show the notice in practice", async () => {
    setup({ tournament: practiceDetail() });
    await settle();
    expect(screen.getByText("Question 1 of 10")).toBeVisible();
    expect(screen.queryByText(PLAY.verdictAtEnd)).not.toBeInTheDocument();
  });

  it("says it on the waiting screen before the start", async () => {
    setup({ tournament: detail({ status: "upcoming", startTime: new Date(Date.now() + 600_000).toISOString(), endTime }) });
    await settle();
    expect(screen.getByRole("heading", { name: "Tournament Not Live Yet" })).toBeVisible();
    expect(screen.getByText(PLAY.verdictAtEnd)).toBeVisible();
  });

  it("shows a locked answer as locked in: nothing right or wrong, no points, then moves on", async () => {
    const { api } = setup({ tournament: prize(), answer: { body: locked("Venus", endTime) } });
    await settle();
    fireEvent.click(option("Venus"));
    fireEvent.click(submit());
    await settle();
    expect(screen.getByRole("status")).toHaveTextContent(PLAY.answerLocked);
    expect(screen.queryByText(/Correct|Incorrect|points/)).not.toBeInTheDocument();
    expect(screen.queryByLabelText("Correct answer")).not.toBeInTheDocument();
    expect(screen.queryByLabelText("Your answer, incorrect")).not.toBeInTheDocument();
    expect(option("Venus")).toBeChecked();
    for (const name of ["Venus", "Mercury", "Mars", "Earth"]) expect(option(name)).toBeDisabled();
    const before = api.calls("POST /api/tournaments/9/next").length;
    await advance(2_000);
    await settle();
    expect(api.calls("POST /api/tournaments/9/next")).toHaveLength(before + 1);
    expect(screen.getByText("Question 2 of 10")).toBeVisible();
  });

  it("after the last answer says the results come at the end, with the end time, and shows no score", async () => {
    const { api, page } = setup({
      tournament: prize(),
      questions: [question(9)],
      answer: { body: locked("Mercury", endTime) },
      complete: { body: { finished: true, score: null, questionsAnswered: 10 } },
    });
    await settle();
    fireEvent.click(option("Mercury"));
    fireEvent.click(submit());
    await advance(2_000);
    await settle();
    expect(api.calls("POST /api/tournaments/9/complete")).toHaveLength(1);
    expect(page.location()).toBe("/tournaments/9/play");
    expect(screen.getByText(PLAY.resultsAtEnd(formatStart(endTime)))).toBeVisible();
    expect(screen.queryByText(/points/)).not.toBeInTheDocument();
    fireEvent.click(screen.getByRole("button", { name: "My Tournaments" }));
    expect(page.location()).toBe("/dashboard?tab=tournaments");
  });

  it("shows the board's progress, not scores, until the end", async () => {
    setup({ tournament: prize() });
    await settle();
    fireEvent.click(screen.getByRole("button", { name: "Show Leaderboard" }));
    act(() => FakeWebSocket.latest().open());
    const top = [20, 21].map((userId, i) => ({
      userId,
      username: `player${i + 1}`,
      level: 1,
      score: 0,
      questionsAnswered: 3 - i,
      rank: i + 1,
      prize: 0,
    }));
    act(() => FakeWebSocket.latest().receive({ type: "leaderboard", top, me: { rank: 12, score: 0 }, version: 4 }));
    const panel = screen.getByRole("list");
    expect(within(panel).getByText("3 answered")).toBeVisible();
    expect(within(panel).getByText("2 answered")).toBeVisible();
    expect(screen.queryByText(/points/)).not.toBeInTheDocument();
  });
});
