// Parameters shared by several resources.
import { z } from "zod";

/** `/:id` of a tournament or a payout: a positive whole number. */
export const idParamSchema = z.object({
  id: z
    .string()
    .regex(/^\d{1,12}$/, "Invalid id")
    .transform(Number)
    .refine((id) => id >= 1, "Invalid id"),
});

/**
 * The Cloudflare Turnstile token of the bot check (registration, paid joins). Required by the
 * Worker only while the check is on; Turnstile's tokens are at most 2048 characters.
 */
export const turnstileTokenSchema = z.string().max(2048).optional();
