// A live show through a restart of the server (a deploy closes every socket at once): the play
// screen keeps reconnecting for the whole show, with backoff, and on reconnect shows what the
// room says now: the current question on its original clock, an answer locked before the drop.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { act, fireEvent, screen } from "@testing-library/react";
import type { AnswerLocked } from "@common/api/tournaments";
import { SOCKET_REPLY_TIMEOUT_MS, TIMER_TICK_MS, WS_MAX_RECONNECTS, WS_RECONNECT_MAX_MS } from "@common/spec";
import { fakeFetch } from "@/test/fake-fetch";
import { FakeWebSocket, fakeWebSockets } from "@/test/fake-websocket";
import { advance, detail, question, settle } from "@/test/play-fixtures";
import { renderPage } from "@/test/render-page";
import PlayPage from "./components/play-page";

const NOW = new Date("2026-03-01T12:00:00.000Z").getTime();
const iso = (msFromNow: number) => new Date(Date.now() + msFromNow).toISOString();

/** The server is being replaced: HTTP fails too. */
let down = false;
const unavailable = { status: 503, body: { code: "unavailable", message: "Service unavailable" } };

async function connect() {
  const api = fakeFetch({
    "GET /api/tournaments/9": () => ({ body: detail({ format: "live_show" }) }),
    "GET /api/tournaments/9/participants": () => ({ body: [] }),
    "GET /api/tournaments/9/leaderboard": () => ({ body: [] }),
    "POST /api/tournaments/9/next": () =>
      down ? unavailable : { status: 409, body: { code: "no_open_question", message: "No question is open" } },
    "POST /api/tournaments/9/answer": () => unavailable,
  });
  renderPage([{ path: "/tournaments/:id/play", element: <PlayPage /> }], { at: "/tournaments/9/play" });
  await settle();
  const ws = FakeWebSocket.latest();
  act(() => ws.open());
  await settle();
  return { api, ws };
}

const push = (ws: FakeWebSocket, frame: Record<string, unknown>) => act(() => ws.receive(frame));
const status = (stage: string, index: number, nextAt: string | null) => ({
  type: "status",
  status: "live",
  show: { stage, index, total: 10, nextAt },
});
const locked = (answer: string): AnswerLocked => ({
  locked: true,
  questionId: 100,
  answer,
  responseTime: 4000,
  revealAt: iso(32_000),
  receipt: {
    v: 1,
    tournamentId: 9,
    userId: 7,
    questionId: 100,
    answer,
    receivedAt: iso(4000),
    responseMs: 4000,
    points: null,
    signature: "0".repeat(64),
  },
});

/** Moves the clock until the page makes its next socket (within the capped wait). */
async function untilNextSocket() {
  const before = FakeWebSocket.instances.length;
  for (let waited = 0; FakeWebSocket.instances.length === before; waited += 100) {
    expect(waited).toBeLessThan(WS_RECONNECT_MAX_MS);
    await advance(100);
  }
  expect(FakeWebSocket.instances).toHaveLength(before + 1);
}

/** The server is down: the first `refusals` attempts are refused; returns the socket that opens. */
async function comeBack(refusals: number): Promise<FakeWebSocket> {
  for (let i = 0; i <= refusals; i++) {
    await untilNextSocket();
    if (i < refusals) act(() => FakeWebSocket.latest().drop());
  }
  down = false;
  const ws = FakeWebSocket.latest();
  act(() => ws.open());
  return ws;
}

beforeEach(() => {
  vi.useFakeTimers({ now: NOW });
  fakeWebSockets();
  down = false;
  // Short draws, so many attempts fit in one question's window; the bounds are reconnect-backoff.test.tsx's.
  vi.spyOn(Math, "random").mockReturnValue(0.1);
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe("live show: the server restarts mid-show", () => {
  it("keeps reconnecting past the ordinary attempts, then shows the open question on its original clock with the answer locked before the drop", async () => {
    const { api, ws } = await connect();
    push(ws, status("question", 0, iso(32_000)));
    push(ws, { type: "question", question: question(0) });
    await advance(4_000);
    fireEvent.click(screen.getByRole("button", { name: "Mercury" }));
    await settle();
    const [sent] = ws.sentOfType("answer");
    expect(sent).toMatchObject({ questionId: 100, answer: "Mercury" });
    // The deploy: the room stored the answer, but its reply never comes; the socket closes.
    down = true;
    act(() => ws.drop());
    await settle();
    expect(screen.getByText("Reconnecting...")).toBeVisible();

    // Down for longer than an ordinary socket keeps trying, and past the reply's timeout (the
    // answer went over HTTP meanwhile, and failed too): the play screen does not give up.
    const again = await comeBack(WS_MAX_RECONNECTS + 5);
    expect(Date.now() - NOW).toBeGreaterThan(4_000 + SOCKET_REPLY_TIMEOUT_MS);
    expect(api.calls("POST /api/tournaments/9/answer")).toHaveLength(1);
    const gone = Date.now() - NOW;
    expect(screen.queryByText("Live connection lost. Your answers are still sent.")).not.toBeInTheDocument();
    // What the room sends a (re)connecting socket: where the show is, and the open question with
    // the time left on its first clock and the answer it locked before the restart.
    push(again, status("question", 0, new Date(NOW + 32_000).toISOString()));
    push(again, {
      type: "question",
      question: question(0, { remainingMs: 30_000 - gone, deadline: new Date(NOW + 30_000).toISOString(), result: locked("Mercury") }),
    });
    await settle();
    expect(screen.queryByText("Reconnecting...")).not.toBeInTheDocument();
    expect(screen.getByTestId("live-question")).toHaveTextContent("Question text 1");
    expect(screen.getByTestId("answer-locked")).toHaveTextContent("Answer locked: Mercury");
    // The clock counts to the question's first deadline (redrawn each tick, so up to a tick behind).
    await advance(1_000);
    const shown = Number(/(\d+)s/.exec(screen.getByRole("timer").textContent ?? "")![1]);
    expect(shown).toBeGreaterThanOrEqual(Math.ceil((NOW + 30_000 - Date.now()) / 1000));
    expect(shown).toBeLessThanOrEqual(Math.ceil((NOW + 30_000 - Date.now() + TIMER_TICK_MS) / 1000));
    expect(shown).toBeLessThan(20);
    for (const name of ["Venus", "Mercury", "Mars", "Earth"]) expect(screen.getByRole("button", { name })).toBeDisabled();
    // The answer is not sent again: the one the room holds is the one shown.
    expect(again.sentOfType("answer")).toEqual([]);
  });

  it("shows the question that opened while it was away, with the time it has left", async () => {
    const { ws } = await connect();
    push(ws, status("reveal", 0, iso(5_000)));
    down = true;
    act(() => ws.drop());
    await settle();
    // Back after question 2 went out: the room says so at once.
    const again = await comeBack(3);
    push(again, status("question", 1, iso(25_000)));
    push(again, { type: "question", question: question(1, { remainingMs: 23_000 }) });
    await settle();
    expect(screen.getByTestId("live-question")).toHaveTextContent("Question text 2");
    expect(screen.getByRole("timer")).toHaveTextContent("23s");
    expect(screen.getByRole("button", { name: "Venus" })).toBeEnabled();
  });

  it("stops trying once the room has said the show is over", async () => {
    const { ws } = await connect();
    push(ws, { type: "status", status: "completed", show: { stage: "over", index: 9, total: 10, nextAt: null } });
    await settle();
    act(() => ws.drop());
    for (let i = 0; i < WS_MAX_RECONNECTS; i++) {
      await advance(WS_RECONNECT_MAX_MS);
      act(() => FakeWebSocket.latest().drop());
    }
    const sockets = FakeWebSocket.instances.length;
    await advance(10 * WS_RECONNECT_MAX_MS);
    expect(FakeWebSocket.instances).toHaveLength(sockets);
  });
});
