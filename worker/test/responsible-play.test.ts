// Responsible play and eligibility (docs/responsible-play.md): self-set limits on deposits and
// entry fees, cool-off and self-exclusion, the date of birth and age, barred regions. The worker
// project binds BARRED_REGIONS="US-WA,KP" and REGION_MIN_AGES="US-AL:19,US-MS:21" (vitest.config.ts).
import { describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import { call, registerUser } from "./helpers";
import { expectLedgerBalanced, fund, PAST_HOLD, validBank, withdraw, readyToWithdraw } from "./money-helpers";
import { verifyEmail } from "./email-helpers";
import { verifyIdentityOf } from "./identity-helpers";
import { markSteppedUp } from "./session-helpers";
import { balanceOf, join, leave, makeCategory, makeTournament, type Player } from "./tournament-fixtures";

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;

/** A registered player; `dob: null` leaves the date of birth unset. */
async function player(dob: string | null = "1990-05-17") {
  const u = await registerUser(dob === null ? { dateOfBirth: null } : { dateOfBirth: dob });
  return { id: u.user.id as number, username: u.username, cookie: u.cookie, password: u.password };
}

const depositIntent = (p: Player, amount: number, extra: { cf?: Record<string, unknown>; cookie?: string } = {}) =>
  call("/api/create-payment-intent", { cookie: extra.cookie ?? p.cookie, body: { amount }, cf: extra.cf });

const putLimits = (p: Player, limits: Record<string, number | null>) =>
  call("/api/user/responsible-play/limits", { method: "PUT", cookie: p.cookie, body: limits });

const state = (p: Player) => call("/api/user/responsible-play", { cookie: p.cookie });

const limitOf = (body: any, kind: string) => body.limits.find((l: any) => l.kind === kind);

const lastDeposit = (userId: number) =>
  env.DB.prepare("SELECT id FROM transactions WHERE user_id = ? AND type = 'deposit' ORDER BY id DESC LIMIT 1")
    .bind(userId)
    .first<{ id: number }>();

async function backdateDeposit(userId: number, ms: number) {
  const row = await lastDeposit(userId);
  await env.DB.prepare("UPDATE transactions SET created_at = created_at - ? WHERE id = ?").bind(ms, row!.id).run();
}

/** The player's open checkouts are abandoned and cancelled: open ones count against the deposit limits until then. */
const abandonCheckouts = (userId: number) =>
  env.DB.prepare("UPDATE deposit_intents SET status = 'cancelled' WHERE user_id = ? AND status = 'open'").bind(userId).run();

/** The pending change is due: its time is moved into the past, as 24 hours passing would. */
const makePendingDue = (userId: number) =>
  env.DB.prepare("UPDATE play_limits SET pending_from = ? WHERE user_id = ? AND pending_from IS NOT NULL")
    .bind(Date.now() - 1, userId)
    .run();

async function paidTournament(feeCents = 500) {
  const category = await makeCategory();
  return makeTournament(category, { entryFeeCents: feeCents });
}

async function freeTournament() {
  return makeTournament(await makeCategory());
}

describe("date of birth and age", () => {
  it("asks for a date of birth before the first deposit or paid join, while free play needs none", async () => {
    const p = await player(null);
    await fund(p.id, 5000);
    const deposit = await depositIntent(p, 20);
    expect(deposit.status).toBe(403);
    expect(deposit.body).toMatchObject({ code: "date_of_birth_required", message: expect.stringContaining("date of birth") });
    const paid = await paidTournament();
    expect((await join(p, paid.id)).body.code).toBe("date_of_birth_required");
    expect((await join(p, (await freeTournament()).id)).status).toBe(200);

    const set = await call("/api/user/date-of-birth", { method: "PUT", cookie: p.cookie, body: { dateOfBirth: "1990-05-17" } });
    expect(set.status).toBe(200);
    expect(set.body.dateOfBirth).toBe("1990-05-17");
    expect((await depositIntent(p, 20)).status).toBe(200);
    expect((await join(p, paid.id)).status).toBe(200);
  });

  it("sets the date once: a second one is an operator's matter", async () => {
    const p = await player(null);
    await call("/api/user/date-of-birth", { method: "PUT", cookie: p.cookie, body: { dateOfBirth: "1990-05-17" } });
    const again = await call("/api/user/date-of-birth", { method: "PUT", cookie: p.cookie, body: { dateOfBirth: "1980-01-01" } });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe("date_of_birth_already_set");
    expect((await state(p)).body.dateOfBirth).toBe("1990-05-17");
  });

  it("refuses dates that are not real, in the future or implausibly early", async () => {
    const p = await player(null);
    for (const dateOfBirth of ["1990-02-30", "17/05/1990", `${new Date().getUTCFullYear() + 1}-01-01`, "1850-01-01"]) {
      const res = await call("/api/user/date-of-birth", { method: "PUT", cookie: p.cookie, body: { dateOfBirth } });
      expect(res.status, dateOfBirth).toBe(400);
    }
  });

  it("refuses a minor, keeps the date so another cannot be tried, and leaves free play open", async () => {
    const p = await player(null);
    const year = new Date().getUTCFullYear() - 16;
    const set = await call("/api/user/date-of-birth", { method: "PUT", cookie: p.cookie, body: { dateOfBirth: `${year}-01-01` } });
    expect(set.status).toBe(403);
    expect(set.body).toMatchObject({ code: "underage", message: expect.stringContaining("at least 18") });
    const retry = await call("/api/user/date-of-birth", { method: "PUT", cookie: p.cookie, body: { dateOfBirth: "1990-01-01" } });
    expect(retry.body.code).toBe("date_of_birth_already_set");
    expect((await depositIntent(p, 20)).body.code).toBe("underage");
    await fund(p.id, 1000);
    expect((await join(p, (await paidTournament()).id)).body.code).toBe("underage");
    expect((await join(p, (await freeTournament()).id)).status).toBe(200);
  });

  it("applies a region's higher minimum age from REGION_MIN_AGES", async () => {
    const year = new Date().getUTCFullYear() - 20;
    const p = await player(`${year}-01-01`);
    expect((await depositIntent(p, 20, { cf: { country: "US", regionCode: "AL" } })).status).toBe(200);
    const ms = await depositIntent(p, 20, { cf: { country: "US", regionCode: "MS" } });
    expect(ms.status).toBe(403);
    expect(ms.body).toMatchObject({ code: "underage", message: expect.stringContaining("at least 21") });
  });
});

describe("barred regions", () => {
  const washington = { country: "US", regionCode: "WA" };

  it("refuses deposits, paid joins and withdrawals from a barred subdivision or country, and keeps free play open", async () => {
    const p = await player();
    await fund(p.id, 5000, { hoursAgo: PAST_HOLD });
    await readyToWithdraw(p.id);
    const deposit = await depositIntent(p, 20, { cf: washington });
    expect(deposit.status).toBe(403);
    expect(deposit.body).toMatchObject({ code: "region_barred", message: expect.stringContaining("US-WA") });
    const paid = await paidTournament();
    const joinRes = await call(`/api/tournaments/${paid.id}/join`, { method: "POST", cookie: p.cookie, cf: washington });
    expect(joinRes.body.code).toBe("region_barred");
    const out = await call("/api/withdrawal/confirm", {
      cookie: p.cookie,
      cf: { country: "KP" },
      body: { amount: 10, withdrawalMethod: "bank_account", bankAccount: validBank() },
    });
    expect(out.status).toBe(403);
    expect(out.body.code).toBe("region_barred");
    const free = await freeTournament();
    expect((await call(`/api/tournaments/${free.id}/join`, { method: "POST", cookie: p.cookie, cf: washington })).status).toBe(200);
    expect((await depositIntent(p, 20, { cf: { country: "US", regionCode: "OR" } })).status).toBe(200);
    expect(await balanceOf(p.id)).toBe(5000);
  });

  it("honours the dev-region cookie on a loopback host only: production ignores it either way", async () => {
    const p = await player();
    const local = await depositIntent(p, 20, { cookie: `${p.cookie}; dev-region=US-WA` });
    expect(local.body.code).toBe("region_barred");

    // A deployed host (with the sandbox allowed there, so the deposit itself can answer 200).
    const fromProd = (cookie: string, cf: Record<string, unknown>) =>
      call("/api/create-payment-intent", {
        host: "trivia.example.com",
        env: { SANDBOX_HOSTS: "trivia.example.com" },
        cookie,
        body: { amount: 20 },
        cf,
      });
    // The cookie cannot bar a player the edge places elsewhere...
    expect((await fromProd(`${p.cookie}; dev-region=US-WA`, { country: "US", regionCode: "OR" })).status).toBe(200);
    // ...nor open a barred region.
    const barred = await fromProd(`${p.cookie}; dev-region=US-OR`, washington);
    expect(barred.status).toBe(403);
    expect(barred.body.code).toBe("region_barred");
  });
});

describe("deposit limits", () => {
  it("applies a first and a lower limit at once and refuses a deposit over it, naming the limit, what is left and when", async () => {
    const p = await player();
    const set = await putLimits(p, { deposit_daily: 50 });
    expect(set.status).toBe(200);
    expect(limitOf(set.body, "deposit_daily")).toMatchObject({ amount: 50, pending: null, used: 0, left: 50 });

    const over = await depositIntent(p, 60);
    expect(over.status).toBe(409);
    expect(over.body.code).toBe("deposit_limit_reached");
    expect(over.body.message).toContain("daily deposit limit of $50.00");
    expect(over.body.message).toContain("up to $50.00 now");
    expect((await depositIntent(p, 30)).status).toBe(200);
    // An open checkout counts as spent: $30 of the $50 is taken until it is paid or cancelled.
    const open = await depositIntent(p, 30);
    expect(open.status).toBe(409);
    expect(open.body.message).toContain("up to $20.00 now");
    await abandonCheckouts(p.id);

    await fund(p.id, 3000);
    const second = await depositIntent(p, 30);
    expect(second.status).toBe(409);
    expect(second.body.message).toContain("up to $20.00 now");
    expect(second.body.message).toMatch(/fits again from \d+ \w{3} \d{4}, \d{2}:\d{2} UTC/);
    expect(limitOf((await state(p)).body, "deposit_daily")).toMatchObject({ used: 30, left: 20 });

    await putLimits(p, { deposit_daily: 40 });
    expect(limitOf((await state(p)).body, "deposit_daily")).toMatchObject({ amount: 40, pending: null, left: 10 });
  });

  it("holds a raise or a removal for 24 hours, shows it pending, then applies it when read", async () => {
    const p = await player();
    await putLimits(p, { deposit_daily: 50 });
    await fund(p.id, 3000);
    const raised = await putLimits(p, { deposit_daily: 100 });
    const view = limitOf(raised.body, "deposit_daily");
    expect(view).toMatchObject({ amount: 50, pending: { amount: 100 } });
    expect(Date.parse(view.pending.from) - Date.now()).toBeGreaterThan(DAY - 60_000);
    expect((await depositIntent(p, 30)).body.code).toBe("deposit_limit_reached");

    await makePendingDue(p.id);
    expect((await depositIntent(p, 30)).status).toBe(200);
    expect(limitOf((await state(p)).body, "deposit_daily")).toMatchObject({ amount: 100, pending: null });
    const row = await env.DB.prepare("SELECT amount_cents, pending_from FROM play_limits WHERE user_id = ? AND kind = 'deposit_daily'")
      .bind(p.id)
      .first();
    expect(row).toEqual({ amount_cents: 10000, pending_from: null });

    const removed = await putLimits(p, { deposit_daily: null });
    expect(limitOf(removed.body, "deposit_daily")).toMatchObject({ amount: 100, pending: { amount: null } });
    await makePendingDue(p.id);
    expect(limitOf((await state(p)).body, "deposit_daily")).toMatchObject({ amount: null, pending: null, left: null });
  });

  it("counts rolling windows: a deposit frees the daily limit after 24 hours and the weekly one after 7 days", async () => {
    const p = await player();
    await putLimits(p, { deposit_daily: 50, deposit_weekly: 60 });
    await fund(p.id, 4000);
    await backdateDeposit(p.id, 25 * HOUR);
    const refused = await depositIntent(p, 40);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toContain("weekly deposit limit of $60.00");
    expect(refused.body.message).toContain("up to $20.00 now");
    expect((await depositIntent(p, 20)).status).toBe(200);
    await abandonCheckouts(p.id);
    await backdateDeposit(p.id, 6 * DAY);
    expect((await depositIntent(p, 40)).status).toBe(200);
  });

  it("refuses an amount above the limit itself with what can be deposited", async () => {
    const p = await player();
    await putLimits(p, { deposit_monthly: 100 });
    const res = await depositIntent(p, 150);
    expect(res.body.message).toContain("monthly deposit limit of $100.00");
    expect(res.body.message).toContain("more than the limit itself");
  });
});

describe("entry-fee limits", () => {
  it("refuses a paid join over the limit and counts entries net of refunds", async () => {
    const p = await player();
    await fund(p.id, 10_000);
    await putLimits(p, { entry_fees_daily: 10 });
    const [a, b, c] = [await paidTournament(500), await paidTournament(500), await paidTournament(500)];
    expect((await join(p, a.id)).status).toBe(200);
    expect((await join(p, b.id)).status).toBe(200);
    const over = await join(p, c.id);
    expect(over.status).toBe(409);
    expect(over.body).toMatchObject({ code: "spend_limit_reached", message: expect.stringContaining("daily entry-fee limit of $10.00") });
    // Free play is never a spend.
    expect((await join(p, (await freeTournament()).id)).status).toBe(200);

    expect((await leave(p, b.id)).status).toBe(200);
    expect(limitOf((await state(p)).body, "entry_fees_daily")).toMatchObject({ used: 5, left: 5 });
    expect((await join(p, c.id)).status).toBe(200);
    await expectLedgerBalanced();
  });
});

describe("cool-off", () => {
  it("needs the password, then blocks deposits and every join, free ones too, and still allows withdrawals", async () => {
    const p = await player();
    await fund(p.id, 5000, { hoursAgo: PAST_HOLD });
    await readyToWithdraw(p.id);
    const wrong = await call("/api/user/responsible-play/cool-off", { cookie: p.cookie, body: { period: "7d", password: "nope-nope" } });
    expect(wrong.status).toBe(400);
    expect(wrong.body.code).toBe("wrong_password");

    const started = await call("/api/user/responsible-play/cool-off", { cookie: p.cookie, body: { period: "7d", password: p.password } });
    expect(started.status).toBe(200);
    expect(started.body.exclusion).toMatchObject({ kind: "cool_off" });
    expect(Date.parse(started.body.exclusion.endsAt) - Date.now()).toBeGreaterThan(7 * DAY - 60_000);

    const deposit = await depositIntent(p, 20);
    expect(deposit.status).toBe(403);
    expect(deposit.body).toMatchObject({ code: "cooling_off", message: expect.stringMatching(/break until .* UTC/) });
    expect((await join(p, (await freeTournament()).id)).body.code).toBe("cooling_off");
    expect((await join(p, (await paidTournament()).id)).body.code).toBe("cooling_off");
    expect((await withdraw(p.cookie, 10)).status).toBe(200);

    const shorter = await call("/api/user/responsible-play/cool-off", { cookie: p.cookie, body: { period: "24h", password: p.password } });
    expect(shorter.status).toBe(409);
    expect(shorter.body.code).toBe("exclusion_active");

    // Over: the break's end is moved into the past, as a week passing would.
    await env.DB.prepare("UPDATE exclusions SET ends_at = ? WHERE user_id = ?")
      .bind(Date.now() - 1, p.id)
      .run();
    expect((await state(p)).body.exclusion).toBeNull();
    expect((await join(p, (await freeTournament()).id)).status).toBe(200);
  });

  it("leaves the player's tournaments that have not started, refunding their fees", async () => {
    const p = await player();
    await fund(p.id, 1000);
    const t = await paidTournament(500);
    expect((await join(p, t.id)).status).toBe(200);
    expect(await balanceOf(p.id)).toBe(500);
    await call("/api/user/responsible-play/cool-off", { cookie: p.cookie, body: { period: "24h", password: p.password } });
    expect(await balanceOf(p.id)).toBe(1000);
    const seat = await env.DB.prepare("SELECT id FROM tournament_participants WHERE user_id = ? AND tournament_id = ?")
      .bind(p.id, t.id)
      .first();
    expect(seat).toBeNull();
    await expectLedgerBalanced();
  });
});

describe("self-exclusion", () => {
  it("blocks deposits and joins, cannot be lifted early, and keeps the balance withdrawable", async () => {
    const p = await player();
    await fund(p.id, 5000, { hoursAgo: PAST_HOLD });
    await readyToWithdraw(p.id);
    const started = await call("/api/user/responsible-play/self-exclusion", {
      cookie: p.cookie,
      body: { period: "6m", password: p.password },
    });
    expect(started.status).toBe(200);
    expect(started.body.exclusion).toMatchObject({ kind: "self_exclusion" });
    expect(Date.parse(started.body.exclusion.endsAt) - Date.now()).toBeGreaterThan(180 * DAY);

    const deposit = await depositIntent(p, 20);
    expect(deposit.status).toBe(403);
    expect(deposit.body).toMatchObject({ code: "self_excluded", message: expect.stringContaining("excluded yourself until") });
    expect((await join(p, (await freeTournament()).id)).body.code).toBe("self_excluded");

    // Nothing shorter replaces it, and no route ends it.
    const cool = await call("/api/user/responsible-play/cool-off", { cookie: p.cookie, body: { period: "30d", password: p.password } });
    expect(cool.body.code).toBe("exclusion_active");
    const del = await call("/api/user/responsible-play/self-exclusion", {
      method: "DELETE",
      cookie: p.cookie,
      body: { password: p.password },
    });
    expect(del.status).toBe(404);
    expect((await state(p)).body.exclusion).toMatchObject({ kind: "self_exclusion" });

    expect((await withdraw(p.cookie, 50)).status).toBe(200);
    expect(await balanceOf(p.id)).toBe(0);
  });

  it("can be made permanent, and then says so", async () => {
    const p = await player();
    await call("/api/user/responsible-play/cool-off", { cookie: p.cookie, body: { period: "24h", password: p.password } });
    const perm = await call("/api/user/responsible-play/self-exclusion", {
      cookie: p.cookie,
      body: { period: "permanent", password: p.password },
    });
    expect(perm.status).toBe(200);
    expect(perm.body.exclusion).toMatchObject({ kind: "self_exclusion", endsAt: null });
    expect((await depositIntent(p, 20)).body.message).toContain("permanently");
  });
});

describe("the responsible-play routes", () => {
  it("need a session", async () => {
    expect((await call("/api/user/responsible-play")).status).toBe(401);
    expect((await call("/api/user/date-of-birth", { method: "PUT", body: { dateOfBirth: "1990-01-01" } })).status).toBe(401);
  });

  it("refuse a limit that is not a positive amount", async () => {
    const p = await player();
    expect((await putLimits(p, { deposit_daily: -5 })).status).toBe(400);
    expect((await call("/api/user/responsible-play/limits", { method: "PUT", cookie: p.cookie, body: { bogus: 5 } })).status).toBe(400);
  });
});

describe("prize play: free tournaments with a prize, and withdrawals", () => {
  const washington = { country: "US", regionCode: "WA" };
  const joinFrom = (p: Player, id: number, cf?: Record<string, unknown>) =>
    call(`/api/tournaments/${id}/join`, { method: "POST", cookie: p.cookie, body: {}, cf });

  it("a free tournament the house funds a prize for needs the date of birth, the age and an open region, as a paid join does", async () => {
    const category = await makeCategory();
    const prize = await makeTournament(category, { prizePoolCents: 10_000 });
    const noPrize = await makeTournament(category);

    const unknown = await player(null);
    expect((await joinFrom(unknown, prize.id)).body.code).toBe("date_of_birth_required");
    expect((await joinFrom(unknown, noPrize.id)).status).toBe(200);

    const minor = await player(null);
    await env.DB.prepare("UPDATE users SET date_of_birth = ? WHERE id = ?")
      .bind(`${new Date().getUTCFullYear() - 16}-06-01`, minor.id)
      .run();
    expect((await joinFrom(minor, prize.id)).body.code).toBe("underage");

    const adult = await player();
    const barred = await joinFrom(adult, prize.id, washington);
    expect(barred.status).toBe(403);
    expect(barred.body.code).toBe("region_barred");
    expect((await joinFrom(adult, prize.id)).status).toBe(200);
  });

  it("a withdrawal needs the date of birth and the age too", async () => {
    const p = await player(null);
    await fund(p.id, 5000, { hoursAgo: PAST_HOLD });
    await verifyEmail(p.id);
    await markSteppedUp(p.id);
    const noDate = await withdraw(p.cookie, 10);
    expect(noDate.status).toBe(403);
    expect(noDate.body.code).toBe("date_of_birth_required");
    await env.DB.prepare("UPDATE users SET date_of_birth = ? WHERE id = ?")
      .bind(`${new Date().getUTCFullYear() - 20}-01-01`, p.id)
      .run();
    // The verified identity keeps that date of birth (the fixture reads it).
    await verifyIdentityOf(p.id);
    const underage = await call("/api/withdrawal/confirm", {
      cookie: p.cookie,
      cf: { country: "US", regionCode: "MS" },
      headers: { "idempotency-key": crypto.randomUUID() },
      body: { amount: 10, withdrawalMethod: "bank_account", bankAccount: validBank() },
    });
    expect(underage.status).toBe(403);
    expect(underage.body.code).toBe("underage");
    const ok = await withdraw(p.cookie, 10);
    expect(ok.status, ok.text).toBe(200);
    await expectLedgerBalanced();
  });
});
