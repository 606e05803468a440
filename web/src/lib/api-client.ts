// The Worker's API, typed from its routes (hc<AppType>, docs/decisions/006-typed-contract.md):
// URLs, inputs and responses come from the Worker's own code, so a renamed route or a changed
// shape fails the type check here. `read` turns a refusal into an ApiError.
import { hc, type ClientResponse } from "hono/client";
import type { SuccessStatusCode } from "hono/utils/http-status";
import type { AppType } from "../../../worker/app";
import { IDEMPOTENCY_KEY_HEADER } from "@common/spec";
import { ApiError } from "./api";
import { askStepUp } from "./step-up";
import { askTermsAcceptance } from "./terms";

/** fetch with the session cookie, and "no answer" (offline, refused) as an ApiError like any other failure. */
async function sendOnce(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  try {
    return await fetch(input, { ...init, credentials: "include" });
  } catch {
    throw new ApiError(0, "");
  }
}

const urlOf = (input: RequestInfo | URL) => (input instanceof Request ? input.url : String(input));

/** A console action: every state-changing /api/admin request needs a recent step-up (docs/operating.md). */
const isConsoleChange = (input: RequestInfo | URL, init?: RequestInit) =>
  (init?.method ?? "GET").toUpperCase() !== "GET" && new URL(urlOf(input), window.location.origin).pathname.startsWith("/api/admin/");

/**
 * Sends the request; a console action refused with step_up_required asks for the step-up in the
 * one step-up dialog (lib/step-up.ts, as withdrawing does), and a money request refused with
 * terms_not_accepted asks to accept the new legal documents (lib/terms.ts); either is then sent
 * once more. Cancelling answers the refusal.
 */
async function send(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  const res = await sendOnce(input, init);
  if (res.status !== 403) return res;
  const refusal = new ApiError(403, await res.clone().text());
  // Refused before anything moved (and before its Idempotency-Key was kept), so sending it again is the same request.
  if (refusal.code === "terms_not_accepted") return (await askTermsAcceptance()) ? sendOnce(input, init) : res;
  if (refusal.code !== "step_up_required" || !isConsoleChange(input, init) || !(await askStepUp())) return res;
  return sendOnce(input, init);
}

export const api = hc<AppType>("/", { fetch: send }).api;

/**
 * A new Idempotency-Key: one per confirm visit of a money request (a checkout, a withdraw confirm
 * page, a join dialog, a leave confirmation), sent again by every retry of that same action so the
 * server does it once (docs/payments.md, "Retrying a money request").
 */
export const newIdempotencyKey = () => crypto.randomUUID();

/** The request options that send `key`: the second argument of a call, e.g. `$post({ json }, idempotent(key))`. */
export const idempotent = (key: string) => ({ headers: { [IDEMPOTENCY_KEY_HEADER]: key } });

type OkBody<R> = R extends ClientResponse<infer T, infer S, "json"> ? (S extends SuccessStatusCode ? T : never) : never;

/** The body of a successful answer; any other answer (or a body that is not JSON) throws an ApiError. */
export async function read<R extends ClientResponse<unknown, number, "json">>(request: Promise<R>): Promise<OkBody<R>> {
  const res = await request;
  const text = await res.text().catch(() => "");
  if (!res.ok) throw new ApiError(res.status, text);
  try {
    return (text ? JSON.parse(text) : undefined) as OkBody<R>;
  } catch {
    throw new ApiError(res.status, "");
  }
}
