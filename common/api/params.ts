// Parameters shared by several resources.
import { z } from "zod";
import { CUSTOM } from "../messages";
import { INVITE_CODE_PATTERN } from "../domain/custom-tournaments";

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

/** A private tournament's invite code: 26 base32 letters (128 random bits), docs/custom-tournaments.md. */
export const inviteCodeSchema = z.string({ error: CUSTOM.inviteCode }).regex(INVITE_CODE_PATTERN, CUSTOM.inviteCode);
