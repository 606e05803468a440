// The signed-in player's email address under /api/user/email: asking for a new verification link.
import { Hono } from "hono";
import { EMAIL } from "../../common/messages";
import { VERIFY_RESEND_PER_HOUR } from "../../common/spec";
import { sendVerificationLink } from "../email/account-mail";
import { conflict } from "../http/errors";
import { currentUser, requireUser } from "../http/middleware";
import { hit } from "../http/rate-limit";
import type { AppEnv } from "../http/app-env";

export const userEmailRoutes = new Hono<AppEnv>().use(requireUser).post("/verify/resend", async (c) => {
  const me = currentUser(c);
  if (me.emailVerifiedAt !== null) throw conflict(EMAIL.alreadyVerified, "email_already_verified");
  await hit(c.get("db"), `verify-resend:user:${me.id}`, { max: VERIFY_RESEND_PER_HOUR, windowMs: 60 * 60_000 });
  sendVerificationLink(c, me);
  return c.json({ message: EMAIL.verificationSent(me.email) });
});
