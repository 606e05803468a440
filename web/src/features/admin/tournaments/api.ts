// The console's tournaments: query keys, queries and mutations over the typed client.
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { CreateTournamentInput } from "@common/api/admin";
import { ADMIN_TOURNAMENTS } from "@common/console-messages";
import { api, read } from "@/lib/api-client";
import { toast } from "@/lib/toast";
import { ApiError } from "@/lib/api";
import { withStepUp } from "@/lib/step-up";

/** How often the live view asks the room again. */
export const LIVE_POLL_MS = 2000;

export const adminTournamentKeys = {
  all: ["admin", "tournaments"] as const,
  list: (q: AdminTournamentFilters) => ["admin", "tournaments", "list", q] as const,
  detail: (id: number) => ["admin", "tournaments", id] as const,
  live: (id: number) => ["admin", "tournaments", id, "live"] as const,
  bank: (categoryId: number) => ["admin", "tournaments", "bank", categoryId] as const,
};

/** The list's filters as the screen keeps them: text, "" for none. */
export type AdminTournamentFilters = Record<string, string | undefined>;

const asQuery = (q: AdminTournamentFilters) =>
  Object.fromEntries(Object.entries(q).flatMap(([k, v]) => (v === undefined || v === "" ? [] : [[k, String(v)]]))) as Record<
    string,
    string
  >;
const param = (id: number) => ({ param: { id: String(id) } });

export const useAdminTournaments = (q: AdminTournamentFilters) =>
  useQuery(
    queryOptions({
      queryKey: adminTournamentKeys.list(q),
      queryFn: () => read(api.admin.tournaments.$get({ query: asQuery(q) })),
      placeholderData: keepPreviousData,
    }),
  );

export const useAdminTournament = (id: number) =>
  useQuery({ queryKey: adminTournamentKeys.detail(id), queryFn: () => read(api.admin.tournaments[":id"].$get(param(id))) });

/** Polls while the screen is open; stops once the room has nothing more to show. */
export const useTournamentLive = (id: number, enabled: boolean) =>
  useQuery({
    queryKey: adminTournamentKeys.live(id),
    queryFn: () => read(api.admin.tournaments[":id"].live.$get(param(id))),
    enabled,
    refetchInterval: (query) => {
      const status = query.state.data?.status;
      return status === "completed" || status === "cancelled" ? false : LIVE_POLL_MS;
    },
  });

/** The category's questions that can still go into a prize tournament, for the picker. */
export const useQuestionBank = (categoryId: number | null) =>
  useQuery({
    queryKey: adminTournamentKeys.bank(categoryId ?? 0),
    queryFn: () => read(api.admin.questions.$get({ query: { categoryId: String(categoryId), status: "fresh", pageSize: "100" } })),
    enabled: categoryId !== null,
  });

export function useCreateTournament() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (json: CreateTournamentInput) => read(api.admin.tournaments.$post({ json })),
    onSuccess: () => qc.invalidateQueries({ queryKey: adminTournamentKeys.all }),
  });
}

export function useUpdateTournament(id: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (json: CreateTournamentInput) => read(api.admin.tournaments[":id"].$patch({ ...param(id), json })),
    onSuccess: (detail) => {
      // An approved tournament's edit waits for a second operator (202): nothing changed yet.
      if (!("approvalId" in detail)) qc.setQueryData(adminTournamentKeys.detail(id), detail);
      return qc.invalidateQueries({ queryKey: adminTournamentKeys.all });
    },
  });
}

export function useCancelTournament(id: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (reason: string) => read(api.admin.tournaments[":id"].cancel.$post({ ...param(id), json: { reason } })),
    // Told here, not in the caller's callback: the refetch shows the tournament cancelled, which
    // unmounts the cancel dialog before a callback given to mutate() could run.
    onSuccess: (r) => {
      if (r.cancelled) toast.success(ADMIN_TOURNAMENTS.cancelled(r.playersRefunded));
      else toast.info(ADMIN_TOURNAMENTS.alreadyCancelled);
      return qc.invalidateQueries({ queryKey: adminTournamentKeys.all });
    },
  });
}

// ---- The host's tools (docs/operating.md, "Host tools") ----

/** After a host action the live view shows what the room did at once, not at the next poll. */
function useHostAction<I, R>(id: number, send: (input: I) => Promise<R>) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: send,
    onSettled: () => qc.invalidateQueries({ queryKey: adminTournamentKeys.live(id) }),
  });
}

export const usePauseShow = (id: number) =>
  useHostAction(id, (pause: boolean) =>
    read(
      pause
        ? api.admin.tournaments[":id"].pause.$post({ ...param(id), json: {} })
        : api.admin.tournaments[":id"].resume.$post({ ...param(id), json: {} }),
    ),
  );

export const useVoidQuestion = (id: number) =>
  useHostAction(id, (json: { index: number; reason: string }) =>
    read(api.admin.tournaments[":id"]["void-question"].$post({ ...param(id), json })),
  );

export const useDisqualify = (id: number) =>
  useHostAction(id, (json: { userId: number; reason: string }) =>
    read(api.admin.tournaments[":id"].disqualify.$post({ ...param(id), json })),
  );

/**
 * The results as CSV, handed to the browser as a download. Every answer with its receipt is in it,
 * so the server wants a recent step-up even for this read (as for the 1099-MISC file): the dialog
 * asks for it, then the download is asked for once more. The server records each copy in the audit log.
 */
export async function downloadResults(id: number): Promise<void> {
  const { text, name } = await withStepUp(async () => {
    const res = await api.admin.tournaments[":id"]["results.csv"].$get(param(id));
    const body = await res.text().catch(() => "");
    if (!res.ok) throw new ApiError(res.status, body);
    const fileName = /filename="([^"]+)"/.exec(res.headers.get("content-disposition") ?? "")?.[1];
    return { text: body, name: fileName ?? `tournament-${id}-results.csv` };
  });
  const url = URL.createObjectURL(new Blob([text], { type: "text/csv" }));
  const a = document.createElement("a");
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  URL.revokeObjectURL(url);
}
