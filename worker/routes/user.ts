// The signed-in user's account: profile, password, ledger, deletion.
import { Hono } from "hono";
import { and, count, desc, eq, exists, inArray, isNotNull, isNull, notExists, sql } from "drizzle-orm";
import type { SQLiteUpdateSetSource } from "drizzle-orm/sqlite-core";
import { passwordChangeSchema, profileUpdateSchema } from "../../common/api/accounts";
import { deleteAccountSchema } from "../../common/api/account-security";
import { keepIdentitiesStatement } from "../responsible-play/excluded-identities";
import { ACCOUNT, AUTH } from "../../common/messages";
import { formatCents } from "../../common/domain/money";
import {
  emailTokens,
  notifications,
  payouts,
  sessions,
  termsAcceptances,
  tournamentParticipants,
  tournaments,
  transactions,
  users,
} from "../db/schema";
import type { Db } from "../db/client";
import { hit, SENSITIVE_LIMIT, sensitiveKey } from "../http/rate-limit";
import { assertSteppedUp } from "../auth/step-up";
import { closeSocketsOf } from "../durable/close-sockets";
import { EMAIL_CHANGES_PER_HOUR } from "../../common/spec";
import { parseJsonObject, presentTransaction, presentUser } from "../db/present";
import { endSession, rotateSession } from "../auth/session";
import { hashPassword, scryptParamsFromEnv, verifyPassword } from "../auth/password";
import { badRequest, conflict, HttpError, isUniqueViolation } from "../http/errors";
import { currentSession, currentUser, requireUser } from "../http/middleware";
import { validate } from "../http/validate";
import type { AppEnv } from "../http/app-env";
import { assertUnique } from "./auth";
import { mailEmailChange, sameAddress, sendSecurityNotice } from "../email/account-mail";
import { presentSignedIn } from "./session";
import { countryKeptOnDeletion } from "../tax/forms";

export const userRoutes = new Hono<AppEnv>()
  .get("/", async (c) => c.json(await presentSignedIn(c.get("db"), currentUser(c))))
  .use(requireUser)
  .patch("/profile", validate("json", profileUpdateSchema), async (c) => {
    const db = c.get("db");
    const me = currentUser(c);
    const body = c.req.valid("json");
    // The name is how the account signs in and how others know it: changing it needs a step-up too.
    const renamed = body.username !== me.username;
    if (renamed) assertSteppedUp(c);
    if (body.email.toLowerCase() !== me.email.toLowerCase()) {
      // The address is where password resets go: changing it is taking the account.
      assertSteppedUp(c);
      // Each change may answer "already registered": counted per user, so addresses cannot be probed through it.
      await hit(db, `email-change:user:${me.id}`, { max: EMAIL_CHANGES_PER_HOUR, windowMs: 60 * 60_000 }).catch((e: unknown) => {
        throw e instanceof HttpError && e.code === "rate_limited" ? new HttpError(429, "rate_limited", AUTH.emailChangeLimited) : e;
      });
    }
    await assertUnique(db, body.username, body.email, me.id);
    const changes: SQLiteUpdateSetSource<typeof users> = { username: body.username, email: body.email };
    // A new address is unproven until its own link is opened (mailEmailChange sends it).
    if (!sameAddress(me.email, body.email)) changes.emailVerifiedAt = null;
    // Fields left out of the body stay as they are (the dashboard form sends only username and email).
    if (body.bio !== undefined) changes.bio = body.bio || null;
    if (body.location !== undefined) changes.location = body.location || null;
    if (body.avatar !== undefined) {
      changes.avatar = body.avatar;
      // A changed picture gets a new version, so its URL changes and no cache keeps the old one.
      changes.avatarVersion = sql`CASE WHEN ${users.avatar} IS ${body.avatar} THEN ${users.avatarVersion} ELSE ${users.avatarVersion} + 1 END`;
    }
    if (body.country !== undefined) changes.country = body.country;
    if (body.socialLinks !== undefined) changes.socialLinks = body.socialLinks ? JSON.stringify(body.socialLinks) : null;
    if (body.preferences) {
      changes.preferences = JSON.stringify({ ...parseJsonObject(me.preferences), ...body.preferences });
    }
    try {
      const [[updated]] = await db.batch([
        db.update(users).set(changes).where(eq(users.id, me.id)).returning(),
        // Reset links mailed to the old address stop working with it (no-op when the address stays).
        db
          .update(emailTokens)
          .set({ usedAt: Date.now() })
          .where(
            and(
              eq(emailTokens.userId, me.id),
              eq(emailTokens.purpose, "reset_password"),
              isNull(emailTokens.usedAt),
              sql`${sameAddress(me.email, body.email) ? 0 : 1} = 1`,
            ),
          ),
      ]);
      if (!updated) throw new Error("profile update returned no row");
      mailEmailChange(c, me, updated);
      // To the address the account had when it was renamed.
      if (renamed) sendSecurityNotice(c, { username: updated.username, email: me.email }, { kind: "username_changed", from: me.username });
      return c.json(presentUser(updated));
    } catch (e) {
      if (isUniqueViolation(e)) await assertUnique(db, body.username, body.email, me.id);
      throw e;
    }
  })
  .patch("/password", validate("json", passwordChangeSchema), async (c) => {
    const db = c.get("db");
    const me = currentUser(c);
    const body = c.req.valid("json");
    // The current password in the request is the step-up; with 2FA on, the code is asked by a step-up too.
    if (me.totpEnabled) assertSteppedUp(c);
    await hit(db, sensitiveKey(me.id), SENSITIVE_LIMIT);
    if (!(await verifyPassword(body.currentPassword, me.passwordHash))) throw badRequest(AUTH.currentPasswordWrong, "wrong_password");
    const passwordHash = await hashPassword(body.newPassword, scryptParamsFromEnv(c.env));
    await db.update(users).set({ passwordHash }).where(eq(users.id, me.id));
    // Anyone else holding a session (a stolen cookie, another device) is signed out, and this one gets a new token.
    await rotateSession(c, db, me.id, { ...currentSession(c), stepUpAt: Date.now() });
    await closeSocketsOf(c.env, db, me.id);
    sendSecurityNotice(c, me, { kind: "password_changed" });
    return c.json({ message: "Password updated" });
  })
  .get("/transactions", async (c) => {
    const rows = await c
      .get("db")
      .select()
      .from(transactions)
      .where(eq(transactions.userId, currentUser(c).id))
      .orderBy(desc(transactions.createdAt), desc(transactions.id))
      .all();
    return c.json(rows.map(presentTransaction));
  })
  /**
   * Deleting erases the personal data, every session, the notifications, unused email links and
   * the terms acceptances, but keeps the row, anonymised: the ledger, payouts, tax records and
   * tournament results (answers and their receipts included) reference it (ON DELETE CASCADE
   * would erase a money trail we must keep). What is kept and why: docs/player-data.md, and the
   * privacy policy says the same to players. Refused while money is still owed either way.
   */
  .delete("/", validate("json", deleteAccountSchema), async (c) => {
    const me = currentUser(c);
    const db = c.get("db");
    const body = c.req.valid("json");
    await hit(db, sensitiveKey(me.id), SENSITIVE_LIMIT);
    if (!(await verifyPassword(body.password, me.passwordHash))) throw badRequest(ACCOUNT.passwordWrong, "wrong_password");
    const blocker = await deletionBlocker(db, me.id);
    if (blocker) throw conflict(blocker, "account_delete_blocked");
    // The same conditions again inside the write, so a deposit or withdrawal racing this request cannot slip past.
    const now = Date.now();
    // A self-excluded player's email, cards and bank accounts, as keyed hashes, outlive the account
    // (worker/responsible-play/excluded-identities.ts): written in this batch, once it has deleted the account.
    const keep = await keepIdentitiesStatement(c.env, me, now);
    const asD1 = (q: { toSQL(): { sql: string; params: unknown[] } }) => {
      const { sql: text, params } = q.toSQL();
      return c.env.DB.prepare(text).bind(...params);
    };
    const [anonymisedResult] = await c.env.DB.batch([
      asD1(
        db
          .update(users)
          .set({
            // Neither name nor address passes registration's rules, so they can never collide with a real account.
            username: `Deleted player ${me.id}`,
            email: `deleted:${me.id}`,
            passwordHash: "!deleted",
            avatar: null,
            avatarVersion: sql`${users.avatarVersion} + 1`,
            bio: null,
            location: null,
            // Erased, but for a US prize winner's: the 1099-MISC export needs it (a tax record).
            country: countryKeptOnDeletion,
            socialLinks: null,
            preferences: null,
            totpSecret: null,
            totpEnabled: false,
            recoveryCodes: null,
            deletedAt: now,
          })
          .where(
            and(
              eq(users.id, me.id),
              isNull(users.deletedAt),
              eq(users.balanceCents, 0),
              notExists(pendingPayoutOf(db)),
              notExists(openEntryOf(db)),
            ),
          )
          .returning({ id: users.id }),
      ),
      // What else goes with the personal data (docs/player-data.md), each only once the row above was anonymised.
      asD1(db.delete(sessions).where(and(eq(sessions.userId, me.id), exists(deletedMe(db, me.id))))),
      asD1(db.delete(notifications).where(and(eq(notifications.userId, me.id), exists(deletedMe(db, me.id))))),
      asD1(db.delete(termsAcceptances).where(and(eq(termsAcceptances.userId, me.id), exists(deletedMe(db, me.id))))),
      asD1(db.delete(emailTokens).where(and(eq(emailTokens.userId, me.id), exists(deletedMe(db, me.id))))),
      ...(keep ? [keep] : []),
      // The verified legal name and date of birth go with the account; the person may open a new
      // one, which is then their one account (docs/identity-and-tax.md).
      ...identityErasure(c.env.DB, me.id),
    ]);
    const anonymised = anonymisedResult!.results;
    if (anonymised.length === 0) throw conflict((await deletionBlocker(db, me.id)) ?? ACCOUNT.deleteRetry, "account_delete_blocked");
    await endSession(c, db);
    await closeSocketsOf(c.env, db, me.id);
    return c.json({ message: ACCOUNT.deleted });
  });

/** The user, once deleted: the condition of every erasure that follows the anonymising write in the same batch. */
const deletedMe = (db: Db, userId: number) =>
  db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.id, userId), isNotNull(users.deletedAt)));

/** Erases a deleted account's verified identity, in the deletion's batch once the account is deleted. */
function identityErasure(d1: D1Database, userId: number): D1PreparedStatement[] {
  const deleted = "EXISTS (SELECT 1 FROM users WHERE id = ?1 AND deleted_at IS NOT NULL)";
  return [
    d1.prepare(`DELETE FROM identity_owners WHERE user_id = ?1 AND ${deleted}`).bind(userId),
    d1
      .prepare(
        `UPDATE identity_verifications SET first_name = NULL, last_name = NULL, date_of_birth = NULL, identity_hash = NULL
         WHERE user_id = ?1 AND ${deleted}`,
      )
      .bind(userId),
  ];
}

/** A pending withdrawal of the user in the outer query: money still on its way. */
const pendingPayoutOf = (db: Db) =>
  db
    .select({ id: payouts.id })
    .from(payouts)
    .where(and(eq(payouts.userId, users.id), eq(payouts.status, "pending")));

/** An entry of the user in the outer query to a standard tournament not yet over (practice never holds anyone back). */
const openEntryOf = (db: Db) =>
  db
    .select({ id: tournamentParticipants.id })
    .from(tournamentParticipants)
    .innerJoin(tournaments, eq(tournaments.id, tournamentParticipants.tournamentId))
    .where(
      and(eq(tournamentParticipants.userId, users.id), inArray(tournaments.status, ["upcoming", "live"]), eq(tournaments.kind, "standard")),
    );

/** Why this account cannot be deleted yet, or null. */
async function deletionBlocker(db: Db, userId: number): Promise<string | null> {
  const user = await db.select({ balanceCents: users.balanceCents }).from(users).where(eq(users.id, userId)).get();
  if (user && user.balanceCents > 0) return ACCOUNT.deleteBalance(formatCents(user.balanceCents));
  const pending = await db
    .select({ id: payouts.id })
    .from(payouts)
    .where(and(eq(payouts.userId, userId), eq(payouts.status, "pending")))
    .get();
  if (pending) return ACCOUNT.deletePendingWithdrawal;
  const [active] = await db
    .select({ n: count() })
    .from(tournamentParticipants)
    .innerJoin(tournaments, eq(tournaments.id, tournamentParticipants.tournamentId))
    .where(
      and(eq(tournamentParticipants.userId, userId), inArray(tournaments.status, ["upcoming", "live"]), eq(tournaments.kind, "standard")),
    );
  if (active && active.n > 0) return ACCOUNT.deleteActiveTournament;
  return null;
}
