import { describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import { InsufficientFundsError, ledgerStatement, postEntry, runAtomically, setStatusStatement } from "../money/ledger";
import { registerUser } from "./helpers";

const balance = async (userId: number) =>
  (await env.DB.prepare("SELECT balance_cents AS b FROM users WHERE id = ?").bind(userId).first<{ b: number }>())!.b;
const ledgerSum = async (userId: number) =>
  (await env.DB.prepare(
    "SELECT coalesce(sum(amount_cents), 0) AS s FROM transactions WHERE user_id = ? AND status IN ('completed', 'pending')",
  )
    .bind(userId)
    .first<{ s: number }>())!.s;
const ref = (p: string) => `${p}:${crypto.randomUUID()}`;

describe("ledger", () => {
  it("applies an entry to the balance once, however often it is posted", async () => {
    const { user } = await registerUser();
    const reference = ref("pi_test");
    expect(await postEntry(env.DB, { userId: user.id, amountCents: 2500, type: "deposit", reference })).toBe(true);
    expect(await postEntry(env.DB, { userId: user.id, amountCents: 2500, type: "deposit", reference })).toBe(false);
    expect(await balance(user.id)).toBe(2500);
    expect(await ledgerSum(user.id)).toBe(2500);
  });

  it("refuses an overdraft and writes nothing of its batch", async () => {
    const { user } = await registerUser();
    await postEntry(env.DB, { userId: user.id, amountCents: 500, type: "deposit", reference: ref("pi") });
    const marker = ref("entry");
    await expect(
      runAtomically(env.DB, [
        ledgerStatement(env.DB, { userId: user.id, amountCents: -600, type: "tournament_entry", reference: marker }),
        env.DB.prepare("UPDATE users SET tournaments_played = tournaments_played + 1 WHERE id = ?").bind(user.id),
      ]),
    ).rejects.toBeInstanceOf(InsufficientFundsError);
    expect(await balance(user.id)).toBe(500);
    expect(await env.DB.prepare("SELECT id FROM transactions WHERE reference = ?").bind(marker).first()).toBeNull();
    expect((await env.DB.prepare("SELECT tournaments_played AS n FROM users WHERE id = ?").bind(user.id).first<{ n: number }>())!.n).toBe(
      0,
    );
  });

  it("a pending debit that fails gives the money back, once", async () => {
    const { user } = await registerUser();
    await postEntry(env.DB, { userId: user.id, amountCents: 3000, type: "deposit", reference: ref("pi") });
    const payout = ref("payout");
    await postEntry(env.DB, { userId: user.id, amountCents: -1000, type: "withdrawal", status: "pending", reference: payout });
    expect(await balance(user.id)).toBe(2000);
    await runAtomically(env.DB, [setStatusStatement(env.DB, payout, "failed")]);
    await runAtomically(env.DB, [setStatusStatement(env.DB, payout, "failed")]);
    expect(await balance(user.id)).toBe(3000);
    expect(await ledgerSum(user.id)).toBe(3000);
    await expect(env.DB.prepare("UPDATE transactions SET status = 'completed' WHERE reference = ?").bind(payout).run()).rejects.toThrow(
      /final/,
    );
  });

  it("a pending debit that completes keeps the balance as it is", async () => {
    const { user } = await registerUser();
    await postEntry(env.DB, { userId: user.id, amountCents: 3000, type: "deposit", reference: ref("pi") });
    const payout = ref("payout");
    await postEntry(env.DB, { userId: user.id, amountCents: -1000, type: "withdrawal", status: "pending", reference: payout });
    await runAtomically(env.DB, [setStatusStatement(env.DB, payout, "completed")]);
    expect(await balance(user.id)).toBe(2000);
  });

  it("ledger amounts cannot be rewritten", async () => {
    const { user } = await registerUser();
    const r = ref("pi");
    await postEntry(env.DB, { userId: user.id, amountCents: 100, type: "deposit", reference: r });
    await expect(env.DB.prepare("UPDATE transactions SET amount_cents = 1000000 WHERE reference = ?").bind(r).run()).rejects.toThrow(
      /immutable/,
    );
    expect(await balance(user.id)).toBe(100);
  });
});
