// Tournaments, categories and leaderboards: query keys, fetchers and hooks. Keys start with the
// GET path so the default query function (key joined by "/") fetches them; a prefix invalidates
// everything below it.
import { infiniteQueryOptions, keepPreviousData, queryOptions, useInfiniteQuery, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { Category, User } from "@common/api/types";
import type { JoinResult, LeaveResult, LeaderboardRow, ParticipantRow, TournamentDetail, TournamentListParams, TournamentPage } from "@common/api/tournaments";
import { USER_KEY } from "@/features/auth/api";
import { apiRequest } from "@/lib/api";

/** The list's server-side filters; absent means "all". */
export type TournamentFilters = Omit<TournamentListParams, "page">;

const TOURNAMENTS = "/api/tournaments";

export const tournamentKeys = {
  all: [TOURNAMENTS] as const,
  lists: [TOURNAMENTS, "list"] as const,
  /** One page of the list. */
  list: (params: TournamentListParams) => [TOURNAMENTS, "list", "page", params] as const,
  /** Every page loaded so far, for a list that grows with "Load more". */
  pages: (filters: TournamentFilters) => [TOURNAMENTS, "list", "pages", filters] as const,
  detail: (id: number) => [TOURNAMENTS, id] as const,
  participants: (id: number) => [TOURNAMENTS, id, "participants"] as const,
  leaderboard: (id: number) => [TOURNAMENTS, id, "leaderboard"] as const,
  questions: (id: number) => [TOURNAMENTS, id, "questions"] as const,
};
export const CATEGORIES_KEY = ["/api/categories"] as const;

/** "/api/tournaments?status=live&price=free" with empty filters left out. */
export function tournamentsUrl(params: TournamentListParams): string {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined && value !== "") query.set(key, String(value));
  }
  const text = query.toString();
  return text ? `${TOURNAMENTS}?${text}` : TOURNAMENTS;
}

export const tournamentsQuery = (params: TournamentListParams) =>
  queryOptions({
    queryKey: tournamentKeys.list(params),
    queryFn: () => apiRequest<TournamentPage>("GET", tournamentsUrl(params)),
    // Keep the previous results on screen while a changed filter loads.
    placeholderData: keepPreviousData,
  });

export const tournamentPagesQuery = (filters: TournamentFilters) =>
  infiniteQueryOptions({
    queryKey: tournamentKeys.pages(filters),
    queryFn: ({ pageParam }) => apiRequest<TournamentPage>("GET", tournamentsUrl({ ...filters, page: pageParam })),
    initialPageParam: 1,
    getNextPageParam: (last) => last.nextPage,
    placeholderData: keepPreviousData,
  });

export const tournamentQuery = (id: number) => queryOptions<TournamentDetail>({ queryKey: tournamentKeys.detail(id) });

/** One page of the list (the first, unless `params.page` says otherwise). */
export function useTournaments(params: TournamentListParams = {}) {
  return useQuery(tournamentsQuery(params));
}

/** The list page by page: `fetchNextPage` adds the next one. */
export function useTournamentPages(filters: TournamentFilters) {
  return useInfiniteQuery(tournamentPagesQuery(filters));
}

export function useTournament(id: number, { enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...tournamentQuery(id), enabled: enabled && Number.isInteger(id) && id > 0 });
}

export function useParticipants(id: number, { enabled = true }: { enabled?: boolean } = {}) {
  return useQuery<ParticipantRow[]>({ queryKey: tournamentKeys.participants(id), enabled });
}

/** A tournament's leaderboard; `pollMs` turns on polling (the play screen's fallback). */
export function useTournamentLeaderboard(id: number, { enabled = true, pollMs }: { enabled?: boolean; pollMs?: number | false } = {}) {
  return useQuery<LeaderboardRow[]>({
    queryKey: tournamentKeys.leaderboard(id),
    enabled,
    refetchInterval: pollMs ?? false,
    // Live figures: a revisit refetches instead of showing an old board.
    staleTime: 0,
  });
}

export function useCategories() {
  return useQuery<Category[]>({ queryKey: CATEGORIES_KEY });
}


/** Joins a tournament; refreshes the lists, that tournament and the caller's balance. */
export function useJoinTournament() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => apiRequest<JoinResult>("POST", `${TOURNAMENTS}/${id}/join`),
    onSuccess: (result, id) => {
      qc.setQueryData<User | null>(USER_KEY, (user) => (user ? { ...user, balance: result.balance } : user));
      return Promise.all([
        qc.invalidateQueries({ queryKey: tournamentKeys.lists }),
        qc.invalidateQueries({ queryKey: tournamentKeys.detail(id) }),
      ]);
    },
  });
}

/** Leaves an upcoming tournament: the fee comes back; refreshes the lists, that tournament and the caller's balance. */
export function useLeaveTournament() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => apiRequest<LeaveResult>("POST", `${TOURNAMENTS}/${id}/leave`),
    onSuccess: (result, id) => {
      qc.setQueryData<User | null>(USER_KEY, (user) => (user ? { ...user, balance: result.balance } : user));
      return Promise.all([
        qc.invalidateQueries({ queryKey: tournamentKeys.lists }),
        qc.invalidateQueries({ queryKey: tournamentKeys.detail(id) }),
        qc.invalidateQueries({ queryKey: tournamentKeys.participants(id) }),
      ]);
    },
  });
}
