import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { LoginInput, RegisterInput } from "@common/api/accounts";
import type { User } from "@common/api/types";
import { apiRequest, getQueryFn } from "@/lib/api";

export const USER_KEY = ["/api/user"] as const;

/** The current user; null when signed out (401). */
export function useUser() {
  const q = useQuery<User | null>({ queryKey: USER_KEY, queryFn: getQueryFn({ on401: "returnNull" }) });
  return { user: q.data ?? null, isLoading: q.isLoading, error: q.error };
}

export function useLogin() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (input: LoginInput) => apiRequest<User>("POST", "/api/login", input),
    onSuccess: (user) => qc.setQueryData(USER_KEY, user),
  });
}

export function useRegister() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (input: RegisterInput) => apiRequest<User>("POST", "/api/register", input),
    onSuccess: (user) => qc.setQueryData(USER_KEY, user),
  });
}

export function useLogout() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => apiRequest("POST", "/api/logout"),
    onSuccess: () => {
      qc.setQueryData(USER_KEY, null);
      // Everything cached belonged to the signed-out user.
      qc.removeQueries({ predicate: (q) => q.queryKey[0] !== USER_KEY[0] });
    },
  });
}
