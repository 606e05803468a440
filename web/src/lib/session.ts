// The signed-in user, shared by every part of the app: one query, null when signed out. Signing
// in and out (features/auth) write this same key; the user's own data sits under ["me", ...].
import { queryOptions, useQuery } from "@tanstack/react-query";
import type { User } from "@common/api/types";
import { api, read } from "./api-client";

export const USER_KEY = ["session"] as const;

export const userQuery = () =>
  queryOptions({
    queryKey: USER_KEY,
    // GET /api/session answers a visitor with user null (200): GET /api/user's 401 would be logged
    // by the browser as a failed request on every visitor's first page.
    queryFn: async (): Promise<User | null> => (await read(api.session.$get())).user,
  });

/** The current user; null when signed out. */
export function useUser() {
  const q = useQuery(userQuery());
  return { user: q.data ?? null, isLoading: q.isLoading, error: q.error };
}
