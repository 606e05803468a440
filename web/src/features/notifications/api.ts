import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiRequest } from "@/lib/api";

export interface NotificationItem {
  id: number;
  message: string;
  data: { action?: string; tournamentId?: number; status?: string };
  read: boolean;
  createdAt: string;
}

export const NOTIFICATIONS_KEY = ["/api/notifications"] as const;

/** The signed-in user's stored notifications and the real unread count. */
export function useNotifications(enabled: boolean) {
  return useQuery<{ unread: number; items: NotificationItem[] }>({ queryKey: NOTIFICATIONS_KEY, enabled });
}

export function useMarkNotificationsRead() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (ids?: number[]) => apiRequest("POST", "/api/notifications/read", ids ? { ids } : {}),
    onSuccess: () => qc.invalidateQueries({ queryKey: NOTIFICATIONS_KEY }),
  });
}
