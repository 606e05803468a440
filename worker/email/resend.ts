// Resend's transactional API (POST /emails with a Bearer key). A non-2xx answer or a timeout is
// an error naming the status and Resend's error name only: its message may quote what we sent.
import { EMAIL_SEND_TIMEOUT_MS } from "../../common/spec";
import type { Mailer } from "./types";

const DEFAULT_URL = "https://api.resend.com/emails";

export class MailProviderError extends Error {
  override name = "MailProviderError";
}

interface ResendConfig {
  apiKey: string;
  from: string | undefined;
  url: string | undefined;
}

export const resendMailer = (cfg: ResendConfig): Mailer => ({
  async send(mail) {
    const from = cfg.from?.trim();
    if (!from) throw new MailProviderError("EMAIL_FROM is not set");
    let res: Response;
    try {
      res = await fetch(cfg.url?.trim() || DEFAULT_URL, {
        method: "POST",
        headers: { authorization: `Bearer ${cfg.apiKey}`, "content-type": "application/json" },
        body: JSON.stringify({ from, to: [mail.to], subject: mail.subject, text: mail.text }),
        signal: AbortSignal.timeout(EMAIL_SEND_TIMEOUT_MS),
      });
    } catch (e) {
      // A timeout or a refused connection; the error's own text carries neither the key nor the mail.
      throw new MailProviderError(`provider unreachable (${e instanceof Error ? e.name : "error"})`);
    }
    if (res.ok) {
      await res.body?.cancel();
      return;
    }
    throw new MailProviderError(`provider answered HTTP ${res.status}${await errorName(res)}`);
  },
});

/** Resend's machine-readable error name (e.g. "validation_error"), when the body has one. */
async function errorName(res: Response): Promise<string> {
  try {
    const body: unknown = await res.json();
    const name = body !== null && typeof body === "object" ? (body as { name?: unknown }).name : undefined;
    return typeof name === "string" && /^[a-z_]{1,64}$/.test(name) ? ` (${name})` : "";
  } catch {
    return "";
  }
}
