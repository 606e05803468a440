// Tournaments, categories and leaderboards: query keys, fetchers and hooks. Keys start with the
// GET path so the default query function (key joined by "/") fetches them; a prefix invalidates
// everything below it.
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { Category, Tournament, User } from "@common/api/types";
import type { GlobalLeaderboardEntry, JoinResult, LeaveResult, LeaderboardRow, ParticipantRow, TournamentDetail } from "@common/api/tournaments";
import { USER_KEY } from "@/features/auth/api";
import { apiRequest } from "@/lib/api";

export type PriceFilter = "free" | "paid" | "premium";
export type StatusFilter = "upcoming" | "live" | "completed";

/** The list's server-side filters; absent means "all". */
export interface TournamentFilters {
  /** Category slug. */
  category?: string;
  /** 1-4 exactly, 5 means 5 and above. */
  level?: number;
  price?: PriceFilter;
  status?: StatusFilter;
  /** Case-insensitive match on title or description. */
  search?: string;
}

const TOURNAMENTS = "/api/tournaments";

export const tournamentKeys = {
  all: [TOURNAMENTS] as const,
  lists: [TOURNAMENTS, "list"] as const,
  list: (filters: TournamentFilters) => [TOURNAMENTS, "list", filters] as const,
  detail: (id: number) => [TOURNAMENTS, id] as const,
  participants: (id: number) => [TOURNAMENTS, id, "participants"] as const,
  leaderboard: (id: number) => [TOURNAMENTS, id, "leaderboard"] as const,
  questions: (id: number) => [TOURNAMENTS, id, "questions"] as const,
};
export const CATEGORIES_KEY = ["/api/categories"] as const;
export const GLOBAL_LEADERBOARD_KEY = ["/api/leaderboard"] as const;

/** "/api/tournaments?status=live&price=free" with empty filters left out. */
export function tournamentsUrl(filters: TournamentFilters): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(filters)) {
    if (value !== undefined && value !== "") params.set(key, String(value));
  }
  const query = params.toString();
  return query ? `${TOURNAMENTS}?${query}` : TOURNAMENTS;
}

export const tournamentsQuery = (filters: TournamentFilters) =>
  queryOptions({
    queryKey: tournamentKeys.list(filters),
    queryFn: () => apiRequest<Tournament[]>("GET", tournamentsUrl(filters)),
    // Keep the previous results on screen while a changed filter loads.
    placeholderData: keepPreviousData,
  });

export const tournamentQuery = (id: number) => queryOptions<TournamentDetail>({ queryKey: tournamentKeys.detail(id) });

export function useTournaments(filters: TournamentFilters = {}) {
  return useQuery(tournamentsQuery(filters));
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

export function useGlobalLeaderboard() {
  return useQuery<GlobalLeaderboardEntry[]>({ queryKey: GLOBAL_LEADERBOARD_KEY });
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
