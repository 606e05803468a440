// Many WebSocket clients (Node's built-in WebSocket, undici) held by this process. Each socket
// hands its frames to one callback with the receive time on the shared monotonic clock.
import { now } from "./stats";

export interface SocketTarget {
  /** ws://127.0.0.1:port */
  base: string;
  /** The origin the Worker sees for that address (the socket's Origin header must equal it). */
  origin: string;
}

export interface OpenSockets {
  sockets: WebSocket[];
  failures: string[];
  /** Sockets that closed after opening (other than by closeAll). */
  closedEarly: number;
  openMs: number;
  closeAll(timeoutMs?: number): Promise<void>;
}

/**
 * Opens `count` sockets to `path`, the i-th with cookie `cookieFor(i)`, at most `inFlight`
 * handshakes at a time. `onFrame(i, data, at)` sees every text frame.
 */
export async function openSockets(
  /** One address for every socket, or each socket's own (the two-process sharded row: a shard's players go to its process). */
  target: SocketTarget | ((i: number) => SocketTarget),
  path: string,
  count: number,
  cookieFor: (i: number) => string,
  onFrame: (i: number, data: string, at: number) => void,
  opts: { inFlight?: number; deadlineMs?: number } = {},
): Promise<OpenSockets> {
  const sockets: WebSocket[] = new Array(count);
  const failures: string[] = [];
  let closing = false;
  let closedEarly = 0;
  let next = 0;
  const started = now();
  const deadline = started + (opts.deadlineMs ?? 120_000);

  const openOne = (i: number) =>
    new Promise<void>((resolve) => {
      let ws: WebSocket;
      try {
        const to = typeof target === "function" ? target(i) : target;
        ws = new WebSocket(`${to.base}${path}`, { headers: { cookie: cookieFor(i), origin: to.origin } } as any);
      } catch (e) {
        failures.push(String(e));
        return resolve();
      }
      sockets[i] = ws;
      let opened = false;
      const timer = setTimeout(() => {
        if (!opened) {
          failures.push(`socket ${i}: no open within 30 s`);
          ws.close();
          resolve();
        }
      }, 30_000);
      ws.addEventListener("open", () => {
        opened = true;
        clearTimeout(timer);
        resolve();
      });
      ws.addEventListener("message", (e) => {
        if (typeof e.data === "string") onFrame(i, e.data, now());
      });
      ws.addEventListener("error", () => {
        if (!opened) {
          clearTimeout(timer);
          failures.push(`socket ${i}: handshake failed`);
          resolve();
        }
      });
      ws.addEventListener("close", () => {
        if (opened && !closing) closedEarly++;
      });
    });

  const lanes = Array.from({ length: Math.min(opts.inFlight ?? 128, count) }, async () => {
    while (next < count && now() < deadline) await openOne(next++);
  });
  await Promise.all(lanes);
  if (next < count) failures.push(`stopped after ${next} of ${count} sockets: deadline`);

  return {
    sockets: sockets.filter(Boolean),
    failures,
    get closedEarly() {
      return closedEarly;
    },
    openMs: now() - started,
    async closeAll(timeoutMs = 20_000) {
      closing = true;
      const open = sockets.filter((ws) => ws && ws.readyState !== WebSocket.CLOSED);
      await Promise.race([
        Promise.all(
          open.map(
            (ws) =>
              new Promise<void>((resolve) => {
                ws.addEventListener("close", () => resolve());
                try {
                  ws.close(1000, "bench done");
                } catch {
                  resolve();
                }
              }),
          ),
        ),
        new Promise((r) => setTimeout(r, timeoutMs).unref()),
      ]);
    },
  };
}
