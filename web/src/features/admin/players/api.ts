// The players screens' calls: search, a player's file, ledger pages, sessions, moderation and
// adjustments (which wait for a second operator).
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { ModerationAction } from "@common/api/console-players";
import { api, read } from "@/lib/api-client";

const playerKey = (id: number) => ["admin", "player", id] as const;

export const usePlayerSearch = (q: string | null) =>
  useQuery({
    queryKey: ["admin", "players", q],
    queryFn: () => read(api.admin.users.$get({ query: { q: q ?? "" } })),
    enabled: q !== null,
    placeholderData: keepPreviousData,
  });

const param = (id: number) => ({ id: String(id) });

export const usePlayer = (id: number) =>
  useQuery({ queryKey: playerKey(id), queryFn: () => read(api.admin.users[":id"].$get({ param: param(id) })) });

export const usePlayerLedger = (id: number, page: number) =>
  useQuery({
    queryKey: [...playerKey(id), "ledger", page],
    queryFn: () => read(api.admin.users[":id"].ledger.$get({ param: param(id), query: { page: String(page) } })),
    placeholderData: keepPreviousData,
  });

export const usePlayerSessions = (id: number) =>
  useQuery({ queryKey: [...playerKey(id), "sessions"], queryFn: () => read(api.admin.users[":id"].sessions.$get({ param: param(id) })) });

export const usePlayerIntegrity = (id: number) =>
  useQuery({ queryKey: [...playerKey(id), "integrity"], queryFn: () => read(api.admin.users[":id"].integrity.$get({ param: param(id) })) });

export function useRevokeSessions(id: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (sessionId: string | null) =>
      sessionId === null
        ? read(api.admin.users[":id"].sessions.$delete({ param: param(id) }))
        : read(api.admin.users[":id"].sessions[":sessionId"].$delete({ param: { ...param(id), sessionId } })),
    onSettled: () => qc.invalidateQueries({ queryKey: [...playerKey(id), "sessions"] }),
  });
}

export function useModerate(id: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ action, note }: { action: ModerationAction; note: string }) => {
      const route = api.admin.users[":id"];
      const args = { param: param(id), json: { note } };
      // Banning an operator answers 202: it waits for a second operator (docs/operating.md).
      if (action === "ban") return read(route.ban.$post(args));
      return read(
        action === "suspend" ? route.suspend.$post(args) : action === "unsuspend" ? route.unsuspend.$post(args) : route.unban.$post(args),
      );
    },
    onSettled: () => qc.invalidateQueries({ queryKey: playerKey(id) }),
  });
}

export const useRequestAdjustment = (id: number) =>
  useMutation({
    mutationFn: (input: { amount: number; reason: string }) =>
      read(api.admin.users[":id"].adjustments.$post({ param: param(id), json: input })),
  });

/** Which versions of the legal documents the player accepted, and when (docs/player-data.md). */
export const usePlayerTerms = (id: number) =>
  useQuery({ queryKey: [...playerKey(id), "terms"], queryFn: () => read(api.admin.users[":id"].terms.$get({ param: param(id) })) });

/** The player's identity verification as operators see it (docs/identity-and-tax.md). */
export const usePlayerIdentity = (id: number) =>
  useQuery({
    queryKey: [...playerKey(id), "identity"],
    queryFn: () => read(api.admin.identity.users[":id"].$get({ param: param(id) })),
  });

/** "Ask to verify again": step-up and audited on the Worker. */
export function useAskToVerifyAgain(id: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (note: string) => read(api.admin.identity.users[":id"].reverify.$post({ param: param(id), json: { note } })),
    onSettled: () => qc.invalidateQueries({ queryKey: [...playerKey(id), "identity"] }),
  });
}
