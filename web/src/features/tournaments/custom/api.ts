// Custom tournaments (docs/custom-tournaments.md): the caller's own, creating and cancelling one,
// and a private tournament as its invite code shows it.
import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { CreateCustomTournamentInput } from "@common/api/custom-tournaments";
import { api, idempotent, read } from "@/lib/api-client";

export const customKeys = {
  mine: ["tournaments", "custom", "mine"] as const,
  invite: (code: string) => ["tournaments", "invite", code] as const,
};

export const myCustomTournamentsQuery = () =>
  queryOptions({ queryKey: customKeys.mine, queryFn: () => read(api.tournaments.custom.$get()) });

export function useMyCustomTournaments({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...myCustomTournamentsQuery(), enabled });
}

export function useInvitedTournament(code: string | null) {
  return useQuery({
    queryKey: customKeys.invite(code ?? ""),
    queryFn: () => read(api.tournaments.invite[":code"].$get({ param: { code: code! } })),
    enabled: code !== null,
    // A refused code stays refused: no retries.
    retry: false,
  });
}

/** Creates one under the form's Idempotency-Key (a double click makes one tournament). */
export function useCreateCustomTournament() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ input, idempotencyKey }: { input: CreateCustomTournamentInput; idempotencyKey: string }) =>
      read(api.tournaments.custom.$post({ json: input }, idempotent(idempotencyKey))),
    onSuccess: () => qc.invalidateQueries({ queryKey: customKeys.mine }),
  });
}

export function useCancelCustomTournament() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => read(api.tournaments.custom[":id"].cancel.$post({ param: { id: String(id) }, json: {} })),
    onSuccess: () => qc.invalidateQueries({ queryKey: customKeys.mine }),
  });
}
