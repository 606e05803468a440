import { describe, expect, it } from "vitest";
import { WS_RECONNECT_MAX_MS, WS_RECONNECT_MS } from "../spec";
import { reconnectCeilingMs, reconnectDelayMs } from "./reconnect";

describe("reconnect backoff", () => {
  it("doubles the ceiling per failed attempt, up to the cap", () => {
    expect([0, 1, 2, 3, 10, 2000].map(reconnectCeilingMs)).toEqual([
      WS_RECONNECT_MS,
      Math.min(WS_RECONNECT_MAX_MS, WS_RECONNECT_MS * 2),
      Math.min(WS_RECONNECT_MAX_MS, WS_RECONNECT_MS * 4),
      WS_RECONNECT_MAX_MS,
      WS_RECONNECT_MAX_MS,
      WS_RECONNECT_MAX_MS,
    ]);
  });

  it("waits a uniform share of the ceiling (full jitter), never the ceiling itself", () => {
    expect(reconnectDelayMs(0, () => 0)).toBe(0);
    expect(reconnectDelayMs(0, () => 0.5)).toBe(WS_RECONNECT_MS / 2);
    expect(reconnectDelayMs(0, () => 0.999999999)).toBe(WS_RECONNECT_MS - 1);
    expect(reconnectDelayMs(5, () => 0.5)).toBe(WS_RECONNECT_MAX_MS / 2);
  });

  it("spreads a thousand clients dropped at once over the whole first ceiling", () => {
    const delays = Array.from({ length: 1000 }, () => reconnectDelayMs(0));
    for (const d of delays) {
      expect(d).toBeGreaterThanOrEqual(0);
      expect(d).toBeLessThan(WS_RECONNECT_MS);
    }
    // No millisecond holds more than a handful, and every tenth of the window gets some.
    const perMs = new Map<number, number>();
    for (const d of delays) perMs.set(d, (perMs.get(d) ?? 0) + 1);
    expect(Math.max(...perMs.values())).toBeLessThan(10);
    const tenths = new Set(delays.map((d) => Math.floor((d / WS_RECONNECT_MS) * 10)));
    expect(tenths.size).toBe(10);
  });
});
