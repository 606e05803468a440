// The public leaderboard: all time or this week, worldwide or one country.
import { queryOptions, useQuery } from "@tanstack/react-query";
import { api, read } from "@/lib/api-client";

export type LeaderboardPeriod = "week" | "all";

export const leaderboardKeys = {
  all: ["leaderboard"] as const,
  board: (period: LeaderboardPeriod, region: string | null) => ["leaderboard", period, region ?? "global"] as const,
};

export const leaderboardQuery = (period: LeaderboardPeriod, region: string | null) =>
  queryOptions({
    queryKey: leaderboardKeys.board(period, region),
    queryFn: () => read(api.leaderboard.$get({ query: region ? { period, region } : { period } })),
  });

export function useLeaderboard(period: LeaderboardPeriod, region: string | null, { enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...leaderboardQuery(period, region), enabled });
}
