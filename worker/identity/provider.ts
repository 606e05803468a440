// What identity verification needs from a provider. Stripe Identity and the offline sandbox both
// implement it, so the state a player sees cannot tell them apart (docs/identity-and-tax.md).
import type { IdentitySessionStart } from "../../common/api/identity";

/** What the provider verified, as it reports it. */
export interface VerifiedIdentity {
  firstName: string;
  lastName: string;
  /** ISO date. */
  dateOfBirth: string;
  /** The document's number, when the provider gives one; hashed, never stored. */
  documentNumber: string | null;
  documentCountry: string | null;
  documentType: string | null;
}

/** A verification session's outcome: still open, verified, needs another try, or refused for good. */
export type IdentityResult =
  | { sessionId: string; userId: number | null; status: "pending" }
  | { sessionId: string; userId: number | null; status: "requires_input" | "refused"; reason: string | null }
  | { sessionId: string; userId: number | null; status: "verified"; verified: VerifiedIdentity };

export interface IdentityProvider {
  readonly name: "stripe" | "sandbox";
  /** A new verification session for the player: a document check with a matching selfie. */
  createSession(userId: number): Promise<IdentitySessionStart>;
}
