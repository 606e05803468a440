// Crediting a deposit: the one path shared by POST /api/deposit/confirm and the Stripe webhook.
// The ledger reference is the PaymentIntent id, so whichever arrives first decides and the other
// finds the row already there. The decision (credit, or refund to the card) is taken inside the
// D1 batch that writes the row, from the player's state as it is then: deposit limits, the largest
// deposit, breaks, suspension, a closed account, a cancelled checkout, age, and the request's
// region (docs/payments.md, "Checked again when the money arrives").
import { MONEY } from "../../common/messages";
import { DEPOSIT_CURRENCY, LIMIT_WINDOWS_MS } from "../../common/spec";
import { formatCents } from "../../common/domain/money";
import { HttpError } from "../http/errors";
import { runAtomically } from "../money/ledger";
import { applyEarlyReversals, repaymentStatements } from "./reversals";
import { inheritExclusionStatement } from "../responsible-play/excluded-identities";
import type { PaymentProviderName } from "../../common/api/money";
import type { PaymentProvider, ProviderIntent } from "./provider";

/**
 * Why this intent may not be credited to this user, or null when it may. Only the provider's
 * own record counts; `claimedCents` (what the browser says it paid) is only compared.
 */
export function depositRefusal(intent: ProviderIntent, userId: number, claimedCents?: number): HttpError | null {
  if (intent.userId !== userId) return new HttpError(403, "payment_other_account", MONEY.paymentOtherAccount);
  if (intent.currency !== DEPOSIT_CURRENCY) return new HttpError(400, "currency_unsupported", MONEY.currencyUnsupported);
  if (!Number.isSafeInteger(intent.amountCents) || intent.amountCents <= 0)
    return new HttpError(400, "amount_mismatch", MONEY.amountMismatch);
  if (claimedCents !== undefined && claimedCents !== intent.amountCents) return new HttpError(400, "amount_mismatch", MONEY.amountMismatch);
  if (intent.status !== "succeeded") return new HttpError(409, "payment_not_succeeded", MONEY.paymentNotSucceeded);
  return null;
}

/** What the credit checks besides the player's stored state. */
export interface CreditChecks {
  now: number;
  /** MAX_DEPOSIT_CENTS of the deployment. */
  maxDepositCents: number;
  /** The minimum age where the request comes from; the webhook has no request and uses the default. */
  minAge: number;
  /** The barred region the request comes from, or null (open, unknown, or the webhook). */
  barredRegion: string | null;
  /** The keyed hash of a card fingerprint (excluded-identities.ts cardHash), to match cards a deleted self-excluded account used. */
  hashCard?: (fingerprint: string) => string;
}

export type DepositRefusalCode = keyof typeof MONEY.depositRefusedWhy;

/** `inherited`: the paying card took over a deleted self-excluded account's exclusion in this credit. */
export type CreditOutcome = (
  { kind: "credited"; fresh: boolean } | { kind: "refunded"; reason: DepositRefusalCode; message: string; refundedAt: number | null }
) & { inherited?: boolean };

/** In words, why a payment was refused at credit. */
export function refusalWhy(reason: DepositRefusalCode, checks: Pick<CreditChecks, "maxDepositCents" | "minAge">): string {
  const why = MONEY.depositRefusedWhy[reason];
  if (reason === "max_deposit") return MONEY.depositRefusedWhy.max_deposit(formatCents(checks.maxDepositCents));
  if (reason === "underage") return MONEY.depositRefusedWhy.underage(checks.minAge);
  return why as string;
}

const ACTIVE_EXCLUSION = (kind: string) =>
  `EXISTS (SELECT 1 FROM exclusions e WHERE e.user_id = u.id AND e.kind = '${kind}' AND e.starts_at <= ?4 AND (e.ends_at IS NULL OR e.ends_at > ?4))`;

/** A limit's amount in force at ?4: a waiting raise or removal whose time has come applies (settleLimit). */
export const LIMIT_IN_FORCE = (l: string, now: string) =>
  `(CASE WHEN ${l}.pending_from IS NOT NULL AND ${l}.pending_from <= ${now} THEN ${l}.pending_amount_cents ELSE ${l}.amount_cents END)`;

/**
 * The refusal code for crediting ?2 cents of intent ?3 to user ?1 at ?4, or NULL: evaluated in
 * the batch, so a limit, a break or a suspension that changed a moment before is seen. Only
 * credited deposits count against a limit here (an open checkout is not money yet).
 * Binds: ?5 max deposit, ?6 barred region or NULL, ?7 latest date of birth old enough
 * (YYYY-MM-DD), ?8/?9/?10 the daily/weekly/monthly windows in ms.
 */
const REFUSAL = `CASE
  WHEN ?2 > ?5 THEN 'max_deposit'
  WHEN u.deleted_at IS NOT NULL OR u.banned_at IS NOT NULL THEN 'account_closed'
  WHEN u.suspended_at IS NOT NULL THEN 'account_suspended'
  WHEN ${ACTIVE_EXCLUSION("self_exclusion")} THEN 'self_excluded'
  WHEN ${ACTIVE_EXCLUSION("cool_off")} THEN 'cooling_off'
  WHEN EXISTS (SELECT 1 FROM deposit_intents c WHERE c.id = ?3 AND c.status = 'cancelled') THEN 'checkout_cancelled'
  WHEN ?6 IS NOT NULL THEN 'region_barred'
  WHEN u.date_of_birth IS NULL THEN 'date_of_birth_required'
  WHEN u.date_of_birth > ?7 THEN 'underage'
  WHEN u.identity_duplicate_of IS NOT NULL THEN 'identity_duplicate_account'
  ELSE (SELECT l.kind FROM play_limits l
        WHERE l.user_id = u.id AND l.kind IN ('deposit_daily', 'deposit_weekly', 'deposit_monthly')
          AND ${LIMIT_IN_FORCE("l", "?4")} IS NOT NULL
          AND ?2 + (SELECT coalesce(sum(t.amount_cents), 0) FROM transactions t
                    WHERE t.user_id = u.id AND t.type = 'deposit' AND t.status IN ('completed', 'pending')
                      AND t.created_at > ?4 - (CASE l.kind WHEN 'deposit_daily' THEN ?8 WHEN 'deposit_weekly' THEN ?9 ELSE ?10 END))
              > ${LIMIT_IN_FORCE("l", "?4")}
        ORDER BY CASE l.kind WHEN 'deposit_monthly' THEN 1 WHEN 'deposit_weekly' THEN 2 ELSE 3 END LIMIT 1)
END`;

/** The latest date of birth that is `minAge` years old on `now` (UTC), as YYYY-MM-DD: older dates compare lower. */
export function latestBirthDate(now: number, minAge: number): string {
  const d = new Date(now);
  const pad = (n: number, w = 2) => String(n).padStart(w, "0");
  return `${pad(d.getUTCFullYear() - minAge, 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
}

/**
 * Decides and posts the deposit in one batch: the checkout's local record is created if it is
 * missing (an intent from before deposit_intents), the refusal code is evaluated once while no
 * ledger row exists, then the ledger row is written either as a completed deposit (which also
 * repays what a card refund or dispute left owed) or as a refunded one, which never enters the
 * balance. The reference is the intent id, so the first decision is the only one.
 */
export async function creditDeposit(
  d1: D1Database,
  intent: ProviderIntent,
  userId: number,
  provider: PaymentProviderName,
  checks: CreditChecks,
): Promise<CreditOutcome> {
  const usd = formatCents(intent.amountCents);
  const rowDescriptions = Object.fromEntries(
    (Object.keys(MONEY.depositRefusedWhy) as DepositRefusalCode[]).map((code) => [
      code,
      MONEY.depositRefundedRow(usd, refusalWhy(code, checks)),
    ]),
  );
  const binds = [
    userId,
    intent.amountCents,
    intent.id,
    checks.now,
    checks.maxDepositCents,
    checks.barredRegion,
    latestBirthDate(checks.now, checks.minAge),
    LIMIT_WINDOWS_MS.daily,
    LIMIT_WINDOWS_MS.weekly,
    LIMIT_WINDOWS_MS.monthly,
  ];
  // The card that paid: kept on the checkout (an account's deletion keeps it when self-excluded),
  // and a card a deleted self-excluded account used hands its exclusion over before the decision.
  const fingerprint = intent.cardFingerprint ?? null;
  const cardStatements =
    fingerprint && checks.hashCard
      ? [
          d1
            .prepare("UPDATE deposit_intents SET card_fingerprint = ?1 WHERE id = ?2 AND user_id = ?3")
            .bind(fingerprint, intent.id, userId),
          inheritExclusionStatement(d1, userId, "card", [checks.hashCard(fingerprint)], checks.now),
        ]
      : [];
  const results = await runAtomically(d1, [
    d1
      .prepare(`INSERT INTO deposit_intents (id, user_id, amount_cents, status) VALUES (?1, ?2, ?3, 'open') ON CONFLICT (id) DO NOTHING`)
      .bind(intent.id, userId, intent.amountCents),
    ...cardStatements,
    // The decision, once: only while the ledger has no row for this payment.
    d1
      .prepare(
        `UPDATE deposit_intents SET
           refund_reason = (SELECT ${REFUSAL} FROM users u WHERE u.id = ?1),
           status = CASE WHEN (SELECT ${REFUSAL} FROM users u WHERE u.id = ?1) IS NULL THEN 'credited' ELSE 'refunded' END
         WHERE id = ?3 AND user_id = ?1 AND status IN ('open', 'cancelled')
           AND NOT EXISTS (SELECT 1 FROM transactions WHERE reference = ?3)`,
      )
      .bind(...binds),
    d1
      .prepare(
        `INSERT INTO transactions (user_id, amount_cents, type, status, reference, description, provider)
         SELECT ?1, ?2, 'deposit', CASE i.status WHEN 'refunded' THEN 'refunded' ELSE 'completed' END, ?3,
                CASE i.status WHEN 'refunded' THEN json_extract(?5, '$.' || i.refund_reason) ELSE ?4 END, ?6
         FROM deposit_intents i WHERE i.id = ?3 AND i.user_id = ?1 AND i.status IN ('credited', 'refunded')
         ON CONFLICT (reference) DO NOTHING`,
      )
      .bind(
        userId,
        intent.amountCents,
        intent.id,
        `Card deposit of $${usd}${provider === "sandbox" ? " (sandbox)" : ""}`,
        JSON.stringify(rowDescriptions),
        provider,
      ),
    ...repaymentStatements(d1, userId, intent.id, intent.amountCents),
  ]);
  const fresh = (results[2 + cardStatements.length] ?? 0) > 0;
  const inherited = cardStatements.length > 0 && (results[2] ?? 0) > 0;
  const row = await d1
    .prepare(
      `SELECT t.status, i.refund_reason AS reason, i.refunded_at AS refundedAt
       FROM transactions t LEFT JOIN deposit_intents i ON i.id = t.reference WHERE t.reference = ? AND t.user_id = ?`,
    )
    .bind(intent.id, userId)
    .first<{ status: string; reason: string | null; refundedAt: number | null }>();
  if (!row) throw new Error("deposit row missing after credit");
  if (row.status !== "refunded") return { kind: "credited", fresh, inherited };
  const reason = (row.reason ?? "account_closed") as DepositRefusalCode;
  return {
    kind: "refunded",
    reason,
    refundedAt: row.refundedAt,
    message: MONEY.depositRefunded(usd, refusalWhy(reason, checks)),
    inherited,
  };
}

/**
 * Credits the payment or, when it may not be credited, has the provider refund it to the card
 * (idempotent at the provider: every caller asks for the same refund) and records that it did.
 * A refund the provider did not confirm throws, so the webhook is retried and the refund with it.
 */
export async function creditOrRefund(
  d1: D1Database,
  provider: PaymentProvider,
  intent: ProviderIntent,
  userId: number,
  checks: CreditChecks,
): Promise<CreditOutcome> {
  const outcome = await creditDeposit(d1, intent, userId, provider.name, checks);
  // A break taken over from the card: the player's other open checkouts go too, as when a break starts.
  if (outcome.inherited) await cancelOpenCheckouts(d1, provider, userId);
  if (outcome.kind === "refunded" && outcome.refundedAt === null) {
    await provider.refundIntent(intent.id, outcome.reason);
    const at = Date.now();
    await d1.prepare("UPDATE deposit_intents SET refunded_at = ? WHERE id = ? AND refunded_at IS NULL").bind(at, intent.id).run();
    return { ...outcome, refundedAt: at };
  }
  // Refunds and disputes the provider reported before the credit now apply (once per event).
  if (outcome.kind === "credited") await applyEarlyReversals(d1, intent.id);
  return outcome;
}

/** The 409 a player gets for a payment that was refunded rather than credited. */
export const depositRefunded = (outcome: Extract<CreditOutcome, { kind: "refunded" }>) =>
  new HttpError(409, "deposit_refunded", outcome.message);

/** Records a checkout the provider created, so it counts against the limits while it is open. */
export function recordCheckout(d1: D1Database, intent: ProviderIntent, userId: number): Promise<unknown> {
  return d1
    .prepare("INSERT INTO deposit_intents (id, user_id, amount_cents, status) VALUES (?, ?, ?, 'open') ON CONFLICT (id) DO NOTHING")
    .bind(intent.id, userId, intent.amountCents)
    .run();
}

/**
 * A break started: the player's open checkouts are cancelled here first (so a payment that still
 * arrives for one is refused and refunded), then at the provider (best effort: one already paid
 * cannot be cancelled and is refunded when it arrives).
 */
export async function cancelOpenCheckouts(d1: D1Database, provider: PaymentProvider | null, userId: number): Promise<string[]> {
  const { results } = await d1
    .prepare(
      `UPDATE deposit_intents SET status = 'cancelled'
       WHERE user_id = ? AND status = 'open' AND NOT EXISTS (SELECT 1 FROM transactions t WHERE t.reference = deposit_intents.id)
       RETURNING id`,
    )
    .bind(userId)
    .all<{ id: string }>();
  const ids = results.map((r) => r.id);
  if (provider) {
    await Promise.all(
      ids.map((id) =>
        provider.cancelIntent(id).catch((e: unknown) => console.warn("checkout not cancelled at the provider", { id, error: String(e) })),
      ),
    );
  }
  return ids;
}
