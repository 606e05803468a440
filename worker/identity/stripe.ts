// Stripe Identity through the `stripe` SDK (the client of worker/payments/stripe.ts, so the tests'
// Stripe double answers here too): a document session with a matching selfie, the player's id in
// its metadata; the web app runs it with Stripe.js (stripe.verifyIdentity). Results come from the
// webhook's identity.verification_session.* events, read back from Stripe with the verified
// outputs expanded (the event's copy never carries them).
import type Stripe from "stripe";
import type { IdentitySessionStart } from "../../common/api/identity";
import { IDENTITY, MONEY } from "../../common/messages";
import { HttpError } from "../http/errors";
import { userIdFromMetadata } from "../payments/provider";
import type { IdentityProvider, IdentityResult } from "./provider";

function providerError(e: unknown, action: string): HttpError {
  const err = e as { type?: string; code?: string; statusCode?: number; requestId?: string };
  console.error(`stripe identity ${action} failed`, {
    type: err.type,
    code: err.code,
    statusCode: err.statusCode,
    requestId: err.requestId,
  });
  return new HttpError(502, "provider_unavailable", MONEY.providerUnavailable);
}

const pad = (n: number) => String(n).padStart(2, "0");

type Session = Stripe.Identity.VerificationSession;

/** The expanded session as a result; a verified one without a name or date of birth counts as needing another try. */
export function resultOfSession(s: Session): IdentityResult {
  const userId = userIdFromMetadata(s.metadata?.userId);
  const reason = s.last_error?.reason ?? null;
  if (s.status === "canceled") return { sessionId: s.id, userId, status: "refused", reason: reason ?? IDENTITY.refusedFinal };
  if (s.status === "requires_input") {
    // A fresh session is requires_input without an error: nothing submitted yet.
    return s.last_error ? { sessionId: s.id, userId, status: "requires_input", reason } : { sessionId: s.id, userId, status: "pending" };
  }
  if (s.status !== "verified") return { sessionId: s.id, userId, status: "pending" };
  const out = s.verified_outputs;
  const report = typeof s.last_verification_report === "object" ? s.last_verification_report : null;
  const dob = out?.dob;
  if (!out?.first_name || !out.last_name || !dob?.year || !dob.month || !dob.day) {
    return { sessionId: s.id, userId, status: "requires_input", reason: "The provider did not return a name and date of birth." };
  }
  return {
    sessionId: s.id,
    userId,
    status: "verified",
    verified: {
      firstName: out.first_name,
      lastName: out.last_name,
      dateOfBirth: `${dob.year}-${pad(dob.month)}-${pad(dob.day)}`,
      documentNumber: report?.document?.number ?? out.id_number ?? null,
      documentCountry: report?.document?.issuing_country ?? null,
      documentType: report?.document?.type ?? null,
    },
  };
}

/** What is expanded on a retrieve: the date of birth and the document number are sensitive fields Stripe only returns when asked. */
export const SESSION_EXPAND = [
  "verified_outputs",
  "verified_outputs.dob",
  "last_verification_report",
  "last_verification_report.document.number",
];

export class StripeIdentityProvider implements IdentityProvider {
  readonly name = "stripe" as const;
  constructor(private readonly stripe: Stripe) {}

  async createSession(userId: number): Promise<IdentitySessionStart> {
    try {
      const s = await this.stripe.identity.verificationSessions.create({
        type: "document",
        options: { document: { require_matching_selfie: true } },
        metadata: { userId: String(userId) },
      });
      return { provider: "stripe", sessionId: s.id, clientSecret: s.client_secret, url: null };
    } catch (e) {
      throw providerError(e, "session create");
    }
  }

  async retrieve(sessionId: string): Promise<IdentityResult> {
    try {
      return resultOfSession(await this.stripe.identity.verificationSessions.retrieve(sessionId, { expand: SESSION_EXPAND }));
    } catch (e) {
      throw providerError(e, "session retrieve");
    }
  }
}
