// Featured events (docs/featured-events.md): operators feature a tournament a week ahead, players
// see it and press "Remind me", the cron sends each reminder once in its window, and level 6+
// players register a day before everyone else.
import { afterEach, describe, expect, it, vi } from "vitest";
import { env } from "cloudflare:workers";
import { createExecutionContext, createScheduledController, waitOnExecutionContext } from "cloudflare:test";
import { ADMIN_TOURNAMENTS } from "../../common/console-messages";
import { FEATURED, utcTime } from "../../common/messages";
import worker from "../index";
import { call } from "./helpers";
import { makeAdmin } from "./money-helpers";
import { all, join, makeCategory, makePlayer, makeTournament, one, type Player } from "./tournament-fixtures";

const H = 60 * 60 * 1000;
const D = 24 * H;
const M = 60 * 1000;

async function makeOperator(): Promise<Player> {
  const p = await makePlayer();
  await makeAdmin(p.id);
  return p;
}

const feature = (op: Player, id: number, body: Record<string, unknown> = { featured: true }) =>
  call(`/api/admin/tournaments/${id}/featured`, { method: "PUT", cookie: op.cookie, body });
const remind = (p: Player, id: number) => call(`/api/tournaments/${id}/reminder`, { method: "POST", cookie: p.cookie });
const unremind = (p: Player, id: number) => call(`/api/tournaments/${id}/reminder`, { method: "DELETE", cookie: p.cookie });

/** Runs the Worker's cron handler as Cloudflare would at `time`. */
async function cronAt(time: number) {
  const ctx = createExecutionContext();
  await worker.scheduled!(createScheduledController({ scheduledTime: time, cron: "*/5 * * * *" }), env, ctx);
  await waitOnExecutionContext(ctx);
}

const remindersOf = (userId: number) =>
  all<{ message: string; tournament_id: number }>(
    "SELECT message, tournament_id FROM notifications WHERE user_id = ? AND action = 'event_reminder' ORDER BY id",
    userId,
  );
const mailsTo = (username: string) =>
  all<{ subject: string; text_body: string }>(
    "SELECT subject, text_body FROM email_outbox WHERE kind = 'event_reminder' AND to_address = ? ORDER BY id",
    `${username}@example.com`,
  );

/** A featured event starting in `startIn`, featured directly (as if announced a week before). */
async function featuredEvent(startIn = 8 * D, o: { registrationOpensAt?: number; entryFeeCents?: number } = {}) {
  const cat = await makeCategory();
  const start = Date.now() + startIn;
  const t = await makeTournament(cat, { startTime: start, entryFeeCents: o.entryFeeCents ?? 0 });
  await env.DB.prepare("UPDATE tournaments SET featured_at = ?, registration_opens_at = ? WHERE id = ?")
    .bind(start - 8 * D, o.registrationOpensAt ?? null, t.id)
    .run();
  return { ...t, start };
}

describe("featuring (operators)", () => {
  it("refuses a tournament starting in less than 7 days, naming its start, and records nothing", async () => {
    const op = await makeOperator();
    const cat = await makeCategory();
    const start = Date.now() + 6 * D;
    const t = await makeTournament(cat, { startTime: start });
    const res = await feature(op, t.id);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: "featured_too_soon", message: ADMIN_TOURNAMENTS.featureTooSoon(utcTime(start)) });
    expect(await one("SELECT featured_at AS f FROM tournaments WHERE id = ?", t.id)).toEqual({ f: null });
    expect(await all("SELECT id FROM audit_log WHERE target_type = 'tournament' AND target_id = ?", String(t.id))).toEqual([]);
  });

  it("features one a week or more away, audited; lists it on the featured list; unfeatures it", async () => {
    const op = await makeOperator();
    const cat = await makeCategory();
    const start = Date.now() + 9 * D;
    const t = await makeTournament(cat, { startTime: start });
    const res = await feature(op, t.id);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ tournamentId: t.id, featured: true, registrationOpensAt: new Date(start - 72 * H).toISOString() });
    const audit = await all<{ action: string; actor_user_id: number }>(
      "SELECT action, actor_user_id FROM audit_log WHERE target_type = 'tournament' AND target_id = ?",
      String(t.id),
    );
    expect(audit).toEqual([{ action: "tournament.feature", actor_user_id: op.id }]);

    const listed = await call("/api/tournaments/featured");
    const item = listed.body.find((e: { id: number }) => e.id === t.id);
    expect(item.registration).toMatchObject({
      opensAt: new Date(start - 72 * H).toISOString(),
      priority: false,
      reminderSet: false,
      open: false,
    });

    expect((await feature(op, t.id, { featured: false })).status).toBe(200);
    expect((await call("/api/tournaments/featured")).body.some((e: { id: number }) => e.id === t.id)).toBe(false);
  });

  it("refuses to feature a player's private custom tournament: featuring would publish what only its invite code finds", async () => {
    const op = await makeOperator();
    const cat = await makeCategory();
    const t = await makeTournament(cat, { startTime: Date.now() + 9 * D });
    await env.DB.prepare("UPDATE tournaments SET invite_code = ? WHERE id = ?").bind(`PRIVATE${t.id}`, t.id).run();
    const res = await feature(op, t.id);
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: "tournament_private", message: ADMIN_TOURNAMENTS.featuredPrivate });
    expect(await one("SELECT featured_at AS f FROM tournaments WHERE id = ?", t.id)).toEqual({ f: null });
    expect((await call("/api/tournaments/featured")).body.some((e: { id: number }) => e.id === t.id)).toBe(false);
  });

  it("takes the operator's registration time only with a priority day after now and before the start", async () => {
    const op = await makeOperator();
    const cat = await makeCategory();
    const start = Date.now() + 10 * D;
    const t = await makeTournament(cat, { startTime: start });
    const tooEarly = await feature(op, t.id, { featured: true, registrationOpensAt: new Date(Date.now() + 2 * H).toISOString() });
    expect(tooEarly.body).toMatchObject({ code: "registration_time_invalid", message: ADMIN_TOURNAMENTS.registrationTooEarly });
    const late = await feature(op, t.id, { featured: true, registrationOpensAt: new Date(start + H).toISOString() });
    expect(late.body).toMatchObject({ code: "registration_time_invalid", message: ADMIN_TOURNAMENTS.registrationAfterStart });
    const ok = await feature(op, t.id, { featured: true, registrationOpensAt: new Date(start - 5 * D).toISOString() });
    expect(ok.body.registrationOpensAt).toBe(new Date(start - 5 * D).toISOString());
  });

  it("is for operators only, and creating a featured tournament less than a week out creates nothing", async () => {
    const player = await makePlayer();
    const t = await featuredEvent();
    expect((await feature(player, t.id)).status).toBe(403);
    const op = await makeOperator();
    const cat = await makeCategory(12);
    const body = {
      title: "Too Soon Special",
      description: "A featured event with too little notice.",
      categoryId: cat.id,
      entryFee: 0,
      maxParticipants: 20,
      minLevel: 1,
      startTime: new Date(Date.now() + 3 * D).toISOString(),
      isFree: true,
      featured: true,
    };
    const refused = await call("/api/admin/tournaments", { cookie: op.cookie, body });
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe("featured_too_soon");
    expect(await one("SELECT count(*) AS n FROM tournaments WHERE category_id = ?", cat.id)).toEqual({ n: 0 });
    const created = await call("/api/admin/tournaments", {
      cookie: op.cookie,
      body: { ...body, title: "Week Ahead Special", startTime: new Date(Date.now() + 8 * D).toISOString() },
    });
    expect(created.status).toBe(201);
    expect(created.body.featuredAt).toEqual(expect.any(String));
    expect(
      await all("SELECT action FROM audit_log WHERE target_type = 'tournament' AND target_id = ? ORDER BY id", String(created.body.id)),
    ).toEqual([{ action: "tournament.create" }, { action: "tournament.feature" }]);

    // An edit keeps the week's notice: the start cannot move closer than 7 days after the announcement.
    const edit = (o: Record<string, unknown>) =>
      call(`/api/admin/tournaments/${created.body.id}`, {
        method: "PATCH",
        cookie: op.cookie,
        body: { ...body, featured: undefined, title: "Week Ahead Special", startTime: new Date(Date.now() + 8 * D).toISOString(), ...o },
      });
    const closer = await edit({ startTime: new Date(Date.now() + 3 * D).toISOString() });
    expect(closer.status).toBe(409);
    expect(closer.body).toMatchObject({ code: "featured_too_soon", message: ADMIN_TOURNAMENTS.featuredStartTooSoon });
    expect((await edit({ featured: true })).body.message).toBe(ADMIN_TOURNAMENTS.featuredEditUseRoute);
    expect((await edit({ startTime: new Date(Date.now() + 9 * D).toISOString() })).status).toBe(200);
  });
});

describe("Remind me", () => {
  it("sets and unsets idempotently, for featured events only, signed in only", async () => {
    const p = await makePlayer();
    const t = await featuredEvent();
    expect((await call(`/api/tournaments/${t.id}/reminder`, { method: "POST" })).status).toBe(401);
    for (let i = 0; i < 2; i++) expect((await remind(p, t.id)).body).toEqual({ tournamentId: t.id, reminderSet: true });
    expect(await all("SELECT user_id FROM tournament_reminders WHERE tournament_id = ?", t.id)).toEqual([{ user_id: p.id }]);
    const detail = await call(`/api/tournaments/${t.id}`, { cookie: p.cookie });
    expect(detail.body.featured.reminderSet).toBe(true);
    for (let i = 0; i < 2; i++) expect((await unremind(p, t.id)).body).toEqual({ tournamentId: t.id, reminderSet: false });
    expect(await all("SELECT user_id FROM tournament_reminders WHERE tournament_id = ?", t.id)).toEqual([]);

    const plain = await makeTournament(await makeCategory(), { startTime: Date.now() + 9 * D });
    const refused = await remind(p, plain.id);
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: "tournament_not_featured", message: FEATURED.notFeatured });
  });
});

describe("reminders from the cron", () => {
  afterEach(() => vi.restoreAllMocks());

  it("sends the 24-hour then the 10-minute reminder once each, in-app and by mail, to nobody excluded", async () => {
    vi.spyOn(console, "warn").mockImplementation(() => {});
    const t = await featuredEvent(3 * D);
    const fan = await makePlayer();
    const quiet = await makePlayer({ preferences: { eventReminderEmails: false } });
    const onBreak = await makePlayer();
    const gone = await makePlayer();
    for (const p of [fan, quiet, onBreak, gone]) expect((await remind(p, t.id)).status).toBe(200);
    await env.DB.prepare("INSERT INTO exclusions (user_id, kind, starts_at, ends_at) VALUES (?, 'self_exclusion', ?, NULL)")
      .bind(onBreak.id, Date.now() - M)
      .run();
    await env.DB.prepare("UPDATE users SET deleted_at = ? WHERE id = ?").bind(Date.now(), gone.id).run();

    // Before the day window: nothing.
    await cronAt(t.start - 25 * H);
    expect(await remindersOf(fan.id)).toEqual([]);
    // Twice inside the day window: one reminder.
    await cronAt(t.start - 24 * H + 2 * M);
    await cronAt(t.start - 24 * H + 7 * M);
    expect(await remindersOf(fan.id)).toEqual([{ message: FEATURED.reminder(t.title, "in 24 hours"), tournament_id: t.id }]);
    expect(await mailsTo(fan.username)).toHaveLength(1);
    expect((await mailsTo(fan.username))[0]!.subject).toBe(`Reminder: ${t.title} starts in 24 hours`);
    // Twice inside the 10-minute window: one more.
    await cronAt(t.start - 10 * M);
    await cronAt(t.start - 5 * M);
    expect((await remindersOf(fan.id)).map((n) => n.message)).toEqual([
      FEATURED.reminder(t.title, "in 24 hours"),
      FEATURED.reminder(t.title, "in 10 minutes"),
    ]);
    expect((await mailsTo(fan.username)).map((m) => m.subject)).toEqual([
      `Reminder: ${t.title} starts in 24 hours`,
      `Reminder: ${t.title} starts in 10 minutes`,
    ]);
    expect((await mailsTo(fan.username))[1]!.text_body).toContain(`/tournaments/${t.id}`);
    // Opted out of the mails: the in-app reminders only.
    expect(await remindersOf(quiet.id)).toHaveLength(2);
    expect(await mailsTo(quiet.username)).toEqual([]);
    // Self-excluded and deleted: nothing at all.
    for (const p of [onBreak, gone]) {
      expect(await remindersOf(p.id)).toEqual([]);
      expect(await mailsTo(p.username)).toEqual([]);
    }
    // After the start: nothing more.
    await cronAt(t.start + M);
    expect(await remindersOf(fan.id)).toHaveLength(2);
  });

  it("a reminder set after the day window passed sends only the 10-minute one", async () => {
    vi.spyOn(console, "warn").mockImplementation(() => {});
    const t = await featuredEvent(3 * D);
    const late = await makePlayer();
    await cronAt(t.start - 24 * H + M);
    await remind(late, t.id);
    await cronAt(t.start - 3 * H);
    expect((await remindersOf(late.id)).map((n) => n.message)).toEqual([FEATURED.reminder(t.title, "in 3 hours")]);
    await cronAt(t.start - 8 * M);
    expect((await remindersOf(late.id)).map((n) => n.message)).toEqual([
      FEATURED.reminder(t.title, "in 3 hours"),
      FEATURED.reminder(t.title, "in 8 minutes"),
    ]);
  });
});

describe("priority access", () => {
  it("a level-6 player joins 24 h before everyone; level 5 is refused with the time it opens", async () => {
    // Registration opens for everyone in 12 hours: level 6+ has been in for 12 hours already.
    const opens = Date.now() + 12 * H;
    const t = await featuredEvent(8 * D, { registrationOpensAt: opens });
    const advanced = await makePlayer({ level: 6 });
    const intermediate = await makePlayer({ level: 5 });
    expect((await join(advanced, t.id)).status).toBe(200);
    const refused = await join(intermediate, t.id);
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ code: "registration_not_open", message: FEATURED.registrationNotOpen(utcTime(opens), false) });
    expect(refused.body.message).toContain(utcTime(opens));
    expect(await one("SELECT count(*) AS n FROM tournament_participants WHERE tournament_id = ?", t.id)).toEqual({ n: 1 });

    const detail = await call(`/api/tournaments/${t.id}`, { cookie: intermediate.cookie });
    expect(detail.body.featured).toMatchObject({ opensForYouAt: new Date(opens).toISOString(), priority: false, open: false });
    const mine = await call(`/api/tournaments/${t.id}`, { cookie: advanced.cookie });
    expect(mine.body.featured).toMatchObject({ opensForYouAt: new Date(opens - 24 * H).toISOString(), priority: true, open: true });
  });

  it("a level-6 player is refused before the priority day, and everyone joins once registration opened", async () => {
    const early = await featuredEvent(8 * D, { registrationOpensAt: Date.now() + 36 * H });
    const advanced = await makePlayer({ level: 6 });
    const refused = await join(advanced, early.id);
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe("registration_not_open");
    expect(refused.body.message).toContain("priority access for Advanced players");

    const open = await featuredEvent(8 * D, { registrationOpensAt: Date.now() - H });
    const beginner = await makePlayer({ level: 1 });
    expect((await join(beginner, open.id)).status).toBe(200);
  });
});
