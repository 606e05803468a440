import { useQuery } from "@tanstack/react-query";
import { api, read } from "@/lib/api-client";
import { ApiError } from "@/lib/api";
import { withStepUp } from "@/lib/step-up";
import type { DownloadedFile } from "../payouts/api";

/** GET /api/admin/tax/1099-misc/summary: the year's prizes against what the export reports (no TIN). */
export const useTax1099Summary = (year: number) =>
  useQuery({
    queryKey: ["admin", "tax", "1099-misc", year],
    queryFn: () => read(api.admin.tax["1099-misc"].summary.$get({ query: { year: String(year) } })),
    refetchOnMount: "always",
    retry: false,
  });

/**
 * GET /api/admin/tax/1099-misc: the CSV. It holds TINs, so the server wants a recent step-up even
 * for this read: the dialog asks for it, then the download is asked for once more.
 */
export const download1099Misc = (year: number) =>
  withStepUp(async (): Promise<DownloadedFile> => {
    const res = await api.admin.tax["1099-misc"].$get({ query: { year: String(year) } });
    const text = await res.text().catch(() => "");
    if (!res.ok) throw new ApiError(res.status, text);
    const name = /filename="([^"]+)"/.exec(res.headers.get("content-disposition") ?? "")?.[1];
    return { fileName: name ?? `1099-misc-${year}.csv`, text, batchId: null };
  });
