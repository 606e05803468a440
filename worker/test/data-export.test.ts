// A player's own data (docs/player-data.md): the export holds their profile, ledger, tournaments,
// answers with receipts, sessions, notifications, limits and acceptances, nobody else's rows, and
// no secret (checked by looking for each known secret value in the file); deletion erases what
// the privacy policy says it erases and keeps what it says it keeps.
import { describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import { CURRENT_LEGAL_VERSIONS } from "../../common/legal/documents";
import { postEntry } from "../money/ledger";
import { call, registerUser } from "./helpers";
import { PAST_HOLD, fund, readyToWithdraw, validBank, withdraw } from "./money-helpers";
import { enableTwoFactorDirectly } from "./session-helpers";
import { answer, correctOf, endNow, join, makeCategory, makeTournament, next, one, type Player } from "./tournament-fixtures";

const W9 = {
  legalName: "Ada Lovelace",
  taxClassification: "individual",
  tinType: "ssn",
  tin: "536-22-7481",
  street: "12 Analytical Way",
  city: "Boston",
  state: "MA",
  zip: "02110",
  certified: true,
  signatureName: "Ada Lovelace",
};

const exportOf = (cookie: string) => call("/api/user/data-export", { cookie });

async function playerWithHistory() {
  const u = await registerUser({ bio: "Quiz fan from Porto" });
  const player: Player = { id: u.user.id, username: u.username, cookie: u.cookie };
  // Money: a deposit and a withdrawal to a bank account (sealed at rest).
  await fund(player.id, 5000, { hoursAgo: PAST_HOLD });
  await readyToWithdraw(player.id);
  const out = await withdraw(player.cookie, 10);
  expect(out.status, out.text).toBe(200);
  // Tax: a W-9 on file (its TIN sealed at rest).
  const w9 = await call("/api/user/tax-form", { cookie: player.cookie, body: W9 });
  expect(w9.status, w9.text).toBe(200);
  // Play: one right answer in a prize tournament, which then ends (the room writes answers to D1 at its end).
  const t = await makeTournament(await makeCategory(), { startTime: Date.now() - 1000 });
  expect((await join(player, t.id)).status).toBe(200);
  const q = (await next(player, t.id)).body;
  expect((await answer(player, t.id, q.id, correctOf(t, q.id))).status).toBe(200);
  await endNow(t.id);
  // A limit and a notification.
  const limit = await call("/api/user/responsible-play/limits", {
    method: "PUT",
    cookie: player.cookie,
    body: { deposit_daily: 200 },
  });
  await env.DB.prepare("INSERT INTO notifications (user_id, message) VALUES (?, ?)").bind(player.id, "Your prize is on its way").run();
  // Two-factor on, so the account holds a TOTP secret.
  const totpSecret = await enableTwoFactorDirectly(player.id);
  return { ...u, player, tournament: t, question: q, totpSecret, limitStatus: limit.status };
}

describe("GET /api/user/data-export", () => {
  it("is a JSON file download of the player's own data", async () => {
    const me = await playerWithHistory();
    const other = await registerUser({ bio: "Someone else entirely" });
    await fund(other.user.id, 777);

    const res = await exportOf(me.cookie);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expect(res.headers.get("content-disposition")).toBe(
      `attachment; filename="trivia-arena-data-${new Date().toISOString().slice(0, 10)}.json"`,
    );
    expect(res.headers.get("cache-control")).toBe("no-store");
    const data = res.body;

    expect(data.profile).toMatchObject({ id: me.user.id, username: me.username, email: me.user.email, bio: "Quiz fan from Porto" });
    expect(data.profile.dateOfBirth).toBe("1990-05-17");
    expect(data.ledger.map((t: { type: string; amount: number }) => [t.type, t.amount])).toEqual([
      ["deposit", 50],
      ["withdrawal", -10],
    ]);
    expect(data.withdrawals).toHaveLength(1);
    expect(data.withdrawals[0]).toMatchObject({ amount: 10, accountLast4: "6789", accountHolderName: "Ada Lovelace", status: "pending" });
    expect(data.tournaments.map((t: { tournamentId: number }) => t.tournamentId)).toEqual([me.tournament.id]);
    expect(data.tournaments[0]).toMatchObject({ status: "completed", rank: 1, correctAnswers: 1 });
    expect(data.tournaments[0].score).toBeGreaterThan(100);
    expect(data.answers.filter((a: { answer: string | null }) => a.answer !== null)).toHaveLength(1);
    expect(data.answers[0]).toMatchObject({ questionId: me.question.id, isCorrect: true, points: data.tournaments[0].score });
    expect(data.answers[0].receipt).toMatchObject({ tournamentId: me.tournament.id, userId: me.user.id, questionId: me.question.id });
    // The receipt in the file is one this server signed.
    expect((await call("/api/receipts/verify", { body: data.answers[0].receipt })).body).toEqual({ genuine: true });
    expect(data.sessions.length).toBeGreaterThanOrEqual(1);
    expect(data.sessions.some((s: { current: boolean }) => s.current)).toBe(true);
    for (const s of data.sessions) expect(Object.keys(s).sort()).toEqual(["createdAt", "current", "expiresAt", "lastSeenAt", "stepUpAt"]);
    expect(data.notifications.map((n: { message: string }) => n.message)).toContain("Your prize is on its way");
    expect(me.limitStatus).toBe(200);
    expect(data.responsiblePlay.limits.map((l: { kind: string }) => l.kind)).toContain("deposit_daily");
    expect(data.identityVerification).toMatchObject({ provider: "sandbox", status: "verified", firstName: "Ada", lastName: "Lovelace" });
    expect(data.taxForms).toEqual([
      expect.objectContaining({ legalName: "Ada Lovelace", tinType: "ssn", tinLast4: "7481", city: "Boston" }),
    ]);
    expect(data.termsAcceptances.map((a: { document: string; version: string }) => [a.document, a.version]).sort()).toEqual(
      Object.entries(CURRENT_LEGAL_VERSIONS).sort(),
    );

    // Nobody else's data.
    expect(res.text).not.toContain(other.username);
    expect(res.text).not.toContain(other.user.email);
    expect(res.text).not.toContain("Someone else entirely");
    expect(res.text).not.toContain("7.77");
  });

  it("holds no secret: password hash, TOTP secret, session token or its hash, bank account number sealed or not, keyed hashes", async () => {
    const me = await playerWithHistory();
    const res = await exportOf(me.cookie);
    expect(res.status).toBe(200);
    const user = await one<{ password_hash: string; totp_secret: string }>(
      "SELECT password_hash, totp_secret FROM users WHERE id = ?",
      me.user.id,
    );
    const payout = await one<{ account_number_sealed: string; bank_hash: string }>(
      "SELECT account_number_sealed, bank_hash FROM payouts WHERE user_id = ?",
      me.user.id,
    );
    const { results: sessionIds } = await env.DB.prepare("SELECT id FROM sessions WHERE user_id = ?")
      .bind(me.user.id)
      .all<{ id: string }>();
    const entry = await one<{ device_hash: string; network_hash: string | null }>(
      "SELECT device_hash, network_hash FROM tournament_participants WHERE user_id = ?",
      me.user.id,
    );
    const sealed = await one<{ tin_sealed: string }>("SELECT tin_sealed FROM tax_forms WHERE user_id = ?", me.user.id);
    const identity = await one<{ identity_hash: string }>("SELECT identity_hash FROM identity_verifications WHERE user_id = ?", me.user.id);
    const secrets = [
      "536227481",
      W9.tin,
      sealed.tin_sealed,
      identity.identity_hash,
      me.password,
      user.password_hash,
      user.totp_secret,
      me.totpSecret,
      me.cookie.split("=")[1]!,
      ...sessionIds.map((s) => s.id),
      validBank().accountNumber,
      payout.account_number_sealed,
      payout.bank_hash,
      entry.device_hash,
      ...(entry.network_hash ? [entry.network_hash] : []),
      env.RECEIPT_SECRET!,
    ];
    for (const secret of secrets) {
      expect(secret.length).toBeGreaterThan(4);
      expect(res.text, `export contains a secret (${secret.slice(0, 6)}…)`).not.toContain(secret);
    }
    expect(res.text).not.toMatch(
      /passwordHash|password_hash|totpSecret|recoveryCodes|accountNumberSealed|bankHash|deviceHash|networkHash|tinSealed|identityHash/,
    );
  });

  it("needs a signed-in player and is rate limited per player", async () => {
    expect((await call("/api/user/data-export")).status).toBe(401);
    const { cookie } = await registerUser();
    for (let i = 0; i < 5; i++) expect((await exportOf(cookie)).status).toBe(200);
    const limited = await exportOf(cookie);
    expect(limited.status).toBe(429);
    expect(limited.body.code).toBe("rate_limited");
  });
});

describe("deleting an account", () => {
  it("erases acceptances, notifications, email links and sessions; keeps the ledger and the answers, anonymised", async () => {
    const u = await registerUser();
    const player: Player = { id: u.user.id, username: u.username, cookie: u.cookie };
    // Money that came and went, so the balance is zero and the ledger has rows to keep.
    await fund(player.id, 500);
    await postEntry(env.DB, { userId: player.id, amountCents: -500, type: "tournament_entry", reference: `entry:test:${player.id}` });
    await env.DB.prepare("INSERT INTO notifications (user_id, message) VALUES (?, ?)").bind(player.id, "Welcome").run();
    const count = async (table: string) => (await one<{ n: number }>(`SELECT count(*) AS n FROM ${table} WHERE user_id = ?`, player.id)).n;
    expect(await count("terms_acceptances")).toBe(3);
    expect(await count("email_tokens")).toBeGreaterThan(0);

    const res = await call("/api/user", { method: "DELETE", cookie: player.cookie, body: { password: u.password, confirm: "DELETE" } });
    expect(res.status, res.text).toBe(200);
    for (const table of ["terms_acceptances", "notifications", "email_tokens", "sessions"]) expect(await count(table), table).toBe(0);
    expect(await count("transactions")).toBe(2);
    const row = await one<{ username: string; email: string; date_of_birth: string | null }>(
      "SELECT username, email, date_of_birth FROM users WHERE id = ?",
      player.id,
    );
    expect(row).toMatchObject({ username: `Deleted player ${player.id}`, email: `deleted:${player.id}` });
    // Kept with the anonymised ledger, as the privacy policy says: prizes went to an eligible adult.
    expect(row.date_of_birth).toBe("1990-05-17");
  });
});
