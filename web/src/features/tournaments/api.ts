// Tournaments: query keys (names, never URLs), queryOptions factories and hooks,
// all calling the Worker through its typed client.
import {
  infiniteQueryOptions,
  keepPreviousData,
  queryOptions,
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
} from "@tanstack/react-query";
import type { User } from "@common/api/types";
import type { TournamentListParams } from "@common/api/tournaments";
import { USER_KEY } from "@/lib/session";
import { api, idempotent, read } from "@/lib/api-client";

/** The list's server-side filters; absent means "all". */
export type TournamentFilters = Omit<TournamentListParams, "page">;

export const tournamentKeys = {
  all: ["tournaments"] as const,
  lists: ["tournaments", "list"] as const,
  /** One page of the list. */
  list: (params: TournamentListParams) => ["tournaments", "list", "page", params] as const,
  /** Every page loaded so far, for a list that grows with "Load more". */
  pages: (filters: TournamentFilters) => ["tournaments", "list", "pages", filters] as const,
  detail: (id: number) => ["tournaments", id] as const,
  participants: (id: number) => ["tournaments", id, "participants"] as const,
  leaderboard: (id: number) => ["tournaments", id, "leaderboard"] as const,
  questions: (id: number) => ["tournaments", id, "questions"] as const,
};

/** The list's query string: empty filters left out, numbers as text. */
const listQuery = (params: TournamentListParams) =>
  Object.fromEntries(
    Object.entries(params).flatMap(([key, value]) => (value === undefined || value === "" ? [] : [[key, String(value)]])),
  ) as Record<string, string>;

const fetchPage = (params: TournamentListParams) => read(api.tournaments.$get({ query: listQuery(params) }));
const param = (id: number) => ({ param: { id: String(id) } });

export const tournamentsQuery = (params: TournamentListParams) =>
  queryOptions({
    queryKey: tournamentKeys.list(params),
    queryFn: () => fetchPage(params),
    // Keep the previous results on screen while a changed filter loads.
    placeholderData: keepPreviousData,
  });

export const tournamentPagesQuery = (filters: TournamentFilters) =>
  infiniteQueryOptions({
    queryKey: tournamentKeys.pages(filters),
    queryFn: ({ pageParam }) => fetchPage({ ...filters, page: pageParam }),
    initialPageParam: 1,
    getNextPageParam: (last) => last.nextPage,
    placeholderData: keepPreviousData,
  });

export const tournamentQuery = (id: number) =>
  queryOptions({ queryKey: tournamentKeys.detail(id), queryFn: () => read(api.tournaments[":id"].$get(param(id))) });

export const participantsQuery = (id: number) =>
  queryOptions({ queryKey: tournamentKeys.participants(id), queryFn: () => read(api.tournaments[":id"].participants.$get(param(id))) });

export const leaderboardQuery = (id: number) =>
  queryOptions({ queryKey: tournamentKeys.leaderboard(id), queryFn: () => read(api.tournaments[":id"].leaderboard.$get(param(id))) });

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
  return useQuery({ ...participantsQuery(id), enabled });
}

/** A tournament's leaderboard; `pollMs` turns on polling (the play screen's fallback). */
export function useTournamentLeaderboard(id: number, { enabled = true, pollMs }: { enabled?: boolean; pollMs?: number | false } = {}) {
  return useQuery({
    ...leaderboardQuery(id),
    enabled,
    refetchInterval: pollMs ?? false,
    // Live figures: a revisit refetches instead of showing an old board.
    staleTime: 0,
  });
}

/**
 * Joins a tournament (with the bot check's token when it asked for one) under the attempt's
 * Idempotency-Key; refreshes the lists, that tournament and the caller's balance.
 */
export function useJoinTournament() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({
      id,
      turnstileToken,
      inviteCode,
      idempotencyKey,
    }: {
      id: number;
      turnstileToken?: string;
      /** A private tournament's invite code (docs/custom-tournaments.md). */
      inviteCode?: string;
      idempotencyKey: string;
    }) =>
      read(
        api.tournaments[":id"].join.$post(
          { ...param(id), json: { ...(turnstileToken ? { turnstileToken } : {}), ...(inviteCode ? { inviteCode } : {}) } },
          idempotent(idempotencyKey),
        ),
      ),
    onSuccess: (result, { id }) => {
      qc.setQueryData<User | null>(USER_KEY, (user) => (user ? { ...user, balance: result.balance } : user));
      return Promise.all([
        qc.invalidateQueries({ queryKey: tournamentKeys.lists }),
        qc.invalidateQueries({ queryKey: tournamentKeys.detail(id) }),
      ]);
    },
  });
}

/**
 * Leaves an upcoming tournament under the confirmation's Idempotency-Key: the fee comes back once;
 * refreshes the lists, that tournament and the caller's balance.
 */
export function useLeaveTournament() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, idempotencyKey }: { id: number; idempotencyKey: string }) =>
      read(api.tournaments[":id"].leave.$post({ ...param(id), json: {} }, idempotent(idempotencyKey))),
    onSuccess: (result, { id }) => {
      qc.setQueryData<User | null>(USER_KEY, (user) => (user ? { ...user, balance: result.balance } : user));
      return Promise.all([
        qc.invalidateQueries({ queryKey: tournamentKeys.lists }),
        qc.invalidateQueries({ queryKey: tournamentKeys.detail(id) }),
        qc.invalidateQueries({ queryKey: tournamentKeys.participants(id) }),
      ]);
    },
  });
}
