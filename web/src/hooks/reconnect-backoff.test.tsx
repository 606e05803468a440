// Reconnecting after a drop: a random wait below a ceiling that doubles per failed attempt (a
// deploy drops every client at once; they must not all come back in the same millisecond), the
// ceiling back to the first after a good connection, and a socket told to keep trying (a live
// show) never gives up.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { act, screen } from "@testing-library/react";
import { WS_MAX_RECONNECTS, WS_RECONNECT_MAX_MS, WS_RECONNECT_MS } from "@common/spec";
import { FakeWebSocket, fakeWebSockets } from "@/test/fake-websocket";
import { renderPage } from "@/test/render-page";
import { useReconnectingSocket } from "./use-reconnecting-socket";

const advance = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms));
const anything = { safeParse: (data: unknown) => ({ success: true as const, data }) };

function Probe({ keepTrying = false }: { keepTrying?: boolean }) {
  const s = useReconnectingSocket({ path: "/ws", schema: anything, onFrame: () => undefined, keepTrying });
  return <p data-testid="probe">{s.connected ? "connected" : s.reconnecting ? "reconnecting" : s.lost ? "lost" : "idle"}</p>;
}

async function mount(keepTrying = false) {
  renderPage([{ path: "/here", element: <Probe keepTrying={keepTrying} /> }], { at: "/here" });
  await advance(0);
  const ws = FakeWebSocket.latest();
  act(() => ws.open());
  return ws;
}

/** The page creates its next socket exactly `ms` from now: not a millisecond sooner. */
async function nextSocketAt(ms: number) {
  const before = FakeWebSocket.instances.length;
  if (ms > 0) await advance(ms - 1);
  expect(FakeWebSocket.instances, `no socket before ${ms} ms`).toHaveLength(before);
  await advance(ms > 0 ? 1 : 0);
  expect(FakeWebSocket.instances, `a socket at ${ms} ms`).toHaveLength(before + 1);
}

/** The page creates its next socket within `ms` from now. */
async function nextSocketWithin(ms: number) {
  const before = FakeWebSocket.instances.length;
  await advance(ms);
  expect(FakeWebSocket.instances).toHaveLength(before + 1);
}

/** A reconnect attempt the server refuses (it is still starting): closed before it opened. */
const refuse = () => act(() => FakeWebSocket.latest().drop());
const state = () => screen.getByTestId("probe").textContent;

beforeEach(() => {
  vi.useFakeTimers();
  fakeWebSockets();
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe("reconnect backoff", () => {
  it("waits up to a ceiling that doubles per failed attempt, up to the cap", async () => {
    // The longest wait each time: the ceiling itself (less a millisecond).
    vi.spyOn(Math, "random").mockReturnValue(0.9999999);
    const ws = await mount();
    act(() => ws.drop());
    expect(state()).toBe("reconnecting");
    await nextSocketAt(WS_RECONNECT_MS - 1);
    refuse();
    await nextSocketAt(2 * WS_RECONNECT_MS - 1);
    refuse();
    await nextSocketAt(Math.min(4 * WS_RECONNECT_MS, WS_RECONNECT_MAX_MS) - 1);
    refuse();
    await nextSocketAt(WS_RECONNECT_MAX_MS - 1);
  });

  it("draws each wait at random below its ceiling (full jitter)", async () => {
    const ws = await mount();
    // Drawn from here on only by the reconnects (the router draws its keys while mounting).
    const draws = [0.1, 0.7, 0.25, 0];
    vi.spyOn(Math, "random").mockImplementation(() => draws.shift() ?? 0.5);
    act(() => ws.drop());
    await nextSocketAt(Math.floor(0.1 * WS_RECONNECT_MS));
    refuse();
    await nextSocketAt(Math.floor(0.7 * 2 * WS_RECONNECT_MS));
    refuse();
    await nextSocketAt(Math.floor(0.25 * Math.min(4 * WS_RECONNECT_MS, WS_RECONNECT_MAX_MS)));
    refuse();
    await nextSocketWithin(1);
  });

  it("starts again from the first ceiling after a good connection", async () => {
    vi.spyOn(Math, "random").mockReturnValue(0.9999999);
    const ws = await mount();
    act(() => ws.drop());
    await nextSocketWithin(WS_RECONNECT_MS);
    refuse();
    await nextSocketWithin(2 * WS_RECONNECT_MS);
    refuse();
    await nextSocketWithin(WS_RECONNECT_MAX_MS);
    // This one opens: the show is back.
    act(() => FakeWebSocket.latest().open());
    expect(state()).toBe("connected");
    act(() => FakeWebSocket.latest().drop());
    await nextSocketAt(WS_RECONNECT_MS - 1);
  });

  it("gives an ordinary socket up after its attempts run out", async () => {
    const ws = await mount();
    act(() => ws.drop());
    for (let i = 0; i < WS_MAX_RECONNECTS; i++) {
      await nextSocketWithin(WS_RECONNECT_MAX_MS);
      refuse();
    }
    expect(state()).toBe("lost");
    const sockets = FakeWebSocket.instances.length;
    await advance(10 * WS_RECONNECT_MAX_MS);
    expect(FakeWebSocket.instances).toHaveLength(sockets);
  });

  it("keeps trying, at most a capped wait apart, while told to (a live show still running)", async () => {
    const ws = await mount(true);
    act(() => ws.drop());
    for (let i = 0; i < 4 * WS_MAX_RECONNECTS; i++) {
      await nextSocketWithin(WS_RECONNECT_MAX_MS);
      refuse();
      expect(state()).toBe("reconnecting");
    }
    await nextSocketWithin(WS_RECONNECT_MAX_MS);
    act(() => FakeWebSocket.latest().open());
    expect(state()).toBe("connected");
  });
});
