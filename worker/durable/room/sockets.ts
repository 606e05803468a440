// The tournament's sockets (hibernation API): who each one is, the newest few per player, the
// frame rate limit, and the ping/pong round trips the live show's latency allowance is made of.
import type { TournamentServerFrame } from "../../../common/api/tournaments";
import { latencyAllowance } from "../../../common/domain/live-show";
import {
  RTT_SAMPLES,
  SOCKET_FRAME_BURST,
  SOCKET_FRAMES_PER_SECOND,
  SOCKET_REPLACED_CLOSE_CODE,
  SOCKETS_PER_USER_PER_ROOM,
} from "../../../common/spec";
import { closeQuietly } from "../notification-hub";
import type { RoomCore } from "./core";

interface SocketAttachment {
  userId: number;
  openedAt: number;
  /** The latest measured round trips (ms), for the live show's latency allowance. */
  rtts: number[];
  /**
   * Pings sent on this socket and not answered yet: the nonce and when the room sent it. A round
   * trip is measured from the room's own send time, never from anything the client says, and
   * each nonce once. Kept here so that it survives hibernation.
   */
  pings: { nonce: string; at: number }[];
}

/** Unanswered pings kept per socket: a client that never answers keeps only its latest few. */
const PINGS_OUTSTANDING = 4;
/** A pong this long after its ping measures nothing (a stalled connection, not a round trip). */
const PONG_MAX_MS = 60_000;

export class RoomSockets {
  readonly #attachments = new WeakMap<WebSocket, SocketAttachment>();
  readonly #buckets = new WeakMap<WebSocket, { tokens: number; at: number }>();

  constructor(readonly core: RoomCore) {}

  /** Every socket of the room, or of one player. */
  all(userId?: number): WebSocket[] {
    return userId === undefined ? this.core.ctx.getWebSockets() : this.core.ctx.getWebSockets(`user:${userId}`);
  }

  /** A new socket of this player; a few sockets per user (a phone and a laptop, a reloading tab): the newest wins. */
  accept(userId: number, now: number): { client: WebSocket; server: WebSocket } {
    const mine = this.all(userId).sort((a, b) => this.attachment(a).openedAt - this.attachment(b).openedAt);
    for (const old of mine.slice(0, Math.max(0, mine.length - SOCKETS_PER_USER_PER_ROOM + 1))) {
      closeQuietly(old, SOCKET_REPLACED_CLOSE_CODE, "Opened in another window");
    }
    const { 0: client, 1: server } = new WebSocketPair();
    this.core.ctx.acceptWebSocket(server, [`user:${userId}`]);
    const attachment: SocketAttachment = { userId, openedAt: now, rtts: [], pings: [] };
    server.serializeAttachment(attachment);
    this.#attachments.set(server, attachment);
    return { client, server };
  }

  /** Closes every socket of this user in the room (their session ended); returns how many were open. */
  closeUser(userId: number, code: number, reason: string): number {
    const sockets = this.all(userId);
    for (const ws of sockets) closeQuietly(ws, code, reason);
    return sockets.length;
  }

  userOf(ws: WebSocket): number {
    return this.attachment(ws).userId;
  }

  attachment(ws: WebSocket): SocketAttachment {
    let a = this.#attachments.get(ws);
    if (!a) {
      // After hibernation the attachment is all that is left of the socket's state.
      const stored = ws.deserializeAttachment() as Partial<SocketAttachment> | null;
      a = { userId: stored?.userId ?? 0, openedAt: stored?.openedAt ?? 0, rtts: stored?.rtts ?? [], pings: stored?.pings ?? [] };
      this.#attachments.set(ws, a);
    }
    return a;
  }

  /** A token bucket per socket: SOCKET_FRAME_BURST at once, refilled at SOCKET_FRAMES_PER_SECOND. */
  allowFrame(ws: WebSocket): boolean {
    const now = Date.now();
    const bucket = this.#buckets.get(ws) ?? { tokens: SOCKET_FRAME_BURST, at: now };
    bucket.tokens = Math.min(SOCKET_FRAME_BURST, bucket.tokens + ((now - bucket.at) / 1000) * SOCKET_FRAMES_PER_SECOND);
    bucket.at = now;
    this.#buckets.set(ws, bucket);
    if (bucket.tokens < 1) return false;
    bucket.tokens -= 1;
    return true;
  }

  /** Sends a ping with a fresh nonce and notes, in the socket's attachment, when it went out. */
  ping(ws: WebSocket, now: number): void {
    const a = this.attachment(ws);
    const nonce = randomHex(16);
    a.pings = [...a.pings, { nonce, at: now }].slice(-PINGS_OUTSTANDING);
    ws.serializeAttachment(a);
    send(ws, { type: "ping", nonce });
  }

  /**
   * A pong: the round trip is from when this room sent the ping it names to when the pong
   * arrived. A nonce this socket was not sent, or already answered, measures nothing, so a client
   * can only make its round trip longer by answering late, which LATENCY_ALLOWANCE_MAX_MS bounds.
   */
  recordRoundTrip(ws: WebSocket, nonce: string, arrived: number): void {
    const a = this.attachment(ws);
    const ping = a.pings.find((p) => p.nonce === nonce);
    if (!ping) return;
    a.pings = a.pings.filter((p) => p !== ping);
    const rtt = arrived - ping.at;
    if (rtt >= 0 && rtt <= PONG_MAX_MS) a.rtts = [...a.rtts, rtt].slice(-RTT_SAMPLES);
    ws.serializeAttachment(a);
  }

  /** The player's latency allowance, from the round trips measured on their sockets. */
  allowanceFor(userId: number): number {
    return latencyAllowance(this.all(userId).flatMap((ws) => this.attachment(ws).rtts));
  }

  /** The same text to every socket of the room. */
  broadcastText(text: string): void {
    for (const ws of this.all()) sendText(ws, text);
  }
}

export function send(ws: WebSocket, frame: TournamentServerFrame): void {
  sendText(ws, JSON.stringify(frame));
}

export function sendText(ws: WebSocket, text: string): void {
  try {
    ws.send(text);
  } catch {
    // The socket is closing; the client resyncs when it reconnects.
  }
}

/** The id of a frame, when it has a usable one: echoed even in the refusal of a malformed frame. */
export function frameIdOf(raw: unknown): string | undefined {
  const id = (raw as { id?: unknown } | null)?.id;
  return typeof id === "string" && id.length > 0 && id.length <= 64 ? id : undefined;
}

/** `bytes` random bytes as hex. */
export const randomHex = (bytes: number) =>
  [...crypto.getRandomValues(new Uint8Array(bytes))].map((b) => b.toString(16).padStart(2, "0")).join("");
