// A self-exclusion outlives the account (docs/responsible-play.md, "Deleting an account"): when a
// self-excluded player deletes their account, keyed hashes of their normalised email, their cards'
// fingerprints and their payout bank accounts are kept with the exclusion's end, and a new account
// that registers with that email, pays with such a card or withdraws to such an account takes the
// exclusion over. The tests share one deleted person (Ada) and run in order.
import { beforeAll, describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import { RESPONSIBLE } from "../../common/messages";
import { DELETE_ACCOUNT_CONFIRMATION } from "../../common/spec";
import { bankAccountHash, cardHash, emailHash } from "../responsible-play/excluded-identities";
import { sandboxCardFingerprint } from "../payments/sandbox";
import { call, registerUser } from "./helpers";
import { expectLedgerBalanced, fund, futureYear, PAST_HOLD, readyToWithdraw } from "./money-helpers";
import { balanceOf, makeCategory, makeTournament } from "./tournament-fixtures";

const CARD = "4242424242424242";
const BANK = {
  accountHolderName: "Ada Person",
  accountNumber: "000987654321",
  routingNumber: "021000021",
  accountType: "checking" as const,
};

const card = { cardNumber: "4242 4242 4242 4242", expMonth: 12, expYear: futureYear(), cvc: "123" };

type Person = Awaited<ReturnType<typeof registerUser>>;
const idOf = (p: Person) => p.user.id as number;

async function openCheckout(p: Person, amount = 20) {
  const res = await call("/api/create-payment-intent", { cookie: p.cookie, body: { amount } });
  expect(res.status, res.text).toBe(200);
  return res.body as { clientSecret: string; paymentIntentId: string };
}
const payWithCard = (p: Person, clientSecret: string) =>
  call("/api/sandbox/confirm-payment", { cookie: p.cookie, body: { clientSecret, ...card } });
const confirmDeposit = (p: Person, paymentIntentId: string, amount = 20) =>
  call("/api/deposit/confirm", { cookie: p.cookie, body: { paymentIntentId, amount } });
const withdrawTo = (p: Person, amount: number, bank = BANK) =>
  call("/api/withdrawal/confirm", {
    cookie: p.cookie,
    body: { amount, bankAccount: bank, withdrawalMethod: "bank_account" },
    headers: { "idempotency-key": crypto.randomUUID() },
  });
const selfExclude = (p: Person, period: "6m" | "1y" | "permanent") =>
  call("/api/user/responsible-play/self-exclusion", { cookie: p.cookie, body: { period, password: p.password } });
const coolOff = (p: Person) =>
  call("/api/user/responsible-play/cool-off", { cookie: p.cookie, body: { period: "30d", password: p.password } });
const deleteAccount = (p: Person) =>
  call("/api/user", { method: "DELETE", cookie: p.cookie, body: { password: p.password, confirm: DELETE_ACCOUNT_CONFIRMATION } });
const joinAs = (p: Person, tournamentId: number) => call(`/api/tournaments/${tournamentId}/join`, { method: "POST", cookie: p.cookie });
const exclusionOf = async (p: Person) => (await call("/api/user/responsible-play", { cookie: p.cookie })).body.exclusion;

const kept = async () =>
  (
    await env.DB.prepare("SELECT kind, hash, ends_at FROM excluded_identities ORDER BY id").all<{
      kind: string;
      hash: string;
      ends_at: number | null;
    }>()
  ).results;

/** Pays a withdrawn payout out (as an operator would), so nothing pending holds the deletion back. */
const markPayoutsPaid = (userId: number) =>
  env.DB.batch([
    env.DB.prepare("UPDATE transactions SET status = 'completed' WHERE user_id = ? AND type = 'withdrawal' AND status = 'pending'").bind(
      userId,
    ),
    env.DB.prepare("UPDATE payouts SET status = 'paid', processed_at = ? WHERE user_id = ? AND status = 'pending'").bind(
      Date.now(),
      userId,
    ),
  ]);

let ada: Person;
let adaEmail: string;
let adaEnds: number;
/** Paid with Ada's card before Ada's deletion; the payment is confirmed to the app only after it. */
let late: Person;
let lateIntent: { clientSecret: string; paymentIntentId: string };

beforeAll(async () => {
  late = await registerUser();
  lateIntent = await openCheckout(late);
  expect((await payWithCard(late, lateIntent.clientSecret)).status).toBe(200);

  const tag = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6)}`;
  adaEmail = `Ada.Person.${tag}@Example.com`;
  ada = await registerUser({ email: adaEmail });
  // A card: a sandbox payment with 4242 (confirmed at the card step; the deposit itself does not matter here).
  const checkout = await openCheckout(ada);
  expect((await payWithCard(ada, checkout.clientSecret)).status).toBe(200);
  // A bank account: everything withdrawn to it and paid out, so the balance is 0 and nothing is pending.
  await fund(idOf(ada), 2_000, { hoursAgo: PAST_HOLD });
  await readyToWithdraw(idOf(ada), { legalName: BANK.accountHolderName });
  expect((await withdrawTo(ada, 20)).status).toBe(200);
  await markPayoutsPaid(idOf(ada));
  expect(await balanceOf(idOf(ada))).toBe(0);

  const excluded = await selfExclude(ada, "6m");
  expect(excluded.status, excluded.text).toBe(200);
  adaEnds = Date.parse(excluded.body.exclusion.endsAt);
  const deleted = await deleteAccount(ada);
  expect(deleted.status, deleted.text).toBe(200);
});

describe("deleting a self-excluded account", () => {
  it("keeps keyed hashes of the email, the card and the bank account with the exclusion's end, and nothing readable", async () => {
    const rows = await kept();
    expect(rows.map((r) => r.kind).sort()).toEqual(["bank_account", "card", "email"]);
    expect(rows.every((r) => r.ends_at === adaEnds)).toBe(true);
    const byKind = Object.fromEntries(rows.map((r) => [r.kind, r.hash]));
    expect(byKind.email).toBe(emailHash(env, adaEmail));
    expect(byKind.card).toBe(cardHash(env, sandboxCardFingerprint(CARD)));
    expect(byKind.bank_account).toBe(bankAccountHash(env, BANK.routingNumber, BANK.accountNumber));
    // Keyed: not a plain hash anyone could recompute from a guessed address or number.
    const plain = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(adaEmail.toLowerCase()));
    expect(byKind.email).not.toBe([...new Uint8Array(plain)].map((b) => b.toString(16).padStart(2, "0")).join(""));
    const table = JSON.stringify(rows).toLowerCase();
    for (const clear of [adaEmail.toLowerCase(), CARD, BANK.accountNumber, sandboxCardFingerprint(CARD)])
      expect(table).not.toContain(clear);
  });

  it("keeps nothing for a cool-off, or for an account without a break", async () => {
    const before = (await kept()).length;
    const resting = await registerUser();
    expect((await coolOff(resting)).status).toBe(200);
    expect((await deleteAccount(resting)).status).toBe(200);
    const plain = await registerUser();
    expect((await deleteAccount(plain)).status).toBe(200);
    expect((await kept()).length).toBe(before);
  });
});

describe("a new account that matches takes the exclusion over, until the original end", () => {
  it("at registration, by the email however it is written", async () => {
    const [local, domain] = adaEmail.split("@") as [string, string];
    const again = await registerUser({ email: `  ${local.toUpperCase()}+new@${domain.toLowerCase()}` });
    const exclusion = await exclusionOf(again);
    expect(exclusion).toMatchObject({ kind: "self_exclusion" });
    expect(Date.parse(exclusion.endsAt)).toBe(adaEnds);
    const t = await makeTournament(await makeCategory());
    expect((await joinAs(again, t.id)).body).toMatchObject({ code: "self_excluded", message: RESPONSIBLE.selfExcluded(adaEnds) });
    const checkout = await call("/api/create-payment-intent", { cookie: again.cookie, body: { amount: 20 } });
    expect(checkout.status).toBe(403);
    // Another address registers as ever.
    expect(await exclusionOf(await registerUser())).toBeNull();
  });

  it("at the checkout, by the card: refused 403 self_excluded, the checkout cancelled, nothing charged", async () => {
    const other = await registerUser();
    const checkout = await openCheckout(other);
    const res = await payWithCard(other, checkout.clientSecret);
    expect(res.status, res.text).toBe(403);
    expect(res.body).toMatchObject({ code: "self_excluded", message: RESPONSIBLE.selfExcluded(adaEnds) });
    expect(Date.parse((await exclusionOf(other)).endsAt)).toBe(adaEnds);
    const intent = await env.DB.prepare("SELECT status FROM sandbox_payment_intents WHERE id = ?")
      .bind(checkout.paymentIntentId)
      .first<{ status: string }>();
    expect(intent?.status).toBe("canceled");
    expect(await balanceOf(idOf(other))).toBe(0);
  });

  it("when a payment with the card arrives all the same, the credit refunds it to the card", async () => {
    expect(await exclusionOf(late)).toBeNull();
    const res = await confirmDeposit(late, lateIntent.paymentIntentId);
    expect(res.status, res.text).toBe(409);
    expect(res.body.code).toBe("deposit_refunded");
    expect(await balanceOf(idOf(late))).toBe(0);
    const intent = await env.DB.prepare("SELECT refund_reason, refunded_at FROM sandbox_payment_intents WHERE id = ?")
      .bind(lateIntent.paymentIntentId)
      .first<{ refund_reason: string; refunded_at: number | null }>();
    expect(intent).toMatchObject({ refund_reason: "self_excluded" });
    expect(intent?.refunded_at).not.toBeNull();
    expect(Date.parse((await exclusionOf(late)).endsAt)).toBe(adaEnds);
    await expectLedgerBalanced();
  });

  it("at a withdrawal, by the bank account: the money leaves, and the account is excluded from then on", async () => {
    const other = await registerUser();
    await fund(idOf(other), 5_000, { hoursAgo: PAST_HOLD });
    await readyToWithdraw(idOf(other), { legalName: BANK.accountHolderName });
    const t = await makeTournament(await makeCategory(), { entryFeeCents: 500 });
    expect((await joinAs(other, t.id)).status).toBe(200);
    // Another bank account changes nothing.
    expect((await withdrawTo(other, 10, { ...BANK, accountNumber: "000111222333" })).status).toBe(200);
    expect(await exclusionOf(other)).toBeNull();
    const res = await withdrawTo(other, 10);
    expect(res.status, res.text).toBe(200);
    expect(Date.parse((await exclusionOf(other)).endsAt)).toBe(adaEnds);
    // As any break does: the upcoming tournament is left and its fee refunded.
    expect(await balanceOf(idOf(other))).toBe(5_000 - 2_000);
    const again = await makeTournament(await makeCategory(), { entryFeeCents: 500 });
    expect((await joinAs(other, again.id)).body.code).toBe("self_excluded");
    await expectLedgerBalanced();
  });

  it("a kept exclusion that has ended hands nothing over", async () => {
    await env.DB.prepare("UPDATE excluded_identities SET ends_at = ? WHERE kind = 'email'")
      .bind(Date.now() - 1)
      .run();
    expect(await exclusionOf(await registerUser({ email: adaEmail }))).toBeNull();
  });
});
