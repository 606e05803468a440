import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { LoginInput, RegisterInput } from "@common/api/accounts";
import type { User } from "@common/api/types";
import { ApiError } from "@/lib/api";
import { api, read } from "@/lib/api-client";

/** The signed-in user; every query of the user's own data sits under ["me", ...]. */
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

export function useLogin() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (input: LoginInput) => read(api.login.$post({ json: input })),
    onSuccess: (user) => qc.setQueryData(USER_KEY, user),
  });
}

export function useRegister() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (input: RegisterInput) => read(api.register.$post({ json: input })),
    onSuccess: (user) => qc.setQueryData(USER_KEY, user),
  });
}

export function useLogout() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => read(api.logout.$post()),
    onSuccess: () => {
      qc.setQueryData(USER_KEY, null);
      // Everything cached belonged to the signed-out user.
      qc.removeQueries({ predicate: (q) => q.queryKey[0] !== USER_KEY[0] });
    },
  });
}
