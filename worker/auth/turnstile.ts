// The optional bot check: Cloudflare Turnstile tokens verified server-side at siteverify. On
// only when both the secret and the site key are set; off (nothing asked) when either is empty.
// Anything short of a clear pass refuses: a missing token, a rejected one, one solved for another
// form or site, and siteverify itself failing (fail closed, with the reason logged).
import { FAIR_PLAY } from "../../common/messages";
import { HttpError } from "../http/errors";

/** What each protected form tells the widget, and what siteverify must say back. */
export type BotCheckAction = "register" | "join" | "login";

type TurnstileEnv = Pick<Env, "TURNSTILE_SECRET" | "TURNSTILE_SITE_KEY" | "TURNSTILE_VERIFY_URL">;

const DEFAULT_VERIFY_URL = "https://challenges.cloudflare.com/turnstile/v0/siteverify";
/** siteverify normally answers in well under a second; a stalled call must not hold the request. */
const VERIFY_TIMEOUT_MS = 10_000;
/**
 * Cloudflare's documented test secrets (always pass, always fail, already spent) answer for
 * hostname "example.com" whatever page the widget was on, so the hostname cannot be checked with them.
 */
const TEST_SECRET = /^[123]x0{31}AA$/;

/** The site key the web app renders the widget with, or null when the check is off. */
export function turnstileSiteKey(env: TurnstileEnv): string | null {
  const secret = env.TURNSTILE_SECRET?.trim();
  const siteKey = env.TURNSTILE_SITE_KEY?.trim();
  return secret && siteKey ? siteKey : null;
}

interface Expected {
  action: BotCheckAction;
  /** The hostname the request came to: the page that showed the widget is on the same origin. */
  hostname: string;
  /** A test secret's verdicts name a fixed hostname. */
  checkHostname: boolean;
}

/** Why a siteverify verdict is not a pass for this form on this site, or null when it is. */
export function refusalReason(verdict: unknown, expected: Expected): string | null {
  if (typeof verdict !== "object" || verdict === null) return "siteverify answered no verdict";
  const v = verdict as { success?: unknown; "error-codes"?: unknown; hostname?: unknown; action?: unknown };
  if (v.success !== true) {
    const codes = Array.isArray(v["error-codes"]) ? v["error-codes"].join(",") : "";
    return `rejected (${codes || "no error codes"})`;
  }
  if (v.action !== expected.action) return `solved for action ${String(v.action)}, expected ${expected.action}`;
  if (expected.checkHostname && v.hostname !== expected.hostname) {
    return `solved on ${String(v.hostname)}, expected ${expected.hostname}`;
  }
  return null;
}

/** Asks siteverify about one token; null when it passed, else why not. */
async function verify(env: TurnstileEnv, secret: string, token: string, remoteIp: string | null, expected: Expected) {
  const form = new URLSearchParams({ secret, response: token });
  if (remoteIp) form.set("remoteip", remoteIp);
  let res: Response;
  try {
    res = await fetch(env.TURNSTILE_VERIFY_URL?.trim() || DEFAULT_VERIFY_URL, {
      method: "POST",
      body: form,
      signal: AbortSignal.timeout(VERIFY_TIMEOUT_MS),
    });
  } catch (e) {
    return `siteverify unreachable (${e instanceof Error ? `${e.name}: ${e.message.slice(0, 200)}` : "error"})`;
  }
  if (res.status !== 200) {
    await res.body?.cancel();
    return `siteverify answered HTTP ${res.status}`;
  }
  let verdict: unknown;
  try {
    verdict = await res.json();
  } catch {
    return "siteverify answered something that is not JSON";
  }
  return refusalReason(verdict, expected);
}

/**
 * Lets the request through when the check is off or its token passes; otherwise 403
 * `bot_check_failed`, before the route has changed anything.
 */
export async function requireHuman(env: TurnstileEnv, req: Request, token: string | undefined, action: BotCheckAction): Promise<void> {
  const secret = env.TURNSTILE_SECRET?.trim();
  if (!secret || turnstileSiteKey(env) === null) return;
  const expected = { action, hostname: new URL(req.url).hostname, checkHostname: !TEST_SECRET.test(secret) };
  const reason = token ? await verify(env, secret, token, req.headers.get("cf-connecting-ip"), expected) : "no token sent";
  if (reason === null) return;
  // Never the token or the secret: only why, and for which form.
  console.warn("bot check failed", { action, reason });
  throw new HttpError(403, "bot_check_failed", FAIR_PLAY.botCheckFailed);
}
