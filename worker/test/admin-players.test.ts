// The players part of the operator console: search, a player's file, sessions, suspensions and
// bans (and what they stop), and manual balance adjustments under the two-person rule.
import { describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import type { PlayerTermsRecord } from "../../common/api/console-players";
import { MODERATION } from "../../common/messages";
import { CURRENT_LEGAL_VERSIONS } from "../../common/legal/documents";
import { approvalExecutor } from "../admin/approvals";
import { createDb } from "../db/client";
import { sha256Hex, randomToken } from "../auth/bytes";
import { SESSION_COOKIE } from "../auth/session";
import { call, registerUser } from "./helpers";
import { balanceCents, countRows, expectLedgerBalanced, makeAdmin } from "./money-helpers";
import { makeOperator } from "./fair-play-fixtures";
import { join, makeCategory, makePlayer, makeTournament, type Player } from "./tournament-fixtures";
import { login } from "./session-helpers";

const auditRows = (action: string, targetId: number | string) =>
  env.DB.prepare("SELECT * FROM audit_log WHERE action = ? AND target_id = ? ORDER BY id")
    .bind(action, String(targetId))
    .all<{ actor_user_id: number; before: string | null; after: string | null; note: string | null }>()
    .then((r) => r.results);

const moderate = (
  op: Player,
  userId: number,
  action: "suspend" | "unsuspend" | "ban" | "unban",
  note = "Chargeback pattern, see ticket 41",
) => call(`/api/admin/users/${userId}/${action}`, { cookie: op.cookie, body: { note } });

/** A second session for the player, as another device's sign-in would open. */
async function extraSession(userId: number): Promise<string> {
  const token = randomToken(32);
  const now = Date.now();
  await env.DB.prepare("INSERT INTO sessions (id, user_id, created_at, last_seen_at, expires_at) VALUES (?, ?, ?, ?, ?)")
    .bind(sha256Hex(token), userId, now, now, now + 86_400_000)
    .run();
  return `${SESSION_COOKIE}=${token}`;
}

describe("operators' player routes: authorization", () => {
  it("a player gets 403 and an operator without 2FA gets 403 with the reason, on every route", async () => {
    const player = await makePlayer();
    const noTwoFactor = await makePlayer();
    await env.DB.prepare("UPDATE users SET role = 'admin' WHERE id = ?").bind(noTwoFactor.id).run();
    const target = await makePlayer();
    const routes: [string, string, unknown?][] = [
      ["GET", "/api/admin/users?q=p"],
      ["GET", `/api/admin/users/${target.id}`],
      ["GET", `/api/admin/users/${target.id}/ledger`],
      ["GET", `/api/admin/users/${target.id}/sessions`],
      ["GET", `/api/admin/users/${target.id}/terms`],
      ["DELETE", `/api/admin/users/${target.id}/sessions`],
      ["DELETE", `/api/admin/users/${target.id}/sessions/abcdef0123456789`],
      ["POST", `/api/admin/users/${target.id}/suspend`, { note: "x" }],
      ["POST", `/api/admin/users/${target.id}/unsuspend`, { note: "x" }],
      ["POST", `/api/admin/users/${target.id}/ban`, { note: "x" }],
      ["POST", `/api/admin/users/${target.id}/unban`, { note: "x" }],
      ["POST", `/api/admin/users/${target.id}/adjustments`, { amount: 5, reason: "Goodwill credit" }],
      ["GET", "/api/admin/fair-play"],
      ["POST", "/api/admin/cheat-attempts/1/review", { resolution: "warned" }],
    ];
    for (const [method, path, body] of routes) {
      const asPlayer = await call(path, { method, cookie: player.cookie, body });
      expect(asPlayer.status, `${method} ${path}`).toBe(403);
      expect(asPlayer.body.code).toBe("forbidden");
      const asOperator = await call(path, { method, cookie: noTwoFactor.cookie, body });
      expect(asOperator.status, `${method} ${path}`).toBe(403);
      expect(asOperator.body.code).toBe("admin_two_factor_required");
    }
    expect(await countRows("SELECT 1 FROM audit_log WHERE target_id = ?", String(target.id))).toBe(0);
  });
});

describe("player search and file", () => {
  it("finds players by part of the username or email, case-insensitively", async () => {
    const op = await makeOperator();
    const a = await registerUser({ username: `Zebra${Date.now().toString(36)}`, email: `zed${Date.now().toString(36)}@mail.example` });
    const byName = await call(`/api/admin/users?q=${encodeURIComponent(a.username.slice(0, 8).toLowerCase())}`, { cookie: op.cookie });
    expect(byName.status).toBe(200);
    expect(byName.body.players.map((p: { id: number }) => p.id)).toContain(a.user.id);
    const byEmail = await call(`/api/admin/users?q=${encodeURIComponent(a.user.email.toUpperCase())}`, { cookie: op.cookie });
    expect(byEmail.body.players).toEqual([expect.objectContaining({ id: a.user.id, username: a.username, email: a.user.email })]);
    // A LIKE wildcard is searched for as itself, not as "anything".
    const wildcard = await call("/api/admin/users?q=%25%25%25", { cookie: op.cookie });
    expect(wildcard.body.players).toEqual([]);
  });

  it("shows the profile with balance, frozen, suspension and ban state, limits and exclusions; 404 for nobody", async () => {
    const op = await makeOperator();
    const p = await makePlayer({ balanceCents: 2_500 });
    await env.DB.prepare("UPDATE users SET frozen_at = ?, frozen_reason = 'refund', owed_cents = 700 WHERE id = ?")
      .bind(Date.now(), p.id)
      .run();
    await env.DB.prepare("INSERT INTO play_limits (user_id, kind, amount_cents, updated_at) VALUES (?, 'deposit_daily', 5000, ?)")
      .bind(p.id, Date.now())
      .run();
    await env.DB.prepare("INSERT INTO exclusions (user_id, kind, starts_at, ends_at) VALUES (?, 'cool_off', ?, ?)")
      .bind(p.id, Date.now() - 1000, Date.now() + 86_400_000)
      .run();
    const res = await call(`/api/admin/users/${p.id}`, { cookie: op.cookie });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: p.id,
      username: p.username,
      balance: 25,
      owed: 7,
      frozen: { reason: "refund" },
      suspendedAt: null,
      bannedAt: null,
      responsiblePlay: { exclusion: { kind: "cool_off" } },
    });
    expect(res.body.responsiblePlay.limits).toContainEqual(expect.objectContaining({ kind: "deposit_daily", amount: 50 }));
    expect(JSON.stringify(res.body)).not.toMatch(/password|totp_secret|recovery/i);
    expect((await call("/api/admin/users/999999", { cookie: op.cookie })).body.code).toBe("player_not_found");
  });

  it("shows which versions of the terms, rules and privacy policy the player accepted and when, against the versions in force", async () => {
    const op = await makeOperator();
    const p = await makePlayer();
    const t0 = Date.UTC(2026, 0, 2, 10, 0, 0);
    // Accepted at sign-up in an older version of the terms; the rules and privacy policy in force.
    await env.DB.prepare("UPDATE terms_acceptances SET accepted_at = ? WHERE user_id = ?").bind(t0, p.id).run();
    await env.DB.prepare("UPDATE terms_acceptances SET version = '0.9' WHERE user_id = ? AND document = 'terms'").bind(p.id).run();
    const before = await call<PlayerTermsRecord>(`/api/admin/users/${p.id}/terms`, { cookie: op.cookie });
    expect(before.status).toBe(200);
    expect(before.body.documents).toEqual([
      {
        id: "terms",
        title: "Terms of Service",
        version: CURRENT_LEGAL_VERSIONS.terms,
        lastAccepted: { version: "0.9", acceptedAt: new Date(t0).toISOString() },
        acceptedInForce: false,
      },
      {
        id: "rules",
        title: "Official Contest Rules",
        version: CURRENT_LEGAL_VERSIONS.rules,
        lastAccepted: { version: CURRENT_LEGAL_VERSIONS.rules, acceptedAt: new Date(t0).toISOString() },
        acceptedInForce: true,
      },
      {
        id: "privacy",
        title: "Privacy Policy",
        version: CURRENT_LEGAL_VERSIONS.privacy,
        lastAccepted: { version: CURRENT_LEGAL_VERSIONS.privacy, acceptedAt: new Date(t0).toISOString() },
        acceptedInForce: true,
      },
    ]);
    // The player accepts the version in force: it is the latest, and the older one stays on record.
    expect((await call("/api/user/terms/accept", { cookie: p.cookie, body: { versions: { ...CURRENT_LEGAL_VERSIONS } } })).status).toBe(
      200,
    );
    const after = await call<PlayerTermsRecord>(`/api/admin/users/${p.id}/terms`, { cookie: op.cookie });
    expect(after.body.documents.every((d) => d.acceptedInForce)).toBe(true);
    expect(after.body.documents[0]!.lastAccepted!.version).toBe(CURRENT_LEGAL_VERSIONS.terms);
    expect(after.body.history.filter((h) => h.document === "terms").map((h) => h.version)).toEqual([CURRENT_LEGAL_VERSIONS.terms, "0.9"]);
    expect(after.body.history).toHaveLength(4);
    expect(JSON.stringify(after.body)).not.toMatch(/network/i);
    expect((await call("/api/admin/users/999999/terms", { cookie: op.cookie })).body.code).toBe("player_not_found");
  });

  it("pages the player's ledger newest first", async () => {
    const op = await makeOperator();
    const p = await makePlayer();
    for (let i = 1; i <= 3; i++) {
      await env.DB.prepare("INSERT INTO transactions (user_id, amount_cents, type, reference, created_at) VALUES (?, ?, 'deposit', ?, ?)")
        .bind(p.id, i * 100, `pi_page_${p.id}_${i}`, Date.now() - (10 - i) * 1000)
        .run();
    }
    const first = await call(`/api/admin/users/${p.id}/ledger?page=1&pageSize=2`, { cookie: op.cookie });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ total: 3, page: 1, pageSize: 2 });
    expect(first.body.entries.map((e: { amount: number }) => e.amount)).toEqual([3, 2]);
    const second = await call(`/api/admin/users/${p.id}/ledger?page=2&pageSize=2`, { cookie: op.cookie });
    expect(second.body.entries.map((e: { amount: number }) => e.amount)).toEqual([1]);
  });
});

describe("sessions", () => {
  it("lists a player's sessions without their tokens; revoking one ends that session only, and writes the audit", async () => {
    const op = await makeOperator();
    const p = await makePlayer();
    const other = await extraSession(p.id);
    const list = await call(`/api/admin/users/${p.id}/sessions`, { cookie: op.cookie });
    expect(list.status).toBe(200);
    expect(list.body).toHaveLength(2);
    const stored = await env.DB.prepare("SELECT id FROM sessions WHERE user_id = ?").bind(p.id).all<{ id: string }>();
    for (const s of stored.results) expect(list.body.map((x: { id: string }) => x.id)).not.toContain(s.id);
    expect(list.body[0]).toEqual({
      id: expect.any(String),
      createdAt: expect.any(String),
      lastSeenAt: expect.any(String),
      expiresAt: expect.any(String),
    });
    const otherHash = sha256Hex(other.split("=")[1]!);
    const idOfOther = list.body.find((s: { id: string }) => s.id === sha256Hex(otherHash).slice(0, 16)).id;
    const revoke = await call(`/api/admin/users/${p.id}/sessions/${idOfOther}`, { cookie: op.cookie, method: "DELETE" });
    expect(revoke.status).toBe(200);
    expect(revoke.body).toEqual({ revoked: 1 });
    expect((await call("/api/user", { cookie: other })).status).toBe(401);
    expect((await call("/api/user", { cookie: p.cookie })).status).toBe(200);
    expect(await auditRows("session.revoke", p.id)).toEqual([expect.objectContaining({ actor_user_id: op.id })]);
    const again = await call(`/api/admin/users/${p.id}/sessions/${idOfOther}`, { cookie: op.cookie, method: "DELETE" });
    expect(again.status).toBe(404);
    expect(again.body.code).toBe("session_not_found");
  });

  it("revoking all ends every session of the player", async () => {
    const op = await makeOperator();
    const p = await makePlayer();
    const other = await extraSession(p.id);
    const res = await call(`/api/admin/users/${p.id}/sessions`, { cookie: op.cookie, method: "DELETE" });
    expect(res.body).toEqual({ revoked: 2 });
    expect((await call("/api/user", { cookie: other })).status).toBe(401);
    expect((await call("/api/user", { cookie: p.cookie })).status).toBe(401);
  });
});

describe("suspensions", () => {
  it("a suspended account cannot join or start a deposit, can still withdraw-check its wallet; lifting it restores both", async () => {
    const op = await makeOperator();
    const p = await makePlayer({ balanceCents: 5_000 });
    const t = await makeTournament(await makeCategory());
    const res = await moderate(op, p.id, "suspend");
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      userId: p.id,
      suspendedAt: expect.any(String),
      bannedAt: null,
      note: "Chargeback pattern, see ticket 41",
    });

    const joined = await join(p, t.id);
    expect(joined.status).toBe(403);
    expect(joined.body).toEqual({ code: "account_suspended", message: MODERATION.accountSuspended });
    const intent = await call("/api/create-payment-intent", { cookie: p.cookie, body: { amount: 10 } });
    expect(intent.status).toBe(403);
    expect(intent.body.code).toBe("account_suspended");
    // Signed in still: the wallet (and a withdrawal of the balance) stays open.
    expect((await call("/api/wallet", { cookie: p.cookie })).status).toBe(200);

    const audit = await auditRows("user.suspend", p.id);
    expect(audit).toHaveLength(1);
    expect(audit[0]!.actor_user_id).toBe(op.id);
    expect(JSON.parse(audit[0]!.before!)).toEqual({ suspendedAt: null });
    expect(JSON.parse(audit[0]!.after!)).toEqual({ suspendedAt: expect.any(String) });
    expect(audit[0]!.note).toBe("Chargeback pattern, see ticket 41");

    const again = await moderate(op, p.id, "suspend");
    expect(again.status).toBe(409);
    expect(again.body.code).toBe("moderation_unchanged");

    const lifted = await moderate(op, p.id, "unsuspend", "Cleared after review");
    expect(lifted.status).toBe(200);
    expect(lifted.body.suspendedAt).toBeNull();
    expect((await join(p, t.id)).status).toBe(200);
    expect(await auditRows("user.unsuspend", p.id)).toHaveLength(1);
    expect((await moderate(op, p.id, "unsuspend")).status).toBe(409);
  });

  it("an operator cannot suspend or ban themselves", async () => {
    const op = await makeOperator();
    for (const action of ["suspend", "ban"] as const) {
      const res = await moderate(op, op.id, action);
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ code: "cannot_moderate_self", message: MODERATION.notYourself });
    }
    expect(await countRows("SELECT 1 FROM audit_log WHERE target_id = ?", String(op.id))).toBe(0);
    expect((await call("/api/user", { cookie: op.cookie })).status).toBe(200);
  });

  it("a note is required", async () => {
    const op = await makeOperator();
    const p = await makePlayer();
    const res = await call(`/api/admin/users/${p.id}/suspend`, { cookie: op.cookie, body: {} });
    expect(res.status).toBe(400);
    expect((await call(`/api/admin/users/999999/suspend`, { cookie: op.cookie, body: { note: "x" } })).status).toBe(404);
  });
});

describe("bans", () => {
  it("ends the player's sessions, refuses sign-in with the reason, and lifting it lets them sign in again", async () => {
    const op = await makeOperator();
    const p = await registerUser();
    const res = await moderate(op, p.user.id, "ban", "Multi-accounting");
    expect(res.status).toBe(200);
    expect(res.body.bannedAt).toEqual(expect.any(String));
    expect((await call("/api/user", { cookie: p.cookie })).status).toBe(401);
    expect(await countRows("SELECT 1 FROM sessions WHERE user_id = ?", p.user.id)).toBe(0);

    const signIn = await login(p.username, p.password);
    expect(signIn.status).toBe(403);
    expect(signIn.body).toEqual({ code: "account_banned", message: MODERATION.accountBanned });
    expect(signIn.setCookie).toBeNull();
    // A wrong password learns nothing about the ban.
    expect((await login(p.username, "wrong-password")).body.code).toBe("invalid_credentials");

    const audit = await auditRows("user.ban", p.user.id);
    expect(audit).toHaveLength(1);
    expect(JSON.parse(audit[0]!.before!)).toEqual({ bannedAt: null });
    expect(audit[0]!.note).toBe("Multi-accounting");

    expect((await moderate(op, p.user.id, "unban", "Appeal accepted")).status).toBe(200);
    expect((await login(p.username, p.password)).status).toBe(200);
    expect(await auditRows("user.unban", p.user.id)).toHaveLength(1);
  });

  it("any session of a banned account that still exists is refused", async () => {
    const op = await makeOperator();
    const p = await makePlayer();
    await moderate(op, p.id, "ban");
    // A session opened in the instant of the ban (a sign-in racing it).
    const late = await extraSession(p.id);
    const res = await call("/api/user", { cookie: late });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe("account_banned");
    // Refused once, and ended: the same cookie is then simply signed out.
    expect(await countRows("SELECT 1 FROM sessions WHERE user_id = ?", p.id)).toBe(0);
    expect((await call("/api/user", { cookie: late })).status).toBe(401);
    const joinTry = await call("/api/tournaments/1/join", { cookie: await extraSession(p.id), body: {} });
    expect(joinTry.status).toBe(403);
    expect(joinTry.body.code).toBe("account_banned");
  });

  it("a banned operator loses the console too", async () => {
    const op = await makeOperator();
    const other = await makePlayer();
    await makeAdmin(other.id);
    // Another operator's ban waits for a second operator (the two-person rule).
    const asked = await moderate(op, other.id, "ban");
    expect(asked.status).toBe(202);
    const second = await makeOperator();
    expect((await call(`/api/admin/approvals/${asked.body.approvalId}/approve`, { cookie: second.cookie, body: {} })).status).toBe(200);
    const late = await extraSession(other.id);
    expect((await call("/api/admin/users?q=a", { cookie: late })).body.code).toBe("account_banned");
  });
});

describe("manual balance adjustments", () => {
  const ask = (op: Player, userId: number, amount: unknown, reason: unknown = "Goodwill: room crashed mid-game") =>
    call(`/api/admin/users/${userId}/adjustments`, { cookie: op.cookie, body: { amount, reason } });

  async function approve(approvalId: number, approverId: number) {
    const row = await env.DB.prepare("SELECT payload, requested_by FROM approvals WHERE id = ?")
      .bind(approvalId)
      .first<{ payload: string; requested_by: number }>();
    return approvalExecutor("adjustment")(
      { env, db: createDb(env.DB), approverId, requesterId: row!.requested_by, approvalId },
      JSON.parse(row!.payload),
    );
  }

  it("waits for a second operator: asking changes no balance; approval adds one ledger row, once, and tells the player", async () => {
    const op = await makeOperator();
    const second = await makeOperator();
    const p = await makePlayer({ balanceCents: 1_000 });
    const res = await ask(op, p.id, 12.5);
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ approvalId: expect.any(Number), status: "pending" });
    expect(await balanceCents(p.id)).toBe(1_000);
    const approval = await env.DB.prepare("SELECT kind, status, amount_cents, requested_by, summary FROM approvals WHERE id = ?")
      .bind(res.body.approvalId)
      .first();
    expect(approval).toMatchObject({ kind: "adjustment", status: "pending", amount_cents: 1_250, requested_by: op.id });
    expect(approval!.summary).toContain(p.username);
    expect(await auditRows("approval.request", res.body.approvalId)).toHaveLength(1);

    const ref = await approve(res.body.approvalId, second.id);
    expect(ref).toBe(`adjustment:${res.body.approvalId}`);
    expect(await approve(res.body.approvalId, second.id)).toBe(ref);
    expect(await balanceCents(p.id)).toBe(2_250);
    expect(await countRows("SELECT 1 FROM transactions WHERE reference = ? AND type = 'adjustment'", ref)).toBe(1);
    expect(await countRows("SELECT 1 FROM notifications WHERE user_id = ?", p.id)).toBe(1);
    const audit = await auditRows("user.adjust_balance", p.id);
    expect(audit).toHaveLength(1);
    expect(JSON.parse(audit[0]!.before!)).toEqual({ balance: 10 });
    expect(JSON.parse(audit[0]!.after!)).toMatchObject({
      balance: 22.5,
      amount: 12.5,
      approvalId: res.body.approvalId,
      approvedBy: second.id,
    });

    const mine = await call("/api/user/transactions", { cookie: p.cookie });
    expect(mine.body[0]).toMatchObject({ type: "adjustment", amount: 12.5, description: "Goodwill: room crashed mid-game" });
    await expectLedgerBalanced();
  });

  it("a debit never takes the balance below zero: refused when asked, and 409 at approval when the balance no longer covers it", async () => {
    const op = await makeOperator();
    const second = await makeOperator();
    const p = await makePlayer({ balanceCents: 1_000 });
    const tooMuch = await ask(op, p.id, -10.01);
    expect(tooMuch.status).toBe(409);
    expect(tooMuch.body.code).toBe("adjustment_exceeds_balance");
    const res = await ask(op, p.id, -8);
    expect(res.status).toBe(202);
    // The player spends some of it before the second operator looks.
    await env.DB.prepare("INSERT INTO transactions (user_id, amount_cents, type, reference) VALUES (?, -500, 'tournament_entry', ?)")
      .bind(p.id, `entry:test:${p.id}`)
      .run();
    await expect(approve(res.body.approvalId, second.id)).rejects.toMatchObject({
      status: 409,
      body: { code: "adjustment_exceeds_balance" },
    });
    expect(await balanceCents(p.id)).toBe(500);
    expect(await countRows("SELECT 1 FROM notifications WHERE user_id = ?", p.id)).toBe(0);
    expect(await auditRows("user.adjust_balance", p.id)).toHaveLength(0);
    await expectLedgerBalanced();
  });

  it("refuses a zero amount, more than two decimals, a missing reason, and an unknown player", async () => {
    const op = await makeOperator();
    const p = await makePlayer();
    for (const [amount, reason] of [
      [0, "Goodwill"],
      [1.005, "Goodwill"],
      [5, ""],
      ["5", "Goodwill"],
    ] as const) {
      expect((await ask(op, p.id, amount, reason)).status, `${amount} ${reason}`).toBe(400);
    }
    expect((await ask(op, 999999, 5)).status).toBe(404);
    expect(await countRows("SELECT 1 FROM approvals WHERE payload LIKE ?", `%"userId":${p.id},%`)).toBe(0);
  });
});
