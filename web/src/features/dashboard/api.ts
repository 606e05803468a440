import { useQuery } from "@tanstack/react-query";
import type { UserStats, UserTournamentEntry } from "@common/api/tournaments";

export const USER_TOURNAMENTS_KEY = ["/api/user/tournaments"] as const;
export const USER_STATS_KEY = ["/api/user/stats"] as const;

// Play, prizes and settlements change these away from this page: refetch on every visit.

/** The tournaments the user joined, with rank, score and prize once settled. */
export const useUserTournaments = () => useQuery<UserTournamentEntry[]>({ queryKey: USER_TOURNAMENTS_KEY, refetchOnMount: "always" });

/** Answers, response times, earnings, global rank and per-category accuracy. */
export const useUserStats = () => useQuery<UserStats>({ queryKey: USER_STATS_KEY, refetchOnMount: "always" });
