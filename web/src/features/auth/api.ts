// Signing in, registering and signing out: each writes the session the whole app reads (lib/session.ts).
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { LoginInput, RegisterInput } from "@common/api/accounts";
import { api, read } from "@/lib/api-client";
import { USER_KEY } from "@/lib/session";

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
