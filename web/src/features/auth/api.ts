// Signing in, registering and signing out: each writes the session the whole app reads (lib/session.ts).
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { LoginInput, RegisterInput } from "@common/api/accounts";
import type { ForgotPasswordInput, ResetPasswordInput } from "@common/api/email";
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

/** POST /api/auth/verify-email: the link's token proves the address; a signed-in user's cache learns it. */
export function useVerifyEmail() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (token: string) => read(api.auth["verify-email"].$post({ json: { token } })),
    onSuccess: () => void qc.invalidateQueries({ queryKey: USER_KEY }),
  });
}

/** POST /api/auth/forgot-password: the same answer whether or not an account has the address. */
export const useForgotPassword = () =>
  useMutation({ mutationFn: (input: ForgotPasswordInput) => read(api.auth["forgot-password"].$post({ json: input })) });

/** POST /api/auth/reset-password: every session of the account ends, this browser's too. */
export function useResetPassword() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (input: ResetPasswordInput) => read(api.auth["reset-password"].$post({ json: input })),
    onSuccess: () => {
      qc.setQueryData(USER_KEY, null);
      qc.removeQueries({ predicate: (q) => q.queryKey[0] !== USER_KEY[0] });
    },
  });
}
