// TEST DOUBLE, never used by the Worker in production: a loopback HTTP server speaking the part
// of Stripe's REST API the deposit flow calls, so the real `stripe` SDK runs against it
// (create, retrieve and cancel PaymentIntents, full and partial refunds, retrieve Charges and
// Disputes, form bodies, Idempotency-Key replay, Stripe's error shape).
// Tests steer it through /__mock/* (JSON): set an intent's status, read what the SDK sent.
// Stripe Identity too: verification sessions are created and retrieved (expand of the verified
// date of birth and the report's document number, which Stripe returns only when asked), and a
// test moves one (POST /__mock/verification_sessions/:id) to verified, requires_input or canceled.
// An intent that succeeds gets a charge (latest_charge) paid by a test card: 4242424242424242
// unless the test names another with `card` in the same POST /__mock/payment_intents… body; the
// charge's card.fingerprint is stable per card number, as Stripe's is (cardFingerprint below).
// It is the "worker-stripe" project's globalSetup (Node side): vitest.config.ts binds the port
// and key it provides as STRIPE_API_PORT and STRIPE_SECRET_KEY before the Worker starts.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { createHash, randomBytes } from "node:crypto";
import type { TestProject } from "vitest/node";

declare module "vitest" {
  export interface ProvidedContext {
    stripeMockPort: number;
    stripeMockSecretKey: string;
  }
}

/** vitest globalSetup: one mock for the whole project, closed when the run ends. */
export default async function setup(project: TestProject) {
  const secretKey = `sk_test_mock_${randomBytes(8).toString("hex")}`;
  const mock = await startStripeMock(secretKey);
  project.provide("stripeMockPort", mock.port);
  project.provide("stripeMockSecretKey", secretKey);
  return () => mock.close();
}

export interface RecordedRequest {
  method: string;
  path: string;
  idempotencyKey: string | null;
  authorized: boolean;
  contentType: string | null;
  /** The form-encoded body, keys as sent ("metadata[userId]"). */
  params: Record<string, string>;
}

interface Intent {
  id: string;
  object: "payment_intent";
  amount: number;
  amount_received: number;
  currency: string;
  status: string;
  client_secret: string;
  metadata: Record<string, string>;
  automatic_payment_methods: { enabled: boolean } | null;
  description: string | null;
  /** The charge that paid it (ch_…), once it succeeded; GET with expand[]=latest_charge answers the charge itself. */
  latest_charge: string | null;
  created: number;
  livemode: false;
}

/** The card every succeeded intent is paid with unless the test names another. */
export const DEFAULT_TEST_CARD = "4242424242424242";

/** The double's card.fingerprint for a card number: the same number always gives the same 16 characters, as at Stripe. */
export const cardFingerprint = (cardNumber: string) =>
  createHash("sha256")
    .update(`stripe-double-card:${cardNumber.replace(/\D/g, "")}`)
    .digest("base64url")
    .slice(0, 16);

const cardBrand = (cardNumber: string) =>
  cardNumber.startsWith("4") ? "visa" : /^(5[1-5]|2[2-7])/.test(cardNumber) ? "mastercard" : /^3[47]/.test(cardNumber) ? "amex" : "unknown";

export interface StripeMock {
  port: number;
  close(): Promise<void>;
}

const rand = (n: number) => randomBytes(n).toString("hex");

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let data = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => (data += chunk));
    req.on("end", () => resolve(data));
    req.on("error", reject);
  });
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, { "content-type": "application/json", "request-id": `req_${rand(7)}`, ...headers });
  res.end(JSON.stringify(body));
}

/** The expand list of a request, however the client writes it: expand[]=…, expand[0]=…. */
const expandOf = (params: URLSearchParams) => [...params].filter(([k]) => /^expand\[\d*\]$/.test(k)).map(([, v]) => v);

/** A charge without the double's own note of the card number. */
function publicCharge(charge: Record<string, unknown> | undefined) {
  if (!charge) return undefined;
  const { card_number: _number, ...rest } = charge;
  return rest;
}

const stripeError = (res: ServerResponse, status: number, type: string, message: string, code?: string) =>
  send(res, status, { error: { type, message, ...(code ? { code } : {}) } });

function newIntent(fields: Partial<Intent> & { amount: number; currency: string }): Intent {
  const id = `pi_mock${rand(10)}`;
  return {
    id,
    object: "payment_intent",
    amount_received: 0,
    status: "requires_payment_method",
    client_secret: `${id}_secret_${rand(12)}`,
    metadata: {},
    automatic_payment_methods: null,
    description: null,
    latest_charge: null,
    created: Math.floor(Date.now() / 1000),
    livemode: false,
    ...fields,
  };
}

/** What a test says a session verified (POST /__mock/verification_sessions/:id `verified`). */
export interface MockVerifiedPerson {
  first_name: string;
  last_name: string;
  dob: { day: number; month: number; year: number };
  document_number: string;
  issuing_country: string;
}

interface VerificationSession {
  id: string;
  object: "identity.verification_session";
  client_secret: string;
  status: string;
  type: string;
  options: Record<string, unknown>;
  metadata: Record<string, string>;
  last_error: { code: string; reason: string } | null;
  last_verification_report: string | null;
  created: number;
  livemode: false;
  person: MockVerifiedPerson | null;
}

/** The session as Stripe returns it: the date of birth and the document number only when expanded. */
function presentSession(s: VerificationSession, expand: string[]) {
  const { person, ...session } = s;
  const verified_outputs = person
    ? {
        first_name: person.first_name,
        last_name: person.last_name,
        ...(expand.includes("verified_outputs.dob") ? { dob: person.dob } : {}),
        id_number_type: null,
        address: null,
      }
    : null;
  const report =
    person && s.last_verification_report && expand.some((e) => e.startsWith("last_verification_report"))
      ? {
          id: s.last_verification_report,
          object: "identity.verification_report",
          type: "document",
          document: {
            status: "verified",
            type: "passport",
            issuing_country: person.issuing_country,
            first_name: person.first_name,
            last_name: person.last_name,
            ...(expand.includes("last_verification_report.document.number") ? { number: person.document_number } : {}),
          },
        }
      : s.last_verification_report;
  return { ...session, verified_outputs, last_verification_report: report };
}

/** Starts the mock on 127.0.0.1 and a free port. Requests must carry `Bearer {apiKey}`. */
export async function startStripeMock(apiKey: string): Promise<StripeMock> {
  const intents = new Map<string, Intent>();
  const idempotent = new Map<string, { signature: string; status: number; body: unknown }>();
  const requests: RecordedRequest[] = [];
  const refunds: { id: string; payment_intent: string; amount: number; metadata: Record<string, string> }[] = [];
  /** Charges and disputes a test put here (POST /__mock/charges, /__mock/disputes): what retrieve answers. */
  const charges = new Map<string, Record<string, unknown>>();
  const disputes = new Map<string, Record<string, unknown>>();
  /** Identity verification sessions, with the double's note of what a verified one verified. */
  const verificationSessions = new Map<string, VerificationSession>();

  /** A succeeded intent is paid by a charge on `card` (the default test card unless one is named): made once, or again for another card. */
  function settle(intent: Intent, card: string | undefined) {
    if (intent.status !== "succeeded") return;
    const current = intent.latest_charge ? charges.get(intent.latest_charge) : undefined;
    const number = (card ?? DEFAULT_TEST_CARD).replace(/\D/g, "");
    if (current && (card === undefined || current.card_number === number)) return;
    const charge = {
      id: `ch_mock${rand(10)}`,
      object: "charge",
      amount: intent.amount,
      amount_refunded: 0,
      currency: intent.currency,
      paid: true,
      status: "succeeded",
      payment_intent: intent.id,
      payment_method_details: {
        type: "card",
        card: { brand: cardBrand(number), last4: number.slice(-4), fingerprint: cardFingerprint(number), exp_month: 12, exp_year: 2099 },
      },
      // The double's own note of the number (Stripe never returns it); dropped from what it sends.
      card_number: number,
    };
    charges.set(charge.id, charge);
    intent.latest_charge = charge.id;
  }

  /** The intent as Stripe returns it: latest_charge as the charge object when the request expands it. */
  function present(intent: Intent, expand: string[]) {
    if (!expand.includes("latest_charge") || !intent.latest_charge) return intent;
    return { ...intent, latest_charge: publicCharge(charges.get(intent.latest_charge)) ?? intent.latest_charge };
  }

  const server = createServer(async (req, res) => {
    try {
      const url = new URL(req.url ?? "/", "http://127.0.0.1");
      const text = await readBody(req);

      if (url.pathname.startsWith("/__mock/")) {
        const json = text ? (JSON.parse(text) as Partial<Intent>) : {};
        if (req.method === "GET" && url.pathname === "/__mock/requests") return send(res, 200, requests);
        if (req.method === "GET" && url.pathname === "/__mock/refunds") return send(res, 200, refunds);
        if (req.method === "POST" && (url.pathname === "/__mock/charges" || url.pathname === "/__mock/disputes")) {
          const object: Record<string, unknown> = {
            ...(json as Record<string, unknown>),
            object: url.pathname === "/__mock/charges" ? "charge" : "dispute",
          };
          (url.pathname === "/__mock/charges" ? charges : disputes).set(String(object.id), object);
          return send(res, 200, object);
        }
        const vs = url.pathname.match(/^\/__mock\/verification_sessions\/([\w]+)$/);
        if (req.method === "POST" && vs) {
          const session = verificationSessions.get(vs[1]!);
          if (!session) return send(res, 404, { message: "no such verification session" });
          const change = json as { status?: string; last_error?: VerificationSession["last_error"]; verified?: MockVerifiedPerson };
          if (change.status) session.status = change.status;
          if (change.last_error !== undefined) session.last_error = change.last_error;
          if (change.verified) {
            session.person = change.verified;
            session.status = "verified";
            session.last_error = null;
            session.last_verification_report = `vr_mock${rand(10)}`;
          }
          return send(res, 200, presentSession(session, []));
        }
        // `card`: the card number a succeeded intent is paid with (a test hook, not an intent field).
        const { card, ...fields } = json as Partial<Intent> & { card?: string };
        if (req.method === "POST" && url.pathname === "/__mock/payment_intents") {
          const intent = newIntent({ amount: 0, currency: "usd", ...fields });
          settle(intent, card);
          intents.set(intent.id, intent);
          return send(res, 200, intent);
        }
        const patch = url.pathname.match(/^\/__mock\/payment_intents\/([\w]+)$/);
        if (req.method === "POST" && patch) {
          const intent = intents.get(patch[1]!);
          if (!intent) return send(res, 404, { message: "no such intent" });
          Object.assign(intent, fields);
          if (intent.status === "succeeded") intent.amount_received = intent.amount;
          settle(intent, card);
          return send(res, 200, intent);
        }
        return send(res, 404, { message: "unknown mock route" });
      }

      const params = Object.fromEntries(new URLSearchParams(text));
      const idempotencyKey = req.headers["idempotency-key"];
      requests.push({
        method: req.method ?? "",
        path: url.pathname,
        idempotencyKey: typeof idempotencyKey === "string" ? idempotencyKey : null,
        authorized: req.headers.authorization === `Bearer ${apiKey}`,
        contentType: req.headers["content-type"] ?? null,
        params,
      });
      if (req.headers.authorization !== `Bearer ${apiKey}`) {
        return stripeError(res, 401, "invalid_request_error", "Invalid API Key provided.");
      }

      if (req.method === "POST" && url.pathname === "/v1/payment_intents") {
        const signature = JSON.stringify(params);
        if (typeof idempotencyKey === "string") {
          const seen = idempotent.get(idempotencyKey);
          if (seen && seen.signature !== signature) {
            return stripeError(
              res,
              400,
              "idempotency_error",
              "Keys for idempotent requests can only be used with the same parameters they were first used with.",
            );
          }
          if (seen) return send(res, seen.status, seen.body, { "idempotent-replayed": "true" });
        }
        const amount = Number(params.amount);
        if (!Number.isInteger(amount) || amount < 50) {
          return stripeError(res, 400, "invalid_request_error", "Amount must be at least $0.50 usd", "amount_too_small");
        }
        const metadata: Record<string, string> = {};
        for (const [k, v] of Object.entries(params)) {
          const m = k.match(/^metadata\[(.+)\]$/);
          if (m) metadata[m[1]!] = v;
        }
        const intent = newIntent({
          amount,
          currency: params.currency ?? "",
          metadata,
          description: params.description ?? null,
          automatic_payment_methods: params["automatic_payment_methods[enabled]"] === "true" ? { enabled: true } : null,
        });
        intents.set(intent.id, intent);
        if (typeof idempotencyKey === "string") idempotent.set(idempotencyKey, { signature, status: 200, body: intent });
        return send(res, 200, intent);
      }

      if (req.method === "POST" && url.pathname === "/v1/refunds") {
        // A full refund of a succeeded intent; the same Idempotency-Key replays the first answer.
        if (typeof idempotencyKey === "string") {
          const seen = idempotent.get(idempotencyKey);
          if (seen) return send(res, seen.status, seen.body, { "idempotent-replayed": "true" });
        }
        const intent = intents.get(params.payment_intent ?? "");
        if (!intent)
          return stripeError(res, 404, "invalid_request_error", `No such payment_intent: '${params.payment_intent}'`, "resource_missing");
        if (intent.status !== "succeeded") {
          return stripeError(res, 400, "invalid_request_error", "This PaymentIntent does not have a successful charge to refund.");
        }
        // A partial refund (amount) up to what is left; without one, all of it.
        const refunded = refunds.filter((r) => r.payment_intent === intent.id).reduce((sum, r) => sum + r.amount, 0);
        const amount = params.amount === undefined ? intent.amount - refunded : Number(params.amount);
        if (refunded >= intent.amount) {
          return stripeError(res, 400, "invalid_request_error", "Charge has already been refunded.", "charge_already_refunded");
        }
        if (!(amount > 0) || refunded + amount > intent.amount) {
          return stripeError(res, 400, "invalid_request_error", "Refund amount is greater than the unrefunded amount.", "amount_too_large");
        }
        const refund = {
          id: `re_mock${rand(10)}`,
          object: "refund",
          amount,
          currency: intent.currency,
          payment_intent: intent.id,
          reason: params.reason ?? null,
          metadata: Object.fromEntries(
            Object.entries(params).flatMap(([k, v]) => {
              const m = k.match(/^metadata\[(.+)\]$/);
              return m ? [[m[1]!, v]] : [];
            }),
          ),
          status: "succeeded",
          created: Math.floor(Date.now() / 1000),
        };
        refunds.push(refund);
        if (typeof idempotencyKey === "string") idempotent.set(idempotencyKey, { signature: "", status: 200, body: refund });
        return send(res, 200, refund);
      }

      if (req.method === "POST" && url.pathname === "/v1/identity/verification_sessions") {
        const metadata: Record<string, string> = {};
        for (const [k, v] of Object.entries(params)) {
          const m = k.match(/^metadata\[(.+)\]$/);
          if (m) metadata[m[1]!] = v;
        }
        if (params.type !== "document") return stripeError(res, 400, "invalid_request_error", "This double only makes document sessions.");
        const id = `vs_mock${rand(10)}`;
        const session: VerificationSession = {
          id,
          object: "identity.verification_session",
          client_secret: `${id}_secret_${rand(12)}`,
          status: "requires_input",
          type: "document",
          options: { document: { require_matching_selfie: params["options[document][require_matching_selfie]"] === "true" } },
          metadata,
          last_error: null,
          last_verification_report: null,
          created: Math.floor(Date.now() / 1000),
          livemode: false,
          person: null,
        };
        verificationSessions.set(id, session);
        return send(res, 200, presentSession(session, []));
      }

      const vsRetrieve = url.pathname.match(/^\/v1\/identity\/verification_sessions\/([^/]+)$/);
      if (req.method === "GET" && vsRetrieve) {
        const session = verificationSessions.get(decodeURIComponent(vsRetrieve[1]!));
        if (!session)
          return stripeError(res, 404, "invalid_request_error", `No such verification session: '${vsRetrieve[1]}'`, "resource_missing");
        return send(res, 200, presentSession(session, expandOf(url.searchParams)));
      }

      const cancel = url.pathname.match(/^\/v1\/payment_intents\/([^/]+)\/cancel$/);
      if (req.method === "POST" && cancel) {
        const intent = intents.get(decodeURIComponent(cancel[1]!));
        if (!intent) return stripeError(res, 404, "invalid_request_error", `No such payment_intent: '${cancel[1]}'`, "resource_missing");
        if (intent.status === "succeeded" || intent.status === "canceled") {
          return stripeError(
            res,
            400,
            "invalid_request_error",
            `You cannot cancel this PaymentIntent because it has a status of ${intent.status}.`,
            "payment_intent_unexpected_state",
          );
        }
        intent.status = "canceled";
        return send(res, 200, intent);
      }

      const object = url.pathname.match(/^\/v1\/(charges|disputes)\/([^/]+)$/);
      if (req.method === "GET" && object) {
        const found = (object[1] === "charges" ? charges : disputes).get(decodeURIComponent(object[2]!));
        const kind = object[1] === "charges" ? "charge" : "dispute";
        if (!found) return stripeError(res, 404, "invalid_request_error", `No such ${kind}: '${object[2]}'`, "resource_missing");
        return send(res, 200, kind === "charge" ? publicCharge(found) : found);
      }

      const retrieve = url.pathname.match(/^\/v1\/payment_intents\/([^/]+)$/);
      if (req.method === "GET" && retrieve) {
        const intent = intents.get(decodeURIComponent(retrieve[1]!));
        if (!intent) return stripeError(res, 404, "invalid_request_error", `No such payment_intent: '${retrieve[1]}'`, "resource_missing");
        return send(res, 200, present(intent, expandOf(url.searchParams)));
      }

      return stripeError(res, 404, "invalid_request_error", `Unrecognized request URL (${req.method}: ${url.pathname}).`);
    } catch (e) {
      send(res, 500, { error: { type: "api_error", message: String(e) } });
    }
  });

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (!address || typeof address === "string") throw new Error("stripe mock has no port");
  return {
    port: address.port,
    close: () => new Promise<void>((resolve, reject) => server.close((e) => (e ? reject(e) : resolve()))),
  };
}
