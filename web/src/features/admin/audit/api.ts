import { useInfiniteQuery } from "@tanstack/react-query";
import { api, read } from "@/lib/api-client";

export interface AuditFilterValues {
  action?: string;
  actor?: string;
  targetType?: string;
  targetId?: string;
  from?: string;
  to?: string;
}

/** GET /api/admin/audit, newest first; "Older entries" fetches the next page by cursor. */
export const useAuditLog = (filters: AuditFilterValues) =>
  useInfiniteQuery({
    queryKey: ["admin", "audit", filters],
    initialPageParam: undefined as number | undefined,
    queryFn: ({ pageParam }) =>
      read(api.admin.audit.$get({ query: { ...filters, ...(pageParam === undefined ? {} : { cursor: String(pageParam) }) } })),
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    refetchOnMount: "always",
    retry: false,
  });
