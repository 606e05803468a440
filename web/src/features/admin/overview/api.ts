import { useQuery } from "@tanstack/react-query";
import { api, read } from "@/lib/api-client";

export const ADMIN_OVERVIEW_KEY = ["admin", "overview"] as const;

/** GET /api/admin/overview: money moves all day, so every visit refetches. */
export const useAdminOverview = () =>
  useQuery({ queryKey: ADMIN_OVERVIEW_KEY, queryFn: () => read(api.admin.overview.$get()), refetchOnMount: "always", retry: false });
