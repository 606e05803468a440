import { queryOptions, useQuery } from "@tanstack/react-query";
import { api, read } from "@/lib/api-client";

export const USER_TOURNAMENTS_KEY = ["me", "tournaments"] as const;
export const USER_STATS_KEY = ["me", "stats"] as const;

// Play, prizes and settlements change these away from this page: refetch on every visit.

/** The tournaments the user joined, with rank, score and prize once settled. */
export const userTournamentsQuery = () =>
  queryOptions({ queryKey: USER_TOURNAMENTS_KEY, queryFn: () => read(api.user.tournaments.$get()) });
export const useUserTournaments = () => useQuery({ ...userTournamentsQuery(), refetchOnMount: "always" });

/** Answers, response times, earnings, global rank and per-category accuracy. */
export const userStatsQuery = () => queryOptions({ queryKey: USER_STATS_KEY, queryFn: () => read(api.user.stats.$get()) });
export const useUserStats = () => useQuery({ ...userStatsQuery(), refetchOnMount: "always" });
