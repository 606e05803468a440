// The operators' payout queue and its ACH files (docs/operating.md, "Payouts and the ACH file"):
// the queue's filters, the export's selection, and what the console shows of payouts and batches.
import { z } from "zod";
import { PAYOUTS } from "../console-messages";
import { PAYOUT_EXPORT_MAX } from "../spec";
import { payoutStatuses, type AdminPayout } from "./money";

const blankToUndefined = (v: unknown) => (typeof v === "string" && v.trim() === "" ? undefined : v);

/** A filter amount in dollars (at most 2 decimals), to cents. */
const dollarsFilter = (field: string) =>
  z.preprocess(
    blankToUndefined,
    z
      .string()
      .trim()
      .regex(/^\d{1,9}(\.\d{1,2})?$/, PAYOUTS.amountFilter(field))
      .transform((v) => Math.round(Number(v) * 100))
      .optional(),
  );

const isoDay = (field: string) => z.preprocess(blankToUndefined, z.iso.date({ error: `${field} must be a date (YYYY-MM-DD)` }).optional());

/** GET /api/admin/payouts: every filter optional; amounts in dollars, days in UTC (both included). */
export const payoutQueueQuerySchema = z.object({
  status: z.preprocess(blankToUndefined, z.enum(payoutStatuses, { error: "status must be pending, paid or failed" }).optional()),
  minAmount: dollarsFilter("minAmount"),
  maxAmount: dollarsFilter("maxAmount"),
  from: isoDay("from"),
  to: isoDay("to"),
  /** Part of the player's username, any case. */
  username: z.preprocess(blankToUndefined, z.string().trim().max(50, "username is too long").optional()),
});
export type PayoutQueueQuery = z.input<typeof payoutQueueQuerySchema>;

/** POST /api/admin/payouts/export: the selected payouts, all of which go in one file or none. */
export const payoutExportSchema = z.object({
  payoutIds: z
    .array(
      z.number({ error: "payoutIds must be payout ids" }).int("payoutIds must be payout ids").positive("payoutIds must be payout ids"),
      {
        error: PAYOUTS.selectionEmpty,
      },
    )
    .min(1, PAYOUTS.selectionEmpty)
    .max(PAYOUT_EXPORT_MAX, PAYOUTS.selectionTooLarge(PAYOUT_EXPORT_MAX))
    .transform((ids) => [...new Set(ids)]),
});
export type PayoutExportInput = z.input<typeof payoutExportSchema>;

/**
 * The two-person rule for one payout: not_required (at or below the threshold), required (above,
 * nobody asked yet), requested (an approval waits), approved (a second operator approved it).
 */
export type PayoutApprovalState = "not_required" | "required" | "requested" | "approved";

/** A payout as the queue shows it: the account masked, how it can be paid, and its approval. */
export interface PayoutQueueItem extends AdminPayout {
  /** `••••1234`: the only part of the account number ever shown. */
  accountMasked: string;
  /** The full account number is kept (sealed), so it can go in an ACH file; false: legacy, contact the player. */
  payableByFile: boolean;
  /** The ACH file (batch) it was exported in; null until exported. */
  batchId: number | null;
  approval: {
    state: PayoutApprovalState;
    /** The pending approval's id while one waits. */
    approvalId: number | null;
    approvedBy: string | null;
    approvedAt: string | null;
  };
}

/** GET /api/admin/payouts. */
export interface PayoutQueue {
  items: PayoutQueueItem[];
  /** USD: payouts above it need a second operator. */
  approvalThreshold: number;
  /** More matched than the list holds: narrow the filters. */
  truncated: boolean;
}

/** POST /api/admin/payouts/:id/request-approval (202). */
export interface PayoutApprovalRequested {
  approvalId: number;
  message: string;
}

/** One ACH file: what it carries and where its payouts stand. */
export interface PayoutBatchView {
  id: number;
  fileName: string;
  entryCount: number;
  /** USD, the file's total credit. */
  total: number;
  status: "exported" | "paid";
  createdBy: { id: number; username: string };
  createdAt: string;
  paidBy: { id: number; username: string } | null;
  paidAt: string | null;
  /** Its payouts by status now (a payout the bank returned is failed one by one). */
  payouts: { pending: number; paid: number; failed: number };
}

/** POST /api/admin/payout-batches/:id/mark-paid. */
export interface PayoutBatchPaid {
  batch: PayoutBatchView;
  /** Payouts this call marked paid (0 when the batch was already paid). */
  paid: number;
}
