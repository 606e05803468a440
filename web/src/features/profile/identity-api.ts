import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { SandboxIdentityInput } from "@common/api/identity";
import { api, read } from "@/lib/api-client";
import { IDENTITY_KEY } from "@/lib/identity";

/** Opens a verification session with the provider (Stripe, or the sandbox's page). */
export const useStartIdentity = () => {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => read(api.identity.session.$post()),
    onSuccess: () => qc.invalidateQueries({ queryKey: IDENTITY_KEY }),
  });
};

/** The sandbox page's answer: the new state replaces the cached one. */
export const useCompleteSandboxIdentity = () => {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (input: SandboxIdentityInput) => read(api.identity.sandbox.complete.$post({ json: input })),
    onSuccess: (state) => qc.setQueryData(IDENTITY_KEY, state),
  });
};
