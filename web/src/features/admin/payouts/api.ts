import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { PayoutQueueQuery } from "@common/api/payouts";
import { api, read } from "@/lib/api-client";
import { ApiError } from "@/lib/api";

export const ADMIN_PAYOUTS_KEY = ["admin", "payouts"] as const;
const QUEUE_KEY = [...ADMIN_PAYOUTS_KEY, "queue"] as const;
const BATCHES_KEY = [...ADMIN_PAYOUTS_KEY, "batches"] as const;

/** The queue's filters as the form holds them (text fields; empty means no filter). */
export type PayoutFilters = { [K in keyof PayoutQueueQuery]?: string };

/** GET /api/admin/payouts: other operators work the same queue, so every visit refetches. */
export const usePayoutQueue = (filters: PayoutFilters) =>
  useQuery({
    queryKey: [...QUEUE_KEY, filters],
    queryFn: () => read(api.admin.payouts.$get({ query: filters })),
    refetchOnMount: "always",
    retry: false,
  });

export const usePayoutBatches = () =>
  useQuery({
    queryKey: BATCHES_KEY,
    queryFn: () => read(api.admin["payout-batches"].$get()),
    refetchOnMount: "always",
    retry: false,
  });

/** A downloaded file: its name from Content-Disposition, its text as the server sent it. */
export interface DownloadedFile {
  fileName: string;
  text: string;
  batchId: number | null;
}

interface TextResponse {
  ok: boolean;
  status: number;
  headers: Headers;
  text(): Promise<string>;
}

async function fileOf(request: Promise<TextResponse>, fallbackName: string): Promise<DownloadedFile> {
  const res = await request;
  const text = await res.text().catch(() => "");
  if (!res.ok) throw new ApiError(res.status, text);
  const name = /filename="([^"]+)"/.exec(res.headers.get("content-disposition") ?? "")?.[1];
  const batchId = Number(res.headers.get("x-payout-batch-id"));
  return { fileName: name ?? fallbackName, text, batchId: Number.isSafeInteger(batchId) && batchId > 0 ? batchId : null };
}

/** Hands the file to the browser as a download (the ACH file goes to the bank from there). */
export function saveFile({ fileName, text }: DownloadedFile) {
  const url = URL.createObjectURL(new Blob([text], { type: "text/plain" }));
  const a = document.createElement("a");
  a.href = url;
  a.download = fileName;
  document.body.append(a);
  a.click();
  a.remove();
  URL.revokeObjectURL(url);
}

/** Refetch the queue and the batches after any action: another operator may have acted too. */
function useRefresh() {
  const qc = useQueryClient();
  return () => qc.invalidateQueries({ queryKey: ADMIN_PAYOUTS_KEY });
}

export function useExportPayouts() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (payoutIds: number[]) => fileOf(api.admin.payouts.export.$post({ json: { payoutIds } }), "ach.txt"),
    onSettled: refresh,
  });
}

export const downloadBatchFile = (id: number) =>
  fileOf(api.admin["payout-batches"][":id"].file.$get({ param: { id: String(id) } }), `ach-batch-${id}.txt`);

export function useMarkBatchPaid() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (id: number) => read(api.admin["payout-batches"][":id"]["mark-paid"].$post({ param: { id: String(id) }, json: {} })),
    onSettled: refresh,
  });
}

export function useRequestPayoutApproval() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => read(api.admin.payouts[":id"]["request-approval"].$post({ param: { id: String(id) }, json: {} })),
    onSettled: () =>
      Promise.all([qc.invalidateQueries({ queryKey: ADMIN_PAYOUTS_KEY }), qc.invalidateQueries({ queryKey: ["admin", "approvals"] })]),
  });
}

/** A bank return of a payout in an exported file: its R-code and date; it waits for a second operator (202). */
export function useBankReturn() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: ({ id, returnCode, returnDate, note }: { id: number; returnCode: string; returnDate: string; note: string }) =>
      read(
        api.admin.payouts[":id"].failed.$post({
          param: { id: String(id) },
          json: { returnCode, returnDate, ...(note ? { reason: note } : {}) },
        }),
      ),
    onSettled: refresh,
  });
}

export function useSettlePayout() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: ({ id, outcome, reason }: { id: number; outcome: "paid" | "failed"; reason?: string }) =>
      outcome === "paid"
        ? read(api.admin.payouts[":id"].paid.$post({ param: { id: String(id) } }))
        : read(api.admin.payouts[":id"].failed.$post({ param: { id: String(id) }, json: { reason: reason ?? "" } })),
    onSettled: refresh,
  });
}
