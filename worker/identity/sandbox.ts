// The offline stand-in for Stripe Identity (npm start, the tests, the journeys): a session is an
// id the local verification page (/identity/sandbox) completes with one of the test identities
// (common/api/identity.ts). It answers where the payment sandbox does (loopback and SANDBOX_HOSTS).
import { bytesToHex, randomBytes } from "@noble/hashes/utils.js";
import { SANDBOX_IDENTITY_OUTCOMES, type IdentitySessionStart, type SandboxIdentityInput } from "../../common/api/identity";
import type { IdentityProvider, IdentityResult } from "./provider";

export class SandboxIdentityProvider implements IdentityProvider {
  readonly name = "sandbox" as const;

  async createSession(): Promise<IdentitySessionStart> {
    const sessionId = `vs_sbx_${bytesToHex(randomBytes(12))}`;
    return { provider: "sandbox", sessionId, clientSecret: null, url: `/identity/sandbox?session=${sessionId}` };
  }

  /** What the page's answer means, as Stripe's webhook would report it. */
  static result(userId: number, input: SandboxIdentityInput): IdentityResult {
    if (input.outcome === "verified") {
      return {
        sessionId: input.sessionId,
        userId,
        status: "verified",
        verified: {
          firstName: input.firstName,
          lastName: input.lastName,
          dateOfBirth: input.dateOfBirth,
          documentNumber: input.documentNumber,
          documentCountry: input.documentCountry,
          documentType: "passport",
        },
      };
    }
    const o = SANDBOX_IDENTITY_OUTCOMES[input.outcome];
    return { sessionId: input.sessionId, userId, status: o.status, reason: o.reason };
  }
}
