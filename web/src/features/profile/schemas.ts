// The profile and password forms come in two variants with different wording :
// the dashboard's Account Settings and the profile page. The server's rules stay the same.
import { z } from "zod";
import { passwordChangeSchema, profileUpdateSchema } from "@common/api/accounts";
import { VALIDATION as V } from "@common/messages";
import { PASSWORD_MIN_CHANGE, USERNAME_MIN } from "@common/spec";

/** Dashboard form: username and email with the server's own (dashboard) messages. */
export const dashboardProfileSchema = profileUpdateSchema.pick({ username: true, email: true });

/** Profile page form: the page's wording first, then the server's remaining rules. */
export const profilePageSchema = profileUpdateSchema.extend({
  username: z.string().trim().min(USERNAME_MIN, V.profileUsernameMin).pipe(profileUpdateSchema.shape.username),
  email: z.string().trim().email(V.profileEmailInvalid).pipe(profileUpdateSchema.shape.email),
});

export type PasswordFormVariant = "dashboard" | "profile";

const PASSWORD_MESSAGES = {
  dashboard: {
    current: V.currentPasswordRequired,
    min: V.newPasswordMin,
    confirm: V.confirmPasswordRequired,
    mismatch: V.newPasswordsDontMatch,
  },
  profile: {
    current: V.profileCurrentPasswordRequired,
    min: V.profilePasswordMin,
    confirm: V.profileConfirmRequired,
    mismatch: V.profilePasswordsMismatch,
  },
} as const;

/** Current, new and a required confirmation; the mismatch is reported on the confirmation field. */
export function passwordFormSchema(variant: PasswordFormVariant) {
  const m = PASSWORD_MESSAGES[variant];
  const server = passwordChangeSchema.shape;
  return z
    .object({
      currentPassword: z.string().min(1, m.current).pipe(server.currentPassword),
      newPassword: z.string().min(PASSWORD_MIN_CHANGE, m.min).pipe(server.newPassword),
      confirmPassword: z.string().min(1, m.confirm),
    })
    .refine((v) => v.newPassword === v.confirmPassword, { message: m.mismatch, path: ["confirmPassword"] });
}
