// The operators' tournaments (docs/operating.md, "Tournaments"): the list, one tournament, and
// one-off tournaments beside the ones the cron schedules (special events, house-funded free
// ones): create, edit before the first join, cancel with every entry refunded, and the live view
// of a running room. Only unretired questions go in: picked by the operator, or for a live show
// 10 at random, for a self-paced one a pool of QUESTION_DRAW_WIDTHS candidates per slot from which
// the room draws each player's. A house pool above the two-person threshold waits for a second
// operator (the "house_pool" approval, carried out by the executor registered below).
import { Hono } from "hono";
import { and, count, desc, eq, sql, type SQL } from "drizzle-orm";
import { createTournamentSchema } from "../../common/api/admin";
import {
  adminTournamentListQuerySchema,
  cancelTournamentSchema,
  disqualifySchema,
  hostPauseSchema,
  voidQuestionSchema,
  type DisqualificationRequested,
  type AdminTournament,
  type AdminTournamentDetail,
  type AdminTournamentLive,
  type AdminTournamentPage,
  type PendingTournamentApproval,
} from "../../common/api/admin-tournaments";
import { ADMIN_TOURNAMENT } from "../../common/api/admin";
import { ADMIN_TOURNAMENTS, HOST_TOOLS } from "../../common/console-messages";
import { disqualificationMovesMoney } from "../../common/domain/host-tools";
import { TOURNAMENT_PAGE_SIZE } from "../../common/spec";
import { formatCents } from "../../common/domain/money";
import { shardSizeFrom } from "../../common/domain/shards";
import { categories, cheatAttempts, questions, tournamentParticipants, tournamentQuestions, tournaments, users } from "../db/schema";
import { recordAudit } from "../admin/audit";
import { requireOperatorStepUp } from "../auth/step-up";
import { presentTournament } from "../db/present-tournament";
import { iso } from "../db/present";
import { roomFor, unwrap } from "../durable/room-client";
import { badRequest, conflict, notFound } from "../http/errors";
import { currentUser, requireAdmin, requireUser } from "../http/middleware";
import { validate } from "../http/validate";
import { idParamSchema as idParam } from "../../common/api/params";
import { registerApprovalExecutor, requestApproval, twoPersonThresholds } from "../admin/approvals";
import { createStatements, createdForApproval, resolveDraft, type ApprovalOrigin, type ResolvedDraft } from "../admin/tournament-draft";
import type { TournamentDraft } from "../../common/api/admin";
import type { Db } from "../db/client";
import type { AppEnv } from "../http/app-env";
import { needsSecondOperator } from "../../common/domain/two-person";
import { isTallyGuardTripped, tallyGuardStatement, tallyStatement, tallyTotals } from "../admin/two-person";
import { setFeaturedSchema, type AdminFeatured } from "../../common/api/featured";
import { featureRefusal, registrationOpensForAll } from "../../common/domain/featured";
import { checkFeaturing, setFeatured } from "../tournaments/featured";

type TournamentRow = typeof tournaments.$inferSelect;

const present = (t: TournamentRow, categoryName: string): AdminTournament => {
  const opens = registrationOpensForAll(t);
  return {
    ...presentTournament(t, categoryName),
    houseFunded: t.isFree && t.prizePoolCents > 0,
    featuredAt: t.featuredAt === null ? null : iso(t.featuredAt),
    registrationOpensAt: opens === null ? null : iso(opens),
  };
};

/** Features a tournament just created from a draft that asked for it (checked before the create). */
async function featureCreated(env: Env, id: number, actorId: number, registrationOpensAt: number | null, now: number): Promise<void> {
  const row = await env.DB.prepare("SELECT featured_at, registration_opens_at, start_time FROM tournaments WHERE id = ?")
    .bind(id)
    .first<{ featured_at: number | null; registration_opens_at: number | null; start_time: number }>();
  if (!row) return;
  await setFeatured(
    env.DB,
    actorId,
    id,
    { featured: true, registrationOpensAt, now },
    {
      featuredAt: row.featured_at,
      registrationOpensAt: row.registration_opens_at,
      startTime: row.start_time,
    },
  );
}

/** Creates the tournament (once per approval, when it has one) and arms its room; returns its id. */
async function createTournament(
  env: Env,
  draft: ResolvedDraft,
  actorId: number,
  origin: ApprovalOrigin | null,
  alongside: D1PreparedStatement[] = [],
): Promise<number> {
  const [inserted] = await env.DB.batch<{ id: number }>([
    ...createStatements(env.DB, draft, actorId, origin, shardSizeFrom(env.TOURNAMENT_SHARD_SIZE)),
    ...alongside,
  ]);
  const id = inserted?.results[0]?.id ?? (origin ? await createdForApproval(env.DB, origin.approvalId) : null);
  if (id === null || id === undefined) throw new Error("tournament insert returned no id");
  // Arms the first alarm (the start time); the cron's init would otherwise do it within 5 minutes.
  await roomFor(env, id).init(id);
  return id;
}

async function detailOf(db: Db, id: number): Promise<AdminTournamentDetail | null> {
  const row = await db
    .select({ t: tournaments, categoryName: categories.name })
    .from(tournaments)
    .innerJoin(categories, eq(categories.id, tournaments.categoryId))
    .where(eq(tournaments.id, id))
    .get();
  if (!row) return null;
  const qs = await db
    .select({ id: questions.id, question: questions.question, difficulty: questions.difficultyLevel })
    .from(tournamentQuestions)
    .innerJoin(questions, eq(questions.id, tournamentQuestions.questionId))
    .where(eq(tournamentQuestions.tournamentId, id))
    .orderBy(tournamentQuestions.order)
    .all();
  const t = row.t;
  return {
    ...present(t, row.categoryName),
    durationMinutes: Math.round(((t.endTime ?? t.startTime) - t.startTime) / 60_000),
    questionDraw: t.questionDraw,
    questions: qs,
    editable: t.kind === "standard" && t.status === "upcoming" && t.currentParticipants === 0,
  };
}

/** A standard tournament's money and state, for the host's tools; 404 and 409 (practice) otherwise. */
async function standardTournament(db: Db, id: number) {
  const t = await db
    .select({
      kind: tournaments.kind,
      status: tournaments.status,
      title: tournaments.title,
      entryFeeCents: tournaments.entryFeeCents,
      prizePoolCents: tournaments.prizePoolCents,
    })
    .from(tournaments)
    .where(eq(tournaments.id, id))
    .get();
  if (!t) throw notFound(ADMIN_TOURNAMENTS.notFound, "tournament_not_found");
  if (t.kind !== "standard") throw conflict(ADMIN_TOURNAMENTS.practice, "tournament_practice");
  return t;
}

const kindOf = (db: Db, id: number) =>
  db
    .select({
      kind: tournaments.kind,
      status: tournaments.status,
      startTime: tournaments.startTime,
      featuredAt: tournaments.featuredAt,
      registrationOpensAt: tournaments.registrationOpensAt,
      inviteCode: tournaments.inviteCode,
    })
    .from(tournaments)
    .where(eq(tournaments.id, id))
    .get();

// A second operator approved a house pool above the threshold: create it, once per approval.
registerApprovalExecutor("house_pool", async (ctx, payload) => {
  const existing = await createdForApproval(ctx.env.DB, ctx.approvalId);
  if (existing !== null) return String(existing);
  const draft = payload as TournamentDraft;
  const now = Date.now();
  if (draft.startTime <= now) throw badRequest(ADMIN_TOURNAMENT.startInPast);
  // Still a week's notice at the approval, or the approval creates nothing.
  const opens = draft.featured ? checkFeaturing(draft.startTime, draft.registrationOpensAt, now, now) : null;
  const resolved = await resolveDraft(ctx.env, draft);
  const id = await createTournament(ctx.env, resolved, ctx.approverId, { approvalId: ctx.approvalId, requestedBy: ctx.requesterId });
  if (draft.featured) await featureCreated(ctx.env, id, ctx.approverId, opens, now);
  return String(id);
});

/** Whether a second operator let this tournament through (created through an approval): its edits need one too. */
const approvedBefore = async (d1: D1Database, id: number) =>
  (await d1
    .prepare(
      `SELECT 1 FROM audit_log WHERE target_type = 'tournament' AND target_id = ? AND action = 'tournament.create'
       AND json_extract(after, '$.approvalId') IS NOT NULL`,
    )
    .bind(String(id))
    .first()) !== null;

// A second operator approved a disqualification in a tournament with money in it: carry it out, once
// (the room refuses nothing the second time: the player is already out, and nothing changes).
registerApprovalExecutor("disqualification", async (ctx, payload) => {
  const { tournamentId, userId, reason } = payload as { tournamentId: number; userId: number; reason: string };
  unwrap(await roomFor(ctx.env, tournamentId).disqualify(tournamentId, ctx.approverId, userId, reason, ctx.approvalId));
  return `disqualification:${tournamentId}:${userId}`;
});

// A second operator approved an edit of a tournament that was approved before: make it, as the edit route would.
registerApprovalExecutor("tournament_edit", async (ctx, payload) => {
  const { tournamentId, draft } = payload as { tournamentId: number; draft: TournamentDraft };
  if (draft.startTime <= Date.now()) throw badRequest(ADMIN_TOURNAMENT.startInPast);
  const resolved = await resolveDraft(ctx.env, draft, tournamentId);
  unwrap(await roomFor(ctx.env, tournamentId).reconfigure(tournamentId, ctx.approverId, resolved, null));
  return String(tournamentId);
});

export const adminTournamentRoutes = new Hono<AppEnv>()
  .use(requireUser, requireAdmin)
  .get("/", validate("query", adminTournamentListQuerySchema), async (c) => {
    const q = c.req.valid("query");
    const db = c.get("db");
    const page = q.page ?? 1;
    const pageSize = q.pageSize ?? TOURNAMENT_PAGE_SIZE;
    const where: SQL[] = [];
    if (q.kind !== "all") where.push(eq(tournaments.kind, q.kind));
    if (q.status) where.push(eq(tournaments.status, q.status));
    if (q.format) where.push(eq(tournaments.format, q.format));
    if (q.q) where.push(sql`instr(lower(${tournaments.title}), lower(${q.q})) > 0`);
    const condition = where.length > 0 ? and(...where) : undefined;
    const [rows, [total]] = await Promise.all([
      db
        .select({ t: tournaments, categoryName: categories.name })
        .from(tournaments)
        .innerJoin(categories, eq(categories.id, tournaments.categoryId))
        .where(condition)
        .orderBy(desc(tournaments.startTime), desc(tournaments.id))
        .limit(pageSize)
        .offset((page - 1) * pageSize)
        .all(),
      db.select({ n: count() }).from(tournaments).where(condition).all(),
    ]);
    const n = total?.n ?? 0;
    const body: AdminTournamentPage = {
      items: rows.map((r) => present(r.t, r.categoryName)),
      total: n,
      page,
      pageSize,
      nextPage: page * pageSize < n ? page + 1 : null,
    };
    return c.json(body);
  })
  .post("/", validate("json", createTournamentSchema), async (c) => {
    const body = c.req.valid("json");
    const now = Date.now();
    if (body.startTime <= now) throw badRequest(ADMIN_TOURNAMENT.startInPast);
    // Checked before anything is created: a refused featuring creates nothing.
    const featuredOpens = body.featured ? checkFeaturing(body.startTime, body.registrationOpensAt, now, now) : null;
    const resolved = await resolveDraft(c.env, body);
    const me = currentUser(c);
    const { housePoolCents } = twoPersonThresholds(c.env);
    const ask = async () => {
      const message = ADMIN_TOURNAMENTS.approvalRequested(`$${formatCents(resolved.prizePoolCents)}`, `$${formatCents(housePoolCents)}`);
      const { id } = await requestApproval(c, {
        kind: "house_pool",
        beneficiaryId: null,
        payload: body,
        summary: `Create "${resolved.title}" with a house-funded pool of $${formatCents(resolved.prizePoolCents)}`,
        amountCents: resolved.prizePoolCents,
      });
      return c.json({ approvalId: id, message } satisfies PendingTournamentApproval, 202);
    };
    // The house pools this operator created on their own in the last 24 h count with this one (common/domain/two-person.ts).
    const pool = resolved.prizePoolCents;
    let tally: D1PreparedStatement[] = [];
    if (pool > 0) {
      const { operatorCents } = await tallyTotals(c.env.DB, "house_pool", me.id);
      if (
        needsSecondOperator({
          amountCents: pool,
          operatorTotalCents24h: operatorCents,
          payeeTotalCents24h: null,
          thresholdCents: housePoolCents,
        })
      )
        return ask();
      const reference = `house_pool:${crypto.randomUUID()}`;
      tally = [
        tallyStatement(c.env.DB, {
          bucket: "house_pool",
          kind: "house_pool",
          operatorId: me.id,
          payeeId: null,
          amountCents: pool,
          reference,
        }),
        tallyGuardStatement(c.env.DB, "house_pool", me.id, [], housePoolCents),
      ];
    }
    let id: number;
    try {
      id = await createTournament(c.env, resolved, me.id, null, tally);
    } catch (e) {
      // Another pool of this operator's took the total up between the read and the batch.
      if (isTallyGuardTripped(e)) return ask();
      throw e;
    }
    if (body.featured) await featureCreated(c.env, id, me.id, featuredOpens, now);
    const row = await c.get("db").select().from(tournaments).where(eq(tournaments.id, id)).get();
    return c.json(present(row!, resolved.categoryName), 201);
  })
  .get("/:id", validate("param", idParam), async (c) => {
    const detail = await detailOf(c.get("db"), c.req.valid("param").id);
    if (!detail) throw notFound(ADMIN_TOURNAMENTS.notFound, "tournament_not_found");
    return c.json(detail);
  })
  .patch("/:id", validate("param", idParam), validate("json", createTournamentSchema), async (c) => {
    const { id } = c.req.valid("param");
    const body = c.req.valid("json");
    const db = c.get("db");
    const current = await kindOf(db, id);
    if (!current) throw notFound(ADMIN_TOURNAMENTS.notFound, "tournament_not_found");
    if (current.kind !== "standard") throw conflict(ADMIN_TOURNAMENTS.practice, "tournament_practice");
    if (current.status !== "upcoming") throw conflict(ADMIN_TOURNAMENTS.notEditable, "tournament_not_editable");
    if (body.startTime <= Date.now()) throw badRequest(ADMIN_TOURNAMENT.startInPast);
    if (body.featured !== undefined || body.registrationOpensAt !== undefined) throw badRequest(ADMIN_TOURNAMENTS.featuredEditUseRoute);
    // An announced event keeps its week's notice and a registration that opens before its start.
    if (current.featuredAt !== null) {
      const opens = current.registrationOpensAt;
      if (featureRefusal(body.startTime, current.featuredAt) || (opens !== null && opens >= body.startTime))
        throw conflict(ADMIN_TOURNAMENTS.featuredStartTooSoon, "featured_too_soon");
    }
    const resolved = await resolveDraft(c.env, body, id);
    const me = currentUser(c);
    if (await approvedBefore(c.env.DB, id)) {
      // What a second operator approved changes only with a second operator: its pool, capacity, start or questions.
      const { id: approvalId } = await requestApproval(c, {
        kind: "tournament_edit",
        target: `tournament:${id}`,
        beneficiaryId: null,
        payload: { tournamentId: id, draft: body },
        summary: ADMIN_TOURNAMENTS.editSummary(id, resolved.title, `$${formatCents(resolved.prizePoolCents)}`),
        amountCents: resolved.prizePoolCents,
      });
      return c.json({ approvalId, message: ADMIN_TOURNAMENTS.editApprovalRequested } satisfies PendingTournamentApproval, 202);
    }
    // An edit never raises a house pool past the two-person rule's threshold without a second operator.
    const { housePoolCents } = twoPersonThresholds(c.env);
    // A raise counts toward the operator's house pools of the last 24 h (common/domain/two-person.ts).
    const before = await db.select({ pool: tournaments.prizePoolCents }).from(tournaments).where(eq(tournaments.id, id)).get();
    const raise = resolved.prizePoolCents - (before?.pool ?? 0);
    const refusal = ADMIN_TOURNAMENTS.poolNeedsApproval(`$${formatCents(housePoolCents)}`);
    let poolRaise = null;
    if (raise > 0) {
      const { operatorCents } = await tallyTotals(c.env.DB, "house_pool", me.id);
      const total = { amountCents: raise, operatorTotalCents24h: operatorCents, payeeTotalCents24h: null, thresholdCents: housePoolCents };
      if (resolved.prizePoolCents > housePoolCents || needsSecondOperator(total)) throw conflict(refusal, "house_pool_needs_approval");
      const reference = `house_pool:${crypto.randomUUID()}`;
      poolRaise = {
        row: { bucket: "house_pool", kind: "house_pool", operatorId: me.id, payeeId: null, amountCents: raise, reference } as const,
        thresholdCents: housePoolCents,
        refusal,
      };
    }
    unwrap(await roomFor(c.env, id).reconfigure(id, me.id, resolved, poolRaise));
    return c.json((await detailOf(db, id))!);
  })
  // Featured events (docs/featured-events.md): announced at least a week before the start.
  .put("/:id/featured", validate("param", idParam), validate("json", setFeaturedSchema), async (c) => {
    const { id } = c.req.valid("param");
    const body = c.req.valid("json");
    const current = await kindOf(c.get("db"), id);
    if (!current) throw notFound(ADMIN_TOURNAMENTS.notFound, "tournament_not_found");
    if (current.kind !== "standard") throw conflict(ADMIN_TOURNAMENTS.practice, "tournament_practice");
    if (current.status !== "upcoming") throw conflict(ADMIN_TOURNAMENTS.featuredNotUpcoming, "tournament_not_editable");
    // A private custom tournament is found only by its invite code: featuring it would publish it.
    if (body.featured && current.inviteCode !== null) throw conflict(ADMIN_TOURNAMENTS.featuredPrivate, "tournament_private");
    const now = Date.now();
    const change = body.featured
      ? {
          featured: true as const,
          registrationOpensAt: checkFeaturing(current.startTime, body.registrationOpensAt, current.featuredAt ?? now, now),
          now,
        }
      : { featured: false as const, now };
    // Unfeaturing what is not featured changes nothing and records nothing.
    if (body.featured || current.featuredAt !== null) await setFeatured(c.env.DB, currentUser(c).id, id, change, current);
    const after = (await kindOf(c.get("db"), id))!;
    const opens = registrationOpensForAll(after);
    return c.json({
      tournamentId: id,
      featured: after.featuredAt !== null,
      announcedAt: after.featuredAt === null ? null : iso(after.featuredAt),
      registrationOpensAt: opens === null ? null : iso(opens),
    } satisfies AdminFeatured);
  })
  .post("/:id/cancel", validate("param", idParam), validate("json", cancelTournamentSchema), async (c) => {
    const { id } = c.req.valid("param");
    const current = await kindOf(c.get("db"), id);
    if (!current) throw notFound(ADMIN_TOURNAMENTS.notFound, "tournament_not_found");
    if (current.kind !== "standard") throw conflict(ADMIN_TOURNAMENTS.practice, "tournament_practice");
    return c.json(unwrap(await roomFor(c.env, id).cancelByOperator(id, currentUser(c).id, c.req.valid("json").reason)));
  })
  // ---- The host's tools (docs/operating.md, "Host tools") ----
  .post("/:id/pause", validate("param", idParam), validate("json", hostPauseSchema), async (c) => {
    const { id } = c.req.valid("param");
    await standardTournament(c.get("db"), id);
    return c.json(unwrap(await roomFor(c.env, id).pause(id, currentUser(c).id, c.req.valid("json").note ?? null)));
  })
  .post("/:id/resume", validate("param", idParam), validate("json", hostPauseSchema), async (c) => {
    const { id } = c.req.valid("param");
    await standardTournament(c.get("db"), id);
    return c.json(unwrap(await roomFor(c.env, id).resume(id, currentUser(c).id, c.req.valid("json").note ?? null)));
  })
  .post("/:id/void-question", validate("param", idParam), validate("json", voidQuestionSchema), async (c) => {
    const { id } = c.req.valid("param");
    const { index, reason } = c.req.valid("json");
    await standardTournament(c.get("db"), id);
    return c.json(unwrap(await roomFor(c.env, id).voidQuestion(id, currentUser(c).id, index, reason)));
  })
  .post("/:id/disqualify", validate("param", idParam), validate("json", disqualifySchema), async (c) => {
    const { id } = c.req.valid("param");
    const { userId, reason } = c.req.valid("json");
    const db = c.get("db");
    const t = await standardTournament(db, id);
    const seat = await db
      .select({ username: users.username, disqualifiedAt: tournamentParticipants.disqualifiedAt })
      .from(tournamentParticipants)
      .innerJoin(users, eq(users.id, tournamentParticipants.userId))
      .where(and(eq(tournamentParticipants.tournamentId, id), eq(tournamentParticipants.userId, userId)))
      .get();
    if (!seat) throw notFound(HOST_TOOLS.participantNotFound, "participant_not_found");
    const room = roomFor(c.env, id);
    // Money in it: the player's places go to the next players (or, settled, a held prize to the
    // house), so a second operator approves first.
    if (seat.disqualifiedAt === null && disqualificationMovesMoney(t)) {
      if (t.status !== "live" && t.status !== "completed") throw conflict(HOST_TOOLS.notRunning, "tournament_not_running");
      const prize =
        t.status === "completed"
          ? await c.env.DB.prepare("SELECT amount_cents, status FROM transactions WHERE reference = ? AND type = 'prize'")
              .bind(`prize:${id}:${userId}`)
              .first<{ amount_cents: number; status: string }>()
          : null;
      if (prize && prize.status !== "held" && prize.status !== "forfeited") throw conflict(HOST_TOOLS.prizePaid, "prize_not_held");
      const { id: approvalId } = await requestApproval(c, {
        kind: "disqualification",
        target: `disqualification:${id}:${userId}`,
        beneficiaryId: null,
        payload: { tournamentId: id, userId, reason },
        summary: HOST_TOOLS.disqualifySummary(seat.username, t.title, id, reason),
        // What moves: the held prize to the house once settled, else the pool the ranking decides.
        amountCents: t.status === "completed" ? (prize?.amount_cents ?? 0) : t.prizePoolCents,
      });
      return c.json({ approvalId, message: HOST_TOOLS.disqualifyApprovalRequested } satisfies DisqualificationRequested, 202);
    }
    return c.json(unwrap(await room.disqualify(id, currentUser(c).id, userId, reason, null)), 200);
  })
  // Every answer of every player with its receipt: a bulk copy of players' data, so it wants a
  // recent step-up like the 1099-MISC file (worker/routes/admin-tax.ts), and is audited.
  .get("/:id/results.csv", requireOperatorStepUp, validate("param", idParam), async (c) => {
    const { id } = c.req.valid("param");
    await standardTournament(c.get("db"), id);
    const csv = unwrap(await roomFor(c.env, id).resultsCsv(id));
    await recordAudit(c, { action: "tournament.export_results", targetType: "tournament", targetId: id, after: { bytes: csv.length } });
    return c.body(csv, 200, {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="tournament-${id}-results.csv"`,
    });
  })
  .get("/:id/live", validate("param", idParam), async (c) => {
    const { id } = c.req.valid("param");
    const db = c.get("db");
    if (!(await kindOf(db, id))) throw notFound(ADMIN_TOURNAMENTS.notFound, "tournament_not_found");
    const [stats, attempts, [total]] = await Promise.all([
      roomFor(c.env, id).liveStats(id),
      db
        .select({ userId: cheatAttempts.userId, username: users.username, reason: cheatAttempts.reason, at: cheatAttempts.timestamp })
        .from(cheatAttempts)
        .innerJoin(users, eq(users.id, cheatAttempts.userId))
        .where(eq(cheatAttempts.tournamentId, id))
        .orderBy(desc(cheatAttempts.timestamp), desc(cheatAttempts.id))
        .limit(20)
        .all(),
      // Past a player's cap, refusals are counted on their last row rather than stored (docs/fair-play.md).
      db
        .select({ n: sql<number>`count(*) + coalesce(sum(${cheatAttempts.suppressed}), 0)` })
        .from(cheatAttempts)
        .where(eq(cheatAttempts.tournamentId, id))
        .all(),
    ]);
    const body: AdminTournamentLive = {
      tournamentId: id,
      ...unwrap(stats),
      cheatAttempts: attempts.map((a) => ({ ...a, at: iso(a.at) })),
      cheatAttemptCount: total?.n ?? 0,
    };
    return c.json(body);
  });
