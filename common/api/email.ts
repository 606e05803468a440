// Email verification, password reset and the local outbox: request schemas and response shapes.
import { z } from "zod";
import { VALIDATION as V } from "../messages";
import { PASSWORD_MIN_LOGIN } from "../spec";

/** What each account mail is, for the outbox and the logs. */
export const MAIL_KINDS = [
  "verify_email",
  "reset_password",
  "password_changed",
  "email_changed",
  "two_factor_enabled",
  "two_factor_disabled",
  "withdrawal_requested",
  "username_changed",
  "second_factor_locked",
  "tax_form_filed",
  /** "Remind me" on a featured event (docs/featured-events.md); the profile can turn these off. */
  "event_reminder",
] as const;
export type MailKind = (typeof MAIL_KINDS)[number];

/** A mailed link's token as it sits in the URL (43 base64url characters); anything else is simply unknown. */
const token = z.string().trim().min(1, "The link's token is missing").max(200);

export const verifyEmailSchema = z.object({ token });

export const forgotPasswordSchema = z.object({ email: z.string().trim().max(254).email(V.emailInvalid) });

/** A new password follows registration's rules. */
export const resetPasswordSchema = z.object({
  token,
  newPassword: z.string().min(PASSWORD_MIN_LOGIN, V.passwordMinLogin).max(200),
});

/** The reset page's form adds the confirmation, which is never sent. */
export const resetPasswordFormSchema = resetPasswordSchema
  .extend({ confirmPassword: z.string() })
  .refine((v) => v.newPassword === v.confirmPassword, { message: V.passwordsDontMatch, path: ["confirmPassword"] });

export type ForgotPasswordInput = z.infer<typeof forgotPasswordSchema>;
export type ResetPasswordInput = z.infer<typeof resetPasswordSchema>;

/** One mail of the local outbox (GET /api/dev/outbox, only on a local server without a provider). */
export interface OutboxMail {
  id: number;
  to: string;
  subject: string;
  text: string;
  kind: string;
  createdAt: string;
}
