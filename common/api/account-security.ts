// Two-factor enrolment and account deletion: request schemas and response shapes.
import { z } from "zod";
import { ACCOUNT } from "../messages";
import { DELETE_ACCOUNT_CONFIRMATION } from "../spec";

const code = z.string({ error: ACCOUNT.codeRequired }).trim().min(1, ACCOUNT.codeRequired).max(20);
const password = z.string({ error: ACCOUNT.passwordRequired }).min(1, ACCOUNT.passwordRequired).max(200);

/** POST /api/user/2fa/enable: a code from the authenticator app for the pending secret. */
export const twoFactorEnableSchema = z.object({ code });

/** POST /api/user/2fa/disable: the password and a current code (or an unused recovery code). */
export const twoFactorDisableSchema = z.object({ password, code });

/** DELETE /api/user */
export const deleteAccountSchema = z.object({
  password,
  confirm: z.literal(DELETE_ACCOUNT_CONFIRMATION, { error: ACCOUNT.deleteConfirm }),
});

export type TwoFactorEnableInput = z.infer<typeof twoFactorEnableSchema>;
export type TwoFactorDisableInput = z.infer<typeof twoFactorDisableSchema>;
export type DeleteAccountInput = z.infer<typeof deleteAccountSchema>;

/** POST /api/user/2fa/setup: show `otpauthUri` as a QR code and `secret` for manual entry. */
export interface TwoFactorSetupResponse {
  secret: string;
  otpauthUri: string;
}

/** POST /api/user/2fa/enable: shown once; each code works once in place of a TOTP code. */
export interface TwoFactorEnableResponse {
  recoveryCodes: string[];
}
