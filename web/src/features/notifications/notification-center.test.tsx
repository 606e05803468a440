import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { act, fireEvent, screen, within } from "@testing-library/react";
import { NOTIFY } from "@common/messages";
import { WS_RECONNECT_MAX_MS, WS_RECONNECT_MS } from "@common/spec";
import type { NotificationFrame } from "@common/api/tournaments";
import { NotificationBell } from "@/app/layout/notification-bell";
import { fakeFetch } from "@/test/fake-fetch";
import { FakeWebSocket, fakeWebSockets } from "@/test/fake-websocket";
import { renderPage } from "@/test/render-page";
import NotificationCenter from "./components/notification-center";

const advance = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms));

const frame = (message: string, status = "live", tournamentId = 3): NotificationFrame => ({
  type: "notification",
  message,
  data: { action: status === "live" ? "tournament_started" : "tournament_ended", tournamentId, status },
});

let unread = 0;
let api: ReturnType<typeof fakeFetch>;

async function mount() {
  const page = renderPage(
    [
      {
        path: "/",
        element: (
          <>
            <NotificationBell />
            <NotificationCenter user={{ id: 7 }} />
          </>
        ),
      },
    ],
    { at: "/" },
  );
  await advance(0);
  return page;
}

/** The socket the page opened most recently, opened by the "server". */
async function connect() {
  const ws = FakeWebSocket.latest();
  act(() => ws.open());
  await advance(0);
  return ws;
}

const receive = (ws: FakeWebSocket, f: unknown) => act(() => ws.receive(f));

beforeEach(() => {
  vi.useFakeTimers();
  fakeWebSockets();
  unread = 0;
  api = fakeFetch({ "GET /api/notifications": () => ({ body: { unread, items: [] } }) });
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe("real-time connection", () => {
  it("connects to /ws on this host and sends the auth message 100 ms after opening", async () => {
    await mount();
    const ws = FakeWebSocket.latest();
    expect(ws.url).toMatch(/^ws:\/\/[^/]+\/ws$/);
    act(() => ws.open());
    await advance(99);
    expect(ws.sent).toEqual([]);
    await advance(1);
    expect(ws.sent).toEqual([{ type: "auth", userId: 7 }]);
  });

  // The waits themselves (backoff and jitter): web/src/hooks/reconnect-backoff.test.tsx.
  it("reconnects within the first backoff ceiling after a close, at most 5 times in a row", async () => {
    await mount();
    await connect();
    // StrictMode mounts twice: count sockets from here.
    const base = FakeWebSocket.instances.length;
    act(() => FakeWebSocket.latest().drop());
    expect(FakeWebSocket.instances).toHaveLength(base);
    await advance(WS_RECONNECT_MS);
    expect(FakeWebSocket.instances).toHaveLength(base + 1);

    // Four more attempts that never open: five in all, then it gives up.
    for (let attempt = 2; attempt <= 5; attempt++) {
      act(() => FakeWebSocket.latest().drop());
      await advance(WS_RECONNECT_MAX_MS);
      expect(FakeWebSocket.instances).toHaveLength(base + attempt);
    }
    act(() => FakeWebSocket.latest().drop());
    await advance(60_000);
    expect(FakeWebSocket.instances).toHaveLength(base + 5);
  });

  it("starts counting again after a successful open", async () => {
    await mount();
    await connect();
    const base = FakeWebSocket.instances.length;
    for (let i = 0; i < 4; i++) {
      act(() => FakeWebSocket.latest().drop());
      await advance(WS_RECONNECT_MAX_MS);
    }
    expect(FakeWebSocket.instances).toHaveLength(base + 4);
    await connect();
    // Five fresh attempts are allowed again.
    for (let i = 0; i < 5; i++) {
      act(() => FakeWebSocket.latest().drop());
      await advance(WS_RECONNECT_MAX_MS);
    }
    expect(FakeWebSocket.instances).toHaveLength(base + 9);
    act(() => FakeWebSocket.latest().drop());
    await advance(60_000);
    expect(FakeWebSocket.instances).toHaveLength(base + 9);
  });

  it("ignores and logs malformed messages", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    await mount();
    const ws = await connect();
    receive(ws, "not json {");
    receive(ws, { type: "notification", message: 42 });
    expect(warn).toHaveBeenCalledTimes(2);
    expect(screen.queryByRole("status")).not.toBeInTheDocument();
    receive(ws, frame("History Sprint has started. Good luck!"));
    expect(screen.getByRole("status")).toHaveTextContent("History Sprint has started. Good luck!");
  });

  it("shows the card only while connected: an error hides it", async () => {
    await mount();
    const ws = await connect();
    receive(ws, frame("History Sprint has started. Good luck!"));
    expect(screen.getByText("History Sprint has started. Good luck!")).toBeVisible();
    act(() => ws.fail());
    expect(screen.queryByText("History Sprint has started. Good luck!")).not.toBeInTheDocument();
  });

  it("refreshes the unread count when a notification arrives", async () => {
    await mount();
    expect(screen.getByRole("button", { name: "Notifications (0 unread)" })).toBeInTheDocument();
    const ws = await connect();
    unread = 1;
    receive(ws, frame("History Sprint has started. Good luck!"));
    await advance(0);
    expect(api.calls("GET /api/notifications").length).toBeGreaterThanOrEqual(2);
    expect(screen.getByRole("button", { name: "Notifications (1 unread)" })).toBeInTheDocument();
  });
});

describe("notification queue", () => {
  it("shows one at a time, each for 10 s, the next 300 ms after", async () => {
    await mount();
    const ws = await connect();
    receive(ws, frame("First has started. Good luck!"));
    receive(ws, frame("Second has ended. Check the final leaderboard.", "completed"));
    expect(screen.getByText("First has started. Good luck!")).toBeVisible();
    expect(screen.queryByText(/Second/)).not.toBeInTheDocument();

    await advance(9_999);
    expect(screen.getByText("First has started. Good luck!")).toBeVisible();
    await advance(1);
    expect(screen.queryByText(/First/)).not.toBeInTheDocument();
    expect(screen.queryByText(/Second/)).not.toBeInTheDocument();
    await advance(299);
    expect(screen.queryByText(/Second/)).not.toBeInTheDocument();
    await advance(1);
    expect(screen.getByText("Second has ended. Check the final leaderboard.")).toBeVisible();
    await advance(10_000);
    expect(screen.queryByRole("status")).not.toBeInTheDocument();
  });

  it("closes at once with the close button; the next follows 300 ms later", async () => {
    await mount();
    const ws = await connect();
    receive(ws, frame("First has started. Good luck!"));
    receive(ws, frame("Second has started. Good luck!"));
    fireEvent.click(screen.getByRole("button", { name: "Dismiss notification" }));
    expect(screen.queryByText(/First/)).not.toBeInTheDocument();
    await advance(299);
    expect(screen.queryByText(/Second/)).not.toBeInTheDocument();
    await advance(1);
    expect(screen.getByText("Second has started. Good luck!")).toBeVisible();
  });

  it("shows a failed payout with its reason and a link to the transactions", async () => {
    await mount();
    const ws = await connect();
    const message = NOTIFY.payoutFailed("25.00", "Account closed");
    receive(ws, { type: "notification", message, data: { action: "payout_failed", tournamentId: null, status: "failed" } });
    const card = screen.getByRole("status");
    expect(card).toHaveTextContent(message);
    expect(within(card).getByRole("link", { name: "View transactions" })).toHaveAttribute("href", "/dashboard?tab=transactions");
  });

  it("shows status live as an upper-case destructive badge and others as outline badges", async () => {
    await mount();
    const ws = await connect();
    receive(ws, frame("Quiz Night has started. Good luck!", "live"));
    const live = screen.getByText("LIVE");
    expect(live).toHaveClass("bg-destructive-solid");
    fireEvent.click(screen.getByRole("button", { name: "Dismiss notification" }));
    receive(ws, frame("Quiz Night has ended. Check the final leaderboard.", "completed"));
    await advance(300);
    const done = screen.getByText("completed");
    expect(done).toHaveClass("border-border");
    expect(done).not.toHaveClass("bg-destructive-solid");
  });
});
