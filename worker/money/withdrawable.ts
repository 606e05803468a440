// The withdrawable part of a player's balance (common/domain/withdrawable.ts) from their ledger:
// the deposits still held and whatever since then moved them (entry fees, their refunds, card
// refunds and disputes).
import { CARD_REFUND_WINDOW_MS } from "../../common/spec";
import {
  depositHoldHours,
  withdrawable,
  type CardRefundable,
  type HoldEvent,
  type HoldInput,
  type Withdrawable,
} from "../../common/domain/withdrawable";
import { activeProvider, isSandboxHost } from "../payments/index";

interface LedgerRow {
  type: string;
  amount_cents: number;
  reference: string | null;
  provider: string | null;
  created_at: number;
}

/** "t:u:n" for the n-th entry of user u in tournament t (entry:t:u, entry:t:u:n, leave:t:u:n); refund:t:u gives back the latest. */
function feeKey(row: LedgerRow, latestEntry: Map<string, string>): string | null {
  const parts = (row.reference ?? "").split(":");
  const [kind, t, u, n] = parts;
  if (!t || !u) return null;
  if (kind === "entry") {
    const key = `${t}:${u}:${n ?? 0}`;
    latestEntry.set(`${t}:${u}`, key);
    return key;
  }
  if (kind === "leave") return `${t}:${u}:${n ?? 0}`;
  if (kind === "refund") return latestEntry.get(`${t}:${u}`) ?? null;
  return null;
}

/**
 * The user's prizes from paid tournaments that are still held: a prize frees no earlier than the
 * latest hold release of any card deposit an entrant of its tournament made within the hold
 * before paying their entry (deposit + hold). Deliberately broad: it does not follow which
 * deposit a fee actually spent, so no path through other money shortens it. Only prizes younger
 * than the hold can be held (their entries, and so those deposits, came before them).
 */
async function heldPrizeEvents(d1: D1Database, userId: number, now: number, holdMs: number): Promise<HoldEvent[]> {
  const { results } = await d1
    .prepare(
      `SELECT p.cents, p.at,
         (SELECT max(d.created_at) FROM transactions e
            JOIN transactions d ON d.user_id = e.user_id AND d.type = 'deposit' AND d.status = 'completed'
                               AND d.created_at <= e.created_at AND d.created_at > e.created_at - ?3
          WHERE e.reference >= 'entry:' || p.tid || ':' AND e.reference < 'entry:' || p.tid || ';'
            AND e.type = 'tournament_entry' AND e.status IN ('completed', 'pending')) + ?3 AS releaseAt
       FROM (SELECT amount_cents AS cents, created_at AS at, substr(reference, 7, instr(substr(reference, 7), ':') - 1) AS tid
             FROM transactions
             WHERE user_id = ?1 AND type = 'prize' AND status = 'completed' AND reference LIKE 'prize:%' AND created_at > ?2 - ?3) p`,
    )
    .bind(userId, now, holdMs)
    .all<{ cents: number; at: number; releaseAt: number | null }>();
  return results
    .filter((r) => r.releaseAt !== null && r.releaseAt > now)
    .map((r) => ({ kind: "prize" as const, cents: r.cents, at: r.at, releaseAt: r.releaseAt! }));
}

export interface WithdrawableFor extends Withdrawable {
  holdHours: number;
  /** What withdrawable() was computed from, for planWithdrawal. */
  input: HoldInput;
}

/** The ledger reference of a withdrawal's card part: the deposit it refunds, then the withdrawal. */
export const cardRefundReference = (paymentIntentId: string, group: string) => `cardrefund:${paymentIntentId}:${group}`;

/**
 * SQL: what of deposit `t` (a transactions row alias) can still go back to its card: its amount
 * less card refunds and disputes the provider reported and less earlier closed-loop refunds that
 * did not fail.
 */
export const CARD_REFUNDABLE_SQL = (t: string) => `(${t}.amount_cents
  - coalesce((SELECT sum(r.amount_cents) FROM payment_reversals r WHERE r.payment_intent_id = ${t}.reference AND r.kind IN ('refund', 'dispute_opened')), 0)
  + coalesce((SELECT sum(c.amount_cents) FROM transactions c
              WHERE c.user_id = ${t}.user_id AND c.type = 'withdrawal' AND c.status IN ('completed', 'pending')
                AND substr(c.reference, 1, length(${t}.reference) + 12) = 'cardrefund:' || ${t}.reference || ':'), 0))`;

/**
 * The card deposits of the last CARD_REFUND_WINDOW_DAYS that can still go back to their card: made
 * through this request's provider (checkouts this app created), less what went back already.
 */
export async function cardRefundable(env: Env, userId: number, url: string, now: number): Promise<CardRefundable[]> {
  const provider = activeProvider(env, url);
  if (provider === null) return [];
  const { results } = await env.DB.prepare(
    `SELECT t.reference AS ref, t.created_at AS at, ${CARD_REFUNDABLE_SQL("t")} AS cents
     FROM transactions t JOIN deposit_intents i ON i.id = t.reference AND i.status = 'credited'
     WHERE t.user_id = ? AND t.type = 'deposit' AND t.status = 'completed' AND t.provider = ? AND t.created_at > ?
     ORDER BY t.created_at DESC, t.id DESC`,
  )
    .bind(userId, provider, now - CARD_REFUND_WINDOW_MS)
    .all<{ ref: string; at: number; cents: number }>();
  return results.filter((r) => r.cents > 0).map((r) => ({ ...r, cardLast4: null }));
}

/** What of `balanceCents` the user may withdraw on the host of `url`, now. */
export async function withdrawableFor(
  env: Env,
  userId: number,
  balanceCents: number,
  url: string,
  now = Date.now(),
): Promise<WithdrawableFor> {
  const holdHours = depositHoldHours(env.DEPOSIT_HOLD_HOURS);
  const holdMs = holdHours * 3_600_000;
  const sandboxWithdrawable = isSandboxHost(env, url);
  const base = { balanceCents, now, holdMs, sandboxWithdrawable, cardRefundable: await cardRefundable(env, userId, url, now) };
  // Only deposits still held matter, and only what happened since the oldest of them.
  const oldest = await env.DB.prepare(
    `SELECT min(created_at) AS since FROM transactions
     WHERE user_id = ? AND type = 'deposit' AND status = 'completed' AND (created_at > ? OR (? AND provider = 'sandbox'))`,
  )
    .bind(userId, now - holdMs, sandboxWithdrawable ? 0 : 1)
    .first<{ since: number | null }>();
  const prizes = await heldPrizeEvents(env.DB, userId, now, holdMs);
  if (oldest?.since == null) return { ...withdrawable({ ...base, events: prizes }), holdHours, input: { ...base, events: prizes } };
  const [ledger, reversals] = await env.DB.batch<
    LedgerRow | { payment_intent_id: string | null; amount_cents: number; created_at: number }
  >([
    env.DB.prepare(
      `SELECT type, amount_cents, reference, provider, created_at FROM transactions
       WHERE user_id = ? AND created_at >= ? AND status IN ('completed', 'pending')
         AND (type IN ('deposit', 'tournament_entry', 'refund') OR (type = 'withdrawal' AND reference LIKE 'cardrefund:%'))
       ORDER BY created_at, id`,
    ).bind(userId, oldest.since),
    env.DB.prepare(
      `SELECT payment_intent_id, amount_cents, created_at FROM payment_reversals
       WHERE user_id = ? AND created_at >= ? AND kind IN ('refund', 'dispute_opened') AND payment_intent_id IS NOT NULL
       ORDER BY id`,
    ).bind(userId, oldest.since),
  ]);
  const events: HoldEvent[] = [...prizes];
  const latestEntry = new Map<string, string>();
  for (const row of (ledger?.results ?? []) as LedgerRow[]) {
    if (row.type === "deposit" && row.reference) {
      events.push({
        kind: "deposit",
        ref: row.reference,
        cents: row.amount_cents,
        at: row.created_at,
        sandbox: row.provider === "sandbox",
      });
      continue;
    }
    if (row.type === "withdrawal") {
      // A withdrawal's card part took its deposit back to the card, as a card refund does.
      const ref = (row.reference ?? "").split(":")[1];
      if (ref) events.push({ kind: "reversal", ref, cents: -row.amount_cents, at: row.created_at });
      continue;
    }
    const key = feeKey(row, latestEntry);
    if (key === null) continue;
    if (row.type === "tournament_entry") events.push({ kind: "fee", key, cents: -row.amount_cents, at: row.created_at });
    else events.push({ kind: "fee_refund", key, cents: row.amount_cents, at: row.created_at });
  }
  for (const r of (reversals?.results ?? []) as { payment_intent_id: string; amount_cents: number; created_at: number }[]) {
    events.push({ kind: "reversal", ref: r.payment_intent_id, cents: r.amount_cents, at: r.created_at });
  }
  return { ...withdrawable({ ...base, events }), holdHours, input: { ...base, events } };
}
