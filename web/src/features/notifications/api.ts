import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, read } from "@/lib/api-client";

export type { NotificationItem } from "@common/api/tournaments";

export const NOTIFICATIONS_KEY = ["notifications"] as const;

export const notificationsQuery = () => queryOptions({ queryKey: NOTIFICATIONS_KEY, queryFn: () => read(api.notifications.$get()) });

/** The signed-in user's stored notifications and the real unread count. */
export function useNotifications(enabled: boolean) {
  return useQuery({ ...notificationsQuery(), enabled });
}

export function useMarkNotificationsRead() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (ids?: number[]) => read(api.notifications.read.$post({ json: ids ? { ids } : {} })),
    onSuccess: () => qc.invalidateQueries({ queryKey: NOTIFICATIONS_KEY }),
  });
}
