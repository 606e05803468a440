// The live-show screen on /tournaments/{id}/play: waiting room, the pushed question on the shared
// clock, the locked answer, the reveal, a late arrival, a spectator, the end of the show.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { act, fireEvent, screen, within } from "@testing-library/react";
import type { AnswerLocked, LeaderboardRow, TournamentDetail } from "@common/api/tournaments";
import { FORMAT_LABEL, PLAY } from "@common/messages";
import { fakeFetch, type FakeAnswer } from "@/test/fake-fetch";
import { FakeWebSocket, fakeWebSockets } from "@/test/fake-websocket";
import { advance, correct, detail, question, settle } from "@/test/play-fixtures";
import { renderPage } from "@/test/render-page";
import PlayPage from "./components/play-page";

const NOW = new Date("2026-03-01T12:00:00.000Z").getTime();
const iso = (msFromNow: number) => new Date(Date.now() + msFromNow).toISOString();
const live = (overrides: Partial<TournamentDetail> = {}) => detail({ format: "live_show", ...overrides });

const players = ["quiz_master", "ana", "bytebard"].map((username, i) => ({
  userId: i === 0 ? 7 : 20 + i,
  username,
  level: 2,
  hasCompleted: false,
}));

const rows = (n: number): LeaderboardRow[] =>
  Array.from({ length: n }, (_, i) => ({
    userId: 100 + i,
    username: `rival${i + 1}`,
    level: 2,
    score: 2000 - i * 100,
    questionsAnswered: 1,
    rank: i + 1,
    prize: 0,
  }));

interface Setup {
  tournament?: TournamentDetail;
  next?: () => FakeAnswer;
  participants?: () => unknown[];
  leaderboard?: unknown[];
}

function setup({
  tournament = live(),
  next = () => ({ status: 409, body: { code: "no_open_question", message: "No question is open" } }),
  participants = () => players,
  leaderboard = [],
}: Setup = {}) {
  const api = fakeFetch({
    "GET /api/tournaments/9": () => ({ body: tournament }),
    "GET /api/tournaments/9/participants": () => ({ body: participants() }),
    "GET /api/tournaments/9/leaderboard": () => ({ body: leaderboard }),
    "POST /api/tournaments/9/next": next,
    "POST /api/tournaments/9/answer": () => ({ body: { ...locked, answer: "Venus" } }),
  });
  renderPage([{ path: "/tournaments/:id/play", element: <PlayPage /> }], { at: "/tournaments/9/play" });
  return { api };
}

/** Mounts and opens the page's one socket. */
async function connect(s: Setup = {}) {
  const { api } = setup(s);
  await settle();
  const ws = FakeWebSocket.latest();
  expect(ws.url).toMatch(/\/api\/tournaments\/9\/ws$/);
  act(() => ws.open());
  await settle();
  return { api, ws };
}

const push = (ws: FakeWebSocket, frame: Record<string, unknown>) => act(() => ws.receive(frame));
const showState = (stage: string, index: number, nextAt: string | null) => ({
  type: "status",
  status: stage === "waiting" ? "upcoming" : "live",
  show: { stage, index, total: 10, nextAt },
});

const locked: AnswerLocked = {
  locked: true,
  questionId: 100,
  answer: "Mercury",
  responseTime: 1200,
  revealAt: "2026-03-01T12:00:32.000Z",
  receipt: {
    v: 1,
    tournamentId: 9,
    userId: 7,
    questionId: 100,
    answer: "Mercury",
    receivedAt: "2026-03-01T12:00:01.200Z",
    responseMs: 1200,
    points: null,
    signature: "0".repeat(64),
  },
};

const reveal = (overrides: Record<string, unknown> = {}) => ({
  type: "reveal",
  questionId: 100,
  index: 0,
  correctAnswer: "Mercury",
  explanation: "Mercury orbits closest.",
  distribution: [
    { option: "Venus", count: 1 },
    { option: "Mercury", count: 3 },
    { option: "Mars", count: 0 },
    { option: "Earth", count: 1 },
  ],
  you: correct,
  nextAt: iso(5_000),
  ...overrides,
});

const optionButton = (name: string) => screen.getByRole("button", { name });

beforeEach(() => {
  vi.useFakeTimers({ now: NOW });
  fakeWebSockets();
});
afterEach(() => vi.useRealTimers());

describe("live show: waiting room", () => {
  it("counts down to the start, lists who is here, then waits for players past the start", async () => {
    let here = players;
    const { ws } = await connect({
      tournament: live({ status: "upcoming", startTime: iso(125_000), currentParticipants: 3 }),
      participants: () => here,
    });
    push(ws, showState("waiting", -1, iso(125_000)));
    const room = screen.getByTestId("live-waiting");
    expect(within(room).getByText(FORMAT_LABEL.live_show.description)).toBeVisible();
    expect(within(room).getByRole("timer")).toHaveTextContent("2:05");
    expect(within(room).getByText("3 players here")).toBeVisible();
    const list = within(room).getByRole("list", { name: "Players" });
    expect(
      within(list)
        .getAllByRole("listitem")
        .map((li) => li.textContent),
    ).toEqual(["quiz_master (you)", "ana", "bytebard"]);

    // A new player joins: the standings move, the list is fetched again.
    push(ws, { type: "leaderboard", top: [], me: null, version: 1 });
    here = [...players, { userId: 30, username: "melody_mo", level: 1, hasCompleted: false }];
    push(ws, { type: "leaderboard", top: [], me: null, version: 2 });
    await settle();
    expect(within(room).getByText("4 players here")).toBeVisible();

    await advance(125_000);
    expect(within(room).getByText("Waiting for players")).toBeVisible();
    // A paid show needs ten players: 10 - 3 counted in the tournament.
    expect(within(room).getByText("7 more needed to start")).toBeVisible();
  });
});

describe("live show: playing", () => {
  it("shows the pushed question on the shared clock, sends one press, then locks it without saying right or wrong", async () => {
    const { api, ws } = await connect();
    push(ws, showState("question", 0, iso(32_000)));
    push(ws, { type: "question", question: question(0) });

    expect(screen.getByTestId("live-question")).toHaveTextContent("Question text 1: which planet is closest to the Sun?");
    expect(screen.getByRole("timer")).toHaveTextContent("30s");
    await advance(4_000);
    expect(screen.getByRole("timer")).toHaveTextContent("26s");

    fireEvent.click(optionButton("Mercury"));
    await settle();
    const [sent] = ws.sentOfType("answer");
    expect(sent).toEqual({ type: "answer", id: expect.any(String), questionId: 100, answer: "Mercury" });
    push(ws, { type: "result", id: sent!.id, result: locked });
    await settle();

    expect(screen.getByTestId("answer-locked")).toHaveTextContent("Answer locked: Mercury");
    for (const name of ["Venus", "Mercury", "Mars", "Earth"]) expect(optionButton(name)).toBeDisabled();
    expect(optionButton("Mercury")).toHaveAttribute("aria-pressed", "true");
    expect(screen.queryByText(/correct/i)).not.toBeInTheDocument();
    fireEvent.click(optionButton("Venus"));
    await settle();
    expect(ws.sentOfType("answer")).toHaveLength(1);
    expect(api.calls("POST /api/tournaments/9/answer")).toHaveLength(0);
  });

  it("reveals the answer, the player's result, how everyone answered and the leaderboard, then the next question", async () => {
    const { ws } = await connect();
    push(ws, showState("question", 0, iso(32_000)));
    push(ws, { type: "question", question: question(0) });
    fireEvent.click(optionButton("Mercury"));
    await settle();
    push(ws, { type: "result", id: ws.sentOfType("answer")[0]!.id, result: locked });
    await advance(32_000);

    push(ws, showState("reveal", 0, iso(5_000)));
    push(ws, reveal());
    push(ws, { type: "leaderboard", top: rows(10), me: { rank: 12, score: 1100 }, version: 3 });

    const card = screen.getByTestId("reveal");
    expect(within(card).getByText("Correct answer: Mercury")).toBeVisible();
    expect(within(card).getByText("Correct! +1100 points")).toBeVisible();
    expect(within(card).getByText("Mercury orbits closest.")).toBeVisible();
    const bars = within(within(card).getByRole("list", { name: "Answers per option" })).getAllByRole("listitem");
    expect(bars.map((b) => b.textContent)).toEqual(["Venus1 · 20%", "Mercury(your answer)3 · 60%", "Mars0 · 0%", "Earth1 · 20%"]);
    expect(bars[1]).toHaveAttribute("data-correct", "true");
    expect(within(bars[1]!).getByLabelText("Correct answer")).toBeInTheDocument();

    const board = screen.getByRole("region", { name: "Leaderboard" });
    expect(within(board).getAllByRole("listitem")).toHaveLength(10);
    expect(within(board).getByText("#12")).toBeVisible();

    expect(within(card).getByRole("timer")).toHaveTextContent("Next question in 5 s");
    await advance(1_000);
    expect(within(card).getByRole("timer")).toHaveTextContent("Next question in 4 s");

    await advance(4_000);
    push(ws, showState("question", 1, iso(32_000)));
    push(ws, { type: "question", question: question(1) });
    expect(screen.queryByTestId("reveal")).not.toBeInTheDocument();
    expect(screen.getByTestId("live-question")).toHaveTextContent("Question text 2");
    expect(optionButton("Mercury")).toBeEnabled();
  });

  it("shows a sharded show's merged counts once they come, in place of its play shard's own", async () => {
    const { ws } = await connect();
    push(ws, showState("reveal", 0, iso(5_000)));
    // The play shard's reveal counts its own players only, and says so.
    push(ws, reveal({ partial: true }));
    const card = screen.getByTestId("reveal");
    const counts = () =>
      within(within(card).getByRole("list", { name: "Answers per option" }))
        .getAllByRole("listitem")
        .map((b) => b.textContent);
    expect(within(card).getByTestId("answers-counting")).toHaveTextContent(PLAY.answersStillCounting);
    expect(counts()).toEqual(["Venus1 · 20%", "Mercury3 · 60%", "Mars0 · 0%", "Earth1 · 20%"]);

    // Another question's counts change nothing here.
    const merged = [
      { option: "Venus", count: 2 },
      { option: "Mercury", count: 5 },
      { option: "Mars", count: 1 },
      { option: "Earth", count: 2 },
    ];
    push(ws, { type: "distribution", questionId: 99, index: 5, distribution: merged });
    expect(counts()).toEqual(["Venus1 · 20%", "Mercury3 · 60%", "Mars0 · 0%", "Earth1 · 20%"]);

    // Merged at the deadline without one shard: still partial; then every shard's.
    push(ws, {
      type: "distribution",
      questionId: 100,
      index: 0,
      distribution: merged.slice(0, 2).concat(merged.slice(2).map((o) => ({ ...o, count: 0 }))),
      partial: true,
    });
    expect(counts()).toEqual(["Venus2 · 29%", "Mercury5 · 71%", "Mars0 · 0%", "Earth0 · 0%"]);
    expect(within(card).getByTestId("answers-counting")).toBeVisible();
    push(ws, { type: "distribution", questionId: 100, index: 0, distribution: merged });
    expect(counts()).toEqual(["Venus2 · 20%", "Mercury5 · 50%", "Mars1 · 10%", "Earth2 · 20%"]);
    expect(within(card).queryByTestId("answers-counting")).not.toBeInTheDocument();
    expect(within(card).getByText("Correct! +1100 points")).toBeVisible();
  });

  it("says No answer when the player let the time run out", async () => {
    const { ws } = await connect();
    push(ws, showState("question", 0, iso(32_000)));
    push(ws, { type: "question", question: question(0) });
    await advance(30_000);
    expect(screen.getByText("Time's up! No answer was given for this question.")).toBeVisible();
    expect(optionButton("Venus")).toBeDisabled();
    push(ws, reveal({ you: null }));
    expect(within(screen.getByTestId("reveal")).getByText("No answer")).toBeVisible();
  });

  it("gives a late arrival the open question with the time left: over HTTP first, then over the socket", async () => {
    const { api } = setup({ next: () => ({ body: question(3, { remainingMs: 12_000 }) }) });
    await settle();
    expect(api.calls("POST /api/tournaments/9/next").length).toBeGreaterThan(0);
    expect(screen.getByTestId("live-question")).toHaveTextContent("Question text 4");
    expect(screen.getByRole("timer")).toHaveTextContent("12s");

    // Without the socket the answer goes over HTTP, and is locked all the same.
    fireEvent.click(optionButton("Venus"));
    await settle();
    expect(api.calls("POST /api/tournaments/9/answer").map((r) => r.body)).toEqual([{ questionId: 103, answer: "Venus" }]);
    expect(screen.getByTestId("answer-locked")).toHaveTextContent("Answer locked: Venus");

    // The socket opens while question 5 is on: the player asks for it and gets what is left of its clock.
    const ws = FakeWebSocket.latest();
    act(() => ws.open());
    push(ws, showState("question", 4, iso(20_000)));
    await settle();
    const asked = ws.sentOfType("next");
    expect(asked.length).toBeGreaterThan(0);
    for (const f of asked) push(ws, { type: "question", id: f.id, question: question(4, { remainingMs: 9_000 }) });
    await settle();
    expect(screen.getByTestId("live-question")).toHaveTextContent("Question text 5");
    expect(screen.getByRole("timer")).toHaveTextContent("9s");
    expect(optionButton("Venus")).toBeEnabled();
  });

  it("keeps an answer given before a reload locked", async () => {
    setup({ next: () => ({ body: question(2, { remainingMs: 15_000, result: { ...locked, questionId: 102, answer: "Mars" } }) }) });
    await settle();
    expect(screen.getByTestId("answer-locked")).toHaveTextContent("Answer locked: Mars");
    expect(optionButton("Venus")).toBeDisabled();
  });
});

describe("live show: the host's tools", () => {
  it("says the host paused the show, with no countdown, until it resumes", async () => {
    const { ws } = await connect();
    push(ws, showState("reveal", 0, null));
    push(ws, reveal({ nextAt: null }));
    push(ws, { type: "host", paused: true, voided: [], disqualified: null });
    expect(screen.getByTestId("paused-by-host")).toHaveTextContent(PLAY.pausedByHost);
    const card = screen.getByTestId("reveal");
    expect(within(card).getByText(PLAY.pausedByHost)).toBeVisible();
    expect(within(card).queryByText("That was the last question.")).not.toBeInTheDocument();

    push(ws, { type: "host", paused: false, voided: [], disqualified: null });
    push(ws, reveal({ nextAt: iso(5_000) }));
    expect(screen.queryByTestId("paused-by-host")).not.toBeInTheDocument();
    expect(within(screen.getByTestId("reveal")).getByRole("timer")).toHaveTextContent("Next question in 5 s");
  });

  it("says a voided question counts for nobody, on its reveal or once the host frame says so", async () => {
    const { ws } = await connect();
    push(ws, showState("reveal", 0, iso(5_000)));
    push(ws, reveal({ voided: true, you: { ...correct, pointsEarned: 0 } }));
    const card = screen.getByTestId("reveal");
    expect(within(card).getByTestId("question-voided")).toHaveTextContent(PLAY.questionVoided);
    expect(within(card).queryByText(/Correct! \+/)).not.toBeInTheDocument();

    push(ws, reveal({ index: 1, questionId: 101 }));
    expect(screen.queryByTestId("question-voided")).not.toBeInTheDocument();
    push(ws, { type: "host", paused: false, voided: [0, 1], disqualified: null });
    expect(screen.getByTestId("question-voided")).toHaveTextContent(PLAY.questionVoided);
  });

  it("forgets a pause when the socket reopens: the room says it again only if it still holds", async () => {
    const { ws } = await connect();
    push(ws, showState("reveal", 0, null));
    push(ws, { type: "host", paused: true, voided: [], disqualified: null });
    expect(screen.getByTestId("paused-by-host")).toBeVisible();
    act(() => ws.drop());
    await advance(3_000);
    const again = FakeWebSocket.latest();
    expect(again).not.toBe(ws);
    act(() => again.open());
    push(again, showState("reveal", 0, iso(5_000)));
    expect(screen.queryByTestId("paused-by-host")).not.toBeInTheDocument();
  });

  it("tells a disqualified player why", async () => {
    const { ws } = await connect();
    push(ws, showState("question", 2, iso(20_000)));
    push(ws, { type: "host", paused: false, voided: [], disqualified: "Shared answers" });
    expect(screen.getByTestId("disqualified")).toHaveTextContent(PLAY.disqualified("Shared answers"));
  });
});

describe("live show: spectators and the end", () => {
  it("shows a spectator the open question's progress, the leaderboard and the reveal, with nothing to answer", async () => {
    const { api, ws } = await connect({ tournament: live({ joined: false }) });
    push(ws, showState("question", 2, iso(20_000)));
    push(ws, { type: "leaderboard", top: rows(3), me: null, version: 7 });
    expect(screen.getByText("Watching")).toBeVisible();
    expect(screen.getByText("Question 3 of 10 is on")).toBeVisible();
    expect(screen.getByRole("timer")).toHaveTextContent("20 s left");
    expect(within(screen.getByRole("region", { name: "Leaderboard" })).getAllByRole("listitem")).toHaveLength(3);
    expect(screen.queryByRole("button", { name: "Mercury" })).not.toBeInTheDocument();

    push(ws, showState("reveal", 2, iso(5_000)));
    push(ws, reveal({ questionId: 102, index: 2, you: null }));
    const card = screen.getByTestId("reveal");
    expect(within(card).getByText("Correct answer: Mercury")).toBeVisible();
    expect(within(card).queryByText("No answer")).not.toBeInTheDocument();

    expect(api.calls("POST /api/tournaments/9/next")).toHaveLength(0);
    expect(ws.sentOfType("next")).toHaveLength(0);
  });

  it("ends with the final standings and a link to the results", async () => {
    const final = [
      { userId: 21, username: "ana", level: 3, score: 5200, questionsAnswered: 10, rank: 1, prize: 27.63 },
      { userId: 7, username: "quiz_master", level: 2, score: 4100, questionsAnswered: 10, rank: 2, prize: 10.63 },
    ];
    const { ws } = await connect({ leaderboard: final });
    push(ws, { type: "status", status: "completed", show: { stage: "over", index: 9, total: 10, nextAt: null } });
    await settle();
    expect(screen.getByRole("heading", { name: "The show is over" })).toBeVisible();
    const standings = screen.getByRole("region", { name: "Final standings" });
    expect(
      within(standings)
        .getAllByRole("listitem")
        .map((li) => li.textContent),
    ).toEqual(["1ana5200", "2quiz_master(you)4100"]);
    expect(screen.getByRole("link", { name: "See the full results" })).toHaveAttribute("href", "/tournaments/9?tab=leaderboard");
  });
});
