// The fair-play screen's calls: cheat attempts and flags (filtered), cheat-attempt reviews, held
// prizes to release or forfeit, frozen accounts.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, read } from "@/lib/api-client";

export interface FairPlayFilters {
  tournamentId: string;
  userId: string;
  review: "open" | "reviewed" | "all";
}

const FAIR_PLAY_KEY = ["admin", "fair-play"] as const;
const HELD_KEY = ["admin", "held-prizes"] as const;

export const useFairPlay = (f: FairPlayFilters) =>
  useQuery({
    queryKey: [...FAIR_PLAY_KEY, f],
    queryFn: () =>
      read(
        api.admin["fair-play"].$get({
          query: {
            review: f.review,
            ...(f.tournamentId ? { tournamentId: f.tournamentId } : {}),
            ...(f.userId ? { userId: f.userId } : {}),
          },
        }),
      ),
    placeholderData: keepPreviousData,
  });

export const useHeldPrizes = () =>
  useQuery({ queryKey: HELD_KEY, queryFn: () => read(api.admin["held-prizes"].$get({ query: { status: "held" } })) });

export const useFrozenAccounts = () =>
  useQuery({ queryKey: ["admin", "frozen-accounts"], queryFn: () => read(api.admin["frozen-accounts"].$get()) });

export function useReviewCheatAttempt() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, resolution }: { id: number; resolution: string }) =>
      read(api.admin["cheat-attempts"][":id"].review.$post({ param: { id: String(id) }, json: { resolution } })),
    onSettled: () => qc.invalidateQueries({ queryKey: FAIR_PLAY_KEY }),
  });
}

export function useReviewPrize() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (r: { id: number; outcome: "release" } | { id: number; outcome: "forfeit"; reason: string }) =>
      r.outcome === "release"
        ? read(api.admin["held-prizes"][":id"].release.$post({ param: { id: String(r.id) }, json: {} }))
        : read(api.admin["held-prizes"][":id"].forfeit.$post({ param: { id: String(r.id) }, json: { reason: r.reason } })),
    onSettled: () => {
      void qc.invalidateQueries({ queryKey: HELD_KEY });
      void qc.invalidateQueries({ queryKey: FAIR_PLAY_KEY });
    },
  });
}
