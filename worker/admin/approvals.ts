// The two-person rule: an action above its threshold is stored as a pending approval with the
// validated request, and is carried out only when another operator approves it. Each kind's
// owner registers how it is carried out (registerApprovalExecutor) in its own route module.
import type { ApprovalKind } from "../../common/api/console";
import type { Db } from "../db/client";

export interface ApprovalContext {
  env: Env;
  db: Db;
  /** The second operator, who approved. */
  approverId: number;
  /** The operator who asked. */
  requesterId: number;
  approvalId: number;
}

/**
 * Carries out an approved request; returns a reference to what it created or changed (a
 * tournament id, a ledger reference, a payout id). It must be safe to run again for the same
 * approval (a retry after a lost reply): use the approval id in its ledger references.
 */
export type ApprovalExecutor = (ctx: ApprovalContext, payload: unknown) => Promise<string>;

const executors = new Map<ApprovalKind, ApprovalExecutor>();

export function registerApprovalExecutor(kind: ApprovalKind, execute: ApprovalExecutor): void {
  executors.set(kind, execute);
}

export function approvalExecutor(kind: ApprovalKind): ApprovalExecutor {
  const execute = executors.get(kind);
  if (!execute) throw new Error(`no executor registered for approvals of kind ${kind}`);
  return execute;
}
