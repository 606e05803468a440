// The two-person rule: an action above its threshold is stored as a pending approval with the
// validated request, and is carried out only when another operator approves it. Each kind's
// owner registers how it is carried out (registerApprovalExecutor) in its own route module.
import type { Context } from "hono";
import type { ApprovalKind } from "../../common/api/console";
import { DEFAULT_TWO_PERSON_HOUSE_POOL_CENTS, DEFAULT_TWO_PERSON_PAYOUT_CENTS } from "../../common/spec";
import type { Db } from "../db/client";
import type { AppEnv } from "../http/app-env";
import { currentUser } from "../http/middleware";
import { sha256Hex } from "../auth/bytes";
import { canonicalJson } from "../../common/domain/canonical-json";

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
  /**
   * What it is about (payout:{id}, user:{id}, held_prize:{id}, tournament:{id}); absent, a hash of
   * the payload. A pending request of the same kind, target and amount is the same request.
   */
  target?: string;
  /** The player account the action pays, whose operator may not approve it; null when it pays nobody. */
  beneficiaryId: number | null;
  /** The validated request, carried out as is on approval. */
  payload: unknown;
  /** One line for the approver: what will happen. */
  summary: string;
  amountCents: number;
}

const payloadHash = (payload: unknown) => sha256Hex(canonicalJson(payload));

/**
 * Stores a pending approval asked for by the signed-in operator, with its audit row, in one batch;
 * or, when the same request (kind, target, amount) already waits, answers that one (`created:
 * false`): two clicks, or two operators at once, make one request. The partial unique index
 * approvals_pending_unique decides, so two concurrent requests cannot both insert.
 */
export async function requestApproval(c: Context<AppEnv>, request: ApprovalRequest): Promise<{ id: number; created: boolean }> {
  const me = currentUser(c);
  const d1 = c.env.DB;
  const target = request.target ?? `${request.kind}:${payloadHash(request.payload)}`;
  const existing = () =>
    d1
      .prepare("SELECT id FROM approvals WHERE kind = ? AND target = ? AND amount_cents = ? AND status = 'pending'")
      .bind(request.kind, target, request.amountCents)
      .first<{ id: number }>();
  for (let attempt = 0; attempt < 3; attempt++) {
    const [inserted] = await d1.batch<{ id: number }>([
      d1
        .prepare(
          `INSERT INTO approvals (kind, payload, summary, amount_cents, requested_by, beneficiary_id, target) VALUES (?, ?, ?, ?, ?, ?, ?)
           ON CONFLICT DO NOTHING RETURNING id`,
        )
        .bind(request.kind, JSON.stringify(request.payload), request.summary, request.amountCents, me.id, request.beneficiaryId, target),
      // The approval just inserted is the audit row's target (same batch, same connection); none when it was there already.
      d1
        .prepare(
          `INSERT INTO audit_log (actor_user_id, action, target_type, target_id, after)
           SELECT ?, 'approval.request', 'approval', last_insert_rowid(), ? WHERE changes() > 0`,
        )
        .bind(me.id, JSON.stringify({ kind: request.kind, summary: request.summary, amountCents: request.amountCents })),
    ]);
    const id = inserted?.results[0]?.id;
    if (typeof id === "number") return { id, created: true };
    const waiting = await existing();
    if (waiting) return { id: waiting.id, created: false };
    // Decided between the insert and the read: ask again.
  }
  throw new Error("approval insert returned no id");
}
