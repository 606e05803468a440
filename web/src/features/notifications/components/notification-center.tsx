import { useCallback } from "react";
import { Link } from "react-router";
import { useQueryClient } from "@tanstack/react-query";
import { Bell, X } from "lucide-react";
import { hubServerFrameSchema, type HubServerFrame } from "@common/api/tournaments";
import type { User } from "@common/api/types";
import { SOCKET_REPLACED_CLOSE_CODE, WS_AUTH_DELAY_MS } from "@common/spec";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { useReconnectingSocket } from "@/hooks/use-reconnecting-socket";
import { NOTIFICATIONS_KEY } from "../api";
import { notificationTarget } from "../target";
import { useNotificationQueue, type QueuedNotification } from "../use-notification-queue";

/**
 * The real-time connection for a signed-in user (/ws) and the card that shows what it delivers:
 * bottom-right, one at a time, only while connected.
 */
export default function NotificationCenter({ user }: { user: Pick<User, "id"> }) {
  const qc = useQueryClient();
  const queue = useNotificationQueue();
  const { enqueue } = queue;

  const onFrame = useCallback(
    (frame: HubServerFrame) => {
      switch (frame.type) {
        case "notification":
          enqueue(frame);
          void qc.invalidateQueries({ queryKey: NOTIFICATIONS_KEY });
          // Statuses, standings and (after a tournament ends) balances and XP have changed.
          void qc.invalidateQueries({ queryKey: ["tournaments"] });
          // The player's own figures (results, stats, ledger) and balance.
          void qc.invalidateQueries({ queryKey: ["me"] });
          void qc.invalidateQueries({ queryKey: ["session"] });
          return;
      }
    },
    [enqueue, qc],
  );

  const socket = useReconnectingSocket({
    path: "/ws",
    schema: hubServerFrameSchema,
    onFrame,
    hello: { type: "auth", userId: user.id },
    helloDelayMs: WS_AUTH_DELAY_MS,
    // The hub keeps a user's newest sockets: a tab whose socket was replaced does not fight back.
    finalCloseCodes: [SOCKET_REPLACED_CLOSE_CODE],
  });

  if (!socket.connected || !queue.current) return null;
  return <NotificationCard notification={queue.current} onClose={queue.dismiss} />;
}

export function NotificationCard({ notification, onClose }: { notification: QueuedNotification; onClose(): void }) {
  const { status } = notification.data;
  const target = notificationTarget(notification.data);
  return (
    <div
      role="status"
      aria-live="polite"
      className="fixed right-4 bottom-4 z-[60] w-[calc(100vw-2rem)] max-w-sm rounded-xl border border-border bg-card p-4 shadow-xl"
    >
      <div className="flex items-start gap-3">
        <Bell className="mt-0.5 h-5 w-5 shrink-0 text-primary" aria-hidden />
        <div className="min-w-0 flex-1">
          <p className="text-sm font-medium">{notification.message}</p>
          <div className="mt-2 flex items-center gap-3">
            {status === "live" ? <Badge variant="destructive">{status.toUpperCase()}</Badge> : <Badge variant="outline">{status}</Badge>}
            <Link to={target.to} className="text-xs text-primary hover:underline" onClick={onClose}>
              {target.label}
            </Link>
          </div>
        </div>
        <Button variant="ghost" size="icon" className="-mt-2 -mr-2 h-8 w-8" aria-label="Dismiss notification" onClick={onClose}>
          <X className="h-4 w-4" />
        </Button>
      </div>
    </div>
  );
}
