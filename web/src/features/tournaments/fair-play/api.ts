// Fair play: the fairness reveal of a settled tournament (recomputed here, in the browser), the
// signed-in player's answer receipts, and the check of a receipt, all through the typed client.
import { queryOptions, useMutation, useQuery } from "@tanstack/react-query";
import type { AnswerReceipt, FairnessReport, ReceiptVerification, TournamentReceipts } from "@common/api/fair-play";
import { checkTreeReveal, fairnessCommitment } from "@common/domain/fairness";
import { api, read } from "@/lib/api-client";

const param = (id: number) => ({ param: { id: String(id) } });

export const fairPlayKeys = {
  fairness: (id: number) => ["tournaments", id, "fairness"] as const,
  receipts: (id: number) => ["me", "tournaments", id, "receipts"] as const,
};

export interface FairnessCheck {
  report: FairnessReport;
  /**
   * The commitment recomputed in this browser: v1, the hash of the revealed salt and answers;
   * v2, the root every revealed question's proof leads to (when they do not all lead to one,
   * the first that differs from the report's commitment); null when no question was revealed.
   */
  recomputed: string | null;
  /** v2, per revealed question: whether its leaf and proof lead to the report's commitment (v1: empty). */
  proofs: boolean[];
  /** Whether what is revealed hashes to the report's own commitment (each at its own place, for v2). */
  consistent: boolean;
}

/** Recomputes what a fairness report can be checked against, under its scheme. */
export async function checkFairness(report: FairnessReport): Promise<FairnessCheck> {
  if (report.scheme === "flat-v1") {
    const recomputed = await fairnessCommitment(report.tournamentId, report.salt, report.questions);
    return { report, recomputed, proofs: [], consistent: recomputed === report.commitment };
  }
  const { roots, ok } = checkTreeReveal(report);
  const differing = roots.find((r) => r !== report.commitment);
  const recomputed = differing !== undefined ? differing : (roots[0] ?? null);
  return { report, recomputed, proofs: roots.map((r) => r === report.commitment), consistent: ok };
}

/** GET /api/tournaments/{id}/fairness, with the hash recomputed from what it reveals. */
export const fairnessQuery = (id: number) =>
  queryOptions({
    queryKey: fairPlayKeys.fairness(id),
    queryFn: async (): Promise<FairnessCheck> => {
      const report: FairnessReport = await read(api.tournaments[":id"].fairness.$get(param(id)));
      return checkFairness(report);
    },
    // The reveal of a settled tournament never changes.
    staleTime: Infinity,
  });

export const useFairnessCheck = (id: number, { enabled = true }: { enabled?: boolean } = {}) => useQuery({ ...fairnessQuery(id), enabled });

/** GET /api/user/tournaments/{id}/receipts: the player's own signed receipts, in question order. */
export const receiptsQuery = (id: number) =>
  queryOptions({
    queryKey: fairPlayKeys.receipts(id),
    queryFn: (): Promise<TournamentReceipts> => read(api.user.tournaments[":id"].receipts.$get(param(id))),
  });

export const useTournamentReceipts = (id: number, { enabled = true }: { enabled?: boolean } = {}) =>
  useQuery({ ...receiptsQuery(id), enabled });

/** POST /api/receipts/verify: whether the server signed this receipt as it reads. */
export const useVerifyReceipt = () =>
  useMutation({
    mutationFn: (receipt: AnswerReceipt): Promise<ReceiptVerification> => read(api.receipts.verify.$post({ json: receipt })),
  });
