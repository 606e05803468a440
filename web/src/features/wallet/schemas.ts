// The deposit and withdrawal dialogs' rules, built on the money API's own schemas.
import { z } from "zod";
import { depositCentsSchema, withdrawalCentsSchema, withdrawalSchema } from "@common/api/money";
import { MONEY, VALIDATION as V } from "@common/messages";
import { formatCents, type Cents } from "@common/domain/money";

/** Amount required, a positive number, within the deposit limits; parsed to cents. */
export const depositFormSchema = (maxDepositCents?: Cents) => z.object({ amount: depositCentsSchema(maxDepositCents) });

/**
 * Whole cents, at least the minimum withdrawal, not above the balance nor above what can be
 * withdrawn now (held deposits stay), and a method (Bank Account is the only one).
 */
export const withdrawFormSchema = (balanceCents: Cents, withdrawableCents: Cents = balanceCents) =>
  z.object({
    amount: withdrawalCentsSchema
      .refine((c) => c <= balanceCents, { message: V.amountAboveBalance })
      .refine((c) => c > balanceCents || c <= withdrawableCents, { message: MONEY.aboveWithdrawable(formatCents(withdrawableCents)) }),
    method: withdrawalSchema.shape.withdrawalMethod,
  });
