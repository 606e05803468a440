// The signed-in user, shared by every part of the app: one query, null when signed out. Signing
// in and out (features/auth) write this same key; the user's own data sits under ["me", ...].
import { queryOptions, useQuery } from "@tanstack/react-query";
import type { User } from "@common/api/types";
import { ApiError } from "./api";
import { api, read } from "./api-client";

export const USER_KEY = ["session"] as const;

export const userQuery = () =>
  queryOptions({
    queryKey: USER_KEY,
    // Signed out is an answer, not a failure.
    queryFn: async (): Promise<User | null> => {
      try {
        return await read(api.user.$get());
      } catch (e) {
        if (e instanceof ApiError && e.code === "not_authenticated") return null;
        throw e;
      }
    },
  });

/** The current user; null when signed out. */
export function useUser() {
  const q = useQuery(userQuery());
  return { user: q.data ?? null, isLoading: q.isLoading, error: q.error };
}
