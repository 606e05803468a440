import { DurableObject } from "cloudflare:workers";
import { hubClientFrameSchema, type HubServerFrame, type NotificationFrame } from "../../common/api/tournaments";
import type { ApiErrorBody } from "../../common/api/errors";
import { HUB_SOCKETS_PER_USER, SOCKET_REPLACED_CLOSE_CODE } from "../../common/spec";
import { USER_ID_HEADER } from "./hub-client";

interface HubAttachment {
  userId: number;
  /** When the socket opened (absent on sockets from before the cap): the oldest are closed first. */
  openedAt?: number;
}

/**
 * Holds signed-in users' /ws sockets (hibernation API: the object may sleep while they stay
 * open) and delivers notifications to them. It never decides who a socket belongs to: the Worker
 * authenticated the session cookie and names the user in a header only it can set.
 *
 * Which sockets belong to which user is kept in memory while the object is awake, so a
 * notification to thousands of users is one map lookup and one send per socket. After
 * hibernation the object starts again empty; the index is rebuilt from the sockets' attachments,
 * once, at the first call that needs it.
 */
export class NotificationHub extends DurableObject<Env> {
  #byUser: Map<number, Set<WebSocket>> | null = null;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.ctx.setWebSocketAutoResponse(new WebSocketRequestResponsePair("ping", "pong"));
  }

  override async fetch(request: Request): Promise<Response> {
    const userId = Number(request.headers.get(USER_ID_HEADER));
    if (request.headers.get("upgrade")?.toLowerCase() !== "websocket" || !Number.isSafeInteger(userId) || userId < 1) {
      return Response.json({ code: "invalid_request", message: "Expected an authenticated WebSocket upgrade" } satisfies ApiErrorBody, {
        status: 400,
      });
    }
    const index = this.#index();
    // One socket per tab, up to HUB_SOCKETS_PER_USER: the newest wins, as in the tournament rooms.
    const mine = [...(index.get(userId) ?? [])];
    for (const old of mine.slice(0, Math.max(0, mine.length - HUB_SOCKETS_PER_USER + 1))) {
      closeQuietly(old, SOCKET_REPLACED_CLOSE_CODE, "Opened in another window");
      this.#forget(userId, old);
    }
    const { 0: client, 1: server } = new WebSocketPair();
    this.ctx.acceptWebSocket(server);
    server.serializeAttachment({ userId, openedAt: Date.now() } satisfies HubAttachment);
    add(index, userId, server);
    return new Response(null, { status: 101, webSocket: client });
  }

  /** Sends the frame to every open socket of these users; returns how many sockets got it. */
  async deliver(userIds: number[], frame: NotificationFrame): Promise<number> {
    const index = this.#index();
    const text = JSON.stringify(frame satisfies HubServerFrame);
    let sent = 0;
    for (const userId of new Set(userIds)) {
      for (const ws of index.get(userId) ?? []) {
        try {
          ws.send(text);
          sent++;
        } catch {
          // A socket that is closing cannot take it (its close event follows); the row is stored.
        }
      }
    }
    return sent;
  }

  /** Closes every socket of this user (their session ended); returns how many were open. */
  async closeUser(userId: number, code: number, reason: string): Promise<number> {
    const sockets = [...(this.#index().get(userId) ?? [])];
    for (const ws of sockets) {
      closeQuietly(ws, code, reason);
      this.#forget(userId, ws);
    }
    return sockets.length;
  }

  override async webSocketMessage(ws: WebSocket, message: string | ArrayBuffer): Promise<void> {
    const frame = hubClientFrameSchema.safeParse(parseJson(message));
    if (!frame.success) return; // Malformed messages are ignored: this socket has no error frame.
    switch (frame.data.type) {
      case "auth": {
        // Accepted for compatibility; it can only confirm the session's user, never choose one.
        const { userId } = ws.deserializeAttachment() as HubAttachment;
        if (Number(frame.data.userId) !== userId) {
          ws.close(1008, "Socket belongs to another user");
          this.#forget(userId, ws);
        }
        return;
      }
    }
  }

  override async webSocketClose(ws: WebSocket, code: number, reason: string): Promise<void> {
    closeQuietly(ws, code, reason);
    this.#forgetSocket(ws);
  }

  override async webSocketError(ws: WebSocket): Promise<void> {
    this.#forgetSocket(ws);
  }

  /** The user-to-sockets index, built from the open sockets' attachments when the object (re)starts. */
  #index(): Map<number, Set<WebSocket>> {
    if (this.#byUser) return this.#byUser;
    const index = new Map<number, Set<WebSocket>>();
    const open = this.ctx.getWebSockets().flatMap((ws) => {
      const attachment = ws.deserializeAttachment() as HubAttachment | null;
      return attachment ? [{ ws, attachment }] : [];
    });
    // Oldest first in each user's set, which is the order the cap closes them in.
    open.sort((a, b) => (a.attachment.openedAt ?? 0) - (b.attachment.openedAt ?? 0));
    for (const { ws, attachment } of open) add(index, attachment.userId, ws);
    return (this.#byUser = index);
  }

  #forgetSocket(ws: WebSocket): void {
    // Without the index nothing is held in memory, so there is nothing to forget.
    if (!this.#byUser) return;
    const attachment = ws.deserializeAttachment() as HubAttachment | null;
    if (attachment) this.#forget(attachment.userId, ws);
  }

  #forget(userId: number, ws: WebSocket): void {
    const sockets = this.#byUser?.get(userId);
    if (!sockets) return;
    sockets.delete(ws);
    if (sockets.size === 0) this.#byUser!.delete(userId);
  }
}

function add(index: Map<number, Set<WebSocket>>, userId: number, ws: WebSocket): void {
  const sockets = index.get(userId);
  if (sockets) sockets.add(ws);
  else index.set(userId, new Set([ws]));
}

export function parseJson(message: string | ArrayBuffer): unknown {
  if (typeof message !== "string") return undefined;
  try {
    return JSON.parse(message);
  } catch {
    return undefined;
  }
}

/** Answers a close with a close; the socket may already be gone. */
export function closeQuietly(ws: WebSocket, code: number, reason: string): void {
  try {
    // 1005/1006 are reserved and cannot be sent back.
    ws.close(code === 1005 || code === 1006 ? 1000 : code, reason);
  } catch {
    // Already closed.
  }
}
