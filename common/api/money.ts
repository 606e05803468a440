// The money API's contract: request schemas (shared by the Worker's validation and the web
// forms) and response shapes. USD numbers at the edge; the schemas' amounts come out as cents.
import { z } from "zod";
import { MONEY, VALIDATION as V } from "../messages";
import { formatCents, hasDigitsPastCents, dollarsToCentsExact, type Cents } from "../domain/money";
import { isValidRoutingNumber } from "../domain/payment-checks";
import { isAchReturnCode, isIsoDate } from "../domain/ach-returns";
import {
  ACCOUNT_HOLDER_NAME_MAX,
  ACCOUNT_HOLDER_NAME_MIN,
  BANK_ACCOUNT_TYPES,
  DEFAULT_MAX_DEPOSIT_CENTS,
  MAX_AMOUNT_CENTS,
  MIN_DEPOSIT_CENTS,
  MIN_WITHDRAWAL_CENTS,
  WITHDRAWAL_METHODS,
} from "../spec";
import type { Transaction } from "./types";

/**
 * A positive USD amount with at most 2 decimals, as a number or numeric text (form fields),
 * parsed to integer cents. A finer amount is refused, never rounded (0.000000001 is not $0.00).
 */
export const usdCentsSchema = z
  .union([z.number(), z.string()], {
    error: (iss) => (iss.input === undefined || iss.input === null ? V.amountRequired : V.amountPositive),
  })
  .transform((raw, ctx): Cents => {
    const text = typeof raw === "string" ? raw.trim() : null;
    if (text === "") {
      ctx.addIssue({ code: "custom", message: V.amountRequired });
      return z.NEVER;
    }
    const usd = text === null ? (raw as number) : /^[+]?\d*\.?\d+$/.test(text) ? Number(text) : Number.NaN;
    if (!Number.isFinite(usd) || usd <= 0) {
      ctx.addIssue({ code: "custom", message: V.amountPositive });
      return z.NEVER;
    }
    // Text is checked digit by digit: "5.0000000000000001" would otherwise parse to exactly 5.
    const cents = text !== null && hasDigitsPastCents(text) ? null : dollarsToCentsExact(usd);
    if (cents === null) {
      ctx.addIssue({ code: "custom", message: MONEY.amountDecimals });
      return z.NEVER;
    }
    if (cents > MAX_AMOUNT_CENTS) {
      ctx.addIssue({ code: "custom", message: MONEY.amountTooLarge });
      return z.NEVER;
    }
    return cents;
  });

/** The deposit amount within the limits; the maximum comes from GET /api/config. */
export const depositCentsSchema = (maxDepositCents: Cents = DEFAULT_MAX_DEPOSIT_CENTS) =>
  usdCentsSchema
    .refine((c) => c >= MIN_DEPOSIT_CENTS, { message: MONEY.minDeposit(formatCents(MIN_DEPOSIT_CENTS)) })
    .refine((c) => c <= maxDepositCents, { message: MONEY.maxDeposit(formatCents(maxDepositCents)) });

/**
 * POST /api/create-payment-intent. The Idempotency-Key header (optional) makes one checkout visit
 * one PaymentIntent however often it is posted (docs/payments.md).
 */
export const createPaymentIntentSchema = (maxDepositCents?: Cents) =>
  z.object({
    amount: depositCentsSchema(maxDepositCents),
  });

const paymentIntentId = z.string({ error: "paymentIntentId is required" }).regex(/^pi_[A-Za-z0-9_]{1,200}$/, "Invalid payment intent id");

export const clientSecretSchema = z
  .string({ error: "clientSecret is required" })
  .regex(/^pi_[A-Za-z0-9_]{1,200}_secret_[A-Za-z0-9_]{1,200}$/, "Invalid client secret");

/** POST /api/deposit/confirm. The amount is only compared with the provider's; it never decides the credit. */
export const depositConfirmSchema = z.object({
  paymentIntentId,
  amount: usdCentsSchema.optional(),
});

/** GET /api/payment-intent?clientSecret=… */
export const paymentIntentQuerySchema = z.object({ clientSecret: clientSecretSchema });

const cardField = (message: string) =>
  z.union([z.string(), z.number()], { error: message }).transform((v) => String(v).replace(/[\s-]/g, ""));

/** POST /api/sandbox/confirm-payment: the sandbox card form. Card data is checked, never stored. */
/**
 * POST /api/sandbox/reversal: what the card issuer would do to a sandbox payment (loopback and
 * SANDBOX_HOSTS only), run through the same code as Stripe's webhook events.
 */
export const sandboxReversalEvents = [
  "refund",
  "dispute_inquiry",
  "dispute_created",
  "dispute_escalated",
  "funds_withdrawn",
  "funds_reinstated",
  "dispute_won",
  "dispute_lost",
] as const;
export const sandboxReversalSchema = z.object({
  paymentIntentId: z.string().min(1).max(100),
  event: z.enum(sandboxReversalEvents),
  /** USD; a refund's or dispute's amount (default: the whole payment). */
  amount: usdCentsSchema.optional(),
  /** The provider event's id (default: a new one): the same id applies once. */
  eventId: z
    .string()
    .regex(/^[A-Za-z0-9_:-]{1,100}$/)
    .optional(),
});

export const sandboxConfirmSchema = z.object({
  clientSecret: clientSecretSchema,
  cardNumber: cardField(MONEY.cardNumberInvalid).pipe(z.string().regex(/^\d{12,19}$/, MONEY.cardNumberInvalid)),
  expMonth: cardField(MONEY.cardExpiryInvalid).pipe(
    z
      .string()
      .regex(/^\d{1,2}$/, MONEY.cardExpiryInvalid)
      .transform(Number)
      .pipe(z.number().min(1, MONEY.cardExpiryInvalid).max(12, MONEY.cardExpiryInvalid)),
  ),
  /** Two or four digits. */
  expYear: cardField(MONEY.cardExpiryInvalid).pipe(
    z
      .string()
      .regex(/^(\d{2}|\d{4})$/, MONEY.cardExpiryInvalid)
      .transform((y) => (y.length === 2 ? 2000 + Number(y) : Number(y))),
  ),
  cvc: cardField(MONEY.cvcInvalid).pipe(z.string().regex(/^\d{3,4}$/, MONEY.cvcInvalid)),
});

const digitsField = (required: string) =>
  z
    .string({ error: required })
    .transform((v) => v.replace(/[\s-]/g, ""))
    .refine((v) => v !== "", { message: required });

export const bankAccountSchema = z.object(
  {
    accountHolderName: z
      .string({ error: MONEY.holderNameRequired })
      .trim()
      .min(1, MONEY.holderNameRequired)
      .min(ACCOUNT_HOLDER_NAME_MIN, MONEY.holderNameLength)
      .max(ACCOUNT_HOLDER_NAME_MAX, MONEY.holderNameLength),
    accountNumber: digitsField(MONEY.accountNumberRequired).pipe(z.string().regex(/^\d{4,17}$/, MONEY.accountNumberInvalid)),
    routingNumber: digitsField(MONEY.routingNumberRequired).pipe(
      z
        .string()
        .regex(/^\d{9}$/, MONEY.routingNumberFormat)
        .refine(isValidRoutingNumber, MONEY.routingNumberInvalid),
    ),
    accountType: z.enum(BANK_ACCOUNT_TYPES, { error: MONEY.accountTypeInvalid }).default("checking"),
  },
  { error: MONEY.bankDetailsMissing },
);

/** A withdrawal amount: whole cents, at least the minimum. */
export const withdrawalCentsSchema = usdCentsSchema.refine((c) => c >= MIN_WITHDRAWAL_CENTS, {
  message: MONEY.minWithdrawal(formatCents(MIN_WITHDRAWAL_CENTS)),
});

/** POST /api/withdrawal/confirm. The balance check happens on the server, inside the debit itself. */
export const withdrawalSchema = z.object({
  amount: withdrawalCentsSchema,
  withdrawalMethod: z
    .string({ error: V.methodRequired })
    .trim()
    .min(1, V.methodRequired)
    .pipe(z.enum(WITHDRAWAL_METHODS, { error: MONEY.methodUnsupported })),
  bankAccount: bankAccountSchema,
});

export const payoutStatuses = ["pending", "paid", "failed"] as const;
export type PayoutStatus = (typeof payoutStatuses)[number];

/**
 * POST /api/admin/payouts/:id/failed: a reason; or, for a payout of an exported ACH file, the
 * bank's return (its R-code and the date the bank returned it), with the reason as an optional note.
 */
export const payoutFailSchema = z
  .object({
    reason: z.string({ error: MONEY.payoutReasonRequired }).trim().max(500, "Reason must be at most 500 characters").optional(),
    returnCode: z.string({ error: MONEY.returnCodeInvalid }).trim().refine(isAchReturnCode, MONEY.returnCodeInvalid).optional(),
    returnDate: z.string({ error: MONEY.returnDateInvalid }).refine(isIsoDate, MONEY.returnDateInvalid).optional(),
  })
  .superRefine((v, ctx) => {
    if ((v.returnCode === undefined) !== (v.returnDate === undefined)) {
      ctx.addIssue({ code: "custom", message: MONEY.returnCodeAndDate, path: [v.returnCode === undefined ? "returnCode" : "returnDate"] });
    } else if (v.returnCode === undefined && !v.reason) {
      ctx.addIssue({ code: "custom", message: MONEY.payoutReasonRequired, path: ["reason"] });
    }
  });

export type CreatePaymentIntentInput = z.input<ReturnType<typeof createPaymentIntentSchema>>;
export type DepositConfirmInput = z.input<typeof depositConfirmSchema>;
export type SandboxConfirmInput = z.input<typeof sandboxConfirmSchema>;
export type WithdrawalInput = z.input<typeof withdrawalSchema>;
export type BankAccountInput = z.input<typeof bankAccountSchema>;

// Responses.

export type PaymentProviderName = "stripe" | "sandbox";

/** GET /api/config: what the web app needs to know about this deployment. */
export interface PublicConfig {
  /** Who takes cards on this site; null when it takes none (no Stripe key, or the sandbox off its hosts). */
  paymentProvider: PaymentProviderName | null;
  stripePublishableKey: string | null;
  minDeposit: number;
  maxDeposit: number;
  /** The operator's support address (var SUPPORT_EMAIL); null until one is configured. */
  supportEmail: string | null;
  /** Cloudflare Turnstile's site key while the bot check is on (registration, paid joins); null when off. */
  turnstileSiteKey: string | null;
}

/** POST /api/create-payment-intent */
export interface CreatePaymentIntentResponse {
  clientSecret: string;
  paymentIntentId: string;
}

/** POST /api/sandbox/confirm-payment (a declined card is a 402 with `{message}`). */
export interface SandboxConfirmResponse {
  status: "succeeded";
  paymentIntentId: string;
}

/** Stripe's PaymentIntent statuses; the sandbox uses the first and the last. */
export const paymentIntentStatuses = [
  "requires_payment_method",
  "requires_confirmation",
  "requires_action",
  "processing",
  "requires_capture",
  "canceled",
  "succeeded",
] as const;
export type PaymentIntentStatus = (typeof paymentIntentStatuses)[number];

/** GET /api/payment-intent */
export interface PaymentIntentSummary {
  id: string;
  status: PaymentIntentStatus;
  amount: number;
}

/** POST /api/deposit/confirm */
export interface DepositConfirmResponse {
  balance: number;
  transaction: Transaction;
}

export interface Payout {
  id: number;
  amount: number;
  status: PayoutStatus;
  accountLast4: string;
  createdAt: string;
}

/** GET /api/wallet: the balance and what of it may leave now. */
export interface WalletSummary {
  balance: number;
  /** What a withdrawal may take now: the balance less recent deposits (and, off the sandbox hosts, sandbox deposits). */
  withdrawableBalance: number;
  /** balance - withdrawableBalance. */
  heldBalance: number;
  /** The part of withdrawableBalance that a withdrawal sends back to the cards that paid it (closed loop; no hold applies). */
  cardRefundable: number;
  /** Why part of the balance is held, in words; null when nothing is. */
  heldReason: string | null;
  /** When more becomes withdrawable (the next recent deposit's hold ends); null when nothing frees with time. */
  nextReleaseAt: string | null;
  /** Owed after a card refund or dispute the balance could not cover; the next deposit settles it first. */
  owed: number;
  /** Set while the account may not join or withdraw; the message says why and what to do. */
  frozen: { reason: string; message: string; since: string } | null;
}

/** One card deposit's share of a withdrawal, sent back to that card (closed loop). */
export interface CardRefundPart {
  amount: number;
  /** The card's last 4 digits; null when the provider does not say. */
  cardLast4: string | null;
  /** pending while the provider is asked; failed gave the money back to the balance. */
  status: "pending" | "completed" | "failed";
  /** "$20.00 back to your card ending 4242". */
  message: string;
  transaction: Transaction;
}

/** POST /api/withdrawal/confirm: the card part(s) first, the rest (winnings) to the bank account. */
export interface WithdrawalResponse {
  balance: number;
  /** The bank part's ledger row; null when everything went back to cards. */
  transaction: Transaction | null;
  /** The bank part's payout; null when everything went back to cards. */
  payout: Payout | null;
  cardRefunds: CardRefundPart[];
  /** Sent back to cards (not counting failed refunds, whose money is back in the balance). */
  cardAmount: number;
  bankAmount: number;
  /** "$30.00 to your bank account, 1-3 business days"; null without a bank part. */
  bankMessage: string | null;
}

/** The operator's view of a payout (POST /api/admin/payouts/:id/paid, …/failed; the queue adds more: common/api/payouts.ts). */
export interface AdminPayout extends Payout {
  userId: number;
  username: string;
  method: string;
  accountHolderName: string;
  accountType: "checking" | "savings";
  routingNumber: string;
  failureReason: string | null;
  processedAt: string | null;
}
