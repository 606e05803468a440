// When a closed WebSocket tries again: exponential backoff with full jitter. A deploy closes
// every socket of every room at the same moment; a fixed delay would bring thousands of clients
// back in the same millisecond, again and again while the new version starts. A uniform random
// wait below a ceiling that doubles per failed attempt spreads them over the whole ceiling.
// Pure, so the web hook and its tests share it.
import { WS_RECONNECT_MAX_MS, WS_RECONNECT_MS } from "../spec";

/** The longest wait before reconnect attempt `attempt` (0 for the first after a good connection). */
export function reconnectCeilingMs(attempt: number): number {
  // 2 ** attempt overflows to Infinity long after the cap: min() still holds.
  return Math.min(WS_RECONNECT_MAX_MS, WS_RECONNECT_MS * 2 ** Math.max(0, attempt));
}

/** The wait before attempt `attempt`: uniform in [0, ceiling). `random` is Math.random in the app. */
export function reconnectDelayMs(attempt: number, random: () => number = Math.random): number {
  const r = Math.min(Math.max(random(), 0), 1);
  return Math.min(Math.floor(r * reconnectCeilingMs(attempt)), reconnectCeilingMs(attempt) - 1);
}
