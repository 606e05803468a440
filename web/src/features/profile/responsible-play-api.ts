import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { CoolOffInput, LimitsUpdateInput, ResponsiblePlayState, SelfExclusionInput } from "@common/api/responsible-play";
import { api, read } from "@/lib/api-client";

export const RESPONSIBLE_PLAY_KEY = ["me", "responsible-play"] as const;

/** Limits, usage and any break in force; usage moves with every deposit and entry, so each visit refetches. */
export const useResponsiblePlay = () =>
  useQuery({ queryKey: RESPONSIBLE_PLAY_KEY, queryFn: () => read(api.user["responsible-play"].$get()), refetchOnMount: "always" });

/** Every change answers with the whole new state, which replaces the cached one. */
function useStateMutation<I>(send: (input: I) => Promise<ResponsiblePlayState>) {
  const qc = useQueryClient();
  return useMutation({ mutationFn: send, onSuccess: (state) => qc.setQueryData(RESPONSIBLE_PLAY_KEY, state) });
}

export const useSaveLimits = () =>
  useStateMutation((input: LimitsUpdateInput) => read(api.user["responsible-play"].limits.$put({ json: input })));

export const useStartCoolOff = () =>
  useStateMutation((input: CoolOffInput) => read(api.user["responsible-play"]["cool-off"].$post({ json: input })));

export const useStartSelfExclusion = () =>
  useStateMutation((input: SelfExclusionInput) => read(api.user["responsible-play"]["self-exclusion"].$post({ json: input })));
