// The operator console's shared vocabulary (docs/operating.md): what the audit log records and
// what the two-person rule holds for a second operator.
import { z } from "zod";

/** Every operator action the audit log names. */
export const AUDIT_ACTIONS = [
  "tournament.create",
  "tournament.update",
  "tournament.cancel",
  "tournament.feature",
  "tournament.unfeature",
  "question.create",
  "question.update",
  "question.retire",
  "question.restore",
  "question.practice_only",
  "question.import",
  "question_report.resolve",
  "payout.export",
  "payout_batch.mark_paid",
  "payout_batch.download",
  "payout.mark_paid",
  "payout.mark_failed",
  "held_prize.release",
  "held_prize.forfeit",
  "cheat_attempt.review",
  "user.suspend",
  "user.unsuspend",
  "user.ban",
  "user.unban",
  "user.adjust_balance",
  "user.identity_reverify",
  "session.revoke",
  "approval.request",
  "approval.approve",
  "approval.reject",
  "tax.export_1099",
  "tournament.pause",
  "tournament.resume",
  "tournament.void_question",
  "tournament.disqualify",
  "tournament.export_results",
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/**
 * What waits for a second operator: a payout, a held prize's release or a house-funded pool above
 * the threshold (alone or with the last 24 hours' totals, common/domain/two-person.ts), and any
 * manual balance adjustment.
 */
export const APPROVAL_KINDS = [
  "payout",
  "adjustment",
  "house_pool",
  "held_prize",
  "tournament_edit",
  "operator_ban",
  "payout_return",
  /** Disqualifying a player of a tournament with money in it (the next players take the places). */
  "disqualification",
] as const;
export type ApprovalKind = (typeof APPROVAL_KINDS)[number];
export const APPROVAL_STATUSES = ["pending", "approved", "rejected"] as const;
export type ApprovalStatus = (typeof APPROVAL_STATUSES)[number];

// The console's own routes (docs/operating.md): the overview, the audit log, the approvals.

/** One period of the overview, USD. Sums of ledger rows that count (completed and pending; failed rows never moved money). */
export interface OverviewFigures {
  deposits: number;
  /** Withdrawals asked for and not failed (pending or paid). */
  withdrawals: number;
  entryFees: number;
  /** Entry fees given back (a player left, a tournament was cancelled). */
  entryRefunds: number;
  /** Prizes paid into balances (held prizes count once released). */
  prizes: number;
  /** The house's share (the rake) of the paid tournaments settled in the period: their entry fees less the pools they funded. */
  houseShare: number;
  /** Prizes of free tournaments: the house paid them. */
  houseFundedPrizes: number;
  cardRefunds: number;
  chargebacks: number;
  chargebackReversals: number;
  /** Operators' manual corrections, net. */
  adjustments: number;
}

/** One UTC day of the chart, USD. */
export interface DailyVolume {
  /** YYYY-MM-DD (UTC). */
  day: string;
  deposits: number;
  withdrawals: number;
  entryFees: number;
}

/** An account whose stored balance is not the sum of its ledger rows. */
export interface BalanceMismatch {
  userId: number;
  username: string;
  balance: number;
  ledger: number;
  /** balance - ledger. */
  difference: number;
}

/** GET /api/admin/overview. */
export interface AdminOverview {
  generatedAt: string;
  today: OverviewFigures;
  /** Today and the 29 UTC days before it. */
  last30Days: OverviewFigures;
  /** What the house owes its players: the sum of every balance. */
  playerBalances: number;
  pendingPayouts: { count: number; amount: number };
  /** The 30 days of last30Days, oldest first, every day present. */
  daily: DailyVolume[];
  /** Categories whose fresh questions run low (under SUPPLY_WARN_DAYS days of the schedule) or whose slot the scheduler refused. */
  lowQuestionSupply: { categoryId: number; name: string; fresh: number; daysLeft: number | null; refusedSlot: boolean }[];
  reconciliation: {
    ok: boolean;
    /** (a) Accounts whose balance differs from their ledger (at most 100). */
    mismatches: BalanceMismatch[];
    /** (b) Money in = money out + balances, over the whole ledger (docs/operating.md). */
    identity: { moneyIn: number; moneyOut: number; balances: number; difference: number; holds: boolean };
  };
}

const blankToUndefined = (v: unknown) => (typeof v === "string" && v.trim() === "" ? undefined : v);
const isoDay = (field: string) => z.preprocess(blankToUndefined, z.iso.date({ error: `${field} must be a date (YYYY-MM-DD)` }).optional());

export const AUDIT_PAGE_SIZE_MAX = 100;

/** GET /api/admin/audit: filters, newest first, paged by `cursor` (the last id seen). */
export const auditListQuerySchema = z.object({
  action: z.preprocess(blankToUndefined, z.enum(AUDIT_ACTIONS, { error: "action must be one of the audit log's actions" }).optional()),
  /** The operator's username, exactly (any case). */
  actor: z.preprocess(blankToUndefined, z.string().trim().max(50, "actor must be a username").optional()),
  targetType: z.preprocess(blankToUndefined, z.string().trim().max(50, "targetType is too long").optional()),
  targetId: z.preprocess(blankToUndefined, z.string().trim().max(100, "targetId is too long").optional()),
  /** UTC days, both included. */
  from: isoDay("from"),
  to: isoDay("to"),
  cursor: z.preprocess(
    blankToUndefined,
    z
      .string()
      .regex(/^\d{1,15}$/, "cursor must be a whole number")
      .transform(Number)
      .optional(),
  ),
  limit: z.preprocess(
    blankToUndefined,
    z
      .string()
      .regex(/^\d{1,3}$/, `limit must be a whole number from 1 to ${AUDIT_PAGE_SIZE_MAX}`)
      .transform(Number)
      .pipe(z.number().min(1).max(AUDIT_PAGE_SIZE_MAX, `limit must be a whole number from 1 to ${AUDIT_PAGE_SIZE_MAX}`))
      .optional(),
  ),
});
export type AuditListQuery = z.input<typeof auditListQuerySchema>;

/** One audit row as the console shows it; before and after are the stored JSON, parsed. */
export interface AuditRow {
  id: number;
  actor: { id: number; username: string };
  action: string;
  targetType: string;
  targetId: string | null;
  before: unknown;
  after: unknown;
  note: string | null;
  createdAt: string;
}

export interface AuditPage {
  entries: AuditRow[];
  /** Pass as `cursor` for the next (older) page; null on the last page. */
  nextCursor: number | null;
}

/** GET /api/admin/approvals?status= (absent or "all": every approval, pending first). */
export const approvalListQuerySchema = z.object({
  status: z.preprocess(
    blankToUndefined,
    z.enum([...APPROVAL_STATUSES, "all"], { error: "status must be pending, approved, rejected or all" }).optional(),
  ),
});

export const APPROVAL_NOTE_MAX = 500;

/** POST /api/admin/approvals/:id/approve: an optional note. */
export const approveSchema = z.object({
  note: z
    .string({ error: "note must be text" })
    .trim()
    .max(APPROVAL_NOTE_MAX, `note must be at most ${APPROVAL_NOTE_MAX} characters`)
    .optional(),
});

/** POST /api/admin/approvals/:id/reject: why, for the operator who asked. */
export const rejectSchema = z.object({
  note: z
    .string({ error: "Say why you reject it (note)" })
    .trim()
    .min(1, "Say why you reject it (note)")
    .max(APPROVAL_NOTE_MAX, `note must be at most ${APPROVAL_NOTE_MAX} characters`),
});

export interface ApprovalView {
  id: number;
  kind: ApprovalKind;
  /** What approving it will do. */
  summary: string;
  /** USD. */
  amount: number;
  payload: unknown;
  status: ApprovalStatus;
  requestedBy: { id: number; username: string };
  requestedAt: string;
  decidedBy: { id: number; username: string } | null;
  decidedAt: string | null;
  note: string | null;
  resultRef: string | null;
  /** The signed-in operator asked for it, so may not decide it. */
  mine: boolean;
}
