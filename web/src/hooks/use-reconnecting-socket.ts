import { useEffect, useRef, useState } from "react";
import { WS_MAX_RECONNECTS, WS_RECONNECT_MS } from "@common/spec";

/** Anything with zod's safeParse: frames are validated, never cast. */
interface FrameSchema<T> {
  safeParse(data: unknown): { success: true; data: T } | { success: false };
}

export interface SocketOptions<T> {
  /** Path on this host ("/ws"); null keeps the socket closed. */
  path: string | null;
  schema: FrameSchema<T>;
  onFrame(frame: T): void;
  /** A frame sent `helloDelayMs` after each open (the /ws auth message). */
  hello?: unknown;
  helloDelayMs?: number;
}

export interface SocketState {
  connected: boolean;
  error: string | null;
}

export const SOCKET_ERROR = "WebSocket connection error";
const OPEN = 1;

/** ws:// or wss:// (on a secure page) on the page's own host. */
export const socketUrl = (path: string) => `${window.location.protocol === "https:" ? "wss" : "ws"}://${window.location.host}${path}`;

/**
 * A WebSocket that reconnects after a close every WS_RECONNECT_MS, at most WS_MAX_RECONNECTS
 * times in a row (a successful open resets the count). Malformed frames are logged and ignored.
 */
export function useReconnectingSocket<T>({ path, schema, onFrame, hello, helloDelayMs = 0 }: SocketOptions<T>): SocketState {
  const [state, setState] = useState<SocketState>({ connected: false, error: null });
  const latest = useRef({ schema, onFrame, hello, helloDelayMs });
  latest.current = { schema, onFrame, hello, helloDelayMs };

  useEffect(() => {
    if (!path) return;
    let disposed = false;
    let socket: WebSocket | null = null;
    let attempts = 0;
    let reconnectTimer: ReturnType<typeof setTimeout> | undefined;
    let helloTimer: ReturnType<typeof setTimeout> | undefined;

    const connect = () => {
      const ws = new WebSocket(socketUrl(path));
      socket = ws;
      ws.onopen = () => {
        attempts = 0;
        setState({ connected: true, error: null });
        const { hello: frame, helloDelayMs: delay } = latest.current;
        if (frame !== undefined) {
          helloTimer = setTimeout(() => {
            if (ws.readyState === OPEN) ws.send(JSON.stringify(frame));
          }, delay);
        }
      };
      ws.onmessage = (event: MessageEvent) => {
        let data: unknown;
        try {
          data = JSON.parse(String(event.data));
        } catch {
          console.warn("Ignoring a malformed WebSocket message", event.data);
          return;
        }
        const frame = latest.current.schema.safeParse(data);
        if (!frame.success) {
          console.warn("Ignoring a malformed WebSocket message", event.data);
          return;
        }
        latest.current.onFrame(frame.data);
      };
      ws.onerror = () => setState({ connected: false, error: SOCKET_ERROR });
      ws.onclose = () => {
        clearTimeout(helloTimer);
        if (disposed) return;
        setState((s) => ({ ...s, connected: false }));
        if (attempts < WS_MAX_RECONNECTS) {
          attempts++;
          reconnectTimer = setTimeout(connect, WS_RECONNECT_MS);
        }
      };
    };

    connect();
    return () => {
      disposed = true;
      clearTimeout(reconnectTimer);
      clearTimeout(helloTimer);
      socket?.close();
      setState({ connected: false, error: null });
    };
  }, [path]);

  return state;
}
