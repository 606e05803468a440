import { queryOptions, useQuery } from "@tanstack/react-query";
import { ApiError } from "@/lib/api";
import { api, read } from "@/lib/api-client";

export const playerKey = (username: string) => ["players", username] as const;

export const playerQuery = (username: string) =>
  queryOptions({ queryKey: playerKey(username), queryFn: () => read(api.users[":username"].$get({ param: { username } })) });

/** A player's public profile; fields the player hides arrive as null. */
export const usePlayer = (username: string) => useQuery({ ...playerQuery(username), enabled: username !== "" });

export const isNotFound = (error: unknown) => error instanceof ApiError && error.code === "player_not_found";
