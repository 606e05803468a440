// The account mails the routes send: verification and reset links, and a short notice on every
// security change. Each is one call from its route and runs after the response (mailer.ts).
import type { Context } from "hono";
import { EMAIL, MAIL } from "../../common/messages";
import { EMAIL_VERIFY_TOKEN_TTL_MS, PASSWORD_RESET_TOKEN_TTL_MS } from "../../common/spec";
import { formatCents } from "../../common/domain/money";
import type { AppEnv } from "../http/app-env";
import { forbidden } from "../http/errors";
import type { PayoutRow } from "../money/payouts";
import { inBackground, mailerFor, sendLater } from "./mailer";
import { issueToken } from "./tokens";

interface Recipient {
  id: number;
  username: string;
  email: string;
}

/** A page of this site, absolute, for a mail (the same origin that served the request). */
const pageUrl = (c: Context<AppEnv>, path: string, token: string) =>
  `${new URL(c.req.url).origin}${path}?token=${encodeURIComponent(token)}`;

export const sameAddress = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/** Mails `user.email` a link that proves the address (sign-up, a changed address, or asked again). */
export function sendVerificationLink(c: Context<AppEnv>, user: Recipient): void {
  inBackground(c, "verify_email", async () => {
    const db = c.get("db");
    const token = await issueToken(db, { userId: user.id, purpose: "verify_email", email: user.email, ttlMs: EMAIL_VERIFY_TOKEN_TTL_MS });
    await mailerFor(c.env, db).send({
      to: user.email,
      kind: "verify_email",
      ...MAIL.verify(user.username, pageUrl(c, "/verify-email", token)),
    });
  });
}

/** Mails a password reset link; older unused reset links of the user stop working. */
export function sendResetLink(c: Context<AppEnv>, user: Recipient): void {
  inBackground(c, "reset_password", async () => {
    const db = c.get("db");
    const token = await issueToken(db, {
      userId: user.id,
      purpose: "reset_password",
      email: user.email,
      ttlMs: PASSWORD_RESET_TOKEN_TTL_MS,
      replacePrevious: true,
    });
    await mailerFor(c.env, db).send({
      to: user.email,
      kind: "reset_password",
      ...MAIL.reset(user.username, pageUrl(c, "/reset-password", token)),
    });
  });
}

export type SecurityNotice =
  | { kind: "password_changed" }
  | { kind: "two_factor_enabled" }
  | { kind: "two_factor_disabled" }
  | { kind: "second_factor_locked" }
  | { kind: "username_changed"; from: string }
  | { kind: "withdrawal_requested"; payout: Pick<PayoutRow, "amountCents" | "accountLast4" | "createdAt"> }
  | { kind: "tax_form_filed"; tinLast4: string; at: number };

/** The subject and text of a notice. */
function noticeContent(username: string, notice: SecurityNotice): { subject: string; text: string } {
  switch (notice.kind) {
    case "password_changed":
      return MAIL.passwordChanged(username);
    case "two_factor_enabled":
      return MAIL.twoFactorEnabled(username);
    case "two_factor_disabled":
      return MAIL.twoFactorDisabled(username);
    case "second_factor_locked":
      return MAIL.secondFactorLocked(username);
    case "username_changed":
      return MAIL.usernameChanged(notice.from, username);
    case "withdrawal_requested":
      return MAIL.withdrawalRequested(
        username,
        formatCents(notice.payout.amountCents),
        notice.payout.accountLast4,
        new Date(notice.payout.createdAt).toUTCString(),
      );
    case "tax_form_filed":
      return MAIL.taxFormFiled(username, notice.tinLast4, new Date(notice.at).toUTCString());
  }
}

/** A short "this just happened to your account" mail to the account's address. */
export function sendSecurityNotice(c: Context<AppEnv>, user: Omit<Recipient, "id">, notice: SecurityNotice): void {
  sendLater(c, { to: user.email, kind: notice.kind, ...noticeContent(user.username, notice) });
}

/**
 * After a profile save: when the address changed, the old one is told where mail now goes and the
 * new one gets a verification link (the route has already reset the verification).
 */
export function mailEmailChange(c: Context<AppEnv>, before: Recipient, after: Recipient): void {
  if (sameAddress(before.email, after.email)) return;
  sendLater(c, { to: before.email, kind: "email_changed", ...MAIL.emailChanged(after.username, after.email) });
  sendVerificationLink(c, after);
}

/** Withdrawals need an address the player proved they read. */
export function assertEmailVerified(user: { emailVerifiedAt: number | null }): void {
  if (user.emailVerifiedAt === null) throw forbidden(EMAIL.unverified, "email_unverified");
}
