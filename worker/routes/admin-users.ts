// The console's players: search, a player's file (profile, paged ledger, sessions, limits and
// exclusions, frozen state), revoking sessions, suspending and banning with a note, and manual
// balance adjustments, which always wait for a second operator (the executor registered below).
import { Hono, type Context } from "hono";
import { count, desc, eq, sql } from "drizzle-orm";
import {
  adjustmentPayloadSchema,
  adjustmentSchema,
  ADMIN_PLAYER_SEARCH_LIMIT,
  ledgerPageSchema,
  moderationNoteSchema,
  playerSearchSchema,
  type AdjustmentRequested,
  type AdminSessionView,
  type ModerationAction,
  type ModerationRequested,
  type PlayerDetail,
  type PlayerLedgerPage,
  type PlayerModeration,
  type PlayerSummary,
  type PlayerTermsRecord,
} from "../../common/api/console-players";
import { CURRENT_LEGAL_VERSIONS } from "../../common/legal/documents";
import { LEGAL_CATALOG, legalTitle } from "../../common/legal/legal-catalog";
import { MODERATION, PLAYER } from "../../common/messages";
import { centsToDollars, formatCents } from "../../common/domain/money";
import { registerApprovalExecutor, requestApproval } from "../admin/approvals";
import { auditStatement, auditStatementIf } from "../admin/audit";
import { sha256Hex } from "../auth/bytes";
import type { Db } from "../db/client";
import { iso, presentTransaction } from "../db/present";
import { sessions, transactions, users } from "../db/schema";
import { closeSocketsOf } from "../durable/close-sockets";
import { pushStoredNotification } from "../durable/hub-client";
import { conflict, forbidden, notFound } from "../http/errors";
import { currentUser, requireAdmin, requireUser } from "../http/middleware";
import { idParam, validate } from "../http/validate";
import type { AppEnv } from "../http/app-env";
import { InsufficientFundsError, ledgerStatement, runAtomically } from "../money/ledger";
import { responsiblePlayState } from "../responsible-play/view";
import { acceptancesOf } from "../legal/terms";
import { z } from "zod";

const isoOrNull = (ms: number | null) => (ms === null ? null : iso(ms));

async function loadUser(db: Db, id: number) {
  const user = await db.select().from(users).where(eq(users.id, id)).get();
  if (!user) throw notFound(PLAYER.notFound, "player_not_found");
  return user;
}

/** `%` and `_` in a search are themselves, not wildcards. */
const containsPattern = (q: string) => `%${q.toLowerCase().replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;

/**
 * The handle operators revoke a session by: a hash of the stored hash, so neither the token nor
 * the row's key leaves the database.
 */
const sessionHandle = (storedId: string) => sha256Hex(storedId).slice(0, 16);

const sessionParam = validate(
  "param",
  z.object({
    id: z
      .string()
      .regex(/^\d{1,12}$/, "Invalid id")
      .transform(Number),
    sessionId: z.string().regex(/^[0-9a-f]{16}$/, "Invalid session id"),
  }),
);

const signedUsd = (cents: number) => `${cents < 0 ? "-" : "+"}$${formatCents(Math.abs(cents))}`;

/** What each moderation action changes: the column, which way, and the refusal when it is already so. */
const MODERATIONS: Record<ModerationAction, { column: "suspended_at" | "banned_at"; set: boolean; unchanged: string }> = {
  suspend: { column: "suspended_at", set: true, unchanged: MODERATION.alreadySuspended },
  unsuspend: { column: "suspended_at", set: false, unchanged: MODERATION.notSuspended },
  ban: { column: "banned_at", set: true, unchanged: MODERATION.alreadyBanned },
  unban: { column: "banned_at", set: false, unchanged: MODERATION.notBanned },
};

async function moderate(c: Context<AppEnv>, id: number, action: ModerationAction, note: string): Promise<PlayerModeration> {
  return moderateAs(c.env, c.get("db"), currentUser(c).id, id, action, note);
}

async function moderateAs(
  env: Env,
  db: Db,
  actorId: number,
  id: number,
  action: ModerationAction,
  note: string,
): Promise<PlayerModeration> {
  const me = { id: actorId };
  const m = MODERATIONS[action];
  if (m.set && id === me.id) throw forbidden(MODERATION.notYourself, "cannot_moderate_self");
  const d1 = env.DB;
  const user = await loadUser(db, id);
  const current = m.column === "suspended_at" ? user.suspendedAt : user.bannedAt;
  if ((current !== null) === m.set) throw conflict(m.unchanged, "moderation_unchanged");
  const now = Date.now();
  const key = m.column === "suspended_at" ? "suspendedAt" : "bannedAt";
  const statements = [
    d1
      .prepare(`UPDATE users SET ${m.column} = ?, moderation_note = ? WHERE id = ? AND ${m.column} IS ${m.set ? "NULL" : "NOT NULL"}`)
      .bind(m.set ? now : null, note, id),
    auditStatementIf(
      d1,
      me.id,
      {
        action: `user.${action}`,
        targetType: "user",
        targetId: id,
        before: { [key]: isoOrNull(current) },
        after: { [key]: m.set ? iso(now) : null },
        note,
      },
      "changes() > 0",
    ),
    // A ban ends every session of the account (after the audit row: changes() above must see the UPDATE).
    ...(action === "ban" ? [d1.prepare("DELETE FROM sessions WHERE user_id = ?").bind(id)] : []),
  ];
  const [changed] = await runAtomically(d1, statements);
  if ((changed ?? 0) === 0) throw conflict(m.unchanged, "moderation_unchanged");
  if (action === "ban") await closeSocketsOf(env, db, id);
  const after = await loadUser(db, id);
  return { userId: id, suspendedAt: isoOrNull(after.suspendedAt), bannedAt: isoOrNull(after.bannedAt), note: after.moderationNote };
}

async function revokeSessions(c: Context<AppEnv>, userId: number, storedIds: string[]): Promise<{ revoked: number }> {
  const d1 = c.env.DB;
  const statements = storedIds.map((sid) => d1.prepare("DELETE FROM sessions WHERE id = ? AND user_id = ?").bind(sid, userId));
  const results = await d1.batch([
    ...statements,
    auditStatement(d1, currentUser(c).id, {
      action: "session.revoke",
      targetType: "user",
      targetId: userId,
      before: { sessions: storedIds.map(sessionHandle) },
      after: { sessions: [] },
    }),
  ]);
  const revoked = results.slice(0, -1).reduce((n, r) => n + (r.meta.changes ?? 0), 0);
  // Sockets belong to the account, not to a session: they close, and the web app's remaining sessions reconnect.
  await closeSocketsOf(c.env, c.get("db"), userId);
  return { revoked };
}

// Banning an operator takes a second operator: carried out as the approver's ban, once (a retry finds the account banned).
registerApprovalExecutor("operator_ban", async ({ env, db, approverId }, payload) => {
  const { userId, note } = payload as { userId: number; note: string };
  const user = await loadUser(db, userId);
  if (user.bannedAt === null) await moderateAs(env, db, approverId, userId, "ban", note);
  return `user:${userId}`;
});

// The two-person rule's executor for adjustments: one ledger row per approval, never twice.
registerApprovalExecutor("adjustment", async ({ env, db, requesterId, approverId, approvalId }, payload) => {
  const { userId, amountCents, reason } = adjustmentPayloadSchema.parse(payload);
  const reference = `adjustment:${approvalId}`;
  const user = await loadUser(db, userId);
  const d1 = env.DB;
  const fresh = "NOT EXISTS (SELECT 1 FROM transactions WHERE reference = ?)";
  const message = MODERATION.adjustedNotice(signedUsd(amountCents), reason);
  const exceeds = () => conflict(MODERATION.adjustmentExceedsBalance(formatCents(user.balanceCents)), "adjustment_exceeds_balance");
  const done = await d1.prepare("SELECT 1 FROM transactions WHERE reference = ?").bind(reference).first();
  if (done) return reference;
  if (user.balanceCents + amountCents < 0) throw exceeds();
  let changes: number[];
  try {
    // The notification and the audit row first, each only while the ledger row is not there yet;
    // the ledger row last, which the balance's CHECK refuses (and the batch with it) below zero.
    changes = await runAtomically(d1, [
      d1
        .prepare(`INSERT INTO notifications (user_id, message, action, status) SELECT ?, ?, 'balance_adjusted', 'adjusted' WHERE ${fresh}`)
        .bind(userId, message, reference),
      auditStatementIf(
        d1,
        requesterId,
        {
          action: "user.adjust_balance",
          targetType: "user",
          targetId: userId,
          before: { balance: centsToDollars(user.balanceCents) },
          after: {
            balance: centsToDollars(user.balanceCents + amountCents),
            amount: centsToDollars(amountCents),
            reference,
            approvalId,
            approvedBy: approverId,
          },
          note: reason,
        },
        fresh,
        reference,
      ),
      ledgerStatement(d1, { userId, amountCents, type: "adjustment", reference, description: reason }),
    ]);
  } catch (e) {
    if (e instanceof InsufficientFundsError) throw exceeds();
    throw e;
  }
  if ((changes[0] ?? 0) > 0) {
    await pushStoredNotification(env, userId, {
      type: "notification",
      message,
      data: { action: "balance_adjusted", tournamentId: null, status: "adjusted" },
    });
  }
  return reference;
});

export const adminUserRoutes = new Hono<AppEnv>()
  .use(requireUser, requireAdmin)
  .get("/", validate("query", playerSearchSchema), async (c) => {
    const { q } = c.req.valid("query");
    const where =
      q === ""
        ? undefined
        : sql`(lower(${users.username}) LIKE ${containsPattern(q)} ESCAPE '\\' OR lower(${users.email}) LIKE ${containsPattern(q)} ESCAPE '\\')`;
    const rows = await c
      .get("db")
      .select()
      .from(users)
      .where(where)
      .orderBy(desc(users.createdAt), desc(users.id))
      .limit(ADMIN_PLAYER_SEARCH_LIMIT)
      .all();
    const players: PlayerSummary[] = rows.map((u) => ({
      id: u.id,
      username: u.username,
      email: u.email,
      role: u.role,
      balance: centsToDollars(u.balanceCents),
      createdAt: iso(u.createdAt),
      frozen: u.frozenAt !== null,
      suspended: u.suspendedAt !== null,
      banned: u.bannedAt !== null,
    }));
    return c.json({ players });
  })
  .get("/:id", idParam, async (c) => {
    const db = c.get("db");
    const u = await loadUser(db, c.req.valid("param").id);
    const detail: PlayerDetail = {
      id: u.id,
      username: u.username,
      email: u.email,
      emailVerified: u.emailVerifiedAt !== null,
      role: u.role,
      twoFactorEnabled: u.totpEnabled,
      country: u.country,
      level: u.level,
      tournamentsPlayed: u.tournamentsPlayed,
      tournamentsWon: u.tournamentsWon,
      createdAt: iso(u.createdAt),
      deleted: u.deletedAt !== null,
      balance: centsToDollars(u.balanceCents),
      owed: centsToDollars(u.owedCents),
      frozen: u.frozenAt === null ? null : { since: iso(u.frozenAt), reason: u.frozenReason },
      suspendedAt: isoOrNull(u.suspendedAt),
      bannedAt: isoOrNull(u.bannedAt),
      note: u.moderationNote,
      responsiblePlay: await responsiblePlayState(db, u, Date.now()),
    };
    return c.json(detail);
  })
  // What the player agreed to: every acceptance kept, and per document whether the version in
  // force is among them (money actions wait for it, worker/legal/terms.ts).
  .get("/:id/terms", idParam, async (c) => {
    const db = c.get("db");
    const { id } = c.req.valid("param");
    await loadUser(db, id);
    const accepted = await acceptancesOf(db, id).all();
    const newestFirst = [...accepted].sort((a, b) => b.acceptedAt - a.acceptedAt || b.version.localeCompare(a.version));
    const record: PlayerTermsRecord = {
      documents: LEGAL_CATALOG.map((d) => {
        const last = newestFirst.find((a) => a.document === d.id);
        return {
          id: d.id,
          title: d.title,
          version: CURRENT_LEGAL_VERSIONS[d.id],
          lastAccepted: last ? { version: last.version, acceptedAt: iso(last.acceptedAt) } : null,
          acceptedInForce: accepted.some((a) => a.document === d.id && a.version === CURRENT_LEGAL_VERSIONS[d.id]),
        };
      }),
      history: newestFirst.map((a) => ({
        document: a.document,
        title: legalTitle(a.document),
        version: a.version,
        acceptedAt: iso(a.acceptedAt),
      })),
    };
    return c.json(record);
  })
  .get("/:id/ledger", idParam, validate("query", ledgerPageSchema), async (c) => {
    const db = c.get("db");
    const { id } = c.req.valid("param");
    const { page, pageSize } = c.req.valid("query");
    await loadUser(db, id);
    const [rows, [total]] = await db.batch([
      db
        .select()
        .from(transactions)
        .where(eq(transactions.userId, id))
        .orderBy(desc(transactions.createdAt), desc(transactions.id))
        .limit(pageSize)
        .offset((page - 1) * pageSize),
      db.select({ n: count() }).from(transactions).where(eq(transactions.userId, id)),
    ]);
    return c.json({ entries: rows.map(presentTransaction), page, pageSize, total: total?.n ?? 0 } satisfies PlayerLedgerPage);
  })
  .get("/:id/sessions", idParam, async (c) => {
    const db = c.get("db");
    const { id } = c.req.valid("param");
    await loadUser(db, id);
    const rows = await db.select().from(sessions).where(eq(sessions.userId, id)).orderBy(desc(sessions.lastSeenAt)).all();
    return c.json(
      rows.map((s): AdminSessionView => ({
        id: sessionHandle(s.id),
        createdAt: iso(s.createdAt),
        lastSeenAt: iso(s.lastSeenAt),
        expiresAt: iso(s.expiresAt),
      })),
    );
  })
  .delete("/:id/sessions", idParam, async (c) => {
    const db = c.get("db");
    const { id } = c.req.valid("param");
    await loadUser(db, id);
    const rows = await db.select({ id: sessions.id }).from(sessions).where(eq(sessions.userId, id)).all();
    return c.json(
      await revokeSessions(
        c,
        id,
        rows.map((r) => r.id),
      ),
    );
  })
  .delete("/:id/sessions/:sessionId", sessionParam, async (c) => {
    const db = c.get("db");
    const { id, sessionId } = c.req.valid("param");
    await loadUser(db, id);
    const rows = await db.select({ id: sessions.id }).from(sessions).where(eq(sessions.userId, id)).all();
    const match = rows.find((r) => sessionHandle(r.id) === sessionId);
    if (!match) throw notFound(MODERATION.sessionNotFound, "session_not_found");
    const result = await revokeSessions(c, id, [match.id]);
    if (result.revoked === 0) throw notFound(MODERATION.sessionNotFound, "session_not_found");
    return c.json(result);
  })
  .post("/:id/suspend", idParam, validate("json", moderationNoteSchema), async (c) =>
    c.json(await moderate(c, c.req.valid("param").id, "suspend", c.req.valid("json").note)),
  )
  .post("/:id/unsuspend", idParam, validate("json", moderationNoteSchema), async (c) =>
    c.json(await moderate(c, c.req.valid("param").id, "unsuspend", c.req.valid("json").note)),
  )
  .post("/:id/ban", idParam, validate("json", moderationNoteSchema), async (c) => {
    const { id } = c.req.valid("param");
    const { note } = c.req.valid("json");
    const target = await loadUser(c.get("db"), id);
    // Another operator's ban (their access to everyone's money ends) waits for a second operator.
    if (target.role === "admin" && id !== currentUser(c).id && target.bannedAt === null) {
      const { id: approvalId } = await requestApproval(c, {
        kind: "operator_ban",
        target: `user:${id}`,
        beneficiaryId: null,
        payload: { userId: id, note },
        summary: MODERATION.operatorBanSummary(target.username, note),
        amountCents: 0,
      });
      return c.json({ approvalId, message: MODERATION.operatorBanRequested } satisfies ModerationRequested, 202);
    }
    return c.json(await moderate(c, id, "ban", note), 200);
  })
  .post("/:id/unban", idParam, validate("json", moderationNoteSchema), async (c) =>
    c.json(await moderate(c, c.req.valid("param").id, "unban", c.req.valid("json").note)),
  )
  .post("/:id/adjustments", idParam, validate("json", adjustmentSchema), async (c) => {
    const { id } = c.req.valid("param");
    const { amount, reason } = c.req.valid("json");
    const user = await loadUser(c.get("db"), id);
    // Checked again when it is approved: the balance may have moved in between.
    if (user.balanceCents + amount < 0) {
      throw conflict(MODERATION.adjustmentExceedsBalance(formatCents(user.balanceCents)), "adjustment_exceeds_balance");
    }
    const summary = MODERATION.adjustmentSummary(signedUsd(amount), user.username, reason);
    const { id: approvalId } = await requestApproval(c, {
      kind: "adjustment",
      target: `user:${id}`,
      beneficiaryId: id,
      payload: { userId: id, amountCents: amount, reason },
      summary,
      amountCents: Math.abs(amount),
    });
    return c.json({ approvalId, status: "pending", summary } satisfies AdjustmentRequested, 202);
  });
