import { useQuery } from "@tanstack/react-query";
import type { PublicProfile } from "@common/api/tournaments";
import { ApiError, apiRequest } from "@/lib/api";

export const playerKey = (username: string) => ["/api/users", username] as const;

/** A player's public profile; fields the player hides arrive as null. */
export const usePlayer = (username: string) =>
  useQuery<PublicProfile>({
    queryKey: playerKey(username),
    queryFn: () => apiRequest<PublicProfile>("GET", `/api/users/${encodeURIComponent(username)}`),
    enabled: username !== "",
  });

export const isNotFound = (error: unknown) => error instanceof ApiError && error.status === 404;
