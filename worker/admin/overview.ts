// The console's overview: the ledger summed by type over today and the last 30 UTC days, what the
// house owes its players, and the reconciliation (docs/operating.md, "Reconciliation").
// Only rows that moved money count: completed and pending (held and forfeited prizes are not in
// any balance, failed rows were given back).
import type { AdminOverview, BalanceMismatch, OverviewFigures } from "../../common/api/console";
import { centsToDollars } from "../../common/domain/money";
import { questionSupply } from "../questions/supply";

const DAY_MS = 86_400_000;
const CHART_DAYS = 30;
const MISMATCH_LIMIT = 100;
const COUNTED = "status IN ('completed', 'pending')";

interface TypeSums {
  deposits: number;
  withdrawals: number;
  entry_fees: number;
  entry_refunds: number;
  prizes: number;
  card_refunds: number;
  chargebacks: number;
  chargeback_reversals: number;
  adjustments: number;
  credit_adjustments: number;
  debit_adjustments: number;
}

// Outgoing types are stored negative; the overview shows every figure as a positive amount except
// the adjustments, which are net.
const TYPE_SUMS = `
  coalesce(sum(CASE WHEN type = 'deposit' THEN amount_cents END), 0) AS deposits,
  coalesce(-sum(CASE WHEN type = 'withdrawal' THEN amount_cents END), 0) AS withdrawals,
  coalesce(-sum(CASE WHEN type = 'tournament_entry' THEN amount_cents END), 0) AS entry_fees,
  coalesce(sum(CASE WHEN type = 'refund' THEN amount_cents END), 0) AS entry_refunds,
  coalesce(sum(CASE WHEN type = 'prize' THEN amount_cents END), 0) AS prizes,
  coalesce(-sum(CASE WHEN type = 'card_refund' THEN amount_cents END), 0) AS card_refunds,
  coalesce(-sum(CASE WHEN type = 'chargeback' THEN amount_cents END), 0) AS chargebacks,
  coalesce(sum(CASE WHEN type = 'chargeback_reversal' THEN amount_cents END), 0) AS chargeback_reversals,
  coalesce(sum(CASE WHEN type = 'adjustment' THEN amount_cents END), 0) AS adjustments,
  coalesce(sum(CASE WHEN type = 'adjustment' AND amount_cents > 0 THEN amount_cents END), 0) AS credit_adjustments,
  coalesce(-sum(CASE WHEN type = 'adjustment' AND amount_cents < 0 THEN amount_cents END), 0) AS debit_adjustments`;

// A prize's reference is prize:{tournament}:{user}; the tournament id is the part between the colons.
const PRIZE_TOURNAMENT = "CAST(substr(reference, 7, instr(substr(reference, 7), ':') - 1) AS INTEGER)";

async function figures(d1: D1Database, from: number): Promise<OverviewFigures> {
  const [sums, house, funded] = await d1.batch([
    d1.prepare(`SELECT ${TYPE_SUMS} FROM transactions WHERE ${COUNTED} AND created_at >= ?`).bind(from),
    // The rake of the paid tournaments settled in the period: the fees of the players who stayed
    // in, less the pool those fees made (common/domain/prizes.ts).
    d1
      .prepare(
        `SELECT coalesce(sum(entry_fee_cents * current_participants - prize_pool_cents), 0) AS cents FROM tournaments
         WHERE settled_at >= ? AND is_free = 0 AND kind = 'standard' AND status = 'completed'`,
      )
      .bind(from),
    d1
      .prepare(
        `SELECT coalesce(sum(t.amount_cents), 0) AS cents FROM transactions t JOIN tournaments r ON r.id = ${PRIZE_TOURNAMENT.replaceAll("reference", "t.reference")}
         WHERE t.type = 'prize' AND t.${COUNTED} AND t.created_at >= ? AND t.reference LIKE 'prize:%' AND r.is_free = 1`,
      )
      .bind(from),
  ]);
  const s = sums!.results[0] as TypeSums;
  const usd = centsToDollars;
  return {
    deposits: usd(s.deposits),
    withdrawals: usd(s.withdrawals),
    entryFees: usd(s.entry_fees),
    entryRefunds: usd(s.entry_refunds),
    prizes: usd(s.prizes),
    houseShare: usd((house!.results[0] as { cents: number }).cents),
    houseFundedPrizes: usd((funded!.results[0] as { cents: number }).cents),
    cardRefunds: usd(s.card_refunds),
    chargebacks: usd(s.chargebacks),
    chargebackReversals: usd(s.chargeback_reversals),
    adjustments: usd(s.adjustments),
  };
}

const dayKey = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** `demoReuse`: the deployment reuses the demo bank (DEMO_QUESTION_REUSE), so only a skipped slot is worth a warning. */
export async function buildOverview(d1: D1Database, now = Date.now(), demoReuse = false): Promise<AdminOverview> {
  const todayStart = Math.floor(now / DAY_MS) * DAY_MS;
  const periodStart = todayStart - (CHART_DAYS - 1) * DAY_MS;
  const [today, last30Days, supply] = await Promise.all([figures(d1, todayStart), figures(d1, periodStart), questionSupply(d1, now)]);

  const [balances, payouts, daily, whole, mismatches] = await d1.batch([
    d1.prepare("SELECT coalesce(sum(balance_cents), 0) AS cents FROM users"),
    d1.prepare("SELECT count(*) AS count, coalesce(sum(amount_cents), 0) AS cents FROM payouts WHERE status = 'pending'"),
    d1
      .prepare(
        `SELECT (created_at / ${DAY_MS}) * ${DAY_MS} AS day,
           coalesce(sum(CASE WHEN type = 'deposit' THEN amount_cents END), 0) AS deposits,
           coalesce(-sum(CASE WHEN type = 'withdrawal' THEN amount_cents END), 0) AS withdrawals,
           coalesce(-sum(CASE WHEN type = 'tournament_entry' THEN amount_cents END), 0) AS entry_fees
         FROM transactions WHERE ${COUNTED} AND created_at >= ? GROUP BY day`,
      )
      .bind(periodStart),
    d1.prepare(`SELECT ${TYPE_SUMS} FROM transactions WHERE ${COUNTED}`),
    d1.prepare(
      `SELECT u.id, u.username, u.balance_cents AS balance, coalesce(l.cents, 0) AS ledger FROM users u
         LEFT JOIN (SELECT user_id, sum(amount_cents) AS cents FROM transactions WHERE ${COUNTED} GROUP BY user_id) l ON l.user_id = u.id
         WHERE u.balance_cents <> coalesce(l.cents, 0) ORDER BY abs(u.balance_cents - coalesce(l.cents, 0)) DESC, u.id LIMIT ${MISMATCH_LIMIT}`,
    ),
  ]);

  const balanceCents = (balances!.results[0] as { cents: number }).cents;
  const pending = payouts!.results[0] as { count: number; cents: number };
  const byDay = new Map(
    (daily!.results as { day: number; deposits: number; withdrawals: number; entry_fees: number }[]).map((r) => [r.day, r]),
  );
  const w = whole!.results[0] as TypeSums;
  const moneyIn = w.deposits + w.prizes + w.entry_refunds + w.chargeback_reversals + w.credit_adjustments;
  const moneyOut = w.withdrawals + w.entry_fees + w.card_refunds + w.chargebacks + w.debit_adjustments;
  const difference = moneyIn - moneyOut - balanceCents;
  const accounts: BalanceMismatch[] = (mismatches!.results as { id: number; username: string; balance: number; ledger: number }[]).map(
    (m) => ({
      userId: m.id,
      username: m.username,
      balance: centsToDollars(m.balance),
      ledger: centsToDollars(m.ledger),
      difference: centsToDollars(m.balance - m.ledger),
    }),
  );

  return {
    generatedAt: new Date(now).toISOString(),
    today,
    last30Days,
    playerBalances: centsToDollars(balanceCents),
    pendingPayouts: { count: pending.count, amount: centsToDollars(pending.cents) },
    daily: Array.from({ length: CHART_DAYS }, (_, i) => {
      const day = periodStart + i * DAY_MS;
      const r = byDay.get(day);
      return {
        day: dayKey(day),
        deposits: centsToDollars(r?.deposits ?? 0),
        withdrawals: centsToDollars(r?.withdrawals ?? 0),
        entryFees: centsToDollars(r?.entry_fees ?? 0),
      };
    }),
    lowQuestionSupply: supply.categories
      .filter((c) => (demoReuse ? c.shortfall !== null : c.low))
      .map((c) => ({ categoryId: c.categoryId, name: c.name, fresh: c.fresh, daysLeft: c.daysLeft, refusedSlot: c.shortfall !== null })),
    reconciliation: {
      ok: accounts.length === 0 && difference === 0,
      mismatches: accounts,
      identity: {
        moneyIn: centsToDollars(moneyIn),
        moneyOut: centsToDollars(moneyOut),
        balances: centsToDollars(balanceCents),
        difference: centsToDollars(difference),
        holds: difference === 0,
      },
    },
  };
}
