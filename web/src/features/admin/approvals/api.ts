import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, read } from "@/lib/api-client";

export const ADMIN_APPROVALS_KEY = ["admin", "approvals"] as const;

export type ApprovalFilter = "pending" | "approved" | "rejected" | "all";

/** GET /api/admin/approvals: pending first; another operator may decide one at any moment, so every visit refetches. */
export const useApprovals = (status: ApprovalFilter) =>
  useQuery({
    queryKey: [...ADMIN_APPROVALS_KEY, status],
    queryFn: () => read(api.admin.approvals.$get({ query: { status } })),
    refetchOnMount: "always",
    retry: false,
  });

export function useDecideApproval() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, decision, note }: { id: number; decision: "approve" | "reject"; note: string }) =>
      decision === "approve"
        ? read(api.admin.approvals[":id"].approve.$post({ param: { id: String(id) }, json: note ? { note } : {} }))
        : read(api.admin.approvals[":id"].reject.$post({ param: { id: String(id) }, json: { note } })),
    // Refetch whatever happened: a refusal may mean someone else decided it a moment ago.
    onSettled: () => qc.invalidateQueries({ queryKey: ADMIN_APPROVALS_KEY }),
  });
}
