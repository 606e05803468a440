import { DurableObject } from "cloudflare:workers";
import type {
  AnswerInput,
  AnswerLocked,
  AnswerReply,
  AnswerResult,
  CompleteResult,
  LiveShowState,
  NotificationFrame,
  PlayerQuestion,
  TournamentServerFrame,
} from "../../common/api/tournaments";
import { tournamentClientFrameSchema } from "../../common/api/tournaments";
import type { Tournament, TournamentStatus } from "../../common/api/types";
import type { AnswerReceipt, FairnessReport, RevealedQuestion } from "../../common/api/fair-play";
import { drawCandidate, drawSecret, questionTree } from "../../common/domain/fairness";
import { fairPlayFlags, type PlayerRecord } from "../../common/domain/fair-play";
import { signReceipt } from "../fair-play/receipts";
import type { ApiErrorBody, ErrorCode } from "../../common/api/errors";
import { CHEAT, CUSTOM, FAIR_PLAY, IDEMPOTENCY, JOIN, NOTIFY, PLAY } from "../../common/messages";
import { ADMIN_TOURNAMENTS, HOST_TOOLS } from "../../common/console-messages";
import {
  LIVE_PLAYERS_SHOWN,
  type CancelTournamentResult,
  type HostActionResult,
  type RoomLiveStats,
} from "../../common/api/admin-tournaments";
import {
  endTimeAfterPause,
  pauseRefusal,
  resultsCsv,
  resumedClock,
  showStepWhilePaused,
  voidRefusal,
  type ResultsCsvPlayer,
} from "../../common/domain/host-tools";
import { auditStatement } from "../admin/audit";
import { editStatements, loadSnapshot, type ResolvedDraft } from "../admin/tournament-draft";
import { isTallyGuardTripped, tallyGuardStatement, tallyStatement, type TallyRow } from "../admin/two-person";
import {
  LEADERBOARD_PUSH_SIZE,
  QUESTION_TIME_MS,
  RTT_SAMPLES,
  SOCKET_FRAME_BURST,
  SOCKET_FRAMES_PER_SECOND,
  SOCKET_REPLACED_CLOSE_CODE,
  SOCKETS_PER_USER_PER_ROOM,
  START_RECHECK_MS,
} from "../../common/spec";
import { LIVE_SHOW_WINDOW_MS, insideWindow, latencyAllowance, liveResponseMs, showStageEndsAt } from "../../common/domain/live-show";
import { nextLifecycleStep } from "../../common/domain/lifecycle";
import { isPrizePlay, leaderboardPushInterval } from "../../common/domain/tournaments";
import { answerPoints, answerXp, isLate, rankStandings } from "../../common/domain/scoring";
import { placementXp } from "../../common/domain/levels";
import { awardPrizes, prizePoolFromFees } from "../../common/domain/prizes";
import { formatCents } from "../../common/domain/money";
import { seededShuffle } from "../../common/domain/questions";
import { runAtomically } from "../money/ledger";
import { claimStatements, isClaimLost, type KeyClaim } from "../money/idempotency";
import { iso } from "../db/present";
import { closeQuietly, parseJson } from "./notification-hub";
import { pushNotification, TOURNAMENT_ID_HEADER, USER_ID_HEADER } from "./hub-client";
import { staffSql } from "../fair-play/staff";
import { RoomStore, isOpen, unansweredPlay, type MetaRow, type Phase, type PlayRow, type QuestionRow } from "./room/storage";
import { computeStandings, responseRecords, showStandings } from "./room/standings";
import { LiveBoard, type BoardRow } from "./room/board";
import { tournamentNotice } from "./room/notices";
import { CompletionWriter } from "./room/completions";
import { errorFrame, replyTo, type FrameRules, type PlayFrame } from "./room/play-frames";
import { carriedNext } from "../../common/domain/self-paced";
import {
  Counted,
  disqualificationNotice,
  disqualificationStatements,
  forfeitHeldPrizeStatements,
  prizeRowStatement,
  endTimeStatement,
  hostAudit,
  hostFailure,
  type HostFailure,
} from "./room/host-tools";
import type { ResponseRecord } from "./room/standings";
import {
  groupRefusal,
  joinGroupStatements,
  tournamentAnswerStatement,
  tournamentFromRow,
  type GroupReadback,
  type GroupRow,
  type TournamentAnswerRow,
} from "./room/join-group";
import { presentTournament } from "../db/present-tournament";
import {
  cancelStatements,
  cheatAttemptStatements,
  closePracticeRunStatement,
  commitmentStatement,
  entryReference,
  leaveReference,
  leaveStatements,
  loadConfig,
  loadDepartures,
  loadParticipants,
  notificationsStatements,
  chunkStatements,
  completionStatements,
  isChunkApplied,
  participantResultsStatements,
  practiceXpStatement,
  responsesStatements,
  settlementChunks,
  settlementProgress,
  SETTLEMENT_CHUNK_PLAYERS,
  startStatement,
  userLevels,
  type ParticipantResult,
  type SettlementPlan,
} from "./room/d1";
import { burnStatement } from "../questions/usage";

export interface RoomUser {
  userId: number;
  username: string;
  level: number;
  /** Whether others may see the level (the player's preference when joining). */
  showLevel: boolean;
  /** Keyed hashes of the device cookie and network address (the collusion check); null when unknown. */
  deviceHash: string | null;
  networkHash: string | null;
}

/** A refusal the Worker turns into an HTTP error; errors do not cross RPC with their fields. */
export interface RoomFailure {
  ok: false;
  status: 400 | 403 | 404 | 409;
  code: ErrorCode;
  message: string;
  title?: string;
}
export type RoomResult<T> = { ok: true; value: T } | RoomFailure;

/** What the room knows about a join before any D1 work (see TournamentRoom.admission). */
export type Admission =
  | { state: "practice" }
  | { state: "joined"; reference: string }
  /** `prize`: prize play (docs/fair-play.md), closed to staff and accounts linked to staff. */
  | { state: "open"; feeCents: number; prize: boolean };

/** A join's outcome: the entry's reference, and what the group's batch read back for the answer. */
export interface JoinOutcome {
  alreadyJoined: boolean;
  reference: string;
  answer: { balanceCents: number; tournament: Tournament } | null;
}

interface WaitingJoin {
  user: RoomUser;
  claim: KeyClaim | null;
  resolve: (result: RoomResult<JoinOutcome>) => void;
  reject: (error: unknown) => void;
}

/** How long the first join of a group waits for others before the group goes to D1. */
const JOIN_GROUP_WINDOW_MS = 4;
/** Players per group at most: the batch's JSON parameter stays well under D1's limits (about 250 bytes a row). */
const JOIN_GROUP_MAX = 200;

const ok = <T>(value: T): RoomResult<T> => ({ ok: true, value });
const isPrize = (meta: MetaRow) =>
  isPrizePlay({ practice: meta.practice === 1, entryFeeCents: meta.entry_fee_cents, prizePoolCents: meta.prize_pool_cents });
const fail = (status: RoomFailure["status"], code: ErrorCode, message: string, title?: string): RoomFailure =>
  title === undefined ? { ok: false, status, code, message } : { ok: false, status, code, message, title };
const notFound = () => fail(404, "tournament_not_found", PLAY.notFound);
/** The request's idempotency key was taken over by a retry while it waited: that retry does the work. */
const claimLost = () => fail(409, "idempotency_key_in_progress", IDEMPOTENCY.inProgress);
/** How far back the live view counts answers for its rate. */
const ANSWER_RATE_WINDOW_MS = 10_000;

interface SocketAttachment {
  userId: number;
  openedAt: number;
  /** The latest measured round trips (ms), for the live show's latency allowance. */
  rtts: number[];
  /**
   * Pings sent on this socket and not answered yet: the nonce and when the room sent it. A round
   * trip is measured from the room's own send time, never from anything the client says, and
   * each nonce once. Kept here so that it survives hibernation.
   */
  pings: { nonce: string; at: number }[];
}

/** Unanswered pings kept per socket: a client that never answers keeps only its latest few. */
const PINGS_OUTSTANDING = 4;
/** A pong this long after its ping measures nothing (a stalled connection, not a round trip). */
const PONG_MAX_MS = 60_000;

/** A finishing player's row and responses, waiting for their shared D1 batch. */
interface Completion {
  userId: number;
  result: ParticipantResult;
  responses: ResponseRecord[];
}

/** The status the API shows: settling is still live to players. */
const publicStatus = (phase: Phase): TournamentStatus => (phase === "settling" ? "live" : phase);

/**
 * One per tournament (idFromName(String(tournamentId))): the single writer of its live state.
 * It learns its tournament from D1 on first use, then owns joins (capacity, fees), the lifecycle
 * (one alarm over a table of deadlines), every question issued and answer given (in its own
 * SQLite before any reply), the live show's shared clock, the leaderboard, and settlement.
 *
 * Play arrives as frames on the tournament's sockets (the user is the socket's, so a frame costs
 * no D1 work at all) or as the HTTP endpoints' RPC calls; both run the same methods below.
 *
 * Work that waits on D1 runs through #serial: the input gate does not hold other calls back
 * while an object waits on the network, and joins, lifecycle steps and settlement must not
 * interleave. Questions and answers only touch local storage, so they never wait behind D1.
 * Design and the plan for tournaments larger than one object: docs/decisions/004-tournament-room.md;
 * the live show's timing: docs/decisions/008-live-show-timing.md.
 */
export class TournamentRoom extends DurableObject<Env> {
  readonly #store: RoomStore;
  /** What counts for the ranking once the host voided a question or disqualified a player. */
  readonly #counted: Counted;
  /** Whether this instance has reconciled its participants with D1 since it started. */
  #synced = false;
  #tail: Promise<unknown> = Promise.resolve();
  /** Joins waiting for the next group commit, in arrival order. */
  #joinQueue: WaitingJoin[] = [];
  /** Whether a group commit is already on its way (a timer or a place in #serial). */
  #joinFlushQueued = false;
  readonly #board = new LiveBoard();
  #boardBuilt = false;
  /** Parsed options per question ord: answers check them on the hot path. */
  readonly #options = new Map<number, string[]>();
  readonly #attachments = new WeakMap<WebSocket, SocketAttachment>();
  readonly #buckets = new WeakMap<WebSocket, { tokens: number; at: number }>();
  /** Completions on their way to D1, grouped into shared batches. */
  readonly #completions = new CompletionWriter<Completion>((entries) => this.#writeCompletions(entries), SETTLEMENT_CHUNK_PLAYERS);

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.#store = new RoomStore(ctx.storage);
    this.#counted = new Counted(this.#store);
    this.ctx.setWebSocketAutoResponse(new WebSocketRequestResponsePair("ping", "pong"));
  }

  // ---- RPC ----

  /**
   * Called by the scheduler when it creates the tournament, so the first alarm is set at once,
   * and on every cron run after that: an alarm that exhausted its retries is set again here.
   */
  async init(tournamentId: number): Promise<TournamentStatus | null> {
    if (!(await this.#ready(tournamentId))) return null;
    return this.#serial(async () => {
      await this.#publishCommitment();
      await this.#advance(Date.now());
      return publicStatus(this.#store.meta()!.phase);
    });
  }

  /**
   * What the room can tell a player about joining without D1: already in (with the entry's
   * reference), or refused (closed, level, full), or open at this fee. Practice rooms answer only
   * `practice`: whose run it is and which run to join are D1's. The Worker asks this before its
   * own checks, so those are only paid for by joins that can still happen.
   */
  async admission(tournamentId: number, userId: number, level: number): Promise<RoomResult<Admission>> {
    const meta = await this.#ready(tournamentId);
    if (!meta) return notFound();
    if (meta.practice) return ok({ state: "practice" });
    const seated = this.#joinedReference(meta, userId);
    if (seated !== null) return ok({ state: "joined", reference: seated });
    const refusal = this.#joinRefusal(meta, level, Date.now());
    return refusal ?? ok({ state: "open", feeCents: meta.entry_fee_cents, prize: isPrize(meta) });
  }

  /**
   * Seats the player and takes the fee, in a group with the other joins that arrive within a few
   * milliseconds: one D1 batch per group (worker/durable/room/join-group.ts). `claim`: the
   * request's idempotency key, committed with the seat. `reference` names the entry, paid or
   * free; `answer` is the balance and tournament the group's batch read back (null when the
   * player was already in before this request: the Worker reads them).
   */
  async join(tournamentId: number, user: RoomUser, claim: KeyClaim | null = null): Promise<RoomResult<JoinOutcome>> {
    if (!(await this.#ready(tournamentId))) return notFound();
    return new Promise<RoomResult<JoinOutcome>>((resolve, reject) => {
      this.#joinQueue.push({ user, claim, resolve, reject });
      if (this.#joinFlushQueued) return;
      this.#joinFlushQueued = true;
      // The window lets a burst gather; under load the queue also fills while a batch runs.
      setTimeout(() => void this.#serial(() => this.#flushJoins()), JOIN_GROUP_WINDOW_MS);
    });
  }

  /**
   * Leaving before the start: the entry fee comes back (once: its ledger reference is tied to this
   * entry), the seat is free and the pool shrinks. Refused once the tournament has started.
   * `claim` as for join; `reference` names the refund, paid or free.
   */
  async leave(
    tournamentId: number,
    userId: number,
    claim: KeyClaim | null = null,
  ): Promise<RoomResult<{ refundedCents: number; reference: string }>> {
    if (!(await this.#ready(tournamentId))) return notFound();
    return this.#serial(async () => {
      const meta = this.#store.meta()!;
      if (!this.#store.participant(userId)) return fail(409, "not_joined", PLAY.notJoined);
      if (meta.phase !== "upcoming") return fail(409, "leave_closed", PLAY.leaveClosed);
      const count = this.#store.participantCount() - 1;
      const fee = meta.entry_fee_cents;
      const pool = fee > 0 ? prizePoolFromFees(count * fee) : meta.prize_pool_cents;
      const departures = this.#store.departures(userId);
      const reference = leaveReference(meta.tournament_id, userId, departures);
      const key = claimStatements(this.env.DB, claim, reference);
      try {
        await runAtomically(this.env.DB, [
          ...key.before,
          ...leaveStatements(this.env.DB, {
            tournamentId: meta.tournament_id,
            title: meta.title,
            userId,
            feeCents: fee,
            departures,
            participants: count,
            prizePoolCents: pool,
          }),
          ...key.after,
        ]);
      } catch (e) {
        if (isClaimLost(e)) return claimLost();
        throw e;
      }
      this.#store.recordDeparture(userId);
      this.#store.setPrizePool(pool);
      this.#board.remove(userId);
      await this.#leaderboardChanged();
      return ok({ refundedCents: fee, reference });
    });
  }

  /** The player's open question, or the next one (its 30 s start now), or a refusal. */
  async nextQuestion(tournamentId: number, userId: number): Promise<RoomResult<PlayerQuestion>> {
    const meta = await this.#ready(tournamentId);
    if (!meta) return notFound();
    const result = this.#next(meta, userId, Date.now(), null);
    await this.#store.stored();
    return result;
  }

  /** Only the questions already issued to this player (in a live show: already sent to everyone), in order. */
  async listQuestions(tournamentId: number, userId: number): Promise<RoomResult<PlayerQuestion[]>> {
    const meta = await this.#ready(tournamentId);
    if (!meta) return notFound();
    const now = Date.now();
    if (meta.format === "live_show") {
      if (!this.#store.participant(userId)) return ok([]);
      const opened = this.#store.questions().filter((q) => q.opened_at !== null);
      return ok(opened.map((q) => this.#presentLive(meta, userId, q, now)));
    }
    return ok(this.#store.plays(userId).map((play) => this.#present(meta, userId, play, now)));
  }

  /**
   * Whether this room put the question to the player, a participant: in a live show, sent out to
   * everyone; self-paced, issued to them. A question report asks this whatever the id, so the
   * report costs the same whether or not the id is one of this tournament's.
   */
  async wasIssued(tournamentId: number, userId: number, questionId: number): Promise<boolean> {
    const meta = await this.#ready(tournamentId);
    if (!meta || !this.#store.participant(userId)) return false;
    const question = this.#store.questionById(questionId);
    if (!question) return false;
    return meta.format === "live_show" ? question.opened_at !== null : this.#store.play(userId, question.ord) !== null;
  }

  async answer(tournamentId: number, userId: number, input: AnswerInput): Promise<RoomResult<AnswerReply>> {
    const meta = await this.#ready(tournamentId);
    if (!meta) return notFound();
    const result = await this.#answer(meta, userId, input, Date.now());
    await this.#store.stored();
    return result;
  }

  /** Finishes the player: what they did not answer counts as timed out. Repeating it changes nothing. */
  async complete(tournamentId: number, userId: number): Promise<RoomResult<CompleteResult>> {
    const meta = await this.#ready(tournamentId);
    if (!meta) return notFound();
    return this.#complete(meta, userId);
  }

  /** The whole board as JSON, built once per change of the standings (the route sends it as it is). */
  async leaderboardJson(tournamentId: number): Promise<RoomResult<string>> {
    const meta = await this.#ready(tournamentId);
    if (!meta) return notFound();
    return ok(this.#boardNow(Date.now()).allJson());
  }

  /**
   * Opens the commitment once the tournament is settled. Under v2 (decision 015): the questions
   * issued to anyone, each with its leaf salt and Merkle proof, and the draw key; the others stay
   * secret. Under v1 (rooms committed before it): the salt and every committed question. Each
   * with its correct answer and when it went out and closed. Refused before that, and for a
   * cancelled tournament (its questions were never shown and may be used again).
   */
  async fairness(tournamentId: number): Promise<RoomResult<FairnessReport>> {
    const meta = await this.#ready(tournamentId);
    if (!meta) return notFound();
    if (meta.phase === "cancelled") return fail(409, "fairness_not_revealed", FAIR_PLAY.cancelledNotRevealed);
    if (meta.phase !== "completed" || meta.commitment === null || meta.salt === null)
      return fail(409, "fairness_not_revealed", FAIR_PLAY.notRevealed);
    // Self-paced: each question's first issue, last close and count, in one pass over the plays.
    const issues = new Map<number, { first: number; last: number; count: number }>();
    for (const p of this.#store.allPlays()) {
      const closed = p.answered_at ?? p.issued_at + QUESTION_TIME_MS;
      const seen = issues.get(p.ord);
      if (!seen) issues.set(p.ord, { first: p.issued_at, last: closed, count: 1 });
      else issues.set(p.ord, { first: Math.min(seen.first, p.issued_at), last: Math.max(seen.last, closed), count: seen.count + 1 });
    }
    const revealed = (q: QuestionRow): RevealedQuestion => {
      if (meta.format === "live_show") {
        const opened = q.opened_at;
        return {
          ...voidMark(q),
          questionId: q.question_id,
          question: q.question,
          correctAnswer: q.correct_answer,
          slot: q.ord,
          issuedAt: opened === null ? null : iso(opened),
          closedAt: opened === null ? null : iso(opened + LIVE_SHOW_WINDOW_MS),
          timesIssued: opened === null ? 0 : this.#store.participantCount(),
        };
      }
      const seen = issues.get(q.ord);
      return {
        ...voidMark(q),
        questionId: q.question_id,
        question: q.question,
        correctAnswer: q.correct_answer,
        slot: this.#slotOf(meta, q.ord),
        issuedAt: seen ? iso(seen.first) : null,
        closedAt: seen ? iso(seen.last) : null,
        timesIssued: seen?.count ?? 0,
      };
    };
    const all = this.#store.questions();
    const base = { tournamentId: meta.tournament_id, commitment: meta.commitment, drawWidth: meta.draw_width };
    if (meta.commitment_version < 2) return ok({ scheme: "flat-v1", ...base, salt: meta.salt, questions: all.map(revealed) });
    const { header, leafSalts, tree } = questionTree(meta.tournament_id, meta.salt, committedOf(all));
    const issued = this.#store.issuedOrds();
    const questions = all
      .filter((q) => issued.has(q.ord))
      .map((q) => ({ ...revealed(q), order: q.ord, leafSalt: leafSalts[q.ord]!, proof: tree.proof(q.ord) }));
    return ok({ scheme: "merkle-v2", ...base, leafCount: header.leafCount, drawKey: header.drawKey, questions });
  }

  // ---- The operators' console ----

  /**
   * An operator's edit of a tournament nobody joined: D1 is changed and the room takes the new
   * configuration in the same serial turn, so no join can come between the check and the change
   * (or be charged the old fee). New questions get a new commitment, published before anyone
   * can join and so before anyone could have seen them.
   */
  /**
   * `poolRaise`: the house pool's increase, counted toward the two-person rule's totals in the
   * edit's own batch with its guard (worker/admin/two-person.ts); the guard refuses the edit.
   */
  async reconfigure(
    tournamentId: number,
    actorId: number,
    draft: ResolvedDraft,
    poolRaise: { row: TallyRow; thresholdCents: number; refusal: string } | null = null,
  ): Promise<RoomResult<null>> {
    if (!(await this.#ready(tournamentId))) return notFound();
    return this.#serial(async () => {
      const meta = this.#store.meta()!;
      if (meta.practice) return fail(409, "tournament_practice", ADMIN_TOURNAMENTS.practice);
      if (meta.phase !== "upcoming") return fail(409, "tournament_not_editable", ADMIN_TOURNAMENTS.notEditable);
      if (this.#store.participantCount() > 0) return fail(409, "tournament_has_players", ADMIN_TOURNAMENTS.hasPlayers);
      const before = await loadSnapshot(this.env.DB, tournamentId);
      if (!before) return notFound();
      const d1 = this.env.DB;
      const tally = poolRaise
        ? [tallyStatement(d1, poolRaise.row), tallyGuardStatement(d1, "house_pool", actorId, [], poolRaise.thresholdCents)]
        : [];
      try {
        await d1.batch([...editStatements(d1, tournamentId, before, draft, actorId), ...tally]);
      } catch (e) {
        if (poolRaise && isTallyGuardTripped(e)) return fail(409, "house_pool_needs_approval", poolRaise.refusal);
        throw e;
      }
      const config = await loadConfig(this.env.DB, tournamentId);
      if (!config) return notFound();
      const sameQuestions = JSON.stringify(before.questionIds) === JSON.stringify(draft.questionIds) && meta.commitment !== null;
      const committed = sameQuestions
        ? { salt: meta.salt, commitment: meta.commitment, commitment_version: meta.commitment_version }
        : await commitTo(tournamentId, config.questions);
      this.#store.replaceConfig({ ...config, meta: { ...config.meta, ...committed } }, sameQuestions && meta.commitment_published === 1);
      this.#options.clear();
      this.#boardBuilt = false;
      await this.#publishCommitment();
      const now = Date.now();
      await this.#advance(now);
      this.#broadcastStatus(now);
      return ok(null);
    });
  }

  /**
   * An operator cancels: every seated player's entry fee back (once: the refund references are
   * the lifecycle cancel's), a notification with the reason, the audit row, all in one batch.
   * Once cancelled, a repeat (or a concurrent cancel, queued behind this one) refunds nothing.
   */
  async cancelByOperator(tournamentId: number, actorId: number, reason: string): Promise<RoomResult<CancelTournamentResult>> {
    if (!(await this.#ready(tournamentId))) return notFound();
    return this.#serial(async () => {
      const meta = this.#store.meta()!;
      if (meta.practice) return fail(409, "tournament_practice", ADMIN_TOURNAMENTS.practice);
      if (meta.phase === "cancelled") return ok({ tournamentId, cancelled: false, playersRefunded: 0, refundedCents: 0 });
      if (meta.phase === "completed" || meta.phase === "settling") return fail(409, "tournament_finished", ADMIN_TOURNAMENTS.finished);
      const userIds = this.#store.participants().map((p) => p.user_id);
      const fee = meta.entry_fee_cents;
      const refunded = fee > 0 ? userIds.length : 0;
      const notice = tournamentNotice(tournamentId, meta.title, "cancelled", NOTIFY.cancelledByOperator(meta.title, reason, fee > 0));
      const result = { tournamentId, cancelled: true, playersRefunded: refunded, refundedCents: refunded * fee };
      const db = this.env.DB;
      await runAtomically(db, [
        ...cancelStatements(db, {
          tournamentId,
          title: meta.title,
          feeCents: fee,
          userIds,
          questionUse: this.#questionUse(Date.now()),
          cause: { by: "operator", reason },
        }),
        ...notificationsStatements(db, notice, userIds),
        auditStatement(db, actorId, {
          action: "tournament.cancel",
          targetType: "tournament",
          targetId: tournamentId,
          before: { status: publicStatus(meta.phase), participants: userIds.length, prizePoolCents: meta.prize_pool_cents },
          after: { status: "cancelled", playersRefunded: result.playersRefunded, refundedCents: result.refundedCents },
          note: reason,
        }),
      ]);
      this.#store.setPhase("cancelled");
      this.#store.setPrizePool(0);
      this.#store.unschedule("lifecycle");
      this.#store.unschedule("show");
      await this.#arm();
      this.#broadcastStatus(Date.now());
      await this.#notify(userIds, notice.frame);
      return ok(result);
    });
  }

  /**
   * The creator of a custom tournament cancels it (the Worker checked who asks): only while it is
   * upcoming and nobody holds a seat, checked in the room's serial order so no join can slip in
   * between. Nobody paid, so nothing is refunded; its questions are given back. A repeat answers
   * as the first did.
   */
  async cancelByCreator(tournamentId: number): Promise<RoomResult<null>> {
    if (!(await this.#ready(tournamentId))) return notFound();
    return this.#serial(async () => {
      const meta = this.#store.meta()!;
      if (meta.phase === "cancelled") return ok(null);
      if (meta.practice || meta.phase !== "upcoming" || this.#store.participantCount() > 0)
        return fail(409, "tournament_not_cancellable", CUSTOM.notCancellable);
      await runAtomically(
        this.env.DB,
        cancelStatements(this.env.DB, {
          tournamentId,
          title: meta.title,
          feeCents: meta.entry_fee_cents,
          userIds: [],
          questionUse: this.#questionUse(Date.now()),
          cause: { by: "creator" },
        }),
      );
      this.#store.setPhase("cancelled");
      this.#store.unschedule("lifecycle");
      this.#store.unschedule("show");
      await this.#arm();
      this.#broadcastStatus(Date.now());
      return ok(null);
    });
  }

  /** What the console's live view shows: sockets, the answer rate, where play is, and what fair play would flag now. */
  async liveStats(tournamentId: number): Promise<RoomResult<RoomLiveStats>> {
    if (!(await this.#ready(tournamentId))) return notFound();
    const meta = this.#store.meta()!;
    const now = Date.now();
    const sockets = this.ctx.getWebSockets();
    const plays = this.#store.allPlays();
    const recent = plays.filter((p) => p.answered_at !== null && p.answered_at > now - ANSWER_RATE_WINDOW_MS).length;
    const participants = this.#store.participants();
    const names = new Map(participants.map((p) => [p.user_id, p.username]));
    const show = this.#showState(meta, now);
    const flags = meta.practice || meta.phase === "upcoming" ? new Map() : fairPlayFlags(this.#playerRecords());
    return ok({
      status: meta.phase,
      format: meta.format,
      participants: participants.length,
      sockets: sockets.length,
      connectedPlayers: new Set(sockets.map((ws) => this.#attachment(ws).userId)).size,
      answersPerSecond: recent / (ANSWER_RATE_WINDOW_MS / 1000),
      show: show && { index: show.index, total: show.total, stage: show.stage, closesAt: show.nextAt },
      progress:
        meta.format === "live_show"
          ? null
          : {
              issued: plays.length,
              answered: plays.filter((p) => p.answer !== null).length,
              finishedPlayers: participants.filter((p) => p.finished_at !== null).length,
            },
      flags: [...flags].map(([userId, f]) => ({ userId, username: names.get(userId) ?? "", flags: f })),
      paused: meta.paused_at !== null,
      questions:
        meta.format === "live_show"
          ? this.#store
              .questions()
              .filter((q) => q.opened_at !== null)
              .map((q) => ({ index: q.ord, questionId: q.question_id, question: q.question, voidReason: q.void_reason }))
          : [],
      players: [
        ...this.#boardNow(now)
          .top(LIVE_PLAYERS_SHOWN)
          .map((r) => ({ userId: r.userId, username: r.username, rank: r.rank, score: r.score, disqualifiedReason: null })),
        ...participants
          .filter((p) => p.disqualified_reason !== null)
          .map((p) => ({ userId: p.user_id, username: p.username, rank: null, score: 0, disqualifiedReason: p.disqualified_reason })),
      ],
    });
  }

  // ---- The host's tools (docs/operating.md, "Host tools"; docs/decisions/017-host-tools.md) ----

  /**
   * The host pauses a live show before its next question: an open window runs to its close and
   * reveal as usual, then nothing opens (the alarm holds it, also after a restart: the pause is in
   * storage) until resume. Pausing a paused show changes nothing.
   */
  async pause(tournamentId: number, actorId: number, note: string | null): Promise<RoomResult<HostActionResult>> {
    if (!(await this.#ready(tournamentId))) return notFound();
    return this.#serial(async () => {
      const meta = this.#store.meta()!;
      const refusal = pauseRefusal(meta);
      if (refusal) return hostFail(hostFailure(refusal));
      if (meta.paused_at !== null) return ok({ tournamentId, changed: false, message: HOST_TOOLS.alreadyPaused });
      const now = Date.now();
      const where = { index: meta.show_ord, stage: meta.show_stage };
      await this.env.DB.batch([
        hostAudit(this.env.DB, actorId, "tournament.pause", tournamentId, { paused: false, ...where }, { paused: true, ...where }, note),
      ]);
      this.#store.setPaused(now);
      await this.#runShow(now);
      await this.#advance(now);
      this.#hostChanged(now);
      return ok({ tournamentId, changed: true, message: HOST_TOOLS.paused });
    });
  }

  /**
   * The host resumes: a held reveal starts its countdown again from now, so the next question goes
   * out to everyone at the same instant, timed here; the end time moves by the pause.
   */
  async resume(tournamentId: number, actorId: number, note: string | null): Promise<RoomResult<HostActionResult>> {
    if (!(await this.#ready(tournamentId))) return notFound();
    return this.#serial(async () => {
      const meta = this.#store.meta()!;
      const refusal = pauseRefusal(meta);
      if (refusal) return hostFail(hostFailure(refusal));
      if (meta.paused_at === null) return ok({ tournamentId, changed: false, message: HOST_TOOLS.notPaused });
      const now = Date.now();
      const endTime = endTimeAfterPause(meta.end_time, meta.paused_at, now);
      const db = this.env.DB;
      await db.batch([
        endTimeStatement(db, tournamentId, endTime),
        hostAudit(
          db,
          actorId,
          "tournament.resume",
          tournamentId,
          { paused: true, pausedAt: iso(meta.paused_at) },
          { paused: false, pausedMs: now - meta.paused_at, endTime: endTime === null ? null : iso(endTime) },
          note,
        ),
      ]);
      this.#store.setPaused(null);
      this.#store.setPhase("live", { endTime });
      const clock = { stage: meta.show_stage, ord: meta.show_ord, since: meta.show_since ?? now, total: this.#store.slotCount() };
      const resumed = resumedClock(clock, now);
      if (resumed.since !== clock.since) this.#store.setShow(resumed.stage, resumed.ord, resumed.since);
      await this.#runShow(now);
      await this.#advance(now);
      this.#hostChanged(now);
      return ok({ tournamentId, changed: true, message: HOST_TOOLS.resumed });
    });
  }

  /**
   * The host voids a question that went out (open or revealed) before settlement: it counts for
   * nobody (scores, tiebreak times, timed-out counts and the answers' XP are computed without it),
   * its reveal says so, and the fairness report marks it (the commitment still covers it).
   */
  async voidQuestion(tournamentId: number, actorId: number, index: number, reason: string): Promise<RoomResult<HostActionResult>> {
    if (!(await this.#ready(tournamentId))) return notFound();
    return this.#serial(async () => {
      const meta = this.#store.meta()!;
      const question = meta.format === "live_show" ? this.#store.questionAt(index) : null;
      const refusal = voidRefusal(meta, question && { openedAt: question.opened_at });
      if (refusal) return hostFail(hostFailure(refusal));
      const q = question!;
      if (q.voided_at !== null) return ok({ tournamentId, changed: false, message: HOST_TOOLS.alreadyVoided(index) });
      const now = Date.now();
      const about = { index, questionId: q.question_id };
      await this.env.DB.batch([
        hostAudit(
          this.env.DB,
          actorId,
          "tournament.void_question",
          tournamentId,
          { ...about, voided: false },
          { ...about, voided: true },
          reason,
        ),
      ]);
      this.#store.voidQuestion(index, now, reason);
      this.#rebuildBoard(now);
      this.#pushLeaderboard(now);
      this.#hostChanged(now);
      return ok({ tournamentId, changed: true, message: HOST_TOOLS.voided(index) });
    });
  }

  /**
   * The host disqualifies a player. Before settlement: out of the ranking (the next players move
   * up, and take the places and prizes at settlement), no more answers. After it: out of the
   * finished leaderboard, and a prize still held for review forfeited to the house ledger (a prize
   * already paid is refused: only an approved balance adjustment takes money back). Told why either
   * way (a notification, and their play screen). A tournament with money in it gets here only
   * through a second operator's approval (the route); `approvalId` names it in the audit row. Once.
   */
  async disqualify(
    tournamentId: number,
    actorId: number,
    userId: number,
    reason: string,
    approvalId: number | null,
  ): Promise<RoomResult<HostActionResult>> {
    if (!(await this.#ready(tournamentId))) return notFound();
    return this.#serial(async () => {
      const meta = this.#store.meta()!;
      if (meta.practice) return fail(409, "tournament_practice", ADMIN_TOURNAMENTS.practice);
      const p = this.#store.participant(userId);
      if (!p) return fail(404, "participant_not_found", HOST_TOOLS.participantNotFound);
      if (p.disqualified_at !== null) return ok({ tournamentId, changed: false, message: HOST_TOOLS.alreadyDisqualified(p.username) });
      if (meta.phase === "settling") return fail(409, "tournament_not_running", HOST_TOOLS.settling);
      if (meta.phase !== "live" && meta.phase !== "completed") return hostFail(hostFailure("not_live"));
      const now = Date.now();
      const notice = disqualificationNotice(tournamentId, meta.title, reason);
      const d = { tournamentId, userId, username: p.username, reason, at: now, actorId, approvalId };
      const db = this.env.DB;
      // Settled: the ranks and prizes of the others stay as paid; a prize still held goes to the
      // house, in the same batch as the mark, and a prize already paid is refused.
      let forfeit: D1PreparedStatement[] = [];
      if (meta.phase === "completed") {
        const prize = await prizeRowStatement(db, tournamentId, userId).first<{ id: number; amount_cents: number; status: string }>();
        if (prize && prize.status !== "held" && prize.status !== "forfeited") return fail(409, "prize_not_held", HOST_TOOLS.prizePaid);
        if (prize?.status === "held") {
          const description = HOST_TOOLS.forfeitedPrize(meta.title, reason);
          forfeit = forfeitHeldPrizeStatements(db, {
            prizeId: prize.id,
            amountCents: prize.amount_cents,
            tournamentId,
            userId,
            description,
          });
        }
      }
      await db.batch([...forfeit, ...disqualificationStatements(db, d, notice)]);
      this.#store.disqualify(userId, now, reason);
      this.#board.remove(userId);
      await this.#leaderboardChanged();
      this.#hostChanged(now, userId);
      await this.#notify([userId], notice.frame);
      // The player still playing may have been the last: a self-paced tournament then settles now.
      if (meta.phase === "live" && this.#store.everyoneFinished()) await this.#advance(now);
      return ok({ tournamentId, changed: true, message: HOST_TOOLS.disqualified(p.username) });
    });
  }

  /**
   * The results for the operators' export: every player by rank (the disqualified last, without a
   * rank), each answer with its index, choice, verdict (once known), response time, whether the
   * question was voided, and its signed receipt, as the player got it.
   */
  async resultsCsv(tournamentId: number): Promise<RoomResult<string>> {
    const meta = await this.#ready(tournamentId);
    if (!meta) return notFound();
    const now = Date.now();
    const final = meta.phase === "completed" || meta.phase === "settling";
    // Mid-show, the ranking the board shows: revealed questions only, the others not timed out yet.
    const ranked =
      meta.format === "live_show" && !final
        ? rankStandings(
            showStandings(
              this.#counted.ranked(),
              (u) => this.#counted.plays(this.#store.plays(u)),
              this.#counted.revealed(this.#revealedCount(meta)),
            ),
          ).map((r, i) => ({ ...r, rank: i + 1 }))
        : computeStandings(this.#counted.ranked(), this.#counted.plays(this.#store.allPlays()), this.#counted.slots(), now, final);
    const answersOf = (userId: number) =>
      this.#store
        .plays(userId)
        .filter((play) => play.answer !== null)
        .map((play) => {
          const q = this.#store.questionAt(play.ord)!;
          const known = meta.format === "live_show" ? this.#revealed(meta, play.ord) : !this.#verdictWithheld(meta);
          const voided = q.voided_at !== null;
          const points = known ? (voided ? 0 : (play.points ?? 0)) : null;
          return {
            index: meta.format === "live_show" ? play.ord : this.#slotOf(meta, play.ord),
            questionId: q.question_id,
            choice: play.answer,
            correct: known ? play.is_correct === 1 : null,
            responseMs: play.response_ms,
            voided,
            receipt: JSON.stringify(this.#receipt(meta, play, q, points)),
          };
        });
    const rows: ResultsCsvPlayer[] = [
      ...ranked.map((r) => ({
        rank: r.rank,
        userId: r.userId,
        username: r.username,
        score: this.#verdictWithheld(meta) ? 0 : r.score,
        correctAnswers: this.#verdictWithheld(meta) ? 0 : r.correctAnswers,
        totalResponseMs: r.totalResponseMs,
        disqualifiedReason: null,
        answers: answersOf(r.userId),
      })),
      ...this.#store
        .participants()
        .filter((p) => p.disqualified_reason !== null)
        .map((p) => ({
          rank: null,
          userId: p.user_id,
          username: p.username,
          score: 0,
          correctAnswers: 0,
          totalResponseMs: 0,
          disqualifiedReason: p.disqualified_reason,
          answers: answersOf(p.user_id),
        })),
    ];
    return ok(resultsCsv(rows));
  }

  /** Whether the host holds the show: paused, and not over yet. */
  #holding(meta: MetaRow): boolean {
    return meta.format === "live_show" && meta.paused_at !== null && meta.phase === "live" && meta.show_stage !== "over";
  }

  /** Whether a reveal's next question is held by the pause (its countdown is not known until the host resumes). */
  #heldNext(meta: MetaRow): boolean {
    return this.#holding(meta) && meta.show_stage === "reveal" && meta.show_ord + 1 < this.#store.slotCount();
  }

  /** The host's tools as they touch this player. */
  #hostFrame(meta: MetaRow, userId: number): Extract<TournamentServerFrame, { type: "host" }> {
    return {
      type: "host",
      paused: this.#holding(meta),
      voided: [...this.#store.voidedOrds()].sort((a, b) => a - b),
      disqualified: this.#store.participant(userId)?.disqualified_reason ?? null,
    };
  }

  /**
   * After a host action: the status (with the pause and the countdown), each socket's host frame,
   * and, while a question is revealed, its reveal again (voided, or with its new countdown).
   * `only`: just this player's sockets (a disqualification touches nobody else).
   */
  #hostChanged(now: number, only?: number): void {
    const meta = this.#store.meta()!;
    const sockets = only === undefined ? this.ctx.getWebSockets() : this.ctx.getWebSockets(`user:${only}`);
    const status = JSON.stringify(this.#statusFrame(meta, now));
    const revealed =
      meta.format === "live_show" && meta.phase === "live" && meta.show_stage === "reveal" ? this.#store.questionAt(meta.show_ord) : null;
    for (const ws of sockets) {
      const { userId } = this.#attachment(ws);
      sendText(ws, status);
      send(ws, this.#hostFrame(meta, userId));
      if (revealed && only === undefined) send(ws, this.#revealFrame(meta, userId, revealed, now));
    }
  }

  // ---- Alarm: one alarm, many deadlines ----

  override async alarm(): Promise<void> {
    if (!(await this.#ready())) return;
    await this.#serial(async () => {
      const now = Date.now();
      await this.#runShow(now);
      // The lifecycle step reads the phase and the clock, so running it early or twice is harmless.
      await this.#advance(now);
      const flushAt = this.#store.scheduled("flush");
      if (flushAt !== null && flushAt <= now) {
        this.#store.unschedule("flush");
        this.#pushLeaderboard(now);
      }
      await this.#arm();
    });
  }

  // ---- Sockets (hibernation API) ----

  override async fetch(request: Request): Promise<Response> {
    const userId = Number(request.headers.get(USER_ID_HEADER));
    const tournamentId = Number(request.headers.get(TOURNAMENT_ID_HEADER));
    if (request.headers.get("upgrade")?.toLowerCase() !== "websocket" || !isId(userId) || !isId(tournamentId)) {
      return Response.json({ code: "invalid_request", message: "Expected an authenticated WebSocket upgrade" } satisfies ApiErrorBody, {
        status: 400,
      });
    }
    const meta = await this.#ready(tournamentId);
    if (!meta) return Response.json({ code: "tournament_not_found", message: PLAY.notFound } satisfies ApiErrorBody, { status: 404 });
    const now = Date.now();
    // A few sockets per user (a phone and a laptop, a reloading tab): the newest wins.
    const mine = this.ctx.getWebSockets(`user:${userId}`).sort((a, b) => this.#attachment(a).openedAt - this.#attachment(b).openedAt);
    for (const old of mine.slice(0, Math.max(0, mine.length - SOCKETS_PER_USER_PER_ROOM + 1))) {
      closeQuietly(old, SOCKET_REPLACED_CLOSE_CODE, "Opened in another window");
    }
    const { 0: client, 1: server } = new WebSocketPair();
    this.ctx.acceptWebSocket(server, [`user:${userId}`]);
    const attachment: SocketAttachment = { userId, openedAt: now, rtts: [], pings: [] };
    server.serializeAttachment(attachment);
    this.#attachments.set(server, attachment);
    this.#sync(server, meta, now);
    return new Response(null, { status: 101, webSocket: client });
  }

  /** Closes every socket of this user in the room (their session ended); returns how many were open. */
  async closeUserSockets(userId: number, code: number, reason: string): Promise<number> {
    const sockets = this.ctx.getWebSockets(`user:${userId}`);
    for (const ws of sockets) closeQuietly(ws, code, reason);
    return sockets.length;
  }

  override async webSocketMessage(ws: WebSocket, message: string | ArrayBuffer): Promise<void> {
    const arrived = Date.now();
    const raw = parseJson(message);
    const id = frameIdOf(raw);
    if (!this.#allowFrame(ws)) return send(ws, errorFrame(id, 429, "rate_limited", PLAY.tooManyFrames));
    const parsed = tournamentClientFrameSchema.safeParse(raw);
    if (!parsed.success) return send(ws, errorFrame(id, 400, "invalid_frame", PLAY.invalidFrame));
    const frame = parsed.data;
    // Timed on arrival, before any wait for D1 (a room waking from hibernation reloads) could lengthen it.
    if (frame.type === "pong") return this.#recordRoundTrip(ws, frame.nonce, arrived);
    const meta = await this.#ready();
    if (!meta) return send(ws, errorFrame(id, 404, "tournament_not_found", PLAY.notFound));
    const { userId } = this.#attachment(ws);
    const now = Date.now();
    switch (frame.type) {
      case "sync":
        return this.#sync(ws, this.#store.meta()!, now);
      default:
        return send(ws, await this.#play(userId, frame, now));
    }
  }

  override async webSocketClose(ws: WebSocket, code: number, reason: string): Promise<void> {
    closeQuietly(ws, code, reason);
  }

  // ---- Play: the same rules for socket frames and HTTP calls ----

  /** A play frame's reply, sent only once what it changed is stored. */
  async #play(userId: number, frame: PlayFrame, now: number): Promise<TournamentServerFrame> {
    const reply = await replyTo(this.#frameRules, userId, frame, now);
    await this.#store.stored();
    return reply;
  }

  /** The play rules as socket frames reach them (worker/durable/room/play-frames.ts). */
  readonly #frameRules: FrameRules = {
    next: (userId, now, frameId) => this.#next(this.#store.meta()!, userId, now, frameId),
    answer: (userId, input, now) => this.#answer(this.#store.meta()!, userId, input, now),
    nextAfter: (userId, questionId, now, frameId) => this.#nextAfter(this.#store.meta()!, userId, questionId, now, frameId),
    complete: (userId) => this.#complete(this.#store.meta()!, userId),
  };

  /**
   * The question an accepted self-paced answer's reply carries: the one already issued after the
   * answered one (a resent answer: the same question, its clock unchanged), else the next slot
   * issued now, its clock starting with this reply; null after the last (common/domain/self-paced.ts).
   */
  #nextAfter(meta: MetaRow, userId: number, questionId: number, now: number, frameId: string): PlayerQuestion | null | undefined {
    if (meta.format === "live_show") return undefined;
    const answered = this.#store.questionById(questionId)!;
    const carried = carriedNext(this.#store.plays(userId), answered.ord, (ord) => this.#slotOf(meta, ord), this.#store.slotCount());
    if (carried.kind === "issued") return this.#present(meta, userId, carried.play, now);
    if (carried.kind === "none") return null;
    // Refused only when nothing more can be played (finished, or the tournament is over).
    const r = this.#openOrIssue(meta, userId, now, frameId);
    return r.ok ? r.value : null;
  }

  #next(meta: MetaRow, userId: number, now: number, frameId: string | null): RoomResult<PlayerQuestion> {
    if (!this.#store.participant(userId)) return fail(409, "not_joined", PLAY.notJoined);
    // A frame seen before (its reply was lost): the same question again, nothing new issued.
    const seen = frameId === null ? null : this.#store.playByFrame(userId, frameId);
    if (seen) return ok(this.#present(meta, userId, seen, now));
    return this.#openOrIssue(meta, userId, now, frameId);
  }

  /** The player's open question, or the next one issued now (named by the frame that asked, for its resends). */
  #openOrIssue(meta: MetaRow, userId: number, now: number, frameId: string | null): RoomResult<PlayerQuestion> {
    const refusal = this.#playRefusal(meta, userId, now);
    if (refusal) return refusal;
    if (meta.format === "live_show") {
      const current = meta.show_stage === "question" ? this.#store.questionAt(meta.show_ord) : null;
      return current ? ok(this.#presentLive(meta, userId, current, now)) : fail(409, "no_open_question", PLAY.waitForQuestion);
    }
    const last = this.#store.latestPlay(userId);
    if (last && isOpen(last, now)) return ok(this.#present(meta, userId, last, now));
    const slot = last ? this.#slotOf(meta, last.ord) + 1 : 0;
    if (slot >= this.#store.slotCount()) return fail(409, "no_more_questions", PLAY.noMoreQuestions);
    const play = this.#store.issue(userId, this.#ordFor(meta, userId, slot), now, frameId);
    // The previous question timed out unanswered: it now counts in the tiebreak total.
    if (last && last.answer === null) this.#refreshPlayer(userId, now);
    return ok(this.#present(meta, userId, play, now));
  }

  /**
   * Refusals that could tell a tournament's question ids from others (before the start, not
   * issued to this player, after finishing) are decided without looking at whether the id is in
   * the tournament: the same status, message and work (a cheat log) for any id. No probing.
   */
  async #answer(meta: MetaRow, userId: number, input: AnswerInput, now: number): Promise<RoomResult<AnswerReply>> {
    const participant = this.#store.participant(userId);
    if (!participant) return fail(409, "not_joined", PLAY.notJoined);
    if (participant.disqualified_reason !== null)
      return fail(409, "player_disqualified", PLAY.disqualified(participant.disqualified_reason));
    const known = this.#store.questionById(input.questionId);
    const play = known ? this.#store.play(userId, known.ord) : null;
    // A resent answer (a retry after a lost reply) gets the stored result, whatever happened since.
    if (known && play?.answer != null && play.answer === input.answer) return ok(this.#reply(meta, play, known));
    if (participant.finished_at !== null)
      return this.#cheat(meta, userId, CHEAT.afterFinish(input.questionId), "already_finished", PLAY.alreadyFinished);
    if (meta.phase === "upcoming") return this.#cheat(meta, userId, CHEAT.beforeStart(input.questionId), "not_live", PLAY.notLive);
    if (!this.#isLive(meta, now)) return fail(409, "not_live", PLAY.notLive);
    // Issued: in a live show, sent to everyone; self-paced, issued to this player.
    const question = known && (meta.format === "live_show" ? known.opened_at !== null : play !== null) ? known : null;
    if (!question) {
      // The log tells operators which it was; the player's refusal is the same either way.
      const reason = known ? CHEAT.notIssued(input.questionId) : CHEAT.unknownQuestion(input.questionId);
      return this.#cheat(meta, userId, reason, "not_issued", PLAY.notIssued);
    }
    if (meta.format === "live_show") return this.#answerLive(meta, userId, input, question, play, now);
    if (!play) return this.#cheat(meta, userId, CHEAT.notIssued(input.questionId), "not_issued", PLAY.notIssued);
    if (play.answer !== null)
      return this.#cheat(meta, userId, CHEAT.secondAnswer(input.questionId), "already_answered", PLAY.alreadyAnswered);
    if (this.#store.latestPlay(userId)!.ord !== play.ord)
      return this.#cheat(meta, userId, CHEAT.notCurrent(input.questionId), "not_current", PLAY.notCurrent);
    if (!this.#optionsOf(question).includes(input.answer)) return fail(400, "not_an_option", PLAY.notAnOption);

    const responseMs = Math.max(0, now - play.issued_at);
    const right = input.answer === question.correct_answer;
    const stored = this.#store.recordAnswer(userId, play.ord, {
      answer: input.answer,
      // A late answer is a timed-out one: no points, not counted correct.
      isCorrect: right && !isLate(responseMs),
      responseMs,
      points: answerPoints(right, responseMs),
      xp: answerXp(right, responseMs),
      at: now,
    });
    this.#refreshPlayer(userId, now);
    await this.#leaderboardChanged();
    return ok(this.#reply(meta, stored, question));
  }

  /**
   * A live show's answer: only to the question that is out, inside its window, once. The reply
   * says it is locked in and nothing more; the score moves on the board at the reveal.
   */
  async #answerLive(
    meta: MetaRow,
    userId: number,
    input: AnswerInput,
    question: QuestionRow,
    play: PlayRow | null,
    now: number,
  ): Promise<RoomResult<AnswerReply>> {
    if (play) return this.#cheat(meta, userId, CHEAT.secondAnswer(input.questionId), "already_answered", PLAY.alreadyAnswered);
    const current = meta.show_stage === "question" && meta.show_ord === question.ord;
    if (!current || !insideWindow(now, question.opened_at!)) return fail(409, "answer_window_closed", PLAY.windowClosed);
    if (!this.#optionsOf(question).includes(input.answer)) return fail(400, "not_an_option", PLAY.notAnOption);
    const responseMs = liveResponseMs(now, question.opened_at!, this.#allowanceFor(userId));
    const right = input.answer === question.correct_answer;
    const stored = this.#store.recordLiveAnswer(userId, question.ord, question.opened_at!, {
      answer: input.answer,
      isCorrect: right,
      responseMs,
      points: answerPoints(right, responseMs),
      xp: answerXp(right, responseMs),
      at: now,
    });
    return ok(this.#locked(meta, stored, question));
  }

  async #complete(first: MetaRow, userId: number): Promise<RoomResult<CompleteResult>> {
    const participant = this.#store.participant(userId);
    if (!participant) return fail(409, "not_joined", PLAY.notJoined);
    if (participant.disqualified_reason !== null)
      return fail(409, "player_disqualified", PLAY.disqualified(participant.disqualified_reason));
    if (first.phase === "upcoming" || first.phase === "cancelled") return fail(409, "not_live", PLAY.notLive);
    const now = Date.now();
    // Finishing is local; the D1 write joins the completions of the same moment in one batch,
    // awaited outside the serial chain so that the next completions can join it.
    const written = await this.#serial(async () => {
      if (this.#store.meta()!.phase !== "live") return null;
      this.#store.finish(userId, now);
      this.#refreshPlayer(userId, now);
      await this.#leaderboardChanged();
      return this.#store.participant(userId)!.results_written === 0 ? { done: this.#completions.add(this.#completion(userId, now)) } : {};
    });
    if (written) {
      await written.done;
      await this.#serial(async () => {
        const meta = this.#store.meta()!;
        if (meta.phase !== "live" || !this.#store.everyoneFinished()) return;
        try {
          await this.#advance(Date.now());
        } catch (e) {
          // The player is finished either way; the alarm retries the settlement shortly.
          console.error("early settlement failed", meta.tournament_id, e);
          this.#store.schedule("lifecycle", Date.now() + START_RECHECK_MS);
          await this.#arm();
        }
      });
    }
    const [me] = computeStandings(
      [this.#store.participant(userId)!],
      this.#counted.plays(this.#store.plays(userId)),
      this.#counted.slots(),
      now,
      true,
    );
    // Prize play: the score is the verdict summed up, shown once the tournament has ended.
    const score = this.#verdictWithheld(this.#store.meta()!) ? null : me!.score;
    return ok({ finished: true as const, score, questionsAnswered: me!.questionsAnswered });
  }

  // ---- The live show ----

  /** Runs the show's clock as far as the time allows: open, reveal, finish; then waits for the next step. */
  async #runShow(now: number): Promise<void> {
    for (;;) {
      const meta = this.#store.meta()!;
      if (meta.format !== "live_show" || meta.phase !== "live") {
        this.#store.unschedule("show");
        return;
      }
      const step = showStepWhilePaused(
        { stage: meta.show_stage, ord: meta.show_ord, since: meta.show_since ?? now, total: this.#store.slotCount() },
        now,
        meta.paused_at !== null,
      );
      switch (step.kind) {
        case "hold":
          // The host paused the show: no next question, and no deadline, until they resume.
          this.#store.unschedule("show");
          return;
        case "open":
          this.#openQuestion(step.ord, now);
          continue;
        case "reveal":
          this.#reveal(step.ord, now);
          continue;
        case "finish":
          // Everyone has played every question: the lifecycle step settles at once.
          this.#store.finishAll(now);
          this.#store.setShow("over", meta.show_ord, now);
          this.#store.unschedule("show");
          return;
        case "wait":
          this.#store.schedule("show", step.until);
          return;
        case "done":
          this.#store.unschedule("show");
          return;
      }
    }
  }

  /** The question goes out to every connected player at the same moment: its window starts now for everyone. */
  #openQuestion(ord: number, now: number): void {
    this.#store.setShow("question", ord, now);
    const current = this.#store.meta()!;
    const question = this.#store.questionAt(ord)!;
    const spectators: WebSocket[] = [];
    for (const ws of this.ctx.getWebSockets()) {
      const { userId } = this.#attachment(ws);
      const p = this.#store.participant(userId);
      if (!p || p.finished_at !== null) spectators.push(ws);
      else send(ws, { type: "question", question: this.#presentLive(current, userId, question, now) });
    }
    if (spectators.length > 0) {
      const status = JSON.stringify(this.#statusFrame(current, now));
      for (const ws of spectators) sendText(ws, status);
    }
  }

  /**
   * The window has closed for everyone: the answer, how the room answered, each player's own
   * result, the board with this question counted, and a ping to keep the latency allowance fresh.
   */
  #reveal(ord: number, now: number): void {
    this.#store.setShow("reveal", ord, now);
    const revealed = this.#store.meta()!;
    const question = this.#store.questionAt(ord)!;
    this.#rebuildBoard(now);
    const nextAt = this.#heldNext(revealed) ? null : showStageEndsAt({ stage: "reveal", ord, since: now, total: this.#store.slotCount() });
    const common = JSON.stringify({
      type: "reveal",
      questionId: question.question_id,
      index: ord,
      correctAnswer: question.correct_answer,
      explanation: question.explanation,
      distribution: this.#distribution(question),
      nextAt: nextAt === null ? null : iso(nextAt),
      ...(question.voided_at !== null ? { voided: true } : {}),
    });
    const prefix = `${common.slice(0, -1)},"you":`;
    for (const ws of this.ctx.getWebSockets()) {
      const play = this.#store.play(this.#attachment(ws).userId, ord);
      sendText(ws, `${prefix}${play?.answer != null ? JSON.stringify(this.#result(revealed, play, question)) : "null"}}`);
    }
    this.#pushLeaderboard(now);
    for (const ws of this.ctx.getWebSockets()) this.#ping(ws, now);
  }

  #statusFrame(meta: MetaRow, now: number): TournamentServerFrame {
    return { type: "status", status: publicStatus(meta.phase), show: this.#showState(meta, now) };
  }

  #showState(meta: MetaRow, now: number): LiveShowState | null {
    if (meta.format !== "live_show") return null;
    const total = this.#store.slotCount();
    if (meta.phase === "upcoming") {
      // Past the start time the room waits for the minimum number of players: no time to show.
      return { stage: "waiting", index: -1, total, nextAt: now < meta.start_time ? iso(meta.start_time) : null };
    }
    const stage = meta.phase === "live" ? meta.show_stage : "over";
    const endsAt = this.#heldNext(meta) ? null : showStageEndsAt({ stage, ord: meta.show_ord, since: meta.show_since ?? now, total });
    const paused = this.#holding(meta) ? { paused: true } : {};
    return { stage, index: meta.show_ord, total, nextAt: endsAt === null ? null : iso(endsAt), ...paused };
  }

  // ---- Internals ----

  /** The entry reference of a player already seated, else null. */
  #joinedReference(meta: MetaRow, userId: number): string | null {
    if (!this.#store.participant(userId)) return null;
    return entryReference(meta.tournament_id, userId, this.#store.departures(userId));
  }

  /** Why a player may not join now, in the product's order after sign-in: open, level, capacity (the balance is D1's). */
  #joinRefusal(meta: MetaRow, level: number, now: number): RoomFailure | null {
    // Closed once over, and from the end time on even before the alarm has settled it; a live
    // show closes when its first question goes out.
    const over = meta.end_time !== null && now >= meta.end_time;
    const open = meta.phase === "upcoming" || (meta.phase === "live" && meta.format === "self_paced");
    if (!open || over) return fail(409, "join_closed", PLAY.joinClosed, JOIN.failedTitle);
    if (!meta.practice && level < meta.min_level) return fail(403, "level_too_low", JOIN.levelDescription(meta.min_level), JOIN.levelTitle);
    if (meta.max_participants !== null && this.#store.participantCount() >= meta.max_participants)
      return fail(409, "tournament_full", JOIN.full.description, JOIN.full.title);
    return null;
  }

  /**
   * One group commit of the joins waiting (in #serial). Each waiting join is answered from memory
   * when it can be (already in, closed, level, full); the rest, one row per player and no more
   * than the seats left, go to D1 in one batch; whoever does not fit waits for the next group,
   * since a row refused for money frees its seat again.
   */
  async #flushJoins(): Promise<void> {
    this.#joinFlushQueued = false;
    const waiting = this.#joinQueue.splice(0);
    try {
      // After a group whose batch failed, D1 may hold seats this copy does not: count them first.
      if (!this.#synced) await this.#syncParticipants(this.#store.meta()!.tournament_id);
      const meta = this.#store.meta()!;
      const now = Date.now();
      const seatsLeft = Math.min(
        JOIN_GROUP_MAX,
        meta.max_participants === null ? Infinity : meta.max_participants - this.#store.participantCount(),
      );
      const group: WaitingJoin[] = [];
      const inGroup = new Set<number>();
      const later: WaitingJoin[] = [];
      for (const w of waiting) {
        const seated = this.#joinedReference(meta, w.user.userId);
        const refusal = seated === null ? this.#joinRefusal(meta, w.user.level, now) : null;
        if (seated !== null) w.resolve(ok({ alreadyJoined: true, reference: seated, answer: null }));
        else if (refusal) w.resolve(refusal);
        else if (group.length >= seatsLeft || inGroup.has(w.user.userId)) later.push(w);
        else {
          group.push(w);
          inGroup.add(w.user.userId);
        }
      }
      this.#joinQueue.unshift(...later);
      if (group.length > 0) await this.#commitJoins(meta, group, now);
    } catch (e) {
      // Whatever has not been answered fails with the error (answering twice changes nothing).
      for (const w of waiting) w.reject(e);
      this.#joinQueue = this.#joinQueue.filter((w) => !waiting.includes(w));
    } finally {
      if (this.#joinQueue.length > 0 && !this.#joinFlushQueued) {
        this.#joinFlushQueued = true;
        void this.#serial(() => this.#flushJoins());
      }
    }
  }

  async #commitJoins(meta: MetaRow, group: WaitingJoin[], now: number): Promise<void> {
    const fee = meta.entry_fee_cents;
    const rows: GroupRow[] = group.map(({ user, claim }) => ({
      u: user.userId,
      ref: entryReference(meta.tournament_id, user.userId, this.#store.departures(user.userId)),
      key: claim?.key ?? null,
      at: claim?.claimedAt ?? null,
      d: user.deviceHash,
      n: user.networkHash,
    }));
    const statements = joinGroupStatements(this.env.DB, {
      tournamentId: meta.tournament_id,
      title: meta.title,
      feeCents: fee,
      joinedAt: now,
      prize: isPrize(meta),
      rows,
    });
    let results: D1Result[];
    try {
      results = await this.env.DB.batch(statements);
    } catch (e) {
      // Nothing is known about this group: whatever D1 holds is adopted before the next join.
      this.#synced = false;
      for (const w of group) w.reject(e);
      return;
    }
    const readback = new Map((results[results.length - 2]!.results as GroupReadback[]).map((r) => [r.u, r]));
    let tournament = presentRow(results[results.length - 1]!.results[0] as TournamentAnswerRow | undefined);
    const seated = new Map<number, { reference: string; balanceCents: number; fresh: boolean }>();
    const refused: [WaitingJoin, RoomFailure][] = [];
    for (const [i, w] of group.entries()) {
      const r = readback.get(w.user.userId);
      if (r?.joined_at != null) {
        seated.set(w.user.userId, { reference: rows[i]!.ref, balanceCents: r.balance, fresh: r.joined_at === now });
        this.#store.addParticipants([
          {
            user_id: w.user.userId,
            username: w.user.username,
            level: w.user.level,
            joined_at: r.joined_at,
            finished_at: null,
            results_written: 0,
            show_level: w.user.showLevel ? 1 : 0,
            device_hash: w.user.deviceHash,
            network_hash: w.user.networkHash,
          },
        ]);
        this.#refreshPlayer(w.user.userId, now);
      } else if (!r || !r.claim_held) {
        refused.push([w, claimLost()]);
      } else if (r.refusal === "account_frozen" || r.refusal === "account_suspended") {
        refused.push([w, await this.#groupRefusal(r, fee)]);
      } else if (r.staff) {
        refused.push([w, fail(403, "staff_excluded", JOIN.staffExcluded.description, JOIN.staffExcluded.title)]);
      } else if (r.refusal !== null) {
        // A break or an entry-fee limit that the batch saw (it may have changed after the Worker's checks).
        refused.push([w, await this.#groupRefusal(r, fee)]);
      } else {
        const short = formatCents(Math.max(fee - r.balance, 1));
        refused.push([w, fail(409, "insufficient_balance", JOIN.balanceDescription(short, formatCents(fee)), JOIN.balanceTitle)]);
      }
    }
    for (const [w, refusal] of refused) w.resolve(refusal);
    if (seated.size === 0) return;
    // A second press that waited behind this group, from a player it seated, gets the same answer.
    const seatedWaiting = group.filter((w) => seated.has(w.user.userId));
    this.#joinQueue = this.#joinQueue.filter((w) => {
      if (!seated.has(w.user.userId)) return true;
      seatedWaiting.push(w);
      return false;
    });
    try {
      if (fee > 0) this.#store.setPrizePool(prizePoolFromFees(this.#store.participantCount() * fee));
      // The player who completes the minimum starts a tournament that is waiting for players.
      if (meta.phase === "upcoming" && now >= meta.start_time) {
        await this.#advance(now);
        if (this.#store.meta()!.phase !== meta.phase)
          tournament = presentRow(await tournamentAnswerStatement(this.env.DB, meta.tournament_id).first());
      }
      await this.#leaderboardChanged();
    } finally {
      // The seats are in D1 whatever happened after: every seated player hears so.
      const first = new Set(group);
      for (const w of seatedWaiting) {
        const s = seated.get(w.user.userId)!;
        const answer = tournament && { balanceCents: s.balanceCents, tournament };
        w.resolve(ok({ alreadyJoined: !(first.has(w) && s.fresh), reference: s.reference, answer }));
      }
    }
  }

  /** A row the join's batch refused for the account's standing or a limit, as the route would have refused it. */
  async #groupRefusal(r: GroupReadback, feeCents: number): Promise<RoomFailure> {
    const refusal = (await groupRefusal(this.env.DB, r, feeCents))!;
    return fail(refusal.status, refusal.code, refusal.message);
  }

  #serial<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.#tail.then(fn);
    this.#tail = run.catch(() => undefined);
    return run;
  }

  /** The room's config, loaded from D1 on first use; null when the tournament does not exist. */
  async #ready(tournamentId?: number): Promise<MetaRow | null> {
    const meta = this.#store.meta();
    if (meta && tournamentId !== undefined && meta.tournament_id !== tournamentId) {
      throw new Error(`room of tournament ${meta.tournament_id} was asked about tournament ${tournamentId}`);
    }
    if (meta && this.#synced) return meta;
    if (!meta && tournamentId === undefined) return null;
    return this.#serial(async () => {
      const current = this.#store.meta();
      if (current) {
        if (!this.#synced) await this.#syncParticipants(current.tournament_id);
        return this.#store.meta();
      }
      const config = await loadConfig(this.env.DB, tournamentId!);
      if (!config) return null;
      // The questions are fixed from here on: commit to them (practice has nothing to win).
      const committed = config.meta.practice ? null : await commitTo(config.meta.tournament_id, config.questions);
      this.#store.install({
        ...config,
        meta: {
          ...config.meta,
          salt: committed?.salt ?? null,
          commitment: committed?.commitment ?? null,
          commitment_version: committed?.commitment_version ?? FAIRNESS_VERSION,
        },
      });
      this.#synced = true;
      await this.#publishCommitment();
      // Sets the first alarm (or starts a tournament whose start time has passed).
      await this.#advance(Date.now());
      return this.#store.meta();
    });
  }

  /**
   * Puts the commitment in D1, where GET /api/tournaments/{id} shows it. A room from before
   * commitments existed gets one now, while its questions are still unseen.
   */
  async #publishCommitment(): Promise<void> {
    const meta = this.#store.meta()!;
    if (meta.practice || meta.commitment_published) return;
    if (meta.commitment === null) {
      if (meta.phase !== "upcoming") return;
      const fresh = await commitTo(meta.tournament_id, this.#store.questions());
      this.#store.setCommitment(fresh.salt, fresh.commitment, false, fresh.commitment_version);
    }
    const { salt, commitment, commitment_version } = this.#store.meta()!;
    await commitmentStatement(this.env.DB, meta.tournament_id, commitment!).run();
    this.#store.setCommitment(salt!, commitment!, true, commitment_version);
  }

  /**
   * D1 has the proof of every entry (the participant row written with the fee) and of every leave
   * (its refund); adopt what this copy missed, e.g. when it stopped between D1's batch and its own write.
   */
  async #syncParticipants(tournamentId: number): Promise<void> {
    const [participants, departures] = await Promise.all([
      loadParticipants(this.env.DB, tournamentId),
      loadDepartures(this.env.DB, tournamentId),
    ]);
    this.#store.adoptDepartures(departures);
    if (this.#store.meta()?.phase === "upcoming") this.#store.dropParticipantsNotIn(new Set(participants.map((p) => p.user_id)));
    this.#store.addParticipants(participants);
    this.#synced = true;
    this.#boardBuilt = false;
  }

  #isLive(meta: MetaRow, now: number): boolean {
    return meta.phase === "live" && (meta.end_time === null || now < meta.end_time);
  }

  #playRefusal(meta: MetaRow, userId: number, now: number): RoomFailure | null {
    const participant = this.#store.participant(userId);
    if (!participant) return fail(409, "not_joined", PLAY.notJoined);
    if (participant.disqualified_reason !== null)
      return fail(409, "player_disqualified", PLAY.disqualified(participant.disqualified_reason));
    if (participant.finished_at !== null) return fail(409, "already_finished", PLAY.alreadyFinished);
    if (!this.#isLive(meta, now)) return fail(409, "not_live", PLAY.notLive);
    return null;
  }

  async #cheat(meta: MetaRow, userId: number, reason: string, code: ErrorCode, message: string): Promise<RoomFailure> {
    await this.env.DB.batch(cheatAttemptStatements(this.env.DB, meta.tournament_id, userId, reason));
    return fail(409, code, message);
  }

  #optionsOf(question: QuestionRow): string[] {
    let options = this.#options.get(question.ord);
    if (!options) {
      options = JSON.parse(question.options) as string[];
      this.#options.set(question.ord, options);
    }
    return options;
  }

  #present(meta: MetaRow, userId: number, play: PlayRow, now: number): PlayerQuestion {
    const question = this.#store.questionAt(play.ord)!;
    if (meta.format === "live_show") return this.#presentLive(meta, userId, question, now);
    return {
      id: question.question_id,
      question: question.question,
      options: seededShuffle(this.#optionsOf(question), `${meta.tournament_id}:${userId}:${question.question_id}`),
      index: this.#slotOf(meta, play.ord),
      total: this.#store.slotCount(),
      issuedAt: iso(play.issued_at),
      deadline: iso(play.issued_at + QUESTION_TIME_MS),
      remainingMs: Math.max(0, play.issued_at + QUESTION_TIME_MS - now),
      result: play.answer !== null ? this.#reply(meta, play, question) : null,
    };
  }

  /** A live show's question as one player sees it: the shared clock, and their answer locked until the reveal. */
  #presentLive(meta: MetaRow, userId: number, question: QuestionRow, now: number): PlayerQuestion {
    const openedAt = question.opened_at ?? now;
    const play = this.#store.play(userId, question.ord);
    return {
      id: question.question_id,
      question: question.question,
      options: seededShuffle(this.#optionsOf(question), `${meta.tournament_id}:${userId}:${question.question_id}`),
      index: question.ord,
      total: this.#store.slotCount(),
      issuedAt: iso(openedAt),
      deadline: iso(openedAt + QUESTION_TIME_MS),
      remainingMs: Math.max(0, openedAt + QUESTION_TIME_MS - now),
      result: play?.answer != null ? this.#reply(meta, play, question) : null,
    };
  }

  /**
   * An answer's reply: the scored result only once nobody can pass the verdict on. A live show's
   * answer is locked until its question is revealed; a self-paced prize tournament's until the
   * tournament has ended (practice scores at once).
   */
  #reply(meta: MetaRow, play: PlayRow, question: QuestionRow): AnswerReply {
    if (meta.format === "live_show" ? !this.#revealed(meta, question.ord) : this.#verdictWithheld(meta))
      return this.#locked(meta, play, question);
    return this.#result(meta, play, question);
  }

  /**
   * Whether a self-paced prize tournament still keeps every verdict to itself: right or wrong,
   * points, scores. Every standard tournament counts as prize play, free ones included; only
   * practice scores at once. Shown once the tournament has ended (completed).
   */
  #verdictWithheld(meta: MetaRow): boolean {
    return meta.format === "self_paced" && !meta.practice && meta.phase !== "completed";
  }

  /**
   * A scored answer with its signed receipt. A self-paced prize tournament withholds the correct
   * answer and explanation until it has ended, so nobody can pass them on to players still
   * playing; practice shows them at once.
   */
  #result(meta: MetaRow, play: PlayRow, question: QuestionRow): AnswerResult {
    const withheld = meta.format === "self_paced" && !meta.practice && meta.phase !== "completed";
    // A voided question counts for nobody: its answer earns nothing, and its receipt says so.
    const voided = question.voided_at !== null;
    return {
      isCorrect: play.is_correct === 1,
      pointsEarned: voided ? 0 : (play.points ?? 0),
      xpEarned: voided ? 0 : (play.xp ?? 0),
      correctAnswer: withheld ? null : question.correct_answer,
      explanation: withheld ? null : question.explanation,
      withheldUntil: withheld && meta.end_time !== null ? iso(meta.end_time) : null,
      responseTime: play.response_ms ?? 0,
      receipt: play.answer === null ? null : this.#receipt(meta, play, question, voided ? 0 : (play.points ?? 0)),
    };
  }

  /**
   * An answer before its verdict may be known: locked in, its receipt without points. Revealed
   * when a live show's window closes, or when a self-paced prize tournament ends.
   */
  #locked(meta: MetaRow, play: PlayRow, question: QuestionRow): AnswerLocked {
    const revealAt = meta.format === "live_show" ? question.opened_at! + LIVE_SHOW_WINDOW_MS : (meta.end_time ?? play.issued_at);
    return {
      locked: true,
      questionId: question.question_id,
      answer: play.answer!,
      responseTime: play.response_ms ?? 0,
      revealAt: iso(revealAt),
      receipt: this.#receipt(meta, play, question, null),
    };
  }

  #receipt(meta: MetaRow, play: PlayRow, question: QuestionRow, points: number | null): AnswerReceipt {
    return signReceipt(this.env, {
      tournamentId: meta.tournament_id,
      userId: play.user_id,
      questionId: question.question_id,
      answer: play.answer!,
      receivedAt: iso(play.answered_at ?? play.issued_at),
      responseMs: play.response_ms ?? 0,
      points,
    });
  }

  /** The ramp slot (the player's question number, 0-based) of a question of the pool. */
  #slotOf(meta: MetaRow, ord: number): number {
    return Math.floor(ord / meta.draw_width);
  }

  /** The question a player gets for a slot: one of its candidates, drawn from the secret salt. */
  #ordFor(meta: MetaRow, userId: number, slot: number): number {
    return slot * meta.draw_width + drawCandidate(drawSecret(meta.commitment_version, meta.salt ?? ""), userId, slot, meta.draw_width);
  }

  #revealed(meta: MetaRow, ord: number): boolean {
    if (meta.phase === "completed" || meta.phase === "settling") return true;
    return ord < meta.show_ord || (ord === meta.show_ord && (meta.show_stage === "reveal" || meta.show_stage === "over"));
  }

  /** How many of a live show's questions have been revealed. */
  #revealedCount(meta: MetaRow): number {
    if (meta.show_stage === "reveal" || meta.show_stage === "over") return meta.show_ord + 1;
    return Math.max(0, meta.show_ord);
  }

  // ---- The board ----

  /** The board, built from storage the first time it is needed (after a start or a sync). */
  #boardNow(now: number): LiveBoard {
    if (!this.#boardBuilt) this.#rebuildBoard(now);
    return this.#board;
  }

  #rebuildBoard(now: number): void {
    const meta = this.#store.meta()!;
    const participants = this.#counted.ranked();
    const final = meta.phase === "completed" || meta.phase === "cancelled";
    const rows: BoardRow[] =
      meta.format === "live_show" && !final
        ? showStandings(participants, (u) => this.#counted.plays(this.#store.plays(u)), this.#counted.revealed(this.#revealedCount(meta)))
        : computeStandings(participants, this.#counted.plays(this.#store.allPlays()), this.#counted.slots(), now, final);
    this.#board.replaceAll(this.#verdictWithheld(meta) ? rows.map(progressOnly) : rows);
    this.#boardBuilt = true;
  }

  /** One player's row moves (an answer, a timed-out question, finishing, joining). */
  #refreshPlayer(userId: number, now: number): void {
    if (!this.#boardBuilt) return this.#rebuildBoard(now);
    const p = this.#store.participant(userId);
    if (!p || p.disqualified_at !== null) return this.#board.remove(userId);
    const meta = this.#store.meta()!;
    const [row] =
      meta.format === "live_show"
        ? showStandings([p], (u) => this.#counted.plays(this.#store.plays(u)), this.#counted.revealed(this.#revealedCount(meta)))
        : computeStandings([p], this.#counted.plays(this.#store.plays(userId)), this.#counted.slots(), now, p.finished_at !== null);
    this.#board.upsert(this.#verdictWithheld(meta) ? progressOnly(row!) : row!);
  }

  // ---- Results to D1 ----

  /** A finishing player's totals and responses, as D1 stores them. */
  #completion(userId: number, now: number): Completion {
    const [me] = computeStandings(
      [this.#store.participant(userId)!],
      this.#counted.plays(this.#store.plays(userId)),
      this.#counted.slots(),
      now,
      true,
    );
    return {
      userId,
      result: {
        u: userId,
        score: me!.score,
        answered: me!.questionsAnswered,
        correct: me!.correctAnswers,
        totalMs: me!.totalResponseMs,
        xp: me!.answerXp,
        finishedAt: me!.finishedAt,
        rank: null,
        prize: 0,
      },
      responses: responseRecords(this.#counted.plays(this.#recordedPlays([userId])), this.#questionIds(), new Set([userId])),
    };
  }

  /**
   * Finishing players' totals and responses to D1 in one batch (practice also credits the
   * answers' XP, each statement gated on the player's row not being completed yet, which the
   * results statement after them changes).
   */
  async #writeCompletions(entries: Completion[]): Promise<void> {
    const meta = this.#store.meta()!;
    const db = this.env.DB;
    await db.batch([
      ...(meta.practice ? entries.map((e) => practiceXpStatement(db, meta.tournament_id, e.userId, e.result.xp)) : []),
      ...participantResultsStatements(
        db,
        meta.tournament_id,
        entries.map((e) => e.result),
      ),
      ...responsesStatements(
        db,
        meta.tournament_id,
        entries.flatMap((e) => e.responses),
      ),
    ]);
    this.#store.markResultsWritten(entries.map((e) => e.userId));
  }

  /**
   * The plays to record in D1: every question issued to these players. A live show issues each
   * question to everyone when it goes out, so one a player never answered is recorded as timed out.
   */
  #recordedPlays(userIds: number[]): PlayRow[] {
    const meta = this.#store.meta()!;
    const plays = userIds.flatMap((u) => [...this.#store.plays(u)]);
    if (meta.format !== "live_show") return plays;
    const opened = this.#store.questions().filter((q) => q.opened_at !== null);
    for (const u of userIds) {
      for (const q of opened) {
        if (!this.#store.play(u, q.ord)) plays.push(unansweredPlay(u, q.ord, q.opened_at!));
      }
    }
    return plays;
  }

  /** What the fair-play checks read: each player's answers in the order they got them, and where they joined from. */
  #playerRecords(): PlayerRecord[] {
    return this.#store.participants().map((p) => ({
      userId: p.user_id,
      deviceHash: p.device_hash,
      networkHash: p.network_hash,
      answers: this.#store.plays(p.user_id).map((play) => {
        const q = this.#store.questionAt(play.ord)!;
        return {
          questionId: q.question_id,
          answer: play.answer,
          correct: play.is_correct === 1,
          responseMs: play.response_ms,
          questionLength: q.question.length,
        };
      }),
    }));
  }

  #questionIds(): Map<number, number> {
    return new Map(this.#store.questions().map((q) => [q.ord, q.question_id]));
  }

  /**
   * The tournament's questions as its end leaves them (docs/questions.md): issued ones are burned,
   * the others were never seen and give their prize use back.
   */
  #questionUse(at: number): { issued: number[]; unissued: number[]; at: number } {
    return { ...this.#store.issuedQuestionIds(), at };
  }

  // ---- Lifecycle ----

  /** Moves the lifecycle on as far as the clock allows, then sets the alarm for what is next. */
  async #advance(now: number): Promise<void> {
    // Before the first question: no staff in prize play, whatever changed since they joined.
    const before = this.#store.meta()!;
    if (before.phase === "upcoming" && now >= before.start_time && isPrize(before)) await this.#removeStaffSeats(before, now);
    const meta = this.#store.meta()!;
    const step = nextLifecycleStep(
      {
        phase: meta.phase,
        practice: meta.practice === 1,
        startTime: meta.start_time,
        // A paused show is not over at its end time: resuming moves the end by the pause.
        endTime: this.#holding(meta) ? null : meta.end_time,
        minPlayers: meta.min_players,
        participants: this.#store.participantCount(),
        everyoneFinished: this.#store.everyoneFinished(),
      },
      now,
    );
    switch (step.kind) {
      case "wait":
        this.#store.schedule("lifecycle", step.until);
        break;
      case "start":
        await this.#start(meta, now);
        break;
      case "cancel":
        await this.#cancel(meta);
        break;
      case "settle":
        await this.#settle(meta, now);
        break;
      case "close_practice_run":
        await this.#closePracticeRun(meta, now);
        break;
      case "done":
        this.#store.unschedule("lifecycle");
        break;
    }
    await this.#arm();
  }

  /**
   * Staff out of prize play at the start (docs/fair-play.md): a participant who is an operator now
   * (the role granted after the join: `npm run admin:grant` only writes D1) or whose join came from
   * a device or network an operator has been seen on since is removed before the first question,
   * the fee refunded as a leave refunds it: once, under the leave's reference, in one batch with
   * the seat, the count and the pool. A repeat finds them gone (or the refund already there).
   */
  async #removeStaffSeats(meta: MetaRow, now: number): Promise<void> {
    if (this.#store.participantCount() === 0) return;
    const db = this.env.DB;
    const { results } = await db
      .prepare(
        `SELECT p.user_id FROM tournament_participants p
         WHERE p.tournament_id = ? AND ${staffSql("p.user_id", "p.device_hash", "p.network_hash", now)}`,
      )
      .bind(meta.tournament_id)
      .all<{ user_id: number }>();
    const staff = results.map((r) => r.user_id).filter((userId) => this.#store.participant(userId) !== null);
    if (staff.length === 0) return;
    const fee = meta.entry_fee_cents;
    let count = this.#store.participantCount();
    let pool = meta.prize_pool_cents;
    const statements = staff.flatMap((userId) => {
      count -= 1;
      if (fee > 0) pool = prizePoolFromFees(count * fee);
      return leaveStatements(db, {
        tournamentId: meta.tournament_id,
        title: meta.title,
        userId,
        feeCents: fee,
        departures: this.#store.departures(userId),
        participants: count,
        prizePoolCents: pool,
        why: "staff",
      });
    });
    await runAtomically(db, statements);
    for (const userId of staff) {
      this.#store.recordDeparture(userId);
      this.#board.remove(userId);
    }
    this.#store.setPrizePool(pool);
    await this.#leaderboardChanged();
  }

  async #start(meta: MetaRow, now: number): Promise<void> {
    // A delayed start keeps the full playing time.
    const endTime = meta.end_time === null ? null : meta.end_time + Math.max(0, now - meta.start_time);
    const userIds = this.#store.participants().map((p) => p.user_id);
    const notice = tournamentNotice(meta.tournament_id, meta.title, "started");
    await this.env.DB.batch([
      startStatement(this.env.DB, meta.tournament_id, endTime),
      ...notificationsStatements(this.env.DB, notice, userIds),
    ]);
    this.#store.setPhase("live", { endTime });
    if (endTime === null || meta.practice) this.#store.unschedule("lifecycle");
    else this.#store.schedule("lifecycle", endTime);
    this.#broadcastStatus(now);
    // A live show's first question goes out now, to everyone at once.
    await this.#runShow(now);
    await this.#notify(userIds, notice.frame);
  }

  async #cancel(meta: MetaRow): Promise<void> {
    const userIds = this.#store.participants().map((p) => p.user_id);
    const notice = tournamentNotice(meta.tournament_id, meta.title, "cancelled", NOTIFY.cancelled(meta.title, meta.entry_fee_cents > 0));
    await runAtomically(this.env.DB, [
      ...cancelStatements(this.env.DB, {
        tournamentId: meta.tournament_id,
        title: meta.title,
        feeCents: meta.entry_fee_cents,
        userIds,
        questionUse: this.#questionUse(Date.now()),
        cause: { by: "too_few_players" },
      }),
      ...notificationsStatements(this.env.DB, notice, userIds),
    ]);
    this.#store.setPhase("cancelled");
    this.#store.setPrizePool(0);
    this.#store.unschedule("lifecycle");
    this.#broadcastStatus(Date.now());
    await this.#notify(userIds, notice.frame);
  }

  /**
   * Exactly once, however often it runs, and resumable: the results go to D1 in chunks of
   * players, each applied once (its marker row is in its batch), then one small batch completes
   * the tournament and pays the prizes. An attempt that fails at any chunk leaves the phase
   * `settling`; the next run (the alarm's retry, or the lifecycle re-check) computes the same
   * chunks and goes on from the first one D1 has no marker for.
   */
  async #settle(meta: MetaRow, now: number): Promise<void> {
    if (meta.settled) {
      this.#store.setPhase("completed");
      this.#store.unschedule("lifecycle");
      return;
    }
    // From here on no answer is accepted, so the results written are the results stored.
    this.#store.setPhase("settling");
    this.#store.unschedule("show");
    // A completion's write that lands after a chunk would undo the chunk's rank and prize.
    await this.#completions.drain();
    // The first attempt's time is the settlement's: every retry writes the same plan.
    const stamp = meta.settle_stamp ?? now;
    if (meta.settle_stamp === null) this.#store.setSettleStamp(stamp);
    const plan = await this.#settlementPlan(meta, stamp);
    const db = this.env.DB;
    const progress = await settlementProgress(db, meta.tournament_id);
    let claimed = 0;
    if (!progress.settled) {
      for (const chunk of settlementChunks(plan)) {
        if (progress.applied.has(chunk.index)) continue;
        try {
          await runAtomically(db, chunkStatements(db, plan, chunk, Date.now()));
        } catch (e) {
          // Its marker was there: an earlier attempt applied it and lost the reply.
          if (!isChunkApplied(e)) throw e;
        }
      }
      [claimed = 0] = await runAtomically(db, completionStatements(db, plan));
    }
    this.#store.recordPlacings(plan.rows.map((r) => ({ userId: r.u, rank: r.rank, prizeCents: r.prize })));
    this.#store.setPhase("completed", { settled: true });
    this.#store.unschedule("lifecycle");
    this.#rebuildBoard(now);
    this.#broadcastStatus(now);
    this.#pushLeaderboard(now);
    // claimed is 0 when an earlier attempt had completed it: that one notified.
    if (claimed > 0) {
      await this.#notify(
        plan.rows.map((r) => r.u),
        plan.notice.frame,
      );
    }
  }

  /** What settlement writes, from the room's own storage: ranks, prizes, XP, flags, responses. */
  async #settlementPlan(meta: MetaRow, stamp: number): Promise<SettlementPlan> {
    // Disqualified players are out of the ranking and voided questions count for nobody (decision 017).
    const standings = computeStandings(
      this.#counted.ranked(),
      this.#counted.plays(this.#store.allPlays()),
      this.#counted.slots(),
      stamp,
      true,
    );
    const ids = standings.map((s) => s.userId);
    const prizes = awardPrizes(standings, meta.prize_pool_cents);
    const levels = await userLevels(this.env.DB, ids);
    return {
      tournamentId: meta.tournament_id,
      title: meta.title,
      stamp,
      endTime: Math.min(stamp, meta.end_time ?? stamp),
      rows: standings.map((s) => ({
        u: s.userId,
        score: s.score,
        answered: s.questionsAnswered,
        correct: s.correctAnswers,
        totalMs: s.totalResponseMs,
        xp: s.answerXp + placementXp(s.rank, levels.get(s.userId) ?? s.level),
        finishedAt: s.finishedAt,
        rank: s.rank,
        prize: prizes.byUser.get(s.userId) ?? 0,
        won: s.rank === 1 ? (1 as const) : (0 as const),
      })),
      unclaimed: prizes.unclaimed,
      responses: responseRecords(this.#counted.plays(this.#recordedPlays(ids)), this.#questionIds(), new Set(ids)),
      notice: tournamentNotice(meta.tournament_id, meta.title, "completed"),
      flags: meta.practice ? new Map() : fairPlayFlags(this.#playerRecords()),
      questionUse: this.#questionUse(stamp),
    };
  }

  /**
   * A practice run ends when its player finishes or its time runs out: the results (and the XP of
   * the answers) go to D1 if they have not yet, and the run is completed. No placing, no prize.
   */
  async #closePracticeRun(meta: MetaRow, now: number): Promise<void> {
    await this.#completions.drain();
    for (const p of this.#store.participants()) {
      if (p.results_written !== 0) continue;
      this.#store.finish(p.user_id, now);
      await this.#writeCompletions([this.#completion(p.user_id, now)]);
    }
    // Practice shows each answer at once: whatever it drew is burned (already so unless the demo bank is reused).
    const { issued } = this.#questionUse(now);
    await this.env.DB.batch([
      closePracticeRunStatement(this.env.DB, meta.tournament_id, now),
      ...(issued.length > 0 ? [burnStatement(this.env.DB, issued, now)] : []),
    ]);
    this.#store.setPhase("completed", { settled: true });
    this.#store.unschedule("lifecycle");
    this.#rebuildBoard(now);
    this.#broadcastStatus(now);
  }

  async #arm(): Promise<void> {
    const next = this.#store.earliestDeadline();
    if (next === null) return this.ctx.storage.deleteAlarm();
    // Never exactly now: an alarm set for the present from inside alarm() may not fire again.
    await this.ctx.storage.setAlarm(Math.max(next, Date.now() + 1));
  }

  // ---- Pushes ----

  /** Marks the leaderboard changed: sockets get it with the next flush, sooner in a small room than in a large one. */
  async #leaderboardChanged(): Promise<void> {
    if (this.#store.scheduled("flush") !== null) return;
    const sockets = this.ctx.getWebSockets().length;
    if (sockets === 0) return;
    this.#store.schedule("flush", Date.now() + leaderboardPushInterval(sockets));
    await this.#arm();
  }

  /** Top rows serialized once per version; each socket's own rank spliced in. */
  #pushLeaderboard(now: number): void {
    const sockets = this.ctx.getWebSockets();
    if (sockets.length === 0) return;
    // The board shows stored answers only.
    this.#store.commit();
    const prefix = this.#leaderboardPrefix(now);
    const board = this.#board;
    for (const ws of sockets) sendText(ws, `${prefix}${JSON.stringify(board.standingOf(this.#attachment(ws).userId))}}`);
  }

  /** A leaderboard frame up to its `me`: the top rows' JSON is built once per version of the board, for every socket. */
  #leaderboardPrefix(now: number): string {
    const board = this.#boardNow(now);
    return `{"type":"leaderboard","version":${board.version},"top":${board.topJson(LEADERBOARD_PUSH_SIZE)},"me":`;
  }

  /** What a (re)connecting socket needs: the status, the board, and in a live show where the show is and a ping. */
  #sync(ws: WebSocket, meta: MetaRow, now: number): void {
    const { userId } = this.#attachment(ws);
    send(ws, this.#statusFrame(meta, now));
    // The cached top rows, as the push sends them: a reconnect storm does not rebuild them per socket.
    sendText(ws, `${this.#leaderboardPrefix(now)}${JSON.stringify(this.#board.standingOf(userId))}}`);
    // Only when the host did something: a room without host actions sends what it always did.
    const host = this.#hostFrame(meta, userId);
    if (host.paused || host.voided.length > 0 || host.disqualified !== null) send(ws, host);
    if (meta.format === "live_show" && meta.phase === "live") {
      const question = this.#store.questionAt(meta.show_ord);
      const p = this.#store.participant(userId);
      if (question && meta.show_stage === "question" && p && p.finished_at === null) {
        send(ws, { type: "question", question: this.#presentLive(meta, userId, question, now) });
      } else if (question && meta.show_stage === "reveal") {
        send(ws, this.#revealFrame(meta, userId, question, now));
      }
    }
    // Round trips count only for a live show's latency allowance: elsewhere a ping would cost a
    // send, an attachment write and the client's pong (one more message to wake the room for).
    if (meta.format === "live_show") this.#ping(ws, now);
  }

  /** How many players chose each option of a question, in the question's own order. */
  #distribution(question: QuestionRow): { option: string; count: number }[] {
    const counts = new Map(this.#optionsOf(question).map((o) => [o, 0]));
    for (const p of this.#store.participants()) {
      const answer = this.#store.play(p.user_id, question.ord)?.answer;
      if (answer != null) counts.set(answer, (counts.get(answer) ?? 0) + 1);
    }
    return [...counts].map(([option, count]) => ({ option, count }));
  }

  #revealFrame(meta: MetaRow, userId: number, question: QuestionRow, now: number): TournamentServerFrame {
    const play = this.#store.play(userId, question.ord);
    const nextAt = this.#heldNext(meta)
      ? null
      : showStageEndsAt({
          stage: "reveal",
          ord: question.ord,
          since: meta.show_since ?? now,
          total: this.#store.slotCount(),
        });
    return {
      type: "reveal",
      questionId: question.question_id,
      index: question.ord,
      correctAnswer: question.correct_answer,
      explanation: question.explanation,
      distribution: this.#distribution(question),
      you: play?.answer != null ? this.#result(meta, play, question) : null,
      nextAt: nextAt === null ? null : iso(nextAt),
      ...(question.voided_at !== null ? { voided: true } : {}),
    };
  }

  #broadcastStatus(now: number): void {
    const text = JSON.stringify(this.#statusFrame(this.#store.meta()!, now));
    for (const ws of this.ctx.getWebSockets()) sendText(ws, text);
  }

  // ---- Socket bookkeeping ----

  #attachment(ws: WebSocket): SocketAttachment {
    let a = this.#attachments.get(ws);
    if (!a) {
      // After hibernation the attachment is all that is left of the socket's state.
      const stored = ws.deserializeAttachment() as Partial<SocketAttachment> | null;
      a = { userId: stored?.userId ?? 0, openedAt: stored?.openedAt ?? 0, rtts: stored?.rtts ?? [], pings: stored?.pings ?? [] };
      this.#attachments.set(ws, a);
    }
    return a;
  }

  /** A token bucket per socket: SOCKET_FRAME_BURST at once, refilled at SOCKET_FRAMES_PER_SECOND. */
  #allowFrame(ws: WebSocket): boolean {
    const now = Date.now();
    const bucket = this.#buckets.get(ws) ?? { tokens: SOCKET_FRAME_BURST, at: now };
    bucket.tokens = Math.min(SOCKET_FRAME_BURST, bucket.tokens + ((now - bucket.at) / 1000) * SOCKET_FRAMES_PER_SECOND);
    bucket.at = now;
    this.#buckets.set(ws, bucket);
    if (bucket.tokens < 1) return false;
    bucket.tokens -= 1;
    return true;
  }

  /** Sends a ping with a fresh nonce and notes, in the socket's attachment, when it went out. */
  #ping(ws: WebSocket, now: number): void {
    const a = this.#attachment(ws);
    const nonce = randomHex(16);
    a.pings = [...a.pings, { nonce, at: now }].slice(-PINGS_OUTSTANDING);
    ws.serializeAttachment(a);
    send(ws, { type: "ping", nonce });
  }

  /**
   * A pong: the round trip is from when this room sent the ping it names to when the pong
   * arrived. A nonce this socket was not sent, or already answered, measures nothing, so a client
   * can only make its round trip longer by answering late, which LATENCY_ALLOWANCE_MAX_MS bounds.
   */
  #recordRoundTrip(ws: WebSocket, nonce: string, arrived: number): void {
    const a = this.#attachment(ws);
    const ping = a.pings.find((p) => p.nonce === nonce);
    if (!ping) return;
    a.pings = a.pings.filter((p) => p !== ping);
    const rtt = arrived - ping.at;
    if (rtt >= 0 && rtt <= PONG_MAX_MS) a.rtts = [...a.rtts, rtt].slice(-RTT_SAMPLES);
    ws.serializeAttachment(a);
  }

  /** The player's latency allowance, from the round trips measured on their sockets. */
  #allowanceFor(userId: number): number {
    return latencyAllowance(this.ctx.getWebSockets(`user:${userId}`).flatMap((ws) => this.#attachment(ws).rtts));
  }

  /** Pushes to connected /ws sockets; the notification rows are already stored, so a failure here loses nothing. */
  async #notify(userIds: number[], frame: NotificationFrame): Promise<void> {
    if (userIds.length === 0) return;
    try {
      await pushNotification(this.env, userIds, frame);
    } catch (e) {
      console.error("notification push failed", e);
    }
  }
}

const isId = (n: number) => Number.isSafeInteger(n) && n > 0;

const hostFail = (f: HostFailure): RoomFailure => fail(f.status, f.code, f.message);

/** The fairness report's mark on a question the host voided: still committed and verifiable, counted for nobody. */
const voidMark = (q: QuestionRow): { voided?: true } => (q.voided_at !== null ? { voided: true } : {});

/** `bytes` random bytes as hex. */
const randomHex = (bytes: number) =>
  [...crypto.getRandomValues(new Uint8Array(bytes))].map((b) => b.toString(16).padStart(2, "0")).join("");

/**
 * A self-paced prize tournament's board row before the end: how far the player has got (questions
 * answered, time spent, finished), nothing that depends on right or wrong. Ranked by time, as
 * every score is 0 until settlement puts the real ones in.
 */
const progressOnly = <R extends BoardRow>(row: R): R => ({ ...row, score: 0, correctAnswers: 0, answerXp: 0 });

/** The id of a frame, when it has a usable one: echoed even in the refusal of a malformed frame. */
function frameIdOf(raw: unknown): string | undefined {
  const id = (raw as { id?: unknown } | null)?.id;
  return typeof id === "string" && id.length > 0 && id.length <= 64 ? id : undefined;
}

function send(ws: WebSocket, frame: TournamentServerFrame): void {
  sendText(ws, JSON.stringify(frame));
}

function sendText(ws: WebSocket, text: string): void {
  try {
    ws.send(text);
  } catch {
    // The socket is closing; the client resyncs when it reconnects.
  }
}

/** A tournament row read with tournamentAnswerStatement, as the API shows it. */
const presentRow = (row: TournamentAnswerRow | null | undefined): Tournament | null =>
  row ? presentTournament(tournamentFromRow(row), row.category_name) : null;

/** The scheme every new commitment is made under (decision 015); rooms keep the version they were committed with. */
const FAIRNESS_VERSION = 2;

const committedOf = (questions: readonly { question_id: number; correct_answer: string }[]) =>
  questions.map((q) => ({ questionId: q.question_id, correctAnswer: q.correct_answer }));

/**
 * A fresh secret salt and the commitment to these questions under it: the root of their Merkle
 * tree, one leaf per question in committed order (common/domain/fairness.ts, decision 015).
 */
async function commitTo(
  tournamentId: number,
  questions: readonly { question_id: number; correct_answer: string }[],
): Promise<{ salt: string; commitment: string; commitment_version: number }> {
  const salt = randomHex(32);
  const commitment = questionTree(tournamentId, salt, committedOf(questions)).tree.root;
  return { salt, commitment, commitment_version: FAIRNESS_VERSION };
}
