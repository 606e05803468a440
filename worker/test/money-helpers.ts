// Money test helpers: direct ledger reads, the ledger invariant, funding and operators.
import { expect } from "vitest";
import { env } from "cloudflare:workers";
import { postEntry } from "../money/ledger";
import { call } from "./helpers";
import { enableTwoFactorDirectly, markSteppedUp } from "./session-helpers";
import { verifyEmail } from "./email-helpers";
import { verifyIdentityOf, type TestIdentity } from "./identity-helpers";

export const balanceCents = async (userId: number) =>
  (await env.DB.prepare("SELECT balance_cents AS b FROM users WHERE id = ?").bind(userId).first<{ b: number }>())!.b;

export const countRows = async (sql: string, ...binds: unknown[]) =>
  (await env.DB.prepare(`SELECT count(*) AS n FROM (${sql})`)
    .bind(...binds)
    .first<{ n: number }>())!.n;

/** The ledger's invariant (docs/decisions/001-ledger-in-the-database.md), for every user in this file's database: balance = sum of ledger rows that are not failed. */
export async function expectLedgerBalanced() {
  const { results } = await env.DB.prepare(
    `SELECT u.id, u.balance_cents AS balance,
            coalesce((SELECT sum(amount_cents) FROM transactions t WHERE t.user_id = u.id AND t.status IN ('completed', 'pending')), 0) AS ledger
     FROM users u`,
  ).all<{ id: number; balance: number; ledger: number }>();
  expect(results.filter((r) => r.balance !== r.ledger)).toEqual([]);
  expect(results.every((r) => r.balance >= 0)).toBe(true);
}

export interface FundOptions {
  /** How long ago the deposit was made: one older than the hold (72 h) is withdrawable. Default: just now. */
  hoursAgo?: number;
  provider?: "stripe" | "sandbox";
}

/** Hours after which a deposit is past the hold in these tests: withdrawable money. */
export const PAST_HOLD = 100;

/** Credits a user straight through the ledger (a card deposit made elsewhere); returns its reference (the PaymentIntent id). */
export async function fund(userId: number, cents: number, { hoursAgo = 0, provider = "stripe" }: FundOptions = {}): Promise<string> {
  const reference = `pi_fixture_${crypto.randomUUID().replace(/-/g, "")}`;
  await postEntry(env.DB, { userId, amountCents: cents, type: "deposit", reference, provider });
  if (hoursAgo > 0) {
    await env.DB.prepare("UPDATE transactions SET created_at = created_at - ? WHERE reference = ?")
      .bind(Math.round(hoursAgo * 3_600_000), reference)
      .run();
  }
  return reference;
}

/**
 * An operator: the admin role, the 2FA the operators' routes require (enableTwoFactorDirectly),
 * and a step-up just now in their sessions, which every state-changing operator request needs.
 */
export async function makeAdmin(userId: number) {
  await env.DB.prepare("UPDATE users SET role = 'admin' WHERE id = ?").bind(userId).run();
  await enableTwoFactorDirectly(userId);
  await markSteppedUp(userId);
}

export const futureYear = () => new Date().getUTCFullYear() + 3;

export const validBank = () => ({
  accountHolderName: "Ada Lovelace",
  accountNumber: "000123456789",
  routingNumber: "021000021",
  accountType: "checking" as const,
});

export const withdraw = (cookie: string, amount: unknown, bankAccount: unknown = validBank(), withdrawalMethod: unknown = "bank_account") =>
  withdrawRaw(cookie, { bankAccount, amount, withdrawalMethod });

/** Posts the body as given (a field left undefined is absent from the JSON), with a fresh Idempotency-Key as the web app sends. */
export const withdrawRaw = (cookie: string, body: Record<string, unknown>) =>
  call("/api/withdrawal/confirm", { cookie, body, headers: { "idempotency-key": crypto.randomUUID() } });

/** Every value of every row of every table, as one string, to prove something is stored nowhere. */
export async function dumpDatabase(): Promise<string> {
  const { results: tables } = await env.DB.prepare(
    "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%' AND name NOT LIKE 'd1_%'",
  ).all<{ name: string }>();
  const parts: string[] = [];
  for (const { name } of tables) {
    const { results } = await env.DB.prepare(`SELECT * FROM "${name}"`).all();
    parts.push(JSON.stringify(results));
  }
  return parts.join("\n");
}

/**
 * What a withdrawal needs besides money: a verified email (through the mailed link), a verified
 * identity (the sandbox's page; by default Ada Lovelace, validBank()'s holder, a fresh document)
 * and a recent step-up in the player's sessions.
 */
export async function readyToWithdraw(userId: number, identity: TestIdentity = {}): Promise<void> {
  await verifyEmail(userId);
  await verifyIdentityOf(userId, identity);
  await markSteppedUp(userId);
}
