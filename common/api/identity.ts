// Identity verification's contract (docs/identity-and-tax.md, "Identity"): the state a player
// sees, starting a verification, the sandbox's verification page, and the operators' view.
import { z } from "zod";
import { IDENTITY } from "../messages";
import { DATE_OF_BIRTH_MIN } from "../spec";
import { isIsoDate } from "../domain/responsible-play";

/** What the player sees: no verification yet, waiting for the provider, done, try again, refused. */
export const IDENTITY_STATES = ["not_started", "pending", "verified", "requires_input", "refused"] as const;
export type IdentityStateName = (typeof IDENTITY_STATES)[number];

export interface IdentityState {
  state: IdentityStateName;
  /** The provider's reason, for requires_input and refused. */
  reason: string | null;
  /** The verified legal name ("First Middle Last"), once verified. */
  legalName: string | null;
  verifiedAt: string | null;
  /** An operator asked for a new verification, or lifetime withdrawals passed the threshold: verify again before the next bank withdrawal. */
  verifyAgain: boolean;
  /** Verified as a person another account verified first: free play only. */
  duplicateAccount: boolean;
  /** Whether the player can start (or restart) a verification now. */
  canStart: boolean;
}

/** POST /api/identity/session: how the web app runs the check. */
export interface IdentitySessionStart {
  provider: "stripe" | "sandbox";
  sessionId: string;
  /** Stripe: for stripe.verifyIdentity(clientSecret). */
  clientSecret: string | null;
  /** Sandbox: the local verification page. */
  url: string | null;
}

/**
 * The sandbox's test identities: one verifies with the name, date of birth and document the
 * player types; the others end as Stripe's do when a document or selfie fails.
 */
export const SANDBOX_IDENTITY_OUTCOMES = {
  verified: { status: "verified", reason: null },
  document_expired: { status: "requires_input", reason: "The document has expired." },
  selfie_face_mismatch: { status: "requires_input", reason: "The selfie does not match the face on the document." },
  document_unverified_other: { status: "refused", reason: "The document could not be verified (it appears altered)." },
} as const;
export type SandboxIdentityOutcome = keyof typeof SANDBOX_IDENTITY_OUTCOMES;
export const SANDBOX_IDENTITY_OUTCOME_NAMES = Object.keys(SANDBOX_IDENTITY_OUTCOMES) as SandboxIdentityOutcome[];

const namePart = z.string({ error: IDENTITY.nameRequired }).trim().min(1, IDENTITY.nameRequired).max(100);

/** POST /api/identity/sandbox/complete: what the sandbox page submits. */
export const sandboxIdentitySchema = z.discriminatedUnion("outcome", [
  z.object({
    outcome: z.literal("verified"),
    sessionId: z.string().min(1).max(100),
    firstName: namePart,
    lastName: namePart,
    dateOfBirth: z
      .string({ error: IDENTITY.dateOfBirthInvalid })
      .trim()
      .refine(isIsoDate, IDENTITY.dateOfBirthInvalid)
      .refine((d) => d >= DATE_OF_BIRTH_MIN && d <= new Date().toISOString().slice(0, 10), IDENTITY.dateOfBirthInvalid),
    documentNumber: z
      .string({ error: IDENTITY.documentNumberInvalid })
      .trim()
      .regex(/^[A-Za-z0-9 -]{4,30}$/, IDENTITY.documentNumberInvalid),
    documentCountry: z
      .string({ error: IDENTITY.documentCountryInvalid })
      .trim()
      .regex(/^[A-Za-z]{2}$/, IDENTITY.documentCountryInvalid)
      .transform((s) => s.toUpperCase()),
  }),
  ...(["document_expired", "selfie_face_mismatch", "document_unverified_other"] as const).map((o) =>
    z.object({ outcome: z.literal(o), sessionId: z.string().min(1).max(100) }),
  ),
]);
export type SandboxIdentityInput = z.infer<typeof sandboxIdentitySchema>;

/** An operator's view of a player's verification (no document image is stored anywhere). */
export interface AdminIdentityView extends IdentityState {
  provider: "stripe" | "sandbox" | null;
  /** The provider's verification session id (vs_…). */
  reference: string | null;
  dateOfBirth: string | null;
  documentCountry: string | null;
  documentType: string | null;
  verifiedCount: number;
  /** The account this one is linked to as the same person (null: none, or this is the first). */
  duplicateOf: { id: number; username: string } | null;
  /** Other accounts verified as the same person. */
  linkedAccounts: { id: number; username: string }[];
  nameMismatches: { holderName: string; legalName: string; amount: number; at: string }[];
}

/** POST /api/admin/identity/users/{id}/reverify: the operator's reason, kept in the audit log. */
export const reverifySchema = z.object({
  note: z.string({ error: "Give a reason (1 to 500 characters)" }).trim().min(1, "Give a reason (1 to 500 characters)").max(500),
});

/** Accounts of one person, for the fair-play screen: the first verified and the ones linked to it. */
export interface LinkedAccountGroup {
  first: { id: number; username: string };
  linked: { id: number; username: string; verifiedAt: string | null }[];
}
