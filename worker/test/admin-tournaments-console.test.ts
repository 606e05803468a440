// The console's tournaments: who may use the routes, the list, creating with picked questions or
// a house pool that needs a second operator, editing before the first join (and the room picking
// it up), cancelling with every entry refunded exactly once, the live view, and the audit rows.
import { describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import { NOTIFY } from "../../common/messages";
import { ADMIN_TOURNAMENTS } from "../../common/console-messages";
import { approvalExecutor } from "../admin/approvals";
import { call } from "./helpers";
import { makeOperator } from "./fair-play-fixtures";
import {
  all,
  answer,
  balanceOf,
  correctOf,
  join,
  ledgerMismatches,
  makeCategory,
  makePlayer,
  makeTournament,
  next,
  one,
  openSocket,
  roomAlarm,
  startNow,
  type CategoryFixture,
  type Player,
} from "./tournament-fixtures";

const inHours = (h: number) => new Date(Date.now() + h * 60 * 60_000);

const body = (categoryId: number, o: Record<string, unknown> = {}) => ({
  title: "Console Cup",
  description: "Made in the console.",
  categoryId,
  entryFee: 2,
  maxParticipants: 50,
  minLevel: 1,
  startTime: inHours(1).toISOString(),
  durationMinutes: 30,
  isFree: false,
  ...o,
});

const create = (op: Player, b: unknown) => call("/api/admin/tournaments", { cookie: op.cookie, body: b });
const patch = (op: Player, id: number, b: unknown) => call(`/api/admin/tournaments/${id}`, { method: "PATCH", cookie: op.cookie, body: b });
const cancel = (op: Player, id: number, reason = "The host is ill") =>
  call(`/api/admin/tournaments/${id}/cancel`, { cookie: op.cookie, body: { reason } });

const auditOf = (action: string, targetId: number | string) =>
  all<{ actor_user_id: number; before: string | null; after: string | null; note: string | null }>(
    "SELECT actor_user_id, before, after, note FROM audit_log WHERE action = ? AND target_type = 'tournament' AND target_id = ? ORDER BY id",
    action,
    String(targetId),
  );

/** Ten questions of the category on the ramp (3 easy, 4 medium, 3 hard), from the `skip`th of each difficulty on. */
const tenOf = (cat: CategoryFixture, skip = 0) =>
  [
    [1, 3],
    [2, 4],
    [3, 3],
  ].flatMap(([d, n]) =>
    cat.questions
      .filter((q) => q.difficulty === d)
      .slice(skip, skip + n!)
      .map((q) => q.id),
  );

describe("the console's tournament routes: authorization", () => {
  it("refuse a player 403 and an operator without 2FA 403 admin_two_factor_required", async () => {
    const cat = await makeCategory();
    const t = await makeTournament(cat);
    const player = await makePlayer();
    const no2fa = await makePlayer();
    await env.DB.prepare("UPDATE users SET role = 'admin' WHERE id = ?").bind(no2fa.id).run();
    const routes: [string, string, unknown][] = [
      ["GET", "/api/admin/tournaments", undefined],
      ["GET", `/api/admin/tournaments/${t.id}`, undefined],
      ["GET", `/api/admin/tournaments/${t.id}/live`, undefined],
      ["POST", "/api/admin/tournaments", body(cat.id)],
      ["PATCH", `/api/admin/tournaments/${t.id}`, body(cat.id)],
      ["POST", `/api/admin/tournaments/${t.id}/cancel`, { reason: "No reason" }],
    ];
    for (const [method, path, b] of routes) {
      expect((await call(path, { method, body: b })).status, `${method} ${path}`).toBe(401);
      const asPlayer = await call(path, { method, cookie: player.cookie, body: b });
      expect(asPlayer.status, `${method} ${path}`).toBe(403);
      expect(asPlayer.body.code).toBe("forbidden");
      const asAdmin = await call(path, { method, cookie: no2fa.cookie, body: b });
      expect(asAdmin.status, `${method} ${path}`).toBe(403);
      expect(asAdmin.body.code).toBe("admin_two_factor_required");
    }
    expect(await one("SELECT status FROM tournaments WHERE id = ?", t.id)).toEqual({ status: "upcoming" });
    expect(await auditOf("tournament.cancel", t.id)).toEqual([]);
  });
});

describe("GET /api/admin/tournaments", () => {
  it("lists standard tournaments by default, with filters, search, paging and the house-funded flag", async () => {
    const cat = await makeCategory();
    const op = await makeOperator();
    const tag = crypto.randomUUID().slice(0, 8);
    const house = await makeTournament(cat, { title: `Zebra ${tag} House`, prizePoolCents: 5000 });
    const live = await makeTournament(cat, { title: `Zebra ${tag} Live`, entryFeeCents: 300, format: "live_show", status: "live" });
    await makeTournament(cat, { title: `Zebra ${tag} Practice`, kind: "practice" });
    const list = await call(`/api/admin/tournaments?q=zebra%20${tag}`, { cookie: op.cookie });
    expect(list.status, list.text).toBe(200);
    expect(list.body.total).toBe(2);
    const byId = new Map(list.body.items.map((t: any) => [t.id, t]));
    expect(byId.get(house.id)).toMatchObject({ status: "upcoming", prizePool: 50, entryFee: 0, houseFunded: true, format: "self_paced" });
    expect(byId.get(live.id)).toMatchObject({ status: "live", entryFee: 3, houseFunded: false, format: "live_show", maxParticipants: 50 });

    const filtered = await call(`/api/admin/tournaments?q=${tag}&status=live&format=live_show`, { cookie: op.cookie });
    expect(filtered.body.items.map((t: any) => t.id)).toEqual([live.id]);
    const practice = await call(`/api/admin/tournaments?q=${tag}&kind=practice`, { cookie: op.cookie });
    expect(practice.body.items.map((t: any) => t.title)).toEqual([`Zebra ${tag} Practice`]);
    const everything = await call(`/api/admin/tournaments?q=${tag}&kind=all&pageSize=2`, { cookie: op.cookie });
    expect(everything.body).toMatchObject({ total: 3, page: 1, pageSize: 2, nextPage: 2 });
    expect(everything.body.items).toHaveLength(2);
    const second = await call(`/api/admin/tournaments?q=${tag}&kind=all&pageSize=2&page=2`, { cookie: op.cookie });
    expect(second.body).toMatchObject({ nextPage: null });
    expect(second.body.items).toHaveLength(1);

    const bad = await call("/api/admin/tournaments?status=soon", { cookie: op.cookie });
    expect(bad.status).toBe(400);
  });
});

describe("POST /api/admin/tournaments: picked questions, audit, the house pool's second operator", () => {
  it("stores the operator's picked questions in their order, everyone playing the same ones, with an audit row", async () => {
    const cat = await makeCategory(6);
    const op = await makeOperator();
    const picked = tenOf(cat).reverse();
    const res = await create(op, body(cat.id, { format: "self_paced", questionIds: picked }));
    expect(res.status, res.text).toBe(201);
    const id = res.body.id as number;
    const rows = await all<{ question_id: number }>(
      'SELECT question_id FROM tournament_questions WHERE tournament_id = ? ORDER BY "order"',
      id,
    );
    expect(rows.map((r) => r.question_id)).toEqual(picked);
    expect(await one("SELECT question_draw AS w FROM tournaments WHERE id = ?", id)).toEqual({ w: 1 });
    const audit = await auditOf("tournament.create", id);
    expect(audit).toHaveLength(1);
    expect(audit[0]!.actor_user_id).toBe(op.id);
    expect(JSON.parse(audit[0]!.after!)).toMatchObject({ title: "Console Cup", entryFeeCents: 200, questionIds: picked });
  });

  it("refuses picked questions that are missing, of another category or retired, saying which", async () => {
    const cat = await makeCategory(6);
    const other = await makeCategory(1);
    const op = await makeOperator();
    const ids = tenOf(cat);
    const cases: [number[], string][] = [
      [[...ids.slice(0, 9), 987_654_321], ADMIN_TOURNAMENTS.questionNotFound([987_654_321])],
      [[...ids.slice(0, 9), other.questions[0]!.id], ADMIN_TOURNAMENTS.questionWrongCategory([other.questions[0]!.id])],
    ];
    await env.DB.prepare("UPDATE questions SET retired_at = ? WHERE id = ?").bind(Date.now(), ids[4]).run();
    cases.push([ids, ADMIN_TOURNAMENTS.questionRetired([ids[4]!])]);
    for (const [questionIds, message] of cases) {
      const res = await create(op, body(cat.id, { questionIds }));
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ code: "question_not_usable", message });
    }
    expect((await create(op, body(cat.id, { questionIds: ids.slice(0, 9) }))).status).toBe(400);
    expect(await one("SELECT count(*) AS n FROM tournaments WHERE category_id = ?", cat.id)).toEqual({ n: 0 });
  });

  it("creates a house pool at the threshold at once, and one above it only when another operator approves, once", async () => {
    const cat = await makeCategory(7);
    // Each self-paced pool takes 20 fresh questions once: the second tournament draws from another category.
    const other = await makeCategory(7);
    const op = await makeOperator();
    const free = { entryFee: 0, isFree: true, maxParticipants: null };
    const atThreshold = await create(op, body(cat.id, { ...free, title: "Five Hundred", prizePool: 500 }));
    expect(atThreshold.status, atThreshold.text).toBe(201);
    expect(atThreshold.body.prizePool).toBe(500);

    const big = await create(op, body(other.id, { ...free, title: "Big House Cup", prizePool: 750.5 }));
    expect(big.status, big.text).toBe(202);
    expect(big.body.message).toBe(ADMIN_TOURNAMENTS.approvalRequested("$750.50", "$500.00"));
    const approvalId = big.body.approvalId as number;
    expect(await one("SELECT count(*) AS n FROM tournaments WHERE title = 'Big House Cup' AND category_id = ?", other.id)).toEqual({
      n: 0,
    });
    const approval = await one<{ kind: string; amount_cents: number; requested_by: number; payload: string; status: string }>(
      "SELECT kind, amount_cents, requested_by, payload, status FROM approvals WHERE id = ?",
      approvalId,
    );
    expect(approval).toMatchObject({ kind: "house_pool", amount_cents: 75050, requested_by: op.id, status: "pending" });

    // The approvals screen runs the executor when a second operator approves; a retry changes nothing.
    const second = await makeOperator();
    const run = () =>
      approvalExecutor("house_pool")(
        { env, db: undefined as never, approverId: second.id, requesterId: op.id, approvalId },
        JSON.parse(approval.payload),
      );
    const [a, b] = await Promise.all([run(), run()]);
    const again = await run();
    expect(a).toBe(b);
    expect(again).toBe(a);
    const made = await all<{ id: number; prize_pool_cents: number; is_free: number }>(
      "SELECT id, prize_pool_cents, is_free FROM tournaments WHERE title = 'Big House Cup' AND category_id = ?",
      other.id,
    );
    expect(made).toEqual([{ id: Number(a), prize_pool_cents: 75050, is_free: 1 }]);
    expect(await all("SELECT 1 FROM tournament_questions WHERE tournament_id = ?", made[0]!.id)).toHaveLength(20);
    const audit = await auditOf("tournament.create", made[0]!.id);
    expect(audit).toHaveLength(1);
    expect(audit[0]!.actor_user_id).toBe(second.id);
    expect(JSON.parse(audit[0]!.after!)).toMatchObject({ approvalId, requestedBy: op.id, prizePoolCents: 75050 });
    // The room was told: its alarm waits for the start.
    expect(await roomAlarm(made[0]!.id)).not.toBeNull();
  });
});

describe("PATCH /api/admin/tournaments/:id", () => {
  it("changes an upcoming tournament nobody joined; the room plays by the new rules and commits to the new questions", async () => {
    const cat = await makeCategory(6);
    const op = await makeOperator();
    const created = await create(op, body(cat.id, { format: "self_paced", questionIds: tenOf(cat) }));
    const id = created.body.id as number;
    const before = await one<{ c: string }>("SELECT fairness_commitment AS c FROM tournaments WHERE id = ?", id);
    expect(before.c).toMatch(/^[0-9a-f]{64}$/);

    const start = inHours(3);
    start.setMilliseconds(0);
    const picked = tenOf(cat, 1);
    const res = await patch(
      op,
      id,
      body(cat.id, { title: "Renamed Cup", entryFee: 4, startTime: start.toISOString(), questionIds: picked, format: "self_paced" }),
    );
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ id, title: "Renamed Cup", entryFee: 4, startTime: start.toISOString(), editable: true });
    expect(res.body.questions.map((q: any) => q.id)).toEqual(picked);

    // The room: its alarm moved to the new start, and a join pays the new fee.
    expect(await roomAlarm(id)).toBe(start.getTime());
    const after = await one<{ c: string }>("SELECT fairness_commitment AS c FROM tournaments WHERE id = ?", id);
    expect(after.c).toMatch(/^[0-9a-f]{64}$/);
    expect(after.c).not.toBe(before.c);
    const p = await makePlayer({ balanceCents: 1000 });
    expect((await join(p, id)).status).toBe(200);
    expect(await balanceOf(p.id)).toBe(600);
    // Paid uses moved from the old questions to the new ones.
    const uses = await all<{ id: number; paid_uses: number }>(
      "SELECT id, paid_uses FROM questions WHERE id IN (SELECT value FROM json_each(?))",
      JSON.stringify([...tenOf(cat), ...picked]),
    );
    for (const u of uses) expect(u.paid_uses, String(u.id)).toBe(picked.includes(u.id) ? 1 : 0);

    const audit = await auditOf("tournament.update", id);
    expect(audit).toHaveLength(1);
    expect(JSON.parse(audit[0]!.before!)).toMatchObject({ title: "Console Cup", entryFeeCents: 200 });
    expect(JSON.parse(audit[0]!.after!)).toMatchObject({ title: "Renamed Cup", entryFeeCents: 400, questionIds: picked });

    // Now somebody joined: refused, and nothing changes.
    const refused = await patch(op, id, body(cat.id, { title: "Too Late", startTime: start.toISOString() }));
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({ code: "tournament_has_players", message: ADMIN_TOURNAMENTS.hasPlayers });
    expect(await one("SELECT title FROM tournaments WHERE id = ?", id)).toEqual({ title: "Renamed Cup" });
    expect(await auditOf("tournament.update", id)).toHaveLength(1);
  });

  it("validates like create, and refuses tournaments that are not upcoming or are practice", async () => {
    const cat = await makeCategory();
    const op = await makeOperator();
    const t = await makeTournament(cat);
    expect((await patch(op, t.id, body(cat.id, { title: "ab" }))).status).toBe(400);
    expect((await patch(op, 987_654, body(cat.id))).status).toBe(404);
    const live = await makeTournament(cat, { startTime: Date.now() - 1000 });
    await startNow(live.id);
    const res = await patch(op, live.id, body(cat.id));
    expect(res.status).toBe(409);
    expect(res.body.code).toBe("tournament_not_editable");
    const practice = await makeTournament(cat, { kind: "practice" });
    expect((await patch(op, practice.id, body(cat.id))).body.code).toBe("tournament_practice");
  });

  it("never lets an edit raise a house pool past the two-person threshold", async () => {
    const cat = await makeCategory(7);
    const op = await makeOperator();
    const free = { entryFee: 0, isFree: true, maxParticipants: null };
    const created = await create(op, body(cat.id, { ...free, prizePool: 100 }));
    expect(created.status).toBe(201);
    const raised = await patch(op, created.body.id, body(cat.id, { ...free, prizePool: 5000 }));
    expect(raised.status).toBe(409);
    expect(raised.body).toEqual({ code: "house_pool_needs_approval", message: ADMIN_TOURNAMENTS.poolNeedsApproval("$500.00") });
    expect(await one("SELECT prize_pool_cents AS pool FROM tournaments WHERE id = ?", created.body.id)).toEqual({ pool: 10000 });
    expect((await patch(op, created.body.id, body(cat.id, { ...free, prizePool: 400 }))).status).toBe(200);
  });
});

describe("POST /api/admin/tournaments/:id/cancel", () => {
  it("refunds every paid entry exactly once when two cancels race, notifies each player once, one audit row", async () => {
    const cat = await makeCategory();
    const op = await makeOperator();
    const other = await makeOperator();
    const t = await makeTournament(cat, { entryFeeCents: 500, title: "Doomed Cup" });
    const players = [
      await makePlayer({ balanceCents: 800 }),
      await makePlayer({ balanceCents: 800 }),
      await makePlayer({ balanceCents: 800 }),
    ];
    for (const p of players) expect((await join(p, t.id)).status).toBe(200);
    for (const p of players) expect(await balanceOf(p.id)).toBe(300);

    const [a, b] = await Promise.all([cancel(op, t.id, "The host is ill."), cancel(other, t.id, "The host is ill.")]);
    expect([a.status, b.status]).toEqual([200, 200]);
    const results = [a.body, b.body].sort((x, y) => Number(y.cancelled) - Number(x.cancelled));
    expect(results[0]).toEqual({ tournamentId: t.id, cancelled: true, playersRefunded: 3, refundedCents: 1500 });
    expect(results[1]).toEqual({ tournamentId: t.id, cancelled: false, playersRefunded: 0, refundedCents: 0 });
    const third = await cancel(op, t.id);
    expect(third.body.cancelled).toBe(false);

    for (const p of players) expect(await balanceOf(p.id)).toBe(800);
    expect(await ledgerMismatches()).toEqual([]);
    expect(await one("SELECT status, prize_pool_cents AS pool FROM tournaments WHERE id = ?", t.id)).toEqual({
      status: "cancelled",
      pool: 0,
    });
    const notes = await all<{ user_id: number; message: string }>(
      "SELECT user_id, message FROM notifications WHERE tournament_id = ? ORDER BY user_id",
      t.id,
    );
    expect(notes).toEqual(
      players.map((p) => ({ user_id: p.id, message: NOTIFY.cancelledByOperator("Doomed Cup", "The host is ill.", true) })),
    );
    // The page says why, in the operator's words.
    expect((await call(`/api/tournaments/${t.id}`)).body.cancellation).toEqual({
      cause: "operator",
      reason: "The host is ill.",
      refunded: true,
    });
    const audit = await auditOf("tournament.cancel", t.id);
    expect(audit).toHaveLength(1);
    expect(audit[0]!.note).toBe("The host is ill.");
    expect(JSON.parse(audit[0]!.before!)).toMatchObject({ status: "upcoming", participants: 3 });
    expect(JSON.parse(audit[0]!.after!)).toMatchObject({ status: "cancelled", playersRefunded: 3, refundedCents: 1500 });
    // Joining is closed.
    expect((await join(await makePlayer({ balanceCents: 800 }), t.id)).status).toBe(409);
  });

  it("cancels a running tournament (answers refused from then on) and refuses a completed one", async () => {
    const cat = await makeCategory();
    const op = await makeOperator();
    const t = await makeTournament(cat, { entryFeeCents: 100 });
    const players: Player[] = [];
    for (let i = 0; i < 10; i++) {
      const p = await makePlayer({ balanceCents: 100 });
      expect((await join(p, t.id)).status).toBe(200);
      players.push(p);
    }
    await startNow(t.id);
    expect(await one("SELECT status FROM tournaments WHERE id = ?", t.id)).toEqual({ status: "live" });
    const q = await next(players[0]!, t.id);
    const res = await cancel(op, t.id, "A question leaked.");
    expect(res.body).toMatchObject({ cancelled: true, playersRefunded: 10, refundedCents: 1000 });
    for (const p of players) expect(await balanceOf(p.id)).toBe(100);
    const late = await answer(players[0]!, t.id, q.body.id, correctOf(t, q.body.id));
    expect(late.status).toBe(409);

    // A free tournament: cancelled with the reason, and nothing said about refunds.
    const free = await makeTournament(cat);
    const freePlayer = await makePlayer();
    expect((await join(freePlayer, free.id)).status).toBe(200);
    expect((await cancel(op, free.id, "Venue problem")).body).toMatchObject({ cancelled: true, playersRefunded: 0 });
    expect((await call(`/api/tournaments/${free.id}`)).body.cancellation).toEqual({
      cause: "operator",
      reason: "Venue problem",
      refunded: false,
    });
    const note = await one<{ message: string }>(
      "SELECT message FROM notifications WHERE tournament_id = ? AND user_id = ?",
      free.id,
      freePlayer.id,
    );
    expect(note.message).toBe(`${free.title} was cancelled by the organisers: Venue problem.`);
    expect(note.message).not.toMatch(/refund/i);

    const done = await makeTournament(cat, { status: "completed", startTime: Date.now() - 3 * 60 * 60_000 });
    const refused = await cancel(op, done.id);
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({ code: "tournament_finished", message: ADMIN_TOURNAMENTS.finished });
    expect((await cancel(op, t.id, "ab")).status).toBe(400);
    expect((await cancel(op, 987_654)).status).toBe(404);
  });
});

describe("GET /api/admin/tournaments/:id/live", () => {
  it("shows connected players, answers per second, progress and refused answers of a running room", async () => {
    const cat = await makeCategory();
    const op = await makeOperator();
    const t = await makeTournament(cat);
    const [a, b] = [await makePlayer(), await makePlayer()];
    for (const p of [a, b]) expect((await join(p, t.id)).status).toBe(200);
    // A refused early answer is a cheat attempt the view shows.
    expect((await answer(a, t.id, t.questions[0]!.id, "x")).status).toBe(409);
    await startNow(t.id);
    const socket = await openSocket(`/api/tournaments/${t.id}/ws`, a.cookie);
    expect(socket.status).toBe(101);
    for (let i = 0; i < 3; i++) {
      const q = await next(a, t.id);
      expect((await answer(a, t.id, q.body.id, correctOf(t, q.body.id))).status).toBe(200);
    }
    await next(b, t.id);

    const res = await call(`/api/admin/tournaments/${t.id}/live`, { cookie: op.cookie });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({
      tournamentId: t.id,
      status: "live",
      format: "self_paced",
      participants: 2,
      sockets: 1,
      connectedPlayers: 1,
      show: null,
      progress: { issued: 4, answered: 3, finishedPlayers: 0 },
      cheatAttemptCount: 1,
    });
    expect(res.body.answersPerSecond).toBeCloseTo(0.3, 5);
    expect(res.body.cheatAttempts).toEqual([expect.objectContaining({ userId: a.id, username: a.username })]);
    // Three right answers in a few milliseconds: what settlement would flag, shown while it runs.
    expect(res.body.flags).toEqual([expect.objectContaining({ userId: a.id, username: a.username })]);
    socket.client!.ws.close();

    expect((await call("/api/admin/tournaments/987654/live", { cookie: op.cookie })).status).toBe(404);
  });

  it("shows a live show's current question and when its window closes", async () => {
    const cat = await makeCategory();
    const op = await makeOperator();
    const t = await makeTournament(cat, { format: "live_show" });
    const p = await makePlayer();
    expect((await join(p, t.id)).status).toBe(200);
    await startNow(t.id);
    const res = await call(`/api/admin/tournaments/${t.id}/live`, { cookie: op.cookie });
    expect(res.body).toMatchObject({
      status: "live",
      format: "live_show",
      progress: null,
      show: { index: 0, total: 10, stage: "question" },
    });
    expect(Date.parse(res.body.show.closesAt)).toBeGreaterThan(Date.now());
  });
});
