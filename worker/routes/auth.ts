// Registration, login (with the two-factor step when enabled), logout.
import { Hono } from "hono";
import { emailHash } from "../responsible-play/excluded-identities";
import { takeOverExclusion } from "../responsible-play/break";
import { eq, sql } from "drizzle-orm";
import { loginSchema, registerSchema } from "../../common/api/accounts";
import { AUTH } from "../../common/messages";
import type { User } from "../../common/api/types";
import { users } from "../db/schema";
import { presentUser } from "../db/present";
import { createSession, endSession } from "../auth/session";
import { recordOperatorSeen } from "../fair-play/staff";
import { accountBanned } from "../admin/account-state";
import { hashPassword, scryptParamsFromEnv, verifyPassword } from "../auth/password";
import { hit } from "../http/rate-limit";
import { assertAccountOpen, assertNotLocked, clearFailures, lockoutKey, recordFailure, recordPasswordFailure } from "../auth/login-lockout";
import { checkSecondFactor } from "../auth/second-factor";
import { clientAddressKey } from "../http/client-address";
import { requireHuman } from "../auth/turnstile";
import { closeSocketsOf } from "../durable/close-sockets";
import { conflict, HttpError, isUniqueViolation, unauthorized } from "../http/errors";
import { validate } from "../http/validate";
import type { AppEnv } from "../http/app-env";
import type { Db } from "../db/client";
import { sendVerificationLink } from "../email/account-mail";
import { CURRENT_LEGAL_VERSIONS } from "../../common/legal/documents";
import { signUpAcceptanceStatement } from "../legal/terms";

const MINUTE = 60_000;
/** Checked when the username is unknown, at the same cost, so timing does not reveal which names exist. */
let dummyHash: Promise<string> | undefined;
const getDummyHash = (env: Env) => (dummyHash ??= hashPassword("not-a-real-password", scryptParamsFromEnv(env)));

function limits(env: Env) {
  const n = (v: string | undefined, d: number) => (Number(v) > 0 ? Number(v) : d);
  return {
    // Coarse, per address, over every account: one address guessing many accounts' passwords.
    loginPerIp: { max: n(env.LOGIN_LIMIT_PER_IP, 30), windowMs: 15 * MINUTE },
    registerPerIp: { max: n(env.REGISTER_LIMIT_PER_IP, 10), windowMs: 60 * MINUTE },
  };
}

/** The visitor's country as Cloudflare reports it; null when unknown ("XX") or Tor ("T1"). */
function clientCountry(req: Request): string | null {
  const country = (req.cf as { country?: unknown } | undefined)?.country;
  return typeof country === "string" && /^[A-Z]{2}$/.test(country) && country !== "XX" && country !== "T1" ? country : null;
}

export async function assertUnique(db: Db, username: string, email: string, exceptId?: number) {
  const clash = await db
    .select({ id: users.id, username: users.username, email: users.email })
    .from(users)
    .where(sql`(lower(${users.username}) = lower(${username}) OR lower(${users.email}) = lower(${email}))`)
    .all();
  const others = clash.filter((u) => u.id !== exceptId);
  if (others.some((u) => u.username.toLowerCase() === username.toLowerCase())) throw conflict(AUTH.usernameTaken, "username_taken");
  if (others.length > 0) throw conflict(AUTH.emailTaken, "email_taken");
}

export const authRoutes = new Hono<AppEnv>()
  .post("/register", validate("json", registerSchema), async (c) => {
    const db = c.get("db");
    const body = c.req.valid("json");
    await hit(db, `register:ip:${clientAddressKey(c.req.raw)}`, limits(c.env).registerPerIp);
    // Before the uniqueness check, so names cannot be probed without passing it.
    await requireHuman(c.env, c.req.raw, body.turnstileToken, "register");
    await assertUnique(db, body.username, body.email);
    const passwordHash = await hashPassword(body.password, scryptParamsFromEnv(c.env));
    let created;
    try {
      // The account and its agreement to the legal documents in force (the form required it), together.
      const [[row]] = await db.batch([
        db
          .insert(users)
          .values({
            username: body.username,
            email: body.email,
            passwordHash,
            avatar: body.avatar ?? null,
            bio: body.bio ?? null,
            location: body.location ?? null,
            socialLinks: body.socialLinks ? JSON.stringify(body.socialLinks) : null,
            preferences: body.preferences ? JSON.stringify(body.preferences) : null,
            country: clientCountry(c.req.raw),
          })
          .returning(),
        signUpAcceptanceStatement(c, db, body.username, CURRENT_LEGAL_VERSIONS),
      ]);
      if (!row) throw new Error("registration returned no row");
      created = row;
    } catch (e) {
      // Two registrations racing for the same name: the unique index decides.
      if (isUniqueViolation(e)) await assertUnique(db, body.username, body.email);
      throw e;
    }
    // An address a deleted self-excluded account used brings its exclusion along (until its end).
    await takeOverExclusion({ env: c.env, get: () => db, url: c.req.url }, created.id, "email", [emailHash(c.env, body.email)]);
    await createSession(c, db, created.id);
    sendVerificationLink(c, created);
    return c.json(presentUser(created) satisfies User, 201);
  })
  .post("/login", validate("json", loginSchema), async (c) => {
    const db = c.get("db");
    const body = c.req.valid("json");
    // An IPv6 client counts as its /64 (worker/http/client-address.ts).
    const ip = clientAddressKey(c.req.raw);
    const failureKey = lockoutKey(body.username, ip);
    await hit(db, `login:ip:${ip}`, limits(c.env).loginPerIp);
    await assertNotLocked(db, failureKey);
    // The account over every address: past its budget, the bot check (or, without one, a wait).
    await assertAccountOpen(c.env, c.req.raw, db, body.username, body.turnstileToken);
    const user = await db
      .select()
      .from(users)
      .where(sql`lower(${users.username}) = lower(${body.username})`)
      .get();
    const ok = await verifyPassword(body.password, user?.passwordHash ?? (await getDummyHash(c.env)));
    if (!user || !ok) {
      await recordPasswordFailure(c.env, db, body.username, ip);
      throw unauthorized(AUTH.invalidCredentials, "invalid_credentials");
    }
    if (user.totpEnabled) {
      if (!body.totpCode) throw new HttpError(401, "two_factor_required", AUTH.twoFactorRequired, { twoFactorRequired: true });
      // Counted against the account's budget of wrong codes too, which no address change resets.
      if (!(await checkSecondFactor(c, user, body.totpCode))) {
        await recordFailure(db, failureKey);
        throw new HttpError(401, "two_factor_invalid", AUTH.twoFactorInvalid, { twoFactorRequired: true });
      }
    }
    await clearFailures(db, failureKey);
    // Told only after the full credentials, so a guessed password learns nothing about the account.
    if (user.bannedAt !== null) throw accountBanned();
    // A player's own choice of country stands; an account without one takes the one they sign in from.
    const country = user.country ?? clientCountry(c.req.raw);
    if (country !== user.country) await db.update(users).set({ country }).where(eq(users.id, user.id));
    await createSession(c, db, user.id);
    // Where an operator signs in from is linked to staff (docs/fair-play.md, "Staff out of prize play").
    if (user.role === "admin") await recordOperatorSeen(c, user.id);
    return c.json(presentUser({ ...user, country }) satisfies User);
  })
  .post("/logout", async (c) => {
    const user = c.get("user");
    await endSession(c, c.get("db"));
    if (user) await closeSocketsOf(c.env, c.get("db"), user.id);
    return c.json({ message: "Logged out" });
  });
