// Identity verification (docs/identity-and-tax.md): no bank withdrawal before it, the states a
// player sees, the holder-name rule, the verified date of birth, one person one account (money
// refused to a second account, free play open, self-exclusion shared), the re-verification
// threshold, and the sandbox page only on loopback and SANDBOX_HOSTS.
import { afterEach, describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import { IDENTITY, RESPONSIBLE } from "../../common/messages";
import { IDENTITY_CONSOLE } from "../../common/console-messages";
import { call, registerUser } from "./helpers";
import { markSteppedUp } from "./session-helpers";
import { verifyEmail } from "./email-helpers";
import { balanceCents, countRows, expectLedgerBalanced, fund, makeAdmin, PAST_HOLD, validBank, withdraw } from "./money-helpers";
import { completeIdentity, freshDocumentNumber, startIdentitySession, verifyIdentity } from "./identity-helpers";
import { join, makeCategory, makePlayer, makeTournament } from "./tournament-fixtures";

afterEach(expectLedgerBalanced);

/** A player with $100 withdrawable, a verified email and a step-up: everything a withdrawal needs but the identity. */
async function withdrawer() {
  const u = await registerUser();
  await fund(u.user.id, 10_000, { hoursAgo: PAST_HOLD });
  await verifyEmail(u.user.id);
  await markSteppedUp(u.user.id);
  return u;
}

const stateOf = async (cookie: string) => (await call("/api/identity", { cookie })).body;

describe("a bank withdrawal before verification", () => {
  it("is refused with identity_verification_required and moves no money", async () => {
    const u = await withdrawer();
    expect(await stateOf(u.cookie)).toMatchObject({ state: "not_started", canStart: true });
    const res = await withdraw(u.cookie, 10);
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ code: "identity_verification_required", message: IDENTITY.verificationRequired });
    expect(await balanceCents(u.user.id)).toBe(10_000);
    expect(await countRows("SELECT 1 FROM payouts WHERE user_id = ?", u.user.id)).toBe(0);
  });

  it("while the check is pending, is refused with identity_verification_pending", async () => {
    const u = await withdrawer();
    await startIdentitySession(u.cookie);
    expect(await stateOf(u.cookie)).toMatchObject({ state: "pending" });
    expect((await withdraw(u.cookie, 10)).body.code).toBe("identity_verification_pending");
  });

  it("goes through once verified", async () => {
    const u = await withdrawer();
    const state = await verifyIdentity(u.cookie);
    expect(state).toMatchObject({ state: "verified", legalName: "Ada Lovelace", canStart: false, duplicateAccount: false });
    const res = await withdraw(u.cookie, 10);
    expect(res.status, res.text).toBe(200);
    expect(await balanceCents(u.user.id)).toBe(9_000);
  });
});

describe("needs another try and refused", () => {
  it("needs another try: the provider's reason shown, withdrawals refused, a new try verifies", async () => {
    const u = await withdrawer();
    const res = await completeIdentity(u.cookie, "document_expired");
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ state: "requires_input", reason: "The document has expired.", canStart: true });
    const refused = await withdraw(u.cookie, 10);
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({
      code: "identity_verification_requires_input",
      message: IDENTITY.requiresInput("The document has expired."),
    });
    await verifyIdentity(u.cookie);
    expect((await withdraw(u.cookie, 10)).status).toBe(200);
  });

  it("refused: withdrawals refused with the reason, and no new session until an operator asks", async () => {
    const u = await withdrawer();
    const res = await completeIdentity(u.cookie, "document_unverified_other");
    expect(res.body).toMatchObject({ state: "refused", canStart: false });
    expect(res.body.reason).toMatch(/could not be verified/);
    const refused = await withdraw(u.cookie, 10);
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe("identity_verification_refused");
    const again = await call("/api/identity/session", { cookie: u.cookie, body: {} });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe("identity_verification_refused");
    expect(await balanceCents(u.user.id)).toBe(10_000);
  });

  it("an answer for a session that is not the player's current one changes nothing", async () => {
    const u = await withdrawer();
    const other = await withdrawer();
    const session = await startIdentitySession(other.cookie);
    await startIdentitySession(u.cookie);
    const res = await call("/api/identity/sandbox/complete", {
      cookie: u.cookie,
      body: { outcome: "document_expired", sessionId: session },
    });
    expect(res.status).toBe(404);
    expect(res.body.code).toBe("identity_session_not_found");
    expect(await stateOf(other.cookie)).toMatchObject({ state: "pending" });
  });
});

describe("the holder name", () => {
  it("must be the verified legal name: a mismatch is refused, recorded for operators, and moves no money", async () => {
    const u = await withdrawer();
    await verifyIdentity(u.cookie, { legalName: "Ada King Lovelace" });
    const res = await withdraw(u.cookie, 10, { ...validBank(), accountHolderName: "Charles Babbage" });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ code: "identity_name_mismatch", message: IDENTITY.nameMismatch("Ada King Lovelace") });
    expect(await balanceCents(u.user.id)).toBe(10_000);
    const rows = await env.DB.prepare("SELECT holder_name, legal_name, amount_cents FROM identity_name_mismatches WHERE user_id = ?")
      .bind(u.user.id)
      .all();
    expect(rows.results).toEqual([{ holder_name: "Charles Babbage", legal_name: "Ada King Lovelace", amount_cents: 1000 }]);
    // Case, accents and the optional middle name do not matter.
    expect((await withdraw(u.cookie, 10, { ...validBank(), accountHolderName: "ADA K LOVELACE" })).status).toBe(200);
  });
});

describe("the verified date of birth", () => {
  it("replaces the declared one for every age rule and cannot be changed by the player", async () => {
    const u = await registerUser();
    const seventeen = `${new Date().getUTCFullYear() - 17}-01-01`;
    await verifyIdentity(u.cookie, { dob: seventeen });
    const row = await env.DB.prepare("SELECT date_of_birth AS d FROM users WHERE id = ?").bind(u.user.id).first<{ d: string }>();
    expect(row?.d).toBe(seventeen);
    const deposit = await call("/api/create-payment-intent", { cookie: u.cookie, body: { amount: 10 } });
    expect(deposit.status).toBe(403);
    expect(deposit.body.code).toBe("underage");
    const change = await call("/api/user/date-of-birth", { method: "PUT", cookie: u.cookie, body: { dateOfBirth: "1980-01-01" } });
    expect(change.status).toBe(409);
    expect(change.body).toEqual({ code: "date_of_birth_verified", message: IDENTITY.dateOfBirthVerified });
  });
});

describe("one person, one account", () => {
  async function samePerson() {
    const documentNumber = freshDocumentNumber();
    const first = await withdrawer();
    await verifyIdentity(first.cookie, { documentNumber });
    const second = await withdrawer();
    const state = await verifyIdentity(second.cookie, { documentNumber: documentNumber.toLowerCase(), legalName: "Ada Byron" });
    return { first, second, state };
  }

  it("a second account of a verified person may play free tournaments but not deposit, join paid play or withdraw", async () => {
    const { first, second, state } = await samePerson();
    expect(state).toMatchObject({ state: "verified", duplicateAccount: true });
    const duplicate = { code: "identity_duplicate_account", message: IDENTITY.duplicateAccount };

    const deposit = await call("/api/create-payment-intent", { cookie: second.cookie, body: { amount: 10 } });
    expect(deposit.status).toBe(403);
    expect(deposit.body).toEqual(duplicate);

    const category = await makeCategory();
    const paid = await makeTournament(category, { entryFeeCents: 500 });
    const paidJoin = await join({ id: second.user.id, username: second.username, cookie: second.cookie }, paid.id);
    expect(paidJoin.status).toBe(403);
    expect(paidJoin.body.code).toBe("identity_duplicate_account");
    const free = await makeTournament(category);
    expect((await join({ id: second.user.id, username: second.username, cookie: second.cookie }, free.id)).status).toBe(200);

    const w = await withdraw(second.cookie, 10, { ...validBank(), accountHolderName: "Ada Byron" });
    expect(w.status).toBe(403);
    expect(w.body).toEqual(duplicate);
    expect(await balanceCents(second.user.id)).toBe(10_000 - 0);

    // The first account keeps every money action.
    expect((await call("/api/create-payment-intent", { cookie: first.cookie, body: { amount: 10 } })).status).toBe(200);
    expect((await withdraw(first.cookie, 10)).status).toBe(200);
  });

  it("stores no document number, only its keyed hash", async () => {
    const u = await registerUser();
    const documentNumber = freshDocumentNumber();
    await verifyIdentity(u.cookie, { documentNumber });
    const row = await env.DB.prepare("SELECT * FROM identity_verifications WHERE user_id = ?").bind(u.user.id).first();
    expect(JSON.stringify(row)).not.toContain(documentNumber);
    expect(row?.identity_hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it("self-exclusion follows the person: one account's exclusion closes the linked one", async () => {
    const { first, second } = await samePerson();
    const excluded = await call("/api/user/responsible-play/self-exclusion", {
      cookie: first.cookie,
      body: { period: "6m", password: first.password },
    });
    expect(excluded.status, excluded.text).toBe(200);
    const free = await makeTournament(await makeCategory());
    const res = await join({ id: second.user.id, username: second.username, cookie: second.cookie }, free.id);
    expect(res.status).toBe(403);
    expect(res.body.code).toBe("self_excluded");
    const ends = Date.parse(excluded.body.exclusion.endsAt);
    expect(res.body.message).toBe(RESPONSIBLE.selfExcluded(ends));
  });

  it("an account linked after the person self-excluded takes the exclusion over", async () => {
    const documentNumber = freshDocumentNumber();
    const first = await withdrawer();
    await verifyIdentity(first.cookie, { documentNumber });
    const excluded = await call("/api/user/responsible-play/self-exclusion", {
      cookie: first.cookie,
      body: { period: "permanent", password: first.password },
    });
    expect(excluded.status, excluded.text).toBe(200);
    const second = await makePlayer();
    await verifyIdentity(second.cookie, { documentNumber });
    const free = await makeTournament(await makeCategory());
    const res = await join(second, free.id);
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ code: "self_excluded", message: RESPONSIBLE.selfExcluded(null) });
  });
});

describe("verifying again after the lifetime threshold", () => {
  const threshold = { IDENTITY_REVERIFY_LIFETIME_USD: "50" };
  const withdrawHere = (cookie: string, amount: number) =>
    call("/api/withdrawal/confirm", {
      cookie,
      env: threshold,
      headers: { "idempotency-key": crypto.randomUUID() },
      body: { amount, withdrawalMethod: "bank_account", bankAccount: validBank() },
    });

  it("the first verification covers withdrawals up to the threshold; past it the player verifies once more", async () => {
    const u = await withdrawer();
    await verifyIdentity(u.cookie);
    expect((await withdrawHere(u.cookie, 40)).status).toBe(200);
    const past = await withdrawHere(u.cookie, 20);
    expect(past.status).toBe(403);
    expect(past.body).toEqual({ code: "identity_reverification_required", message: IDENTITY.verifyAgainRequired });
    expect(await stateOf(u.cookie)).toMatchObject({ state: "verified", verifyAgain: true, canStart: true });
    expect(await balanceCents(u.user.id)).toBe(6_000);
    await verifyIdentity(u.cookie);
    expect(await stateOf(u.cookie)).toMatchObject({ verifyAgain: false });
    expect((await withdrawHere(u.cookie, 20)).status).toBe(200);
    expect((await withdrawHere(u.cookie, 30)).status).toBe(200);
  });
});

describe("the sandbox verification page", () => {
  it("is refused on a host that is not loopback nor in SANDBOX_HOSTS, and answers on one that is", async () => {
    const host = "arena.example.com";
    const u = await registerUser();
    const session = await call("/api/identity/session", { host, cookie: u.cookie, body: {} });
    expect(session.status).toBe(503);
    expect(session.body.code).toBe("identity_not_configured");
    const complete = await call("/api/identity/sandbox/complete", {
      host,
      cookie: u.cookie,
      body: { outcome: "document_expired", sessionId: "vs_sbx_x" },
    });
    expect(complete.status).toBe(503);
    expect(complete.body.code).toBe("identity_not_configured");

    const staging = { SANDBOX_HOSTS: host };
    const ok = await call("/api/identity/session", { host, env: staging, cookie: u.cookie, body: {} });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body).toMatchObject({ provider: "sandbox", url: `/identity/sandbox?session=${ok.body.sessionId}` });
  });
});

describe("starting a verification", () => {
  it("opens at most 5 sessions an hour per player (each is a paid check at the provider), then 429 with a clear message", async () => {
    const u = await registerUser();
    for (let i = 0; i < 5; i++) expect((await startIdentitySession(u.cookie)).length).toBeGreaterThan(0);
    const sixth = await call("/api/identity/session", { cookie: u.cookie, body: {} });
    expect(sixth.status).toBe(429);
    expect(sixth.body).toMatchObject({ code: "rate_limited", message: IDENTITY.tooManySessions });
    // Another player is not held back.
    const other = await registerUser();
    expect((await call("/api/identity/session", { cookie: other.cookie, body: {} })).status).toBe(200);
  });
});

describe("operators", () => {
  it("see the state, the provider's reference and result, linked accounts and refused holder names", async () => {
    const op = await registerUser();
    await makeAdmin(op.user.id);
    const documentNumber = freshDocumentNumber();
    const u = await withdrawer();
    await verifyIdentity(u.cookie, { documentNumber });
    await withdraw(u.cookie, 10, { ...validBank(), accountHolderName: "Charles Babbage" });
    const twin = await registerUser();
    await verifyIdentity(twin.cookie, { documentNumber });

    const view = await call(`/api/admin/identity/users/${u.user.id}`, { cookie: op.cookie });
    expect(view.status, view.text).toBe(200);
    expect(view.body).toMatchObject({
      state: "verified",
      provider: "sandbox",
      legalName: "Ada Lovelace",
      documentCountry: "US",
      verifiedCount: 1,
      duplicateOf: null,
      linkedAccounts: [{ id: twin.user.id, username: twin.username }],
      nameMismatches: [{ holderName: "Charles Babbage", legalName: "Ada Lovelace", amount: 10 }],
    });
    expect(view.body.reference).toMatch(/^vs_sbx_/);
    expect((await call(`/api/admin/identity/users/${twin.user.id}`, { cookie: op.cookie })).body.duplicateOf).toEqual({
      id: u.user.id,
      username: u.username,
    });
    const linked = await call("/api/admin/identity/linked-accounts", { cookie: op.cookie });
    expect(linked.body.groups).toContainEqual({
      first: { id: u.user.id, username: u.username },
      linked: [expect.objectContaining({ id: twin.user.id, username: twin.username })],
    });
    // Asking again is a write: it needs a recent step-up of the operator.
    await env.DB.prepare("UPDATE sessions SET step_up_at = NULL WHERE user_id = ?").bind(op.user.id).run();
    const unconfirmed = await call(`/api/admin/identity/users/${u.user.id}/reverify`, { cookie: op.cookie, body: { note: "check" } });
    expect(unconfirmed.status).toBe(403);
    expect(unconfirmed.body.code).toBe("step_up_required");
    // Players see none of it.
    expect((await call(`/api/admin/identity/users/${u.user.id}`, { cookie: u.cookie })).status).toBe(403);
  });

  it("ask a player to verify again (audited): the next bank withdrawal waits for a new verification", async () => {
    const op = await registerUser();
    await makeAdmin(op.user.id);
    const u = await withdrawer();
    await verifyIdentity(u.cookie);
    const asked = await call(`/api/admin/identity/users/${u.user.id}/reverify`, {
      cookie: op.cookie,
      body: { note: "document looked old" },
    });
    expect(asked.status, asked.text).toBe(200);
    expect(asked.body).toMatchObject({ verifyAgain: true, message: IDENTITY_CONSOLE.askedAgain });
    const audit = await env.DB.prepare("SELECT action, note FROM audit_log WHERE actor_user_id = ? AND target_id = ?")
      .bind(op.user.id, String(u.user.id))
      .all();
    expect(audit.results).toEqual([{ action: "user.identity_reverify", note: "document looked old" }]);
    expect(await stateOf(u.cookie)).toMatchObject({ verifyAgain: true, canStart: true });
    expect((await withdraw(u.cookie, 10)).body.code).toBe("identity_reverification_required");
    expect((await call(`/api/admin/identity/users/${u.user.id}/reverify`, { cookie: op.cookie, body: { note: "again" } })).status).toBe(
      409,
    );
    await verifyIdentity(u.cookie);
    expect((await withdraw(u.cookie, 10)).status).toBe(200);
  });
});

describe("a checkout opened before the account was linked", () => {
  it("is refunded to the card when it is paid after the link, never credited", async () => {
    const documentNumber = freshDocumentNumber();
    const first = await registerUser();
    await verifyIdentity(first.cookie, { documentNumber });
    const second = await registerUser();
    const intent = await call("/api/create-payment-intent", { cookie: second.cookie, body: { amount: 10 } });
    expect(intent.status, intent.text).toBe(200);
    await verifyIdentity(second.cookie, { documentNumber });
    const paid = await call("/api/sandbox/confirm-payment", {
      cookie: second.cookie,
      body: {
        clientSecret: intent.body.clientSecret,
        cardNumber: "4242424242424242",
        expMonth: 12,
        expYear: new Date().getUTCFullYear() + 3,
        cvc: "123",
      },
    });
    expect(paid.status, paid.text).toBe(200);
    const credit = await call("/api/deposit/confirm", {
      cookie: second.cookie,
      body: { paymentIntentId: intent.body.paymentIntentId, amount: 10 },
    });
    expect(credit.status).toBe(409);
    expect(credit.body.code).toBe("deposit_refunded");
    expect(await balanceCents(second.user.id)).toBe(0);
  });
});
