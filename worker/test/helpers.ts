// Drives the Worker through its real fetch handler, as a browser on our own origin would.
import { env, exports } from "cloudflare:workers";
import { app } from "../app";
import { CURRENT_LEGAL_VERSIONS } from "../../common/legal/documents";

export const ORIGIN = "http://localhost";

export interface CallOptions {
  method?: string;
  body?: unknown;
  /** Raw body text (sent as-is, for malformed-JSON tests). */
  rawBody?: string;
  cookie?: string;
  ip?: string;
  headers?: Record<string, string>;
  /** What Cloudflare's edge would attach (request.cf), e.g. { country: "DE" }. */
  cf?: Record<string, unknown>;
  /** The site's host name as the browser sees it (default localhost), for behaviour that depends on where the app is served. */
  host?: string;
  /** Bindings to change for this one request (for example another PAYMENT_PROVIDER); the rest stay the project's. */
  env?: Partial<Env>;
}

export interface CallResult<T = any> {
  status: number;
  body: T;
  text: string;
  setCookie: string | null;
  headers: Headers;
}

let ipCounter = 0;
/** A fresh client address, so rate limits of one test never touch another. */
export const freshIp = () => `10.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}.${Math.floor(Math.random() * 250)}`;

const isLoopbackHost = (host: string) => ["localhost", "127.0.0.1", "[::1]"].includes(host.replace(/:\d+$/, ""));

export async function call<T = any>(path: string, opts: CallOptions = {}): Promise<CallResult<T>> {
  const origin = opts.host ? `http://${opts.host}` : ORIGIN;
  const headers: Record<string, string> = { origin, "cf-connecting-ip": opts.ip ?? freshIp(), ...opts.headers };
  // A browser holds the session under __Host-sid on a real host (worker/auth/session.ts), sid on localhost.
  if (opts.cookie)
    headers.cookie = opts.host && !isLoopbackHost(opts.host) ? opts.cookie.replace(/(^|;\s*)sid=/, "$1__Host-sid=") : opts.cookie;
  let body: string | undefined = opts.rawBody;
  if (opts.body !== undefined) body = JSON.stringify(opts.body);
  if (body !== undefined && !("content-type" in headers)) headers["content-type"] = "application/json";
  const init: RequestInit = { method: opts.method ?? (body ? "POST" : "GET"), headers, body };
  if (opts.cf) (init as { cf?: unknown }).cf = opts.cf;
  const request = new Request(`${origin}${path}`, init);
  const res = opts.env
    ? await app.fetch(request, { ...(env as Env), ...opts.env }, { waitUntil() {}, passThroughOnException() {}, props: {} })
    : await exports.default.fetch(request);
  const text = await res.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  return { status: res.status, body: parsed as T, text, setCookie: res.headers.get("set-cookie"), headers: res.headers };
}

/** "sid=…" from a Set-Cookie header. */
export function cookieFrom(setCookie: string | null): string {
  const match = setCookie?.match(/(?:^|,\s*)(sid=[^;]*)/);
  if (!match?.[1]) throw new Error(`no session cookie in ${setCookie}`);
  return match[1];
}

/** The date of birth test players give when first asked (an adult anywhere). */
export const ADULT_DATE_OF_BIRTH = "1990-05-17";

/** Gives the player's date of birth through its route, as the checkout's prompt does. */
export async function setDateOfBirth(cookie: string, dateOfBirth: string = ADULT_DATE_OF_BIRTH) {
  const res = await call("/api/user/date-of-birth", { method: "PUT", cookie, body: { dateOfBirth } });
  if (res.status !== 200) throw new Error(`date of birth failed: ${res.status} ${res.text}`);
}

let userCounter = 0;
/**
 * Registers a new unique player and returns its cookie and user object. The player has given an
 * adult date of birth, so deposits and paid joins are open; `dateOfBirth: null` leaves it unasked.
 */
export async function registerUser(overrides: Record<string, unknown> = {}) {
  const n = `${Date.now().toString(36)}${++userCounter}${Math.floor(Math.random() * 1e6)}`;
  const { dateOfBirth = ADULT_DATE_OF_BIRTH, ...fields } = overrides;
  const input = { username: `p${n}`, email: `p${n}@example.com`, password: "secret123", acceptTerms: true, ...fields };
  const res = await call("/api/register", { body: input });
  if (res.status !== 201) throw new Error(`register failed: ${res.status} ${res.text}`);
  const cookie = cookieFrom(res.setCookie);
  if (typeof dateOfBirth === "string") await setDateOfBirth(cookie, dateOfBirth);
  return { cookie, user: res.body, password: input.password as string, username: input.username as string };
}

/**
 * Records the legal documents in force as accepted by a player made without signing up (as the
 * sign-up's checkbox does), so deposits, paid joins and withdrawals are open to it.
 */
export async function acceptCurrentTerms(userId: number, versions: Record<string, string> = CURRENT_LEGAL_VERSIONS) {
  await env.DB.prepare(
    "INSERT INTO terms_acceptances (user_id, document, version, accepted_at) SELECT ?1, j.key, j.value, ?2 FROM json_each(?3) AS j WHERE true ON CONFLICT DO NOTHING",
  )
    .bind(userId, Date.now(), JSON.stringify(versions))
    .run();
}
