// Tournaments: reads from D1, and everything live through the tournament's Durable Object.
import { Hono } from "hono";
import { and, asc, count, eq, gt, gte, inArray, isNull, lte, ne, sql, type SQL } from "drizzle-orm";
import { createMiddleware } from "hono/factory";
import {
  answerBodySchema,
  joinBodySchema,
  tournamentListQuerySchema,
  type AnswerReply,
  type CompleteResult,
  type JoinResult,
  type LeaveResult,
  type LeaderboardRow,
  type ParticipantRow,
  type PlayerQuestion,
  type TournamentPage,
} from "../../common/api/tournaments";
import { JOIN, PLAY } from "../../common/messages";
import { PREMIUM_MIN_FEE_CENTS, TOURNAMENT_PAGE_SIZE } from "../../common/spec";
import { centsToDollars, formatCents } from "../../common/domain/money";
import type { Db } from "../db/client";
import { categories, tournamentParticipants, tournaments, transactions, users } from "../db/schema";
import { presentTournament, publicLevel, visibility } from "../db/present-tournament";
import { joinRoomFor, playRoomFor, roomFor, unwrap } from "../durable/room-client";
import { continentOf } from "../http/client-address";
import type { RoomResult } from "../durable/tournament-room";
import { tournamentOfReference } from "../durable/room/d1";
import { idempotent } from "../http/idempotency";
import { TOURNAMENT_ID_HEADER, USER_ID_HEADER } from "../durable/hub-client";
import { HttpError, conflict, notFound } from "../http/errors";
import { openPracticeRun } from "../tournaments/practice-runs";
import { tournamentDetail } from "../tournaments/detail";
import { demoQuestionReuse } from "../questions/usage";
import { privateVisibleTo, sameInviteCode, visibleTo } from "../tournaments/visibility";
import { joinIdentity } from "../fair-play/identity";
import { assertNotStaff } from "../fair-play/staff";
import { accountFrozen } from "../money/frozen";
import { assertNotSuspended } from "../admin/account-state";
import type { FairnessReport } from "../../common/api/fair-play";
import { requireHuman } from "../auth/turnstile";
import { assertMayJoin } from "../responsible-play/checks";
import { assertRegistrationOpen } from "../tournaments/featured";
import { currentUser, requireUser } from "../http/middleware";
import { socketUpgrade } from "../http/sockets";
import { idParam, noFields, validate } from "../http/validate";
import { jsonText } from "../http/json-text";
import type { AppEnv } from "../http/app-env";

async function findTournament(db: Db, id: number) {
  const row = await db
    .select({ t: tournaments, categoryName: categories.name })
    .from(tournaments)
    .innerJoin(categories, eq(categories.id, tournaments.categoryId))
    .where(eq(tournaments.id, id))
    .get();
  if (!row) throw notFound(PLAY.notFound, "tournament_not_found");
  return row;
}

/**
 * The tournament as `userId` may see it: another player's practice run, and a private tournament
 * the caller neither created nor joined, answer as an unknown id.
 */
async function findVisibleTournament(db: Db, d1: D1Database, id: number, userId: number | undefined) {
  const row = await findTournament(db, id);
  if (!visibleTo(row.t, userId) || !(await privateVisibleTo(d1, row.t, userId))) throw notFound(PLAY.notFound, "tournament_not_found");
  return row;
}

/**
 * Play answers from the room without reading D1. When the room refuses, or has nothing for the
 * caller, a private tournament they neither created nor joined answers as an unknown id instead,
 * so play routes do not tell a guessed id from a missing one (one D1 read, on that path only).
 */
async function hidePrivate<T>(d1: D1Database, id: number, userId: number, result: RoomResult<T>): Promise<RoomResult<T>> {
  if (result.ok && !(Array.isArray(result.value) && result.value.length === 0)) return result;
  const t = await d1
    .prepare("SELECT id, invite_code AS inviteCode, creator_user_id AS creatorUserId FROM tournaments WHERE id = ?")
    .bind(id)
    .first<{ id: number; inviteCode: string | null; creatorUserId: number | null }>();
  if (t && !(await privateVisibleTo(d1, t, userId))) throw notFound(PLAY.notFound, "tournament_not_found");
  return result;
}

const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (m) => `\\${m}`)}%`;

/** A join's answer: the tournament and the player's balance as they are now. */
async function joinAnswer(db: Db, tournamentId: number, userId: number): Promise<JoinResult> {
  const [{ t, categoryName }, me] = await Promise.all([
    findTournament(db, tournamentId),
    db.select({ balanceCents: users.balanceCents }).from(users).where(eq(users.id, userId)).get(),
  ]);
  return { joined: true, balance: centsToDollars(me?.balanceCents ?? 0), tournament: presentTournament(t, categoryName) };
}

/** A leave's answer: what came back, the tournament and the player's balance as they are now. */
async function leaveAnswer(db: Db, tournamentId: number, userId: number, refundedCents: number): Promise<LeaveResult> {
  const [{ t, categoryName }, me] = await Promise.all([
    findTournament(db, tournamentId),
    db.select({ balanceCents: users.balanceCents }).from(users).where(eq(users.id, userId)).get(),
  ]);
  return {
    message: refundedCents > 0 ? PLAY.leftRefunded(formatCents(refundedCents)) : PLAY.left,
    balance: centsToDollars(me?.balanceCents ?? 0),
    tournament: presentTournament(t, categoryName),
  };
}

/** Joining signed out is refused with the join toast's own title and text. */
const requireUserToJoin = createMiddleware<AppEnv>(async (c, next) => {
  if (!c.get("user")) throw new HttpError(401, "not_authenticated", JOIN.authRequired.description, { title: JOIN.authRequired.title });
  return next();
});

export const tournamentRoutes = new Hono<AppEnv>()
  .get("/", validate("query", tournamentListQuerySchema), async (c) => {
    const query = c.req.valid("query");
    // A practice run is one player's own.
    // A practice run is one player's own; a private (custom) tournament is reached by its invite code only.
    const where: SQL[] = [ne(tournaments.kind, "practice_run"), isNull(tournaments.inviteCode)];
    if (query.kind !== undefined) where.push(eq(tournaments.kind, query.kind));
    if (query.categoryId !== undefined) where.push(eq(tournaments.categoryId, query.categoryId));
    if (query.category !== undefined) where.push(eq(categories.slug, query.category.toLowerCase()));
    if (query.minLevel !== undefined) where.push(gte(tournaments.minLevel, query.minLevel));
    if (query.maxLevel !== undefined) where.push(lte(tournaments.minLevel, query.maxLevel));
    if (query.price === "free") where.push(eq(tournaments.entryFeeCents, 0));
    if (query.price === "paid") where.push(gt(tournaments.entryFeeCents, 0));
    if (query.price === "premium") where.push(gte(tournaments.entryFeeCents, PREMIUM_MIN_FEE_CENTS));
    if (query.status === "active") where.push(inArray(tournaments.status, ["upcoming", "live"]));
    else if (query.status !== undefined && query.status !== "all") where.push(eq(tournaments.status, query.status));
    if (query.q) {
      const pattern = likePattern(query.q);
      // LIKE is case-insensitive for ASCII in SQLite.
      where.push(sql`(${tournaments.title} LIKE ${pattern} ESCAPE '\\' OR ${tournaments.description} LIKE ${pattern} ESCAPE '\\')`);
    }
    const page = query.page ?? 1;
    const pageSize = query.pageSize ?? TOURNAMENT_PAGE_SIZE;
    const db = c.get("db");
    const [rows, counted] = await db.batch([
      db
        .select({ t: tournaments, categoryName: categories.name })
        .from(tournaments)
        .innerJoin(categories, eq(categories.id, tournaments.categoryId))
        .where(and(...where))
        // Live first, then upcoming by start, then finished ones newest first; the id keeps pages disjoint.
        .orderBy(
          sql`CASE ${tournaments.status} WHEN 'live' THEN 0 WHEN 'upcoming' THEN 1 WHEN 'completed' THEN 2 ELSE 3 END`,
          sql`CASE WHEN ${tournaments.status} IN ('live', 'upcoming') THEN ${tournaments.startTime} ELSE -${tournaments.startTime} END`,
          asc(tournaments.id),
        )
        .limit(pageSize)
        .offset((page - 1) * pageSize),
      db
        .select({ n: count() })
        .from(tournaments)
        .innerJoin(categories, eq(categories.id, tournaments.categoryId))
        .where(and(...where)),
    ]);
    const total = counted[0]?.n ?? 0;
    return c.json({
      items: rows.map((r) => presentTournament(r.t, r.categoryName)),
      total,
      page,
      pageSize,
      nextPage: page * pageSize < total ? page + 1 : null,
    } satisfies TournamentPage);
  })

  .get("/:id", idParam, async (c) => {
    const { id } = c.req.valid("param");
    const db = c.get("db");
    const user = c.get("user");
    const { t, categoryName } = await findVisibleTournament(db, c.env.DB, id, user?.id);
    return c.json(await tournamentDetail(db, t, categoryName, user));
  })

  .get("/:id/participants", idParam, async (c) => {
    const { id } = c.req.valid("param");
    const db = c.get("db");
    await findVisibleTournament(db, c.env.DB, id, c.get("user")?.id);
    const rows = await db
      .select({
        userId: tournamentParticipants.userId,
        username: users.username,
        level: users.level,
        preferences: users.preferences,
        hasCompleted: tournamentParticipants.hasCompleted,
      })
      .from(tournamentParticipants)
      .innerJoin(users, eq(users.id, tournamentParticipants.userId))
      .where(eq(tournamentParticipants.tournamentId, id))
      .orderBy(asc(tournamentParticipants.joinedAt), asc(tournamentParticipants.id))
      .all();
    const participants: ParticipantRow[] = rows.map(({ preferences, ...r }) => ({
      ...r,
      level: publicLevel(r.level, preferences),
    }));
    return c.json(participants);
  })

  .get("/:id/leaderboard", idParam, async (c) => {
    const { id } = c.req.valid("param");
    const db = c.get("db");
    const { t } = await findVisibleTournament(db, c.env.DB, id, c.get("user")?.id);
    // Live: the room's board, serialized once per change however many read it.
    if (t.status === "upcoming" || t.status === "live")
      return jsonText<LeaderboardRow[]>(c, unwrap<string>(await roomFor(c.env, id).leaderboardJson(id)));
    // Finished: the settled results in D1 are final.
    const rows = await db
      .select({
        userId: tournamentParticipants.userId,
        username: users.username,
        level: users.level,
        preferences: users.preferences,
        score: tournamentParticipants.score,
        questionsAnswered: tournamentParticipants.questionsAnswered,
        rank: tournamentParticipants.rank,
        prizeCents: tournamentParticipants.prizeCents,
      })
      .from(tournamentParticipants)
      .innerJoin(users, eq(users.id, tournamentParticipants.userId))
      // A player the host disqualified is out of the ranking (docs/operating.md, "Host tools").
      .where(and(eq(tournamentParticipants.tournamentId, id), isNull(tournamentParticipants.disqualifiedAt)))
      .orderBy(
        sql`${tournamentParticipants.rank} IS NULL`,
        asc(tournamentParticipants.rank),
        sql`${tournamentParticipants.score} DESC`,
        asc(tournamentParticipants.totalResponseMs),
        asc(tournamentParticipants.userId),
      )
      .all();
    const board: LeaderboardRow[] = rows.map((r, i) => ({
      userId: r.userId,
      username: r.username,
      level: publicLevel(r.level, r.preferences),
      score: r.score,
      questionsAnswered: r.questionsAnswered,
      rank: r.rank ?? i + 1,
      prize: centsToDollars(r.prizeCents),
    }));
    return c.json(board);
  })

  // Money moves here: an Idempotency-Key (optional) makes a retry answer what the first request did.
  .post("/:id/join", requireUserToJoin, idParam, validate("json", joinBodySchema), async (c) => {
    const user = currentUser(c);
    const requested = c.req.valid("param").id;
    const db = c.get("db");
    // The bot check's token is single-use, so a retry carries a new one: it is not part of the request.
    const { turnstileToken, ...request } = c.req.valid("json");
    return idempotent(c, {
      scope: `join:${requested}`,
      request,
      run: async (claim) => {
        // The room answers first, from memory: no such tournament, already in, closed, level, full.
        // Beside it, whether the tournament is private and when a featured one opens (one read by primary key, in parallel).
        // A sharded live show's joins go to a play shard (decision 011, seat leases).
        const continent = continentOf(c.req.raw);
        const room = await joinRoomFor(c.env, requested, user.id, continent);
        const [admission, access] = await Promise.all([
          room.admission(requested, user.id, user.level),
          db
            .select({
              inviteCode: tournaments.inviteCode,
              creatorUserId: tournaments.creatorUserId,
              featuredAt: tournaments.featuredAt,
              registrationOpensAt: tournaments.registrationOpensAt,
              startTime: tournaments.startTime,
            })
            .from(tournaments)
            .where(eq(tournaments.id, requested))
            .get(),
        ]);
        if (!admission.ok && admission.code === "tournament_not_found") unwrap(admission);
        // A private tournament without its invite code is an unknown id, before any refusal could say
        // more about it; its creator and players already in need no code.
        if (
          access?.inviteCode != null &&
          access.creatorUserId !== user.id &&
          !(admission.ok && admission.value.state === "joined") &&
          !sameInviteCode(request.inviteCode, access.inviteCode)
        )
          throw notFound(PLAY.notFound, "tournament_not_found");
        // Practice: which run, and whose, is D1's.
        const practice = admission.ok && admission.value.state === "practice" ? (await findTournament(db, requested)).t : null;
        // Someone else's practice run is not there for this player.
        if (practice && !visibleTo(practice, user.id)) throw notFound(PLAY.notFound, "tournament_not_found");
        // Owing the house after a card refund or dispute: no entry at all, free ones included.
        // These checks answer early; the room's batch holds the freeze, the suspension, breaks
        // and entry-fee limits again as conditions of the seat's own write (room/join-group.ts).
        if (user.frozenAt !== null) throw accountFrozen(user.owedCents);
        assertNotSuspended(user);
        const known = unwrap(admission);
        if (known.state === "joined") return { reference: known.reference, answer: await joinAnswer(db, requested, user.id) };
        const fee = known.state === "open" ? known.feeCents : (practice?.entryFeeCents ?? 0);
        const identity = joinIdentity(c);
        // Staff, and accounts on a device or network staff use, play no prize tournament (the room checks again in the seat's batch).
        if (known.state === "open" && known.prize) await assertNotStaff(c.env.DB, user, identity);
        // A featured event opens to level 6+ a day before everyone else (docs/featured-events.md).
        if (known.state === "open") assertRegistrationOpen(access, user.level);
        let id = requested;
        // Starting practice joins the player's own run of it: the tournament answered is that run.
        if (practice?.kind === "practice") {
          const run = await openPracticeRun(c.env.DB, practice, user.id, Date.now(), demoQuestionReuse(c.env));
          if (run === null) throw conflict(JOIN.practiceUnavailable, "practice_unavailable");
          id = run;
        }
        // A free tournament the house funds a prize for is prize play: age, region and the bot check as for a paid one.
        const prize = known.state === "open" && known.prize;
        await assertMayJoin(c, fee, prize);
        // Only money is worth a bot's while: free entries without a prize are never checked.
        if (fee > 0 || prize) await requireHuman(c.env, c.req.raw, turnstileToken, "join");
        const joined = unwrap(
          await (id === requested ? room : roomFor(c.env, id)).join(
            id,
            {
              userId: user.id,
              username: user.username,
              level: user.level,
              showLevel: visibility(user.preferences).showLevel,
              ...identity,
              // Where the join came from picks the player's play shard in a sharded live show (decision 011).
              continent,
            },
            claim,
          ),
        );
        const answer: JoinResult = joined.answer
          ? { joined: true, balance: centsToDollars(joined.answer.balanceCents), tournament: joined.answer.tournament }
          : await joinAnswer(db, id, user.id);
        return { reference: joined.reference, answer };
      },
      rebuild: (reference) => joinAnswer(db, tournamentOfReference(reference), user.id),
    });
  })

  .post("/:id/leave", requireUser, idParam, noFields, async (c) => {
    const { id } = c.req.valid("param");
    const db = c.get("db");
    const me = currentUser(c);
    return idempotent(c, {
      scope: `leave:${id}`,
      request: {},
      run: async (claim) => {
        await findVisibleTournament(db, c.env.DB, id, me.id);
        const { refundedCents, reference } = unwrap(await (await joinRoomFor(c.env, id, me.id, null)).leave(id, me.id, claim));
        return { reference, answer: await leaveAnswer(db, id, me.id, refundedCents) };
      },
      // A paid leave's refund is in the ledger under its reference; a free one has none.
      rebuild: async (reference) => {
        const refund = await db
          .select({ cents: transactions.amountCents })
          .from(transactions)
          .where(eq(transactions.reference, reference))
          .get();
        return leaveAnswer(db, id, me.id, refund?.cents ?? 0);
      },
    });
  })

  // Play: the room checks everything (joined, live, the player's own clock); a tournament that
  // does not exist is a 404 from the room, without an extra D1 read on this hot path.
  .post("/:id/next", requireUser, idParam, async (c) => {
    const { id } = c.req.valid("param");
    const userId = currentUser(c).id;
    return c.json(
      unwrap<PlayerQuestion>(
        await hidePrivate(c.env.DB, id, userId, await (await playRoomFor(c.env, id, userId)).nextQuestion(id, userId)),
      ),
    );
  })

  .get("/:id/questions", requireUser, idParam, async (c) => {
    const { id } = c.req.valid("param");
    const userId = currentUser(c).id;
    return c.json(
      unwrap<PlayerQuestion[]>(
        await hidePrivate(c.env.DB, id, userId, await (await playRoomFor(c.env, id, userId)).listQuestions(id, userId)),
      ),
    );
  })

  .post("/:id/answer", requireUser, idParam, validate("json", answerBodySchema), async (c) => {
    const { id } = c.req.valid("param");
    const userId = currentUser(c).id;
    return c.json(
      unwrap<AnswerReply>(
        await hidePrivate(c.env.DB, id, userId, await (await playRoomFor(c.env, id, userId)).answer(id, userId, c.req.valid("json"))),
      ),
    );
  })

  .post("/:id/complete", requireUser, idParam, noFields, async (c) => {
    const { id } = c.req.valid("param");
    const userId = currentUser(c).id;
    return c.json(
      unwrap<CompleteResult>(await hidePrivate(c.env.DB, id, userId, await (await playRoomFor(c.env, id, userId)).complete(id, userId))),
    );
  })

  // Anyone may check a settled tournament: no sign-in.
  .get("/:id/fairness", idParam, async (c) => {
    const { id } = c.req.valid("param");
    const { t } = await findTournament(c.get("db"), id);
    if (t.kind !== "standard") throw notFound(PLAY.notFound, "tournament_not_found");
    // A private tournament's report is its creator's and players' (it names its questions and answers).
    if (!(await privateVisibleTo(c.env.DB, t, c.get("user")?.id))) throw notFound(PLAY.notFound, "tournament_not_found");
    return c.json(unwrap<FairnessReport>(await roomFor(c.env, id).fairness(id)));
  })

  .get("/:id/ws", socketUpgrade, idParam, async (c) => {
    const { id } = c.req.valid("param");
    // Checked here, not in the room: the room does not know whose practice run it is.
    await findVisibleTournament(c.get("db"), c.env.DB, id, currentUser(c).id);
    // A fresh request: only the Worker sets who the socket belongs to.
    const headers = new Headers({ upgrade: "websocket", [USER_ID_HEADER]: String(currentUser(c).id), [TOURNAMENT_ID_HEADER]: String(id) });
    // A seated player's socket goes to their play shard in a sharded live show; spectators to the coordinator.
    return (await playRoomFor(c.env, id, currentUser(c).id)).fetch(new Request(c.req.url, { headers }));
  });
