// Self-paced play over the tournament socket: the frames, a reply lost in a reconnect, the
// server's pings, and HTTP while the socket is closed.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { act, fireEvent, screen } from "@testing-library/react";
import type { PlayerQuestion } from "@common/api/tournaments";
import { SOCKET_REPLACED_CLOSE_CODE, SOCKET_REPLY_TIMEOUT_MS } from "@common/spec";
import { deferred, fakeFetch } from "@/test/fake-fetch";
import { FakeWebSocket, fakeWebSockets } from "@/test/fake-websocket";
import { advance, correct, detail, question, settle } from "@/test/play-fixtures";
import { renderPage } from "@/test/render-page";
import PlayPage from "./components/play-page";

const option = (name: string) => screen.getByRole("radio", { name: new RegExp(`^${name}\\b`) });
const submit = () => screen.getByRole("button", { name: "Submit Answer" });
/** Sockets the page has not closed. */
const liveSockets = () => FakeWebSocket.instances.filter((ws) => ws.readyState !== FakeWebSocket.CLOSED);

/**
 * The page with its socket open before play starts: the participants call (the last one before
 * the session asks for a question) waits until the test has opened the socket.
 */
async function openPlay() {
  const participants = deferred<{ body: unknown }>();
  const api = fakeFetch({
    "GET /api/tournaments/9": () => ({ body: detail() }),
    "GET /api/tournaments/9/participants": () => participants.promise,
    "GET /api/tournaments/9/leaderboard": () => ({ body: [] }),
    "POST /api/tournaments/9/next": () => ({ body: question(1) }),
    "POST /api/tournaments/9/answer": () => ({ body: correct }),
    "POST /api/tournaments/9/complete": () => ({ body: { finished: true, score: 1100, questionsAnswered: 10 } }),
  });
  const page = renderPage([{ path: "/tournaments/:id/play", element: <PlayPage /> }], { at: "/tournaments/9/play" });
  await settle();
  const ws = FakeWebSocket.latest();
  expect(ws.url).toMatch(/\/api\/tournaments\/9\/ws$/);
  act(() => ws.open());
  participants.resolve({ body: [{ userId: 7, username: "quiz_master", level: 2, hasCompleted: false }] });
  await settle();
  return { api, page, ws };
}

/** Answers every frame of `type` not answered yet, each with its own id. */
function reply(ws: FakeWebSocket, type: string, make: (frame: Record<string, unknown>) => Record<string, unknown>) {
  const answered = replied.get(ws) ?? new Set<unknown>();
  replied.set(ws, answered);
  const open = ws.sentOfType(type).filter((f) => !answered.has(f.id));
  for (const f of open) {
    answered.add(f.id);
    act(() => ws.receive({ ...make(f), id: f.id }));
  }
  return open.length;
}
const replied = new Map<FakeWebSocket, Set<unknown>>();
const questionReply = (q: PlayerQuestion) => () => ({ type: "question", question: q });

beforeEach(() => {
  vi.useFakeTimers();
  fakeWebSockets();
  replied.clear();
});
afterEach(() => vi.useRealTimers());

describe("self-paced play over the tournament socket", () => {
  it("asks, answers and completes with frames, not requests", async () => {
    const { api, page, ws } = await openPlay();
    expect(reply(ws, "next", questionReply(question(0)))).toBeGreaterThan(0);
    await settle();
    expect(screen.getByText("Question 1 of 10")).toBeVisible();

    fireEvent.click(option("Mercury"));
    fireEvent.click(submit());
    await settle();
    expect(ws.sentOfType("answer")).toEqual([{ type: "answer", id: expect.any(String), questionId: 100, answer: "Mercury" }]);
    reply(ws, "answer", () => ({ type: "result", result: correct }));
    await settle();
    expect(screen.getByText("Correct answer!")).toBeInTheDocument();
    expect(screen.getByLabelText("Correct answer")).toBeInTheDocument();

    await advance(2_000);
    expect(reply(ws, "next", questionReply(question(9)))).toBe(1);
    await settle();
    expect(screen.getByText("Question 10 of 10")).toBeVisible();
    fireEvent.click(option("Mercury"));
    fireEvent.click(submit());
    await settle();
    reply(ws, "answer", () => ({ type: "result", result: correct }));
    await advance(2_000);
    expect(reply(ws, "complete", () => ({ type: "completed", finished: true, score: 2200, questionsAnswered: 10 }))).toBe(1);
    await settle();
    expect(page.location()).toBe("/dashboard?tab=tournaments");

    for (const route of ["POST /api/tournaments/9/next", "POST /api/tournaments/9/answer", "POST /api/tournaments/9/complete"]) {
      expect(api.calls(route)).toHaveLength(0);
    }
  });

  it("asks for the next question when it shows it, after the pause, so that its 30 seconds start then", async () => {
    const { ws } = await openPlay();
    reply(ws, "next", questionReply(question(0)));
    await settle();
    fireEvent.click(option("Mercury"));
    fireEvent.click(submit());
    await settle();
    // Not `next: true`: a question carried in the answer's reply would spend the pause (and a
    // report being written) on its own clock (docs/decisions/004-tournament-room.md).
    expect(ws.sentOfType("answer")[0]).not.toHaveProperty("next");
    reply(ws, "answer", () => ({ type: "result", result: correct }));
    await settle();
    const asked = ws.sentOfType("next").length;
    await advance(1_900);
    expect(ws.sentOfType("next")).toHaveLength(asked);
    await advance(100);
    expect(ws.sentOfType("next")).toHaveLength(asked + 1);
    reply(ws, "next", questionReply(question(1)));
    await settle();
    expect(screen.getByText("Question 2 of 10")).toBeVisible();
    expect(screen.getByRole("timer")).toHaveAccessibleName("30 seconds left");
  });

  it("shows the server's refusal of a frame like that of a request", async () => {
    const { ws } = await openPlay();
    reply(ws, "next", questionReply(question(0)));
    await settle();
    fireEvent.click(option("Mercury"));
    fireEvent.click(submit());
    await settle();
    reply(ws, "answer", () => ({ type: "error", status: 429, code: "rate_limited", message: "Too many messages: slow down" }));
    await settle();
    expect(screen.getByText("Failed to submit answer")).toBeInTheDocument();
    expect(screen.getByText("Too many messages: slow down")).toBeInTheDocument();
    expect(submit()).toBeEnabled();
  });

  it("resends a frame whose reply was lost in a reconnect, with the same id", async () => {
    const { api, ws } = await openPlay();
    reply(ws, "next", questionReply(question(0)));
    await settle();
    fireEvent.click(option("Mercury"));
    fireEvent.click(submit());
    await settle();
    const [sent] = ws.sentOfType("answer");
    expect(sent).toMatchObject({ type: "answer", questionId: 100, answer: "Mercury" });

    act(() => ws.drop());
    expect(screen.getByText("Reconnecting...")).toBeVisible();
    expect(screen.getByRole("button", { name: "Submitting..." })).toBeDisabled();
    await advance(3_000);
    const again = FakeWebSocket.latest();
    expect(again).not.toBe(ws);
    act(() => again.open());
    expect(screen.queryByText("Reconnecting...")).not.toBeInTheDocument();
    expect(again.sentOfType("answer")).toEqual([sent]);

    reply(again, "answer", () => ({ type: "result", result: correct }));
    await settle();
    expect(screen.getByText("Correct answer!")).toBeInTheDocument();
    expect(api.calls("POST /api/tournaments/9/answer")).toHaveLength(0);
  });

  it("goes over HTTP when a frame gets no reply on a socket that looks open", async () => {
    const { api, ws } = await openPlay();
    reply(ws, "next", questionReply(question(0)));
    await settle();
    fireEvent.click(option("Mercury"));
    fireEvent.click(submit());
    await settle();
    expect(ws.sentOfType("answer")).toHaveLength(1);
    await advance(SOCKET_REPLY_TIMEOUT_MS - 100);
    expect(api.calls("POST /api/tournaments/9/answer")).toHaveLength(0);
    await advance(200);
    await settle();
    expect(api.calls("POST /api/tournaments/9/answer")).toHaveLength(1);
    expect(screen.getByText("Correct answer!")).toBeInTheDocument();
    // A reply arriving after all changes nothing.
    reply(ws, "answer", () => ({ type: "result", result: correct }));
    await settle();
    expect(screen.getByText("Correct answer!")).toBeInTheDocument();
  });

  it("answers the server's ping at once with its nonce", async () => {
    const { ws } = await openPlay();
    act(() => ws.receive({ type: "ping", nonce: "5f0c2a9e41d3b876" }));
    expect(ws.sentOfType("pong")).toEqual([{ type: "pong", nonce: "5f0c2a9e41d3b876" }]);
  });

  it("plays over HTTP while the socket is closed, and says it is reconnecting", async () => {
    const { api, ws } = await openPlay();
    reply(ws, "next", questionReply(question(0)));
    await settle();
    act(() => ws.drop());
    expect(screen.getByText("Reconnecting...")).toBeVisible();

    fireEvent.click(option("Mercury"));
    fireEvent.click(submit());
    await settle();
    expect(api.calls("POST /api/tournaments/9/answer").map((r) => r.body)).toEqual([{ questionId: 100, answer: "Mercury" }]);
    expect(screen.getByText("Correct answer!")).toBeInTheDocument();

    // The reconnect is under way (not open yet): the next question comes over HTTP too.
    await advance(2_000);
    await settle();
    expect(api.calls("POST /api/tournaments/9/next")).toHaveLength(1);
    expect(screen.getByText("Question 2 of 10")).toBeVisible();
    expect(screen.getByText("Reconnecting...")).toBeVisible();
    for (const socket of FakeWebSocket.instances) expect(socket.sentOfType("answer")).toEqual([]);
  });

  it("does not fight another tab for the place (close 4001): HTTP from then on, and a way to reconnect", async () => {
    const { api, ws } = await openPlay();
    reply(ws, "next", questionReply(question(0)));
    await settle();
    const before = FakeWebSocket.instances.length;
    act(() => ws.drop(SOCKET_REPLACED_CLOSE_CODE));
    await advance(10_000);
    expect(FakeWebSocket.instances).toHaveLength(before);
    expect(screen.getByText("Live connection lost. Your answers are still sent.")).toBeVisible();

    fireEvent.click(option("Mercury"));
    fireEvent.click(submit());
    await settle();
    expect(api.calls("POST /api/tournaments/9/answer")).toHaveLength(1);

    fireEvent.click(screen.getByRole("button", { name: "Reconnect" }));
    expect(FakeWebSocket.instances).toHaveLength(before + 1);
  });

  it("shares one socket between play and the leaderboard panel", async () => {
    const { ws } = await openPlay();
    expect(reply(ws, "next", questionReply(question(0)))).toBeGreaterThan(0);
    await settle();
    fireEvent.click(screen.getByRole("button", { name: "Show Leaderboard" }));
    act(() =>
      ws.receive({
        type: "leaderboard",
        top: [{ userId: 7, username: "quiz_master", level: 2, score: 1100, questionsAnswered: 1, rank: 1, prize: 0 }],
        me: { rank: 1, score: 1100 },
        version: 2,
      }),
    );
    expect(screen.getByRole("listitem")).toHaveTextContent("quiz_master");
    expect(liveSockets()).toEqual([ws]);
  });
});
