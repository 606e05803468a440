// Responsible play's contract (docs/responsible-play.md): limits, cool-off, self-exclusion and
// the date of birth. USD numbers at the edge; the schemas' amounts come out as cents.
import { z } from "zod";
import { ACCOUNT, RESPONSIBLE } from "../messages";
import { COOL_OFF_PERIODS_MS, DATE_OF_BIRTH_MIN, SELF_EXCLUSION_PERIOD_MONTHS } from "../spec";
import { isIsoDate, LIMIT_KINDS, type LimitKind } from "../domain/responsible-play";
import { usdCentsSchema } from "./money";

export { LIMIT_KINDS, type LimitKind };

export const COOL_OFF_PERIODS = Object.keys(COOL_OFF_PERIODS_MS) as (keyof typeof COOL_OFF_PERIODS_MS)[];
export const SELF_EXCLUSION_PERIODS = Object.keys(SELF_EXCLUSION_PERIOD_MONTHS) as (keyof typeof SELF_EXCLUSION_PERIOD_MONTHS)[];

/** A limit in USD, or null (or empty text) for none. */
const limitCents = z
  .union([z.null(), z.literal(""), usdCentsSchema], { error: RESPONSIBLE.limitInvalid })
  .transform((v) => (v === "" ? null : v));

/** PUT /api/user/responsible-play/limits: the kinds sent change; the others stay as they are. */
export const limitsUpdateSchema = z
  .object(Object.fromEntries(LIMIT_KINDS.map((k) => [k, limitCents.optional()])) as Record<LimitKind, z.ZodOptional<typeof limitCents>>)
  .strict();

const password = z.string({ error: ACCOUNT.passwordRequired }).min(1, ACCOUNT.passwordRequired).max(200);

/** POST /api/user/responsible-play/cool-off: cannot be undone, so the password confirms it. */
export const coolOffSchema = z.object({ period: z.enum(COOL_OFF_PERIODS), password });

/** POST /api/user/responsible-play/self-exclusion: cannot be undone, so the password confirms it. */
export const selfExclusionSchema = z.object({ period: z.enum(SELF_EXCLUSION_PERIODS), password });

/** PUT /api/user/date-of-birth: once; a later change is an operator's matter. */
export const dateOfBirthSchema = z.object({
  dateOfBirth: z
    .string({ error: RESPONSIBLE.dateOfBirthInvalid })
    .trim()
    .refine(isIsoDate, RESPONSIBLE.dateOfBirthInvalid)
    .refine((d) => d >= DATE_OF_BIRTH_MIN, RESPONSIBLE.dateOfBirthTooEarly)
    .refine((d) => d <= new Date().toISOString().slice(0, 10), RESPONSIBLE.dateOfBirthFuture),
});

export type LimitsUpdateInput = z.input<typeof limitsUpdateSchema>;
export type CoolOffInput = z.infer<typeof coolOffSchema>;
export type SelfExclusionInput = z.infer<typeof selfExclusionSchema>;
export type DateOfBirthInput = z.infer<typeof dateOfBirthSchema>;

/** One limit as the player sees it; amounts in USD, times ISO. */
export interface LimitView {
  kind: LimitKind;
  /** In force now; null: no limit. */
  amount: number | null;
  /** A raise or removal waiting: the amount it will be (null: no limit) from `pendingFrom`. */
  pending: { amount: number | null; from: string } | null;
  /** Counted in the rolling window ending now. */
  used: number;
  /** What may still go in now; null when there is no limit. */
  left: number | null;
}

export interface ExclusionView {
  kind: "cool_off" | "self_exclusion";
  startsAt: string;
  /** null: permanent. */
  endsAt: string | null;
}

/** GET /api/user/responsible-play, and the answer of every change. */
export interface ResponsiblePlayState {
  dateOfBirth: string | null;
  limits: LimitView[];
  /** The exclusion in force, if any. */
  exclusion: ExclusionView | null;
  /** A message to show after a change. */
  message?: string;
}
