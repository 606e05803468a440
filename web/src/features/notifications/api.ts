import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { NotificationList, NotificationsReadInput } from "@common/api/tournaments";
import { apiRequest } from "@/lib/api";

export type { NotificationItem } from "@common/api/tournaments";

export const NOTIFICATIONS_KEY = ["/api/notifications"] as const;

/** The signed-in user's stored notifications and the real unread count. */
export function useNotifications(enabled: boolean) {
  return useQuery<NotificationList>({ queryKey: NOTIFICATIONS_KEY, enabled });
}

export function useMarkNotificationsRead() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (ids?: number[]) => apiRequest("POST", "/api/notifications/read", (ids ? { ids } : {}) satisfies NotificationsReadInput),
    onSuccess: () => qc.invalidateQueries({ queryKey: NOTIFICATIONS_KEY }),
  });
}
