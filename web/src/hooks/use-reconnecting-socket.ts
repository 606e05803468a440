import { useCallback, useEffect, useRef, useState } from "react";
import { useQueryClient, type QueryClient } from "@tanstack/react-query";
import { useNavigate } from "react-router";
import { reconnectDelayMs } from "@common/domain/reconnect";
import { SESSION_ENDED_CLOSE_CODE, WS_MAX_RECONNECTS } from "@common/spec";
import { USER_KEY, userQuery } from "@/lib/session";
import { signInFor } from "@/lib/return-to";
import { toast } from "@/lib/toast";

/** Anything with zod's safeParse: frames are validated, never cast. */
interface FrameSchema<T> {
  safeParse(data: unknown): { success: true; data: T } | { success: false };
}

export interface SocketOptions<T> {
  /** Path on this host ("/ws"); null keeps the socket closed. */
  path: string | null;
  schema: FrameSchema<T>;
  onFrame(frame: T): void;
  /** After each open, once `connected` is set (frames waiting for a reply are resent from here). */
  onOpen?(): void;
  /** When the socket stops trying: reconnects ran out, or the server closed it with a final code. */
  onLost?(): void;
  /** Close codes after which reconnecting would only fight the server (it replaced this socket). */
  finalCloseCodes?: readonly number[];
  /**
   * Never give up while this holds (a live show still running: missing it costs the player
   * questions); read at each close, so it can change while the socket is open.
   */
  keepTrying?: boolean;
  /** A frame sent `helloDelayMs` after each open (the /ws auth message). */
  hello?: unknown;
  helloDelayMs?: number;
}

export interface SocketState {
  connected: boolean;
  error: string | null;
  /** Closed, with another attempt scheduled or under way. */
  reconnecting: boolean;
  /** Closed for good until `reconnect()`: the attempts ran out or the server said not to come back. */
  lost: boolean;
}

export interface ReconnectingSocket extends SocketState {
  /** Sends a frame as JSON on the open socket; false when it is not open (nothing is queued). */
  send(frame: unknown): boolean;
  /** Starts over after the socket was lost. */
  reconnect(): void;
}

export const SOCKET_ERROR = "WebSocket connection error";
const OPEN = 1;
const IDLE: SocketState = { connected: false, error: null, reconnecting: false, lost: false };

/** Resolves once no mutation of this app is under way. */
function mutationsSettled(qc: QueryClient): Promise<void> {
  return new Promise((resolve) => {
    if (qc.isMutating() === 0) return resolve();
    const stop = qc.getMutationCache().subscribe(() => {
      if (qc.isMutating() > 0) return;
      stop();
      resolve();
    });
  });
}

/** ws:// or wss:// (on a secure page) on the page's own host. */
export const socketUrl = (path: string) => `${window.location.protocol === "https:" ? "wss" : "ws"}://${window.location.host}${path}`;

/**
 * A WebSocket that reconnects after a close, after a random wait below a ceiling that doubles with
 * each failed attempt (common/domain/reconnect.ts: a deploy closes every socket at once, and the
 * clients must come back spread out), at most WS_MAX_RECONNECTS times in a row unless
 * `keepTrying` holds. A successful open resets the count, and the ceiling with it. Malformed
 * frames are logged and ignored.
 * A close with SESSION_ENDED_CLOSE_CODE (the user's session ended somewhere) checks the session:
 * without one the app goes to the sign-in page; with one (this tab changed the password and got
 * a new token) the socket reconnects at once.
 */
export function useReconnectingSocket<T>({
  path,
  schema,
  onFrame,
  onOpen,
  onLost,
  finalCloseCodes,
  keepTrying = false,
  hello,
  helloDelayMs = 0,
}: SocketOptions<T>): ReconnectingSocket {
  const [state, setState] = useState<SocketState>(IDLE);
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const signedOut = useRef({ queryClient, navigate });
  signedOut.current = { queryClient, navigate };
  // Bumped by reconnect(): a new run of the effect, with a fresh count of attempts.
  const [run, setRun] = useState(0);
  const current = useRef<WebSocket | null>(null);
  const latest = useRef({ schema, onFrame, onOpen, onLost, finalCloseCodes, keepTrying, hello, helloDelayMs });
  latest.current = { schema, onFrame, onOpen, onLost, finalCloseCodes, keepTrying, hello, helloDelayMs };

  useEffect(() => {
    if (!path) return;
    let disposed = false;
    let attempts = 0;
    let reconnectTimer: ReturnType<typeof setTimeout> | undefined;
    let helloTimer: ReturnType<typeof setTimeout> | undefined;

    const connect = () => {
      const ws = new WebSocket(socketUrl(path));
      current.current = ws;
      ws.onopen = () => {
        attempts = 0;
        setState({ connected: true, error: null, reconnecting: false, lost: false });
        const { hello: frame, helloDelayMs: delay } = latest.current;
        if (frame !== undefined) {
          helloTimer = setTimeout(() => {
            if (ws.readyState === OPEN) ws.send(JSON.stringify(frame));
          }, delay);
        }
        latest.current.onOpen?.();
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
      ws.onerror = () => setState((s) => ({ ...s, connected: false, error: SOCKET_ERROR }));
      ws.onclose = (event: CloseEvent) => {
        clearTimeout(helloTimer);
        if (disposed) return;
        if (event.code === SESSION_ENDED_CLOSE_CODE) {
          setState((s) => ({ ...s, connected: false, reconnecting: true }));
          void sessionAfterClose().then((stillSignedIn) => {
            if (disposed) return;
            if (stillSignedIn) return connect();
            setState((s) => ({ ...s, reconnecting: false, lost: true }));
          });
          return;
        }
        const final = latest.current.finalCloseCodes?.includes(event.code) ?? false;
        if (!final && (latest.current.keepTrying || attempts < WS_MAX_RECONNECTS)) {
          const delay = reconnectDelayMs(attempts);
          attempts++;
          setState((s) => ({ ...s, connected: false, reconnecting: true }));
          reconnectTimer = setTimeout(connect, delay);
        } else {
          setState((s) => ({ ...s, connected: false, reconnecting: false, lost: true }));
          latest.current.onLost?.();
        }
      };
    };

    /**
     * True when this tab still has a session; otherwise signs the app out and goes to /auth.
     * The server closes the sockets before it answers the request that ended the session, so a
     * request of this tab still under way (its own logout, password change or deletion) is
     * waited for first: it brings the new cookie, or signs the app out itself.
     */
    const sessionAfterClose = async () => {
      const { queryClient: qc, navigate: go } = signedOut.current;
      await mutationsSettled(qc);
      if (qc.getQueryData(USER_KEY) === null) return false;
      const user = await qc.fetchQuery({ ...userQuery(), staleTime: 0 }).catch(() => undefined);
      // An unanswered check (offline) is not a sign-out: the ordinary reconnects take over.
      if (user !== null) return true;
      qc.setQueryData(USER_KEY, null);
      qc.removeQueries({ predicate: (q) => q.queryKey[0] !== USER_KEY[0] });
      toast.info("You have been signed out", "Please sign in again to continue.");
      go(signInFor(window.location.pathname + window.location.search), { replace: true });
      return false;
    };

    connect();
    return () => {
      disposed = true;
      clearTimeout(reconnectTimer);
      clearTimeout(helloTimer);
      current.current?.close();
      current.current = null;
      setState(IDLE);
    };
  }, [path, run]);

  const send = useCallback((frame: unknown) => {
    const ws = current.current;
    if (!ws || ws.readyState !== OPEN) return false;
    ws.send(JSON.stringify(frame));
    return true;
  }, []);
  const reconnect = useCallback(() => setRun((n) => n + 1), []);

  return { ...state, send, reconnect };
}
