// Identity verification as a player does it: start a session, then answer the sandbox's local
// verification page with a test identity (worker/routes/identity.ts); in the worker-stripe
// project, the Stripe double marks the session verified and Stripe's signed webhook reports it.
import { env } from "cloudflare:workers";
import type { IdentityState, SandboxIdentityOutcome } from "../../common/api/identity";
import { sha256Hex } from "../auth/bytes";
import { ADULT_DATE_OF_BIRTH, call } from "./helpers";
import { postSignedStripeEvent, stripeEvent } from "./stripe/webhook";

export interface TestIdentity {
  /** "First [Middle] Last": the last word is the last name. Default: Ada Lovelace, validBank()'s holder. */
  legalName?: string;
  /** Default: the date of birth the player gave, else an adult's. */
  dob?: string;
  /** Default: a fresh one, so every player is a distinct person. */
  documentNumber?: string;
  documentCountry?: string;
}

export const freshDocumentNumber = () => `D${crypto.randomUUID().replace(/-/g, "").slice(0, 12).toUpperCase()}`;

/** Starts a sandbox session; returns its id. */
export async function startIdentitySession(cookie: string): Promise<string> {
  const res = await call("/api/identity/session", { cookie, body: {} });
  if (res.status !== 200) throw new Error(`identity session failed: ${res.status} ${res.text}`);
  return res.body.sessionId as string;
}

/** Completes a new session with the outcome given; the answer is the route's (status and body). */
export async function completeIdentity(cookie: string, outcome: SandboxIdentityOutcome, identity: TestIdentity = {}, userId?: number) {
  const sessionId = await startIdentitySession(cookie);
  if (outcome !== "verified") return call<IdentityState>("/api/identity/sandbox/complete", { cookie, body: { outcome, sessionId } });
  const words = (identity.legalName ?? "Ada Lovelace").split(" ");
  const declared =
    userId === undefined
      ? null
      : (await env.DB.prepare("SELECT date_of_birth AS d FROM users WHERE id = ?").bind(userId).first<{ d: string | null }>())?.d;
  return call<IdentityState>("/api/identity/sandbox/complete", {
    cookie,
    body: {
      outcome,
      sessionId,
      firstName: words.slice(0, -1).join(" "),
      lastName: words.at(-1),
      dateOfBirth: identity.dob ?? declared ?? ADULT_DATE_OF_BIRTH,
      documentNumber: identity.documentNumber ?? freshDocumentNumber(),
      documentCountry: identity.documentCountry ?? "US",
    },
  });
}

const testEnv = env as unknown as Env;

/** Stripe's signed POST of an event to the webhook, as its servers send it; the Worker's answer. */
export const postStripeEvent = (type: string, object: Record<string, unknown>, id?: string) =>
  postSignedStripeEvent(stripeEvent(type, object, id));

/** Tells the Stripe double what happened to a session (worker/test/stripe/stripe-mock-server.ts). */
export async function moveStripeSession(sessionId: string, change: Record<string, unknown>) {
  const res = await fetch(`http://127.0.0.1:${testEnv.STRIPE_API_PORT}/__mock/verification_sessions/${sessionId}`, {
    method: "POST",
    body: JSON.stringify(change),
  });
  if (!res.ok) throw new Error(`stripe double: ${res.status} ${await res.text()}`);
}

async function verifyThroughStripe(cookie: string, identity: TestIdentity, dob: string): Promise<IdentityState> {
  const sessionId = await startIdentitySession(cookie);
  const words = (identity.legalName ?? "Ada Lovelace").split(" ");
  const [year, month, day] = dob.split("-").map(Number);
  await moveStripeSession(sessionId, {
    verified: {
      first_name: words.slice(0, -1).join(" "),
      last_name: words.at(-1),
      dob: { year, month, day },
      document_number: identity.documentNumber ?? freshDocumentNumber(),
      issuing_country: identity.documentCountry ?? "US",
    },
  });
  const hook = await postStripeEvent("identity.verification_session.verified", { id: sessionId, object: "identity.verification_session" });
  if (hook.status !== 200 || hook.body.identity !== "applied")
    throw new Error(`identity webhook: ${hook.status} ${JSON.stringify(hook.body)}`);
  return (await call<IdentityState>("/api/identity", { cookie })).body;
}

/** Verifies the player's identity through the sandbox (or Stripe's double); throws unless it ends verified. */
export async function verifyIdentity(cookie: string, identity: TestIdentity = {}, userId?: number): Promise<IdentityState> {
  if (testEnv.PAYMENT_PROVIDER === "stripe") {
    const declared =
      userId === undefined
        ? null
        : (await env.DB.prepare("SELECT date_of_birth AS d FROM users WHERE id = ?").bind(userId).first<{ d: string | null }>())?.d;
    return verifyThroughStripe(cookie, identity, identity.dob ?? declared ?? ADULT_DATE_OF_BIRTH);
  }
  const res = await completeIdentity(cookie, "verified", identity, userId);
  if (res.status !== 200 || res.body.state !== "verified") throw new Error(`identity verification failed: ${res.status} ${res.text}`);
  return res.body;
}

/**
 * The same for a player the test holds by id only: a session of its own for the two requests,
 * removed afterwards so the player's sessions are as the test left them.
 */
export async function verifyIdentityOf(userId: number, identity: TestIdentity = {}): Promise<IdentityState> {
  const token = crypto.randomUUID();
  const id = sha256Hex(token);
  const now = Date.now();
  await env.DB.prepare("INSERT INTO sessions (id, user_id, created_at, last_seen_at, expires_at) VALUES (?, ?, ?, ?, ?)")
    .bind(id, userId, now, now, now + 3_600_000)
    .run();
  try {
    return await verifyIdentity(`sid=${token}`, identity, userId);
  } finally {
    await env.DB.prepare("DELETE FROM sessions WHERE id = ?").bind(id).run();
  }
}
