// The public leaderboard: all time or this week, worldwide or one country.
import { queryOptions, useQuery } from "@tanstack/react-query";
import type { GlobalLeaderboardEntry } from "@common/api/tournaments";
import { apiRequest } from "@/lib/api";

export type LeaderboardPeriod = "week" | "all";

export const leaderboardKeys = {
  all: ["leaderboard"] as const,
  board: (period: LeaderboardPeriod, region: string | null) => ["leaderboard", period, region ?? "global"] as const,
};

export const leaderboardQuery = (period: LeaderboardPeriod, region: string | null) =>
  queryOptions({
    queryKey: leaderboardKeys.board(period, region),
    queryFn: () => {
      const params = new URLSearchParams({ period });
      if (region) params.set("region", region);
      return apiRequest<GlobalLeaderboardEntry[]>("GET", `/api/leaderboard?${params}`);
    },
  });

export function useLeaderboard(period: LeaderboardPeriod, region: string | null, { enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...leaderboardQuery(period, region), enabled });
}
