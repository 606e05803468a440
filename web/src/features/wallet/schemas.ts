// The deposit and withdrawal dialogs' rules, built on the money API's own schemas.
import { z } from "zod";
import { depositCentsSchema, withdrawalCentsSchema, withdrawalSchema } from "@common/api/money";
import { VALIDATION as V } from "@common/messages";
import type { Cents } from "@common/domain/money";

/** Amount required, a positive number, within the deposit limits; parsed to cents. */
export const depositFormSchema = (maxDepositCents?: Cents) => z.object({ amount: depositCentsSchema(maxDepositCents) });

/** Whole cents, at least the minimum withdrawal, not above the balance, and a method (Bank Account is the only one). */
export const withdrawFormSchema = (balanceCents: Cents) =>
  z.object({
    amount: withdrawalCentsSchema.refine((c) => c <= balanceCents, { message: V.amountAboveBalance }),
    method: withdrawalSchema.shape.withdrawalMethod,
  });
