// The two-person rule: an action above its threshold is stored as a pending approval with the
// validated request, and is carried out only when another operator approves it. Each kind's
// owner registers how it is carried out (registerApprovalExecutor) in its own route module.
import type { Context } from "hono";
import type { ApprovalKind } from "../../common/api/console";
import { DEFAULT_TWO_PERSON_HOUSE_POOL_CENTS, DEFAULT_TWO_PERSON_PAYOUT_CENTS } from "../../common/spec";
import type { Db } from "../db/client";
import type { AppEnv } from "../http/app-env";
import { currentUser } from "../http/middleware";

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

/** Dollars from a var, in cents; a missing or nonsensical value falls back to the default. */
const centsVar = (value: string | undefined, fallback: number) => {
  const usd = Number(value);
  return value !== undefined && value.trim() !== "" && Number.isFinite(usd) && usd >= 0 ? Math.round(usd * 100) : fallback;
};

/** Above these amounts a second operator must approve: TWO_PERSON_PAYOUT_USD and TWO_PERSON_HOUSE_POOL_USD (wrangler.toml). */
export function twoPersonThresholds(env: Env) {
  return {
    payoutCents: centsVar(env.TWO_PERSON_PAYOUT_USD, DEFAULT_TWO_PERSON_PAYOUT_CENTS),
    housePoolCents: centsVar(env.TWO_PERSON_HOUSE_POOL_USD, DEFAULT_TWO_PERSON_HOUSE_POOL_CENTS),
  };
}

export interface ApprovalRequest {
  kind: ApprovalKind;
  /** The validated request, carried out as is on approval. */
  payload: unknown;
  /** One line for the approver: what will happen. */
  summary: string;
  amountCents: number;
}

/** Stores a pending approval asked for by the signed-in operator, with its audit row, in one batch. */
export async function requestApproval(c: Context<AppEnv>, request: ApprovalRequest): Promise<{ id: number }> {
  const me = currentUser(c);
  const d1 = c.env.DB;
  const [inserted] = await d1.batch<{ id: number }>([
    d1
      .prepare("INSERT INTO approvals (kind, payload, summary, amount_cents, requested_by) VALUES (?, ?, ?, ?, ?) RETURNING id")
      .bind(request.kind, JSON.stringify(request.payload), request.summary, request.amountCents, me.id),
    // The approval just inserted is the audit row's target (same batch, same connection).
    d1
      .prepare(
        "INSERT INTO audit_log (actor_user_id, action, target_type, target_id, after) VALUES (?, 'approval.request', 'approval', last_insert_rowid(), ?)",
      )
      .bind(me.id, JSON.stringify({ kind: request.kind, summary: request.summary, amountCents: request.amountCents })),
  ]);
  const id = inserted?.results[0]?.id;
  if (typeof id !== "number") throw new Error("approval insert returned no id");
  return { id };
}
