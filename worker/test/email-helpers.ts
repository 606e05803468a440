// Mail test helpers: the local outbox (where mail goes with no provider configured), the links in
// it, and verifying an account's address by following its real link.
import { expect } from "vitest";
import { env } from "cloudflare:workers";
import type { MailKind } from "../../common/api/email";
import { call } from "./helpers";

export interface OutboxRow {
  id: number;
  to_address: string;
  subject: string;
  text_body: string;
  kind: string;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Mails to `address` (of one kind, when given), newest first, as they are now. */
export async function mailsTo(address: string, kind?: MailKind): Promise<OutboxRow[]> {
  const { results } = await env.DB.prepare(
    "SELECT id, to_address, subject, text_body, kind FROM email_outbox WHERE lower(to_address) = lower(?1) AND (?2 IS NULL OR kind = ?2) ORDER BY id DESC",
  )
    .bind(address, kind ?? null)
    .all<OutboxRow>();
  return results;
}

/** Mail is written after the response (waitUntil): waits until `count` such mails are there. */
export async function waitForMails(address: string, kind: MailKind, count = 1): Promise<OutboxRow[]> {
  for (let i = 0; i < 100; i++) {
    const rows = await mailsTo(address, kind);
    if (rows.length >= count) return rows;
    await sleep(20);
  }
  throw new Error(`no ${kind} mail (x${count}) to ${address} in the outbox`);
}

export const waitForMail = async (address: string, kind: MailKind) => (await waitForMails(address, kind))[0]!;

/** Waits for background work that may still write mail, then proves none came. */
export async function expectNoMail(address: string, kind?: MailKind) {
  await sleep(300);
  expect(await mailsTo(address, kind)).toEqual([]);
}

/** The token of the first link to `path` in a mail's text. */
export function linkToken(text: string, path: "/verify-email" | "/reset-password"): string {
  const m = text.match(new RegExp(`https?://[^\\s/]+${path}\\?token=([A-Za-z0-9_%-]+)`));
  if (!m?.[1]) throw new Error(`no ${path} link in: ${text}`);
  return decodeURIComponent(m[1]);
}

export const emailOf = async (userId: number) =>
  (await env.DB.prepare("SELECT email FROM users WHERE id = ?").bind(userId).first<{ email: string }>())!.email;

/** Verifies a registered account's address the way its owner would: the link in the newest verification mail. */
export async function verifyEmail(userId: number): Promise<void> {
  const mail = await waitForMail(await emailOf(userId), "verify_email");
  const res = await call("/api/auth/verify-email", { body: { token: linkToken(mail.text_body, "/verify-email") } });
  if (res.status !== 200) throw new Error(`verify-email failed: ${res.status} ${res.text}`);
}
