import { useCallback, useEffect, useRef, useState } from "react";
import type { NotificationFrame } from "@common/api/tournaments";
import { NOTIFICATION_DISMISS_MS, NOTIFICATION_GAP_MS } from "@common/spec";

/** A notification waiting in the local queue for its card. */
export interface QueuedNotification {
  id: number;
  message: string;
  data: NotificationFrame["data"];
  read: boolean;
  timestamp: number;
}

/**
 * Incoming notifications wait in a queue; one shows at a time, for NOTIFICATION_DISMISS_MS or
 * until closed, and the next appears NOTIFICATION_GAP_MS after the previous one went away.
 */
export function useNotificationQueue() {
  const [queue, setQueue] = useState<QueuedNotification[]>([]);
  const [current, setCurrent] = useState<QueuedNotification | null>(null);
  const [resting, setResting] = useState(false);
  const nextId = useRef(1);

  const enqueue = useCallback((frame: Pick<NotificationFrame, "message" | "data">) => {
    const item = { id: nextId.current++, message: frame.message, data: frame.data, read: false, timestamp: Date.now() };
    setQueue((q) => [...q, item]);
  }, []);

  const dismiss = useCallback(() => {
    setCurrent(null);
    setResting(true);
  }, []);

  useEffect(() => {
    if (current || resting || queue.length === 0) return;
    setCurrent(queue[0]!);
    setQueue((q) => q.slice(1));
  }, [current, resting, queue]);

  useEffect(() => {
    if (!current) return;
    const timer = setTimeout(dismiss, NOTIFICATION_DISMISS_MS);
    return () => clearTimeout(timer);
  }, [current, dismiss]);

  useEffect(() => {
    if (!resting) return;
    const timer = setTimeout(() => setResting(false), NOTIFICATION_GAP_MS);
    return () => clearTimeout(timer);
  }, [resting]);

  return { current, pending: queue.length, enqueue, dismiss };
}
