import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useNavigate } from "react-router";
import type { PasswordChangeInput, ProfileUpdateInput } from "@common/api/accounts";
import type { DeleteAccountInput, TwoFactorDisableInput, TwoFactorEnableInput } from "@common/api/account-security";
import { USER_KEY } from "@/lib/session";
import { api, read } from "@/lib/api-client";
import { withStepUp } from "@/lib/step-up";
import { toast } from "@/lib/toast";

/** PATCH /api/user/profile; the answer replaces the cached user, which is then refetched. */
export function useUpdateProfile() {
  const qc = useQueryClient();
  return useMutation({
    // A new email address needs a step-up; other changes go straight through.
    mutationFn: (input: ProfileUpdateInput) => withStepUp(() => read(api.user.profile.$patch({ json: input }))),
    onSuccess: async (user) => {
      qc.setQueryData(USER_KEY, user);
      await qc.invalidateQueries({ queryKey: USER_KEY });
    },
  });
}

export function useChangePassword() {
  return useMutation({
    // With 2FA on, the step-up also asks for a code.
    mutationFn: (input: PasswordChangeInput) => withStepUp(() => read(api.user.password.$patch({ json: input }))),
  });
}

/** Starts enrolment: a new pending secret, not yet required at login. */
export function useTwoFactorSetup() {
  return useMutation({ mutationFn: () => withStepUp(() => read(api.user["2fa"].setup.$post())) });
}

export function useTwoFactorEnable() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (input: TwoFactorEnableInput) => read(api.user["2fa"].enable.$post({ json: input })),
    onSuccess: () => qc.invalidateQueries({ queryKey: USER_KEY }),
  });
}

export function useTwoFactorDisable() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (input: TwoFactorDisableInput) => read(api.user["2fa"].disable.$post({ json: input })),
    onSuccess: () => qc.invalidateQueries({ queryKey: USER_KEY }),
  });
}

/**
 * DELETE /api/user. On success the session is gone: leave for the home page first (so the
 * authentication wrapper does not bounce to /auth), then drop every cached query.
 */
export function useDeleteAccount() {
  const qc = useQueryClient();
  const navigate = useNavigate();
  return useMutation({
    mutationFn: (input: DeleteAccountInput) => read(api.user.$delete({ json: input })),
    onSuccess: () => {
      toast.success("Account deleted", "Your account and personal data have been removed.");
      navigate("/", { replace: true });
      qc.setQueryData(USER_KEY, null);
      qc.removeQueries({ predicate: (q) => q.queryKey[0] !== USER_KEY[0] });
    },
  });
}
