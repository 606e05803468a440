// Featured events (docs/featured-events.md): the coming ones, and "Remind me" on one of them.
import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { ReminderState } from "@common/api/featured";
import { api, read } from "@/lib/api-client";
import { tournamentKeys } from "./api";

export const featuredKey = ["tournaments", "featured"] as const;

export const featuredQuery = () => queryOptions({ queryKey: featuredKey, queryFn: () => read(api.tournaments.featured.$get()) });

export function useFeaturedEvents() {
  return useQuery(featuredQuery());
}

/** Sets or removes the caller's reminder; both can be repeated with the same result. */
export function useReminder() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, on }: { id: number; on: boolean }): Promise<ReminderState> => {
      const param = { param: { id: String(id) } };
      return on
        ? read(api.tournaments[":id"].reminder.$post({ ...param, json: {} }))
        : read(api.tournaments[":id"].reminder.$delete(param));
    },
    onSuccess: (_, { id }) =>
      Promise.all([qc.invalidateQueries({ queryKey: featuredKey }), qc.invalidateQueries({ queryKey: tournamentKeys.detail(id) })]),
  });
}
