// The money batches carry their own refusals (docs/responsible-play.md, "What is checked where"):
// a freeze, a suspension, a break or an entry-fee limit that lands after the route's check and
// before the join's or the withdrawal's D1 batch still refuses it, with the code and message the
// route gives, and nothing is charged, seated or paid out. The race is simulated by changing the
// state between the route's check and the batch: the room's `join` is called directly (the
// route's checks having passed before), or a withdrawal's D1 binding applies the change just
// before the batch.
import { describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import { MODERATION, MONEY, RESPONSIBLE } from "../../common/messages";
import { formatCents } from "../../common/domain/money";
import { postEntry } from "../money/ledger";
import { call, registerUser } from "./helpers";
import { expectLedgerBalanced, fund, PAST_HOLD, readyToWithdraw, validBank } from "./money-helpers";
import { all, balanceOf, join, makeCategory, makePlayer, makeTournament, one, room, type Player } from "./tournament-fixtures";

const FEE = 500;
const DAY = 24 * 60 * 60 * 1000;

const asRoomUser = (p: Player) => ({ userId: p.id, username: p.username, level: 1, showLevel: true, deviceHash: null, networkHash: null });

/** The route's checks passed a moment ago; the room now seats the player (the batch is all that is left). */
const roomJoin = (p: Player, tournamentId: number) => room(tournamentId).join(tournamentId, asRoomUser(p));

const seated = async (tournamentId: number, userId: number) =>
  (
    await one<{ n: number }>(
      "SELECT count(*) AS n FROM tournament_participants WHERE tournament_id = ? AND user_id = ?",
      tournamentId,
      userId,
    )
  ).n;
const entryRows = (tournamentId: number, userId: number) =>
  all<{ amount_cents: number }>(
    "SELECT amount_cents FROM transactions WHERE user_id = ? AND reference LIKE ?",
    userId,
    `entry:${tournamentId}:%`,
  );
const counters = (tournamentId: number) =>
  one<{ current: number; pool: number }>(
    "SELECT current_participants AS current, prize_pool_cents AS pool FROM tournaments WHERE id = ?",
    tournamentId,
  );

async function exclude(userId: number, kind: "cool_off" | "self_exclusion", endsAt: number | null) {
  const now = Date.now();
  await env.DB.prepare("INSERT INTO exclusions (user_id, kind, starts_at, ends_at) VALUES (?, ?, ?, ?)")
    .bind(userId, kind, now - 1, endsAt)
    .run();
}

const freeze = (userId: number, owedCents: number) =>
  env.DB.prepare("UPDATE users SET frozen_at = ?, frozen_reason = 'refund', owed_cents = ? WHERE id = ?")
    .bind(Date.now(), owedCents, userId)
    .run();

const suspend = (userId: number) => env.DB.prepare("UPDATE users SET suspended_at = ? WHERE id = ?").bind(Date.now(), userId).run();

const putLimits = (p: Player, limits: Record<string, number | null>) =>
  call("/api/user/responsible-play/limits", { method: "PUT", cookie: p.cookie, body: limits });

/** Nothing of the join happened: no seat, no entry row, the balance and the tournament's counters untouched. */
async function expectNothingCharged(tournamentId: number, p: Player, balance: number) {
  expect(await seated(tournamentId, p.id)).toBe(0);
  expect(await entryRows(tournamentId, p.id)).toEqual([]);
  expect(await balanceOf(p.id)).toBe(balance);
}

describe("a join's batch refuses what changed after the route's check", () => {
  it("a self-exclusion: 403 self_excluded, no seat and no fee", async () => {
    const t = await makeTournament(await makeCategory(), { entryFeeCents: FEE });
    const p = await makePlayer({ balanceCents: 2_000 });
    const endsAt = Date.now() + 180 * DAY;
    await exclude(p.id, "self_exclusion", endsAt);
    expect(await roomJoin(p, t.id)).toEqual({ ok: false, status: 403, code: "self_excluded", message: RESPONSIBLE.selfExcluded(endsAt) });
    await expectNothingCharged(t.id, p, 2_000);
    expect(await counters(t.id)).toEqual({ current: 0, pool: 0 });
    // The route gives the same answer, now that its own read sees the exclusion.
    const viaRoute = await join(p, t.id);
    expect(viaRoute.status).toBe(403);
    expect(viaRoute.body).toMatchObject({ code: "self_excluded", message: RESPONSIBLE.selfExcluded(endsAt) });
  });

  it("a permanent self-exclusion and a cool-off close free joins too", async () => {
    const category = await makeCategory();
    const free = await makeTournament(category);
    const free2 = await makeTournament(category);
    const p = await makePlayer();
    await exclude(p.id, "self_exclusion", null);
    expect(await roomJoin(p, free.id)).toMatchObject({
      ok: false,
      status: 403,
      code: "self_excluded",
      message: RESPONSIBLE.selfExcluded(null),
    });
    expect(await seated(free.id, p.id)).toBe(0);

    const q = await makePlayer();
    const endsAt = Date.now() + 7 * DAY;
    await exclude(q.id, "cool_off", endsAt);
    expect(await roomJoin(q, free2.id)).toEqual({ ok: false, status: 403, code: "cooling_off", message: RESPONSIBLE.coolingOff(endsAt) });
    expect(await seated(free2.id, q.id)).toBe(0);
    expect(await counters(free2.id)).toMatchObject({ current: 0 });
  });

  it("a break that is over, or has not started, refuses nothing", async () => {
    const t = await makeTournament(await makeCategory(), { entryFeeCents: FEE });
    const p = await makePlayer({ balanceCents: 2_000 });
    await env.DB.prepare("INSERT INTO exclusions (user_id, kind, starts_at, ends_at) VALUES (?, 'cool_off', ?, ?)")
      .bind(p.id, Date.now() - 8 * DAY, Date.now() - DAY)
      .run();
    expect(await roomJoin(p, t.id)).toMatchObject({ ok: true });
    expect(await balanceOf(p.id)).toBe(2_000 - FEE);
  });

  it("a freeze: 403 account_frozen naming what is owed, for paid and free joins", async () => {
    const category = await makeCategory();
    const paid = await makeTournament(category, { entryFeeCents: FEE });
    const free = await makeTournament(category);
    const p = await makePlayer({ balanceCents: 2_000 });
    await freeze(p.id, 700);
    const frozen = { ok: false, status: 403, code: "account_frozen", message: MONEY.accountFrozen(formatCents(700)) };
    expect(await roomJoin(p, paid.id)).toEqual(frozen);
    expect(await roomJoin(p, free.id)).toEqual(frozen);
    await expectNothingCharged(paid.id, p, 2_000);
    expect(await seated(free.id, p.id)).toBe(0);
    const viaRoute = await join(p, paid.id);
    expect(viaRoute.body).toMatchObject({ code: frozen.code, message: frozen.message });
  });

  it("a suspension: 403 account_suspended", async () => {
    const t = await makeTournament(await makeCategory(), { entryFeeCents: FEE });
    const p = await makePlayer({ balanceCents: 2_000 });
    await suspend(p.id);
    expect(await roomJoin(p, t.id)).toEqual({ ok: false, status: 403, code: "account_suspended", message: MODERATION.accountSuspended });
    await expectNothingCharged(t.id, p, 2_000);
  });

  it("an entry-fee limit spent elsewhere meanwhile: 409 spend_limit_reached with the route's own message", async () => {
    const category = await makeCategory();
    const [a, b, c] = [
      await makeTournament(category, { entryFeeCents: FEE }),
      await makeTournament(category, { entryFeeCents: FEE }),
      await makeTournament(category, { entryFeeCents: FEE }),
    ];
    const p = await makePlayer({ balanceCents: 5_000 });
    expect((await putLimits(p, { entry_fees_daily: 10 })).status).toBe(200);
    // Two joins spend the $10: the third's route check would have passed before the second.
    expect((await join(p, a.id)).status).toBe(200);
    expect(await roomJoin(p, b.id)).toMatchObject({ ok: true });
    const refused = await roomJoin(p, c.id);
    const viaRoute = await join(p, c.id);
    expect(viaRoute.status).toBe(409);
    expect(viaRoute.body.code).toBe("spend_limit_reached");
    expect(refused).toEqual({ ok: false, status: 409, code: "spend_limit_reached", message: viaRoute.body.message });
    await expectNothingCharged(c.id, p, 5_000 - 2 * FEE);
    await expectLedgerBalanced();
  });

  it("entries count net of refunds in the batch too: a left entry frees its room under the limit", async () => {
    const category = await makeCategory();
    const [a, b] = [await makeTournament(category, { entryFeeCents: FEE }), await makeTournament(category, { entryFeeCents: FEE })];
    const p = await makePlayer({ balanceCents: 5_000 });
    await putLimits(p, { entry_fees_weekly: 5 });
    expect((await join(p, a.id)).status).toBe(200);
    expect(await roomJoin(p, b.id)).toMatchObject({ ok: false, code: "spend_limit_reached" });
    expect((await call(`/api/tournaments/${a.id}/leave`, { method: "POST", cookie: p.cookie })).status).toBe(200);
    expect(await roomJoin(p, b.id)).toMatchObject({ ok: true });
    // Joining a again is a new entry: the limit is full with b's.
    expect(await roomJoin(p, a.id)).toMatchObject({ ok: false, code: "spend_limit_reached" });
    expect(await balanceOf(p.id)).toBe(5_000 - FEE);
  });

  it("a second entry after leaving, and a cancelled tournament's refund, are netted out as the route nets them", async () => {
    const category = await makeCategory();
    const [a, b, c, d] = await Promise.all([1, 2, 3, 4].map(() => makeTournament(category, { entryFeeCents: FEE })));
    const p = await makePlayer({ balanceCents: 5_000 });
    await putLimits(p, { entry_fees_daily: 10 });
    const leaveA = () => call(`/api/tournaments/${a!.id}/leave`, { method: "POST", cookie: p.cookie });
    // entry:{a}:{u} refunded by leave:{a}:{u}:0, then entry:{a}:{u}:1 by leave:{a}:{u}:1.
    expect(await roomJoin(p, a!.id)).toMatchObject({ ok: true });
    expect((await leaveA()).status).toBe(200);
    expect(await roomJoin(p, a!.id)).toMatchObject({ ok: true });
    expect((await leaveA()).status).toBe(200);
    expect(await roomJoin(p, b!.id)).toMatchObject({ ok: true });
    expect(await roomJoin(p, c!.id)).toMatchObject({ ok: true });
    expect(await roomJoin(p, d!.id)).toMatchObject({ ok: false, code: "spend_limit_reached" });
    // c is cancelled: its refund (refund:{t}:{u}, as cancelStatements writes it) frees its fee.
    await postEntry(env.DB, { userId: p.id, amountCents: FEE, type: "refund", reference: `refund:${c!.id}:${p.id}` });
    expect(await roomJoin(p, d!.id)).toMatchObject({ ok: true });
    expect(await roomJoin(p, a!.id)).toMatchObject({ ok: false, code: "spend_limit_reached" });
    await expectLedgerBalanced();
  });

  it("a limit that is lowered meanwhile applies, and a raise whose time has come applies too", async () => {
    const category = await makeCategory();
    const [a, b] = [await makeTournament(category, { entryFeeCents: FEE }), await makeTournament(category, { entryFeeCents: FEE })];
    const p = await makePlayer({ balanceCents: 5_000 });
    await putLimits(p, { entry_fees_monthly: 4 });
    expect(await roomJoin(p, a.id)).toMatchObject({ ok: false, code: "spend_limit_reached" });
    // A raise waits 24 hours; moved into the past, it is in force, as settleLimit reads it.
    await putLimits(p, { entry_fees_monthly: 50 });
    expect(await roomJoin(p, a.id)).toMatchObject({ ok: false, code: "spend_limit_reached" });
    await env.DB.prepare("UPDATE play_limits SET pending_from = ? WHERE user_id = ?")
      .bind(Date.now() - 1, p.id)
      .run();
    expect(await roomJoin(p, a.id)).toMatchObject({ ok: true });
    expect(await roomJoin(p, b.id)).toMatchObject({ ok: true });
  });

  it("in a group, only the refused player's join is refused: the others are seated and charged", async () => {
    const t = await makeTournament(await makeCategory(), { entryFeeCents: FEE });
    const excluded = await makePlayer({ balanceCents: 2_000 });
    const frozen = await makePlayer({ balanceCents: 2_000 });
    const fine = await Promise.all([makePlayer({ balanceCents: 2_000 }), makePlayer({ balanceCents: 2_000 })]);
    await exclude(excluded.id, "self_exclusion", null);
    await freeze(frozen.id, 100);
    // One burst: the room commits them together in one batch.
    const results = await Promise.all([
      roomJoin(fine[0]!, t.id),
      roomJoin(excluded, t.id),
      roomJoin(frozen, t.id),
      roomJoin(fine[1]!, t.id),
    ]);
    expect(results.map((r) => (r.ok ? "ok" : r.code))).toEqual(["ok", "self_excluded", "account_frozen", "ok"]);
    for (const p of fine) {
      expect(await seated(t.id, p.id)).toBe(1);
      expect(await balanceOf(p.id)).toBe(2_000 - FEE);
    }
    await expectNothingCharged(t.id, excluded, 2_000);
    await expectNothingCharged(t.id, frozen, 2_000);
    expect(await counters(t.id)).toEqual({ current: 2, pool: Math.floor((2 * FEE * 85) / 100) });
    await expectLedgerBalanced();
  });

  it("two joins racing one limit in two rooms: one passes, the other is refused", async () => {
    const category = await makeCategory();
    const [a, b] = [await makeTournament(category, { entryFeeCents: FEE }), await makeTournament(category, { entryFeeCents: FEE })];
    const p = await makePlayer({ balanceCents: 5_000 });
    await putLimits(p, { entry_fees_daily: 5 });
    const results = await Promise.all([roomJoin(p, a.id), roomJoin(p, b.id)]);
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect(results.filter((r) => !r.ok && r.code === "spend_limit_reached")).toHaveLength(1);
    expect(await balanceOf(p.id)).toBe(5_000 - FEE);
    await expectLedgerBalanced();
  });
});

/**
 * The project's D1 with `before` run just ahead of the withdrawal's debit batch (the one that
 * inserts the payout): what a freeze committed between the route's check and its batch looks like.
 */
function dbChangingBeforeDebit(before: () => Promise<unknown>): D1Database {
  const sqlOf = new WeakMap<object, string>();
  const real = env.DB;
  return new Proxy(real, {
    get(target, prop) {
      if (prop === "prepare")
        return (query: string) => {
          const statement = target.prepare(query);
          sqlOf.set(statement, query);
          // A bound statement is a new object: it keeps its query's text here too.
          const bind = statement.bind.bind(statement);
          statement.bind = (...values: unknown[]) => {
            const bound = bind(...values);
            sqlOf.set(bound, query);
            return bound;
          };
          return statement;
        };
      if (prop === "batch")
        return async (statements: D1PreparedStatement[]) => {
          if (statements.some((s) => sqlOf.get(s)?.includes("INSERT INTO payouts"))) await before();
          return target.batch(statements);
        };
      const value = Reflect.get(target, prop) as unknown;
      return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}

const withdrawWith = (p: { cookie: string }, amount: number, db: D1Database) =>
  call("/api/withdrawal/confirm", {
    cookie: p.cookie,
    body: { amount, bankAccount: validBank(), withdrawalMethod: "bank_account" },
    headers: { "idempotency-key": crypto.randomUUID() },
    env: { DB: db },
  });

const payoutsOf = async (userId: number) => (await one<{ n: number }>("SELECT count(*) AS n FROM payouts WHERE user_id = ?", userId)).n;

describe("a withdrawal's debit refuses a freeze that landed after the route's check", () => {
  async function withdrawable(cents: number) {
    const u = await registerUser();
    const p = { id: u.user.id as number, cookie: u.cookie };
    await fund(p.id, cents, { hoursAgo: PAST_HOLD });
    await readyToWithdraw(p.id);
    return p;
  }

  it("answers 403 account_frozen, naming what is owed, and debits nothing", async () => {
    const p = await withdrawable(5_000);
    const res = await withdrawWith(
      p,
      20,
      dbChangingBeforeDebit(() => freeze(p.id, 1_200)),
    );
    expect(res.status, res.text).toBe(403);
    expect(res.body).toMatchObject({ code: "account_frozen", message: MONEY.accountFrozen(formatCents(1_200)) });
    expect(await balanceOf(p.id)).toBe(5_000);
    expect(await payoutsOf(p.id)).toBe(0);
    await expectLedgerBalanced();
  });

  it("two withdrawals racing a freeze: neither is paid out", async () => {
    const p = await withdrawable(5_000);
    const db = dbChangingBeforeDebit(() => freeze(p.id, 300));
    const results = await Promise.all([withdrawWith(p, 20, db), withdrawWith(p, 30, db)]);
    expect(results.map((r) => [r.status, r.body.code])).toEqual([
      [403, "account_frozen"],
      [403, "account_frozen"],
    ]);
    expect(await balanceOf(p.id)).toBe(5_000);
    expect(await payoutsOf(p.id)).toBe(0);
    // The key of a refused request is free again: a retry after the debt is settled goes through.
    await env.DB.prepare("UPDATE users SET frozen_at = NULL, owed_cents = 0 WHERE id = ?").bind(p.id).run();
    expect((await withdrawWith(p, 20, env.DB)).status).toBe(200);
    expect(await balanceOf(p.id)).toBe(5_000 - 2_000);
  });

  it("a suspension or a break does not hold the balance back, in the batch either", async () => {
    const p = await withdrawable(5_000);
    const res = await withdrawWith(
      p,
      10,
      dbChangingBeforeDebit(async () => {
        await suspend(p.id);
        await exclude(p.id, "self_exclusion", null);
      }),
    );
    expect(res.status, res.text).toBe(200);
    expect(await balanceOf(p.id)).toBe(4_000);
  });
});
