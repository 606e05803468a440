import { DurableObject } from "cloudflare:workers";
import { hubClientFrameSchema, type HubServerFrame, type NotificationFrame } from "../../common/api/tournaments";
import type { ApiErrorBody } from "../../common/api/errors";
import { USER_ID_HEADER } from "./hub-client";

interface HubAttachment {
  userId: number;
}

const userTag = (userId: number) => `user:${userId}`;

/**
 * Holds signed-in users' /ws sockets (hibernation API: the object may sleep while they stay
 * open) and delivers notifications to them. It never decides who a socket belongs to: the Worker
 * authenticated the session cookie and names the user in a header only it can set.
 */
export class NotificationHub extends DurableObject<Env> {
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
    const { 0: client, 1: server } = new WebSocketPair();
    this.ctx.acceptWebSocket(server, [userTag(userId)]);
    server.serializeAttachment({ userId } satisfies HubAttachment);
    return new Response(null, { status: 101, webSocket: client });
  }

  /** Sends the frame to every open socket of these users; returns how many sockets got it. */
  async deliver(userIds: number[], frame: NotificationFrame): Promise<number> {
    const text = JSON.stringify(frame satisfies HubServerFrame);
    let sent = 0;
    for (const userId of new Set(userIds)) {
      for (const ws of this.ctx.getWebSockets(userTag(userId))) {
        try {
          ws.send(text);
          sent++;
        } catch {
          // A socket that is closing cannot take it; the notification row is still stored.
        }
      }
    }
    return sent;
  }

  /** Closes every socket of this user (their session ended); returns how many were open. */
  async closeUser(userId: number, code: number, reason: string): Promise<number> {
    const sockets = this.ctx.getWebSockets(userTag(userId));
    for (const ws of sockets) closeQuietly(ws, code, reason);
    return sockets.length;
  }

  override async webSocketMessage(ws: WebSocket, message: string | ArrayBuffer): Promise<void> {
    const frame = hubClientFrameSchema.safeParse(parseJson(message));
    if (!frame.success) return; // Malformed messages are ignored: this socket has no error frame.
    switch (frame.data.type) {
      case "auth": {
        // Accepted for compatibility; it can only confirm the session's user, never choose one.
        const { userId } = ws.deserializeAttachment() as HubAttachment;
        if (Number(frame.data.userId) !== userId) ws.close(1008, "Socket belongs to another user");
        return;
      }
    }
  }

  override async webSocketClose(ws: WebSocket, code: number, reason: string): Promise<void> {
    closeQuietly(ws, code, reason);
  }
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
