// The operator console's shared vocabulary (docs/operating.md): what the audit log records and
// what the two-person rule holds for a second operator.

/** Every operator action the audit log names. */
export const AUDIT_ACTIONS = [
  "tournament.create",
  "tournament.update",
  "tournament.cancel",
  "question.create",
  "question.update",
  "question.retire",
  "question.restore",
  "question.import",
  "question_report.resolve",
  "payout.export",
  "payout_batch.mark_paid",
  "payout.mark_failed",
  "held_prize.release",
  "held_prize.forfeit",
  "cheat_attempt.review",
  "user.suspend",
  "user.unsuspend",
  "user.ban",
  "user.unban",
  "user.adjust_balance",
  "session.revoke",
  "approval.request",
  "approval.approve",
  "approval.reject",
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** What waits for a second operator: a large payout, any manual balance adjustment, a large house-funded pool. */
export const APPROVAL_KINDS = ["payout", "adjustment", "house_pool"] as const;
export type ApprovalKind = (typeof APPROVAL_KINDS)[number];
export const APPROVAL_STATUSES = ["pending", "approved", "rejected"] as const;
export type ApprovalStatus = (typeof APPROVAL_STATUSES)[number];
