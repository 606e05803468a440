// Step-up (re-confirming the password in the current session): request schema and response.
import { z } from "zod";
import { ACCOUNT } from "../messages";

/** POST /api/auth/step-up: the password, and a code (or a recovery code) when 2FA is on. */
export const stepUpSchema = z.object({
  password: z.string({ error: ACCOUNT.passwordRequired }).min(1, ACCOUNT.passwordRequired).max(200),
  totpCode: z.string().trim().max(20).optional(),
});
export type StepUpInput = z.infer<typeof stepUpSchema>;

export interface StepUpResponse {
  /** Until when (epoch ms) sensitive actions are allowed without asking again. */
  stepUpUntil: number;
}
