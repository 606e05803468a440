// The mailed links under /api/auth: verifying an address, asking for a password reset and using
// one. None needs a session: the link's token is the proof.
import { Hono } from "hono";
import { and, eq, isNull, sql } from "drizzle-orm";
import { forgotPasswordSchema, resetPasswordSchema, verifyEmailSchema } from "../../common/api/email";
import { EMAIL } from "../../common/messages";
import { FORGOT_PASSWORD_PER_EMAIL_PER_HOUR, FORGOT_PASSWORD_PER_IP_PER_HOUR } from "../../common/spec";
import { sessions, users } from "../db/schema";
import { sha256Hex } from "../auth/bytes";
import { hashPassword, scryptParamsFromEnv } from "../auth/password";
import { sendResetLink, sendSecurityNotice } from "../email/account-mail";
import { useToken } from "../email/tokens";
import { clearAccountFailures } from "../auth/login-lockout";
import { closeSocketsOf } from "../durable/close-sockets";
import { badRequest } from "../http/errors";
import { hit } from "../http/rate-limit";
import { clientAddressKey } from "../http/client-address";
import { validate } from "../http/validate";
import type { AppEnv } from "../http/app-env";

const HOUR = 60 * 60_000;

export const authEmailRoutes = new Hono<AppEnv>()
  .post("/verify-email", validate("json", verifyEmailSchema), async (c) => {
    const db = c.get("db");
    const used = await useToken(db, c.req.valid("json").token, "verify_email");
    // The link proves the address it was sent to: after an email change it proves nothing.
    const verified =
      used &&
      (await db
        .update(users)
        .set({ emailVerifiedAt: Date.now() })
        .where(and(eq(users.id, used.userId), sql`lower(${users.email}) = lower(${used.email})`, isNull(users.deletedAt)))
        .returning({ id: users.id })
        .get());
    if (!verified) throw badRequest(EMAIL.verifyTokenInvalid, "verify_token_invalid");
    return c.json({ message: EMAIL.verified });
  })
  /**
   * The same answer whether or not an account has the address, and at the same speed: the one
   * lookup is the same either way, and the link is issued and mailed after the answer.
   */
  .post("/forgot-password", validate("json", forgotPasswordSchema), async (c) => {
    const db = c.get("db");
    const { email } = c.req.valid("json");
    await hit(db, `forgot:ip:${clientAddressKey(c.req.raw)}`, { max: FORGOT_PASSWORD_PER_IP_PER_HOUR, windowMs: HOUR });
    await hit(db, `forgot:email:${sha256Hex(email.toLowerCase())}`, { max: FORGOT_PASSWORD_PER_EMAIL_PER_HOUR, windowMs: HOUR });
    const user = await db
      .select({ id: users.id, username: users.username, email: users.email })
      .from(users)
      .where(and(sql`lower(${users.email}) = lower(${email})`, isNull(users.deletedAt)))
      .get();
    if (user) sendResetLink(c, user);
    return c.json({ message: EMAIL.resetRequested });
  })
  .post("/reset-password", validate("json", resetPasswordSchema), async (c) => {
    const db = c.get("db");
    const body = c.req.valid("json");
    const used = await useToken(db, body.token, "reset_password");
    if (!used) throw badRequest(EMAIL.resetTokenInvalid, "reset_token_invalid");
    const passwordHash = await hashPassword(body.newPassword, scryptParamsFromEnv(c.env));
    // Every session ends, this browser's too: whoever knew the old password is out.
    const [updated] = await db.batch([
      db
        .update(users)
        .set({ passwordHash })
        .where(and(eq(users.id, used.userId), isNull(users.deletedAt)))
        .returning({ username: users.username, email: users.email }),
      db.delete(sessions).where(eq(sessions.userId, used.userId)),
    ]);
    const user = updated[0];
    if (!user) throw badRequest(EMAIL.resetTokenInvalid, "reset_token_invalid");
    // Whoever had the old password is out of the open sockets too, and the owner's own sign-in waits end.
    await Promise.all([closeSocketsOf(c.env, db, used.userId), clearAccountFailures(db, user.username)]);
    sendSecurityNotice(c, user, { kind: "password_changed" });
    return c.json({ message: EMAIL.resetDone });
  });
