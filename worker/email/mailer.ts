// One way to send account mail, two ways it goes: through the transactional provider (Resend)
// when RESEND_API_KEY is set, else into the local outbox table, where nothing leaves the machine.
// Sending never decides a user's action: it runs after the answer (waitUntil), and a failure is
// logged without the recipient, the body (reset links are secrets) or the provider's key.
import type { Context } from "hono";
import type { MailKind } from "../../common/api/email";
import type { Db } from "../db/client";
import { describeError } from "../http/errors";
import type { AppEnv } from "../http/app-env";
import { outboxMailer } from "./outbox";
import { resendMailer } from "./resend";
import type { Mail, Mailer } from "./types";

type MailEnv = Pick<Env, "RESEND_API_KEY" | "EMAIL_FROM" | "EMAIL_API_URL">;

/** A provider key is set: mail is really sent, and the local outbox (with its bodies) stays off. */
export const emailProviderConfigured = (env: MailEnv) => Boolean(env.RESEND_API_KEY?.trim());

export function mailerFor(env: MailEnv, db: Db): Mailer {
  const key = env.RESEND_API_KEY?.trim();
  return key ? resendMailer({ apiKey: key, from: env.EMAIL_FROM, url: env.EMAIL_API_URL }) : outboxMailer(db);
}

/**
 * Runs `work` (issuing a link and mailing it, or mailing a notice) after the response, so the
 * user's action neither waits for the provider nor fails with it.
 */
export function inBackground(c: Context<AppEnv>, kind: MailKind, work: () => Promise<void>): void {
  const run = work().catch((e: unknown) => console.error("email not sent", { kind, reason: describeError(e) }));
  c.executionCtx.waitUntil(run);
}

/** Sends one mail after the response (see inBackground). */
export const sendLater = (c: Context<AppEnv>, mail: Mail) => inBackground(c, mail.kind, () => mailerFor(c.env, c.get("db")).send(mail));
