import { DurableObject } from "cloudflare:workers";
import type { AnswerInput, AnswerReply, CompleteResult, PlayerQuestion } from "../../common/api/tournaments";
import { tournamentClientFrameSchema } from "../../common/api/tournaments";
import type { TournamentStatus } from "../../common/api/types";
import type { FairnessReport } from "../../common/api/fair-play";
import type { ApiErrorBody } from "../../common/api/errors";
import { PLAY } from "../../common/messages";
import type { CancelTournamentResult, HostActionResult, RoomLiveStats } from "../../common/api/admin-tournaments";
import type { ResolvedDraft } from "../admin/tournament-draft";
import type { TallyRow } from "../admin/two-person";
import type { KeyClaim } from "../money/idempotency";
import { closeQuietly, parseJson } from "./notification-hub";
import { TOURNAMENT_ID_HEADER, USER_ID_HEADER } from "./hub-client";
import { publishCommitment } from "./room/commitment";
import { RoomCore } from "./room/core";
import { fairnessReport } from "./room/fairness-report";
import { HostActions } from "./room/host-actions";
import { Joins } from "./room/joins";
import { RoomBoard } from "./room/leaderboard";
import { Lifecycle } from "./room/lifecycle";
import { LiveShow, type ShowHooks } from "./room/live-show";
import { OperatorConsole } from "./room/operator-console";
import { Play } from "./room/play";
import { errorFrame } from "./room/play-frames";
import { Presenters } from "./room/presenters";
import { notFound, ok, publicStatus, type Admission, type JoinOutcome, type RoomResult, type RoomUser } from "./room/results";
import { Settlement } from "./room/settlement";
import { ShardedSettlement, ShardSettlementSide, type ShardOrder, type TotalsChunk } from "./room/shard-settlement";
import type { PlayerRecord } from "../../common/domain/fair-play";
import { frameIdOf, RoomSockets, send } from "./room/sockets";
import { Coordinator, PlayShard, type Announcement, type FinalBoard, type HostState, type ShardFigures } from "./room/shards";
import type { MergedBoard } from "./room/leaderboard";
import type { Reported } from "./room/shard-merge";
import { SeatPool, type LastGrant, type LeaseGrant } from "./room/leases";
import { resultsCsv, type ResultsCsvPlayer } from "../../common/domain/host-tools";

export type { Admission, JoinOutcome, RoomFailure, RoomResult, RoomUser } from "./room/results";

/**
 * One per tournament (idFromName(String(tournamentId))): the single writer of its live state.
 * It learns its tournament from D1 on first use, then owns joins (capacity, fees), the lifecycle
 * (one alarm over a table of deadlines), every question issued and answer given (in its own
 * SQLite before any reply), the live show's shared clock, the leaderboard, and settlement.
 *
 * Play arrives as frames on the tournament's sockets (the user is the socket's, so a frame costs
 * no D1 work at all) or as the HTTP endpoints' RPC calls; both run the same rules (./room/play.ts).
 *
 * This class is the object's surface only: each RPC, the socket handlers and the alarm hand over
 * to the room's parts in ./room/ (docs/decisions/004-tournament-room.md, "Layout"), which share
 * one RoomCore: the storage, the serial queue for work that waits on D1 (joins, lifecycle steps
 * and settlement must not interleave; questions and answers only touch local storage, so they
 * never wait behind D1), and the alarm. Design and the plan for tournaments larger than one
 * object: docs/decisions/004-tournament-room.md; the live show's timing:
 * docs/decisions/008-live-show-timing.md.
 */
export class TournamentRoom extends DurableObject<Env> {
  readonly #core: RoomCore;
  readonly #sockets: RoomSockets;
  readonly #board: RoomBoard;
  readonly #show: LiveShow;
  readonly #lifecycle: Lifecycle;
  readonly #play: Play;
  readonly #joins: Joins;
  readonly #host: HostActions;
  readonly #console: OperatorConsole;
  readonly #coordinator: Coordinator;
  readonly #playShard: PlayShard;
  readonly #seatPool: SeatPool;
  readonly #shardSide: ShardSettlementSide;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    const core = new RoomCore(ctx, () => this.env);
    const presenters = new Presenters(core);
    const sockets = new RoomSockets(core);
    const board = new RoomBoard(core, sockets);
    const show = new LiveShow(core, sockets, board, presenters);
    const settlement = new Settlement(core, board, show);
    const lifecycle = new Lifecycle(core, board, show, settlement);
    this.#core = core;
    this.#sockets = sockets;
    this.#board = board;
    this.#show = show;
    this.#lifecycle = lifecycle;
    this.#play = new Play(core, presenters, board, sockets, settlement, lifecycle);
    this.#joins = new Joins(core, board, lifecycle);
    this.#host = new HostActions(core, show, board, lifecycle, presenters);
    this.#console = new OperatorConsole(core, sockets, board, show, lifecycle);
    // A sharded live show (./room/shards.ts): the clock's hooks, settlement by shard, the last merged board.
    const sharded = new ShardedSettlement(core, board, show);
    this.#shardSide = new ShardSettlementSide(core, () => settlement.completions.drain());
    const coordinator = new Coordinator(core, board, show, sharded);
    const playShard = new PlayShard(core, board, show, lifecycle);
    this.#coordinator = coordinator;
    this.#playShard = playShard;
    const shardHooks: ShowHooks = { openAt: (ord) => playShard.openAt(ord), revealed: (ord) => playShard.revealed(ord) };
    const coordinatorHooks: ShowHooks = {
      openAt: (ord, now) => coordinator.openAt(ord, now),
      revealed: (ord, now) => coordinator.revealed(ord, now),
      resumed: (now) => coordinator.resumed(now),
    };
    show.hooks = () => (core.shard !== null ? shardHooks : core.coordinates() ? coordinatorHooks : null);
    lifecycle.settleSharded = (meta, now) => sharded.settle(meta, now);
    board.settledRows = () => (core.coordinates() ? sharded.settledRows() : null);
    this.#console.settledFlags = () => (core.coordinates() ? sharded.settledFlags() : null);
    // Seat leases (./room/leases.ts): the coordinator's pool, closed before a start or a cancel.
    const seatPool = new SeatPool(core, lifecycle);
    this.#seatPool = seatPool;
    lifecycle.seats = { gate: (now) => seatPool.gate(now), close: () => seatPool.close() };
    playShard.restore();
    this.ctx.setWebSocketAutoResponse(new WebSocketRequestResponsePair("ping", "pong"));
  }

  // ---- RPC ----

  /**
   * Called by the scheduler when it creates the tournament, so the first alarm is set at once,
   * and on every cron run after that: an alarm that exhausted its retries is set again here.
   */
  async init(tournamentId: number): Promise<TournamentStatus | null> {
    if (!(await this.#ready(tournamentId))) return null;
    return this.#core.serial(async () => {
      await publishCommitment(this.#core);
      await this.#lifecycle.advance(Date.now());
      // A sharded show settled here (not in the alarm): its shards' final phase goes out from the alarm.
      if (this.#core.coordinates() && this.#core.meta().phase === "completed") {
        this.#coordinator.settled(Date.now());
        await this.#core.arm();
      }
      return publicStatus(this.#core.meta().phase);
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
    return this.#joins.admission(meta, userId, level);
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
    return this.#joins.join(user, claim);
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
    return this.#joins.leave(userId, claim);
  }

  /** The player's open question, or the next one (its 30 s start now), or a refusal. */
  async nextQuestion(tournamentId: number, userId: number): Promise<RoomResult<PlayerQuestion>> {
    const meta = await this.#ready(tournamentId);
    if (!meta) return notFound();
    const result = this.#play.next(meta, userId, Date.now(), null);
    await this.#core.store.stored();
    return result;
  }

  /** Only the questions already issued to this player (in a live show: already sent to everyone), in order. */
  async listQuestions(tournamentId: number, userId: number): Promise<RoomResult<PlayerQuestion[]>> {
    const meta = await this.#ready(tournamentId);
    if (!meta) return notFound();
    return ok(this.#play.issuedTo(meta, userId, Date.now()));
  }

  /**
   * Whether this room put the question to the player, a participant: in a live show, sent out to
   * everyone; self-paced, issued to them. A question report asks this whatever the id, so the
   * report costs the same whether or not the id is one of this tournament's.
   */
  async wasIssued(tournamentId: number, userId: number, questionId: number): Promise<boolean> {
    const meta = await this.#ready(tournamentId);
    return meta !== null && this.#play.wasIssued(meta, userId, questionId);
  }

  async answer(tournamentId: number, userId: number, input: AnswerInput): Promise<RoomResult<AnswerReply>> {
    const meta = await this.#ready(tournamentId);
    if (!meta) return notFound();
    const result = await this.#play.answer(meta, userId, input, Date.now());
    await this.#core.store.stored();
    return result;
  }

  /** Finishes the player: what they did not answer counts as timed out. Repeating it changes nothing. */
  async complete(tournamentId: number, userId: number): Promise<RoomResult<CompleteResult>> {
    const meta = await this.#ready(tournamentId);
    if (!meta) return notFound();
    return this.#play.complete(meta, userId);
  }

  /** The whole board as JSON, built once per change of the standings (the route sends it as it is). */
  async leaderboardJson(tournamentId: number): Promise<RoomResult<string>> {
    const meta = await this.#ready(tournamentId);
    if (!meta) return notFound();
    // A sharded show while it runs: the merged top rows (every player's answers are in the shards).
    const merged = this.#core.coordinates() && meta.phase === "live" ? this.#board.mergedTop() : null;
    return ok(merged ? JSON.stringify(merged) : this.#board.now(Date.now()).allJson());
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
    return fairnessReport(this.#core.store, meta);
  }

  // ---- The operators' console ----

  /**
   * An operator's edit of a tournament nobody joined: D1 is changed and the room takes the new
   * configuration in the same serial turn, so no join can come between the check and the change
   * (or be charged the old fee). New questions get a new commitment, published before anyone
   * can join and so before anyone could have seen them. `poolRaise`: the house pool's increase,
   * counted toward the two-person rule's totals in the edit's own batch with its guard
   * (worker/admin/two-person.ts); the guard refuses the edit.
   */
  async reconfigure(
    tournamentId: number,
    actorId: number,
    draft: ResolvedDraft,
    poolRaise: { row: TallyRow; thresholdCents: number; refusal: string } | null = null,
  ): Promise<RoomResult<null>> {
    if (!(await this.#ready(tournamentId))) return notFound();
    const edit = () => this.#console.reconfigure(tournamentId, actorId, draft, poolRaise);
    // A sharded show: no grants meanwhile, every unused seat back; the shards reload the edition after.
    return this.#core.coordinates() ? this.#seatPool.holdForEdit(edit) : edit();
  }

  /**
   * An operator cancels: every seated player's entry fee back (once: the refund references are
   * the lifecycle cancel's), a notification with the reason, the audit row, all in one batch.
   * Once cancelled, a repeat (or a concurrent cancel, queued behind this one) refunds nothing.
   */
  async cancelByOperator(tournamentId: number, actorId: number, reason: string): Promise<RoomResult<CancelTournamentResult>> {
    if (!(await this.#ready(tournamentId))) return notFound();
    const result = await this.#lifecycle.cancelByOperator(tournamentId, actorId, reason);
    // A sharded show's shards stop too (told from the alarm, until each has it).
    if (this.#core.coordinates() && this.#core.meta().phase === "cancelled") {
      await this.#core.serial(async () => {
        this.#coordinator.cancelled(Date.now());
        await this.#core.arm();
      });
    }
    return result;
  }

  /**
   * The creator of a custom tournament cancels it (the Worker checked who asks): only while it is
   * upcoming and nobody holds a seat, checked in the room's serial order so no join can slip in
   * between. Nobody paid, so nothing is refunded; its questions are given back. A repeat answers
   * as the first did.
   */
  async cancelByCreator(tournamentId: number): Promise<RoomResult<null>> {
    if (!(await this.#ready(tournamentId))) return notFound();
    return this.#lifecycle.cancelByCreator(tournamentId);
  }

  /** What the console's live view shows: sockets, the answer rate, where play is, and what fair play would flag now. */
  async liveStats(tournamentId: number): Promise<RoomResult<RoomLiveStats>> {
    if (!(await this.#ready(tournamentId))) return notFound();
    return this.#console.liveStats(this.#core.coordinates() ? await this.#coordinator.figures() : null);
  }

  // ---- The host's tools (docs/operating.md, "Host tools"; docs/decisions/017-host-tools.md) ----

  /**
   * The host pauses a live show before its next question: an open window runs to its close and
   * reveal as usual, then nothing opens (the alarm holds it, also after a restart: the pause is in
   * storage) until resume. Pausing a paused show changes nothing.
   */
  async pause(tournamentId: number, actorId: number, note: string | null): Promise<RoomResult<HostActionResult>> {
    if (!(await this.#ready(tournamentId))) return notFound();
    return this.#forwarded(await this.#host.pause(tournamentId, actorId, note));
  }

  /**
   * The host resumes: a held reveal starts its countdown again from now, so the next question goes
   * out to everyone at the same instant, timed here; the end time moves by the pause.
   */
  async resume(tournamentId: number, actorId: number, note: string | null): Promise<RoomResult<HostActionResult>> {
    if (!(await this.#ready(tournamentId))) return notFound();
    return this.#forwarded(await this.#host.resume(tournamentId, actorId, note));
  }

  /**
   * The host voids a question that went out (open or revealed) before settlement: it counts for
   * nobody (scores, tiebreak times, timed-out counts and the answers' XP are computed without it),
   * its reveal says so, and the fairness report marks it (the commitment still covers it).
   */
  async voidQuestion(tournamentId: number, actorId: number, index: number, reason: string): Promise<RoomResult<HostActionResult>> {
    if (!(await this.#ready(tournamentId))) return notFound();
    return this.#forwarded(await this.#host.voidQuestion(tournamentId, actorId, index, reason));
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
    return this.#forwarded(await this.#host.disqualify(tournamentId, actorId, userId, reason, approvalId));
  }

  /**
   * A sharded show: a host action that changed something goes to every shard at once (each applies
   * what concerns it), and again from the alarm to a shard that did not confirm it.
   */
  async #forwarded(result: RoomResult<HostActionResult>): Promise<RoomResult<HostActionResult>> {
    if (!this.#core.coordinates() || !result.ok || !result.value.changed) return result;
    await this.#core.serial(async () => {
      this.#coordinator.hostChanged(Date.now());
      await this.#coordinator.deliver(Date.now());
      await this.#core.arm();
    });
    return result;
  }

  /**
   * The results for the operators' export: every player by rank (the disqualified last, without a
   * rank), each answer with its index, choice, verdict (once known), response time, whether the
   * question was voided, and its signed receipt, as the player got it.
   */
  async resultsCsv(tournamentId: number): Promise<RoomResult<string>> {
    const meta = await this.#ready(tournamentId);
    if (!meta) return notFound();
    // A sharded show: the players and answers are the shards'.
    if (this.#core.coordinates()) return ok(resultsCsv(await this.#coordinator.csvPlayers()));
    return this.#host.resultsCsv(meta);
  }

  /** To a play shard: its players' rows of the operators' results export. */
  async shardResults(tournamentId: number): Promise<ResultsCsvPlayer[]> {
    if (this.#core.shard === null || !(await this.#ready(tournamentId))) throw new Error("not a play shard of this tournament");
    return this.#host.csvPlayers(this.#core.meta());
  }

  // ---- A sharded live show: the coordinator and its play shards (./room/shards.ts, ./room/leases.ts) ----

  /** To the coordinator: seats for shard k's lease, granted once per `grantId`; `ahead`: asked before need (no take-back). */
  async leaseSeats(tournamentId: number, k: number, grantId: string, want: number, ahead = false): Promise<LeaseGrant> {
    // The stored meta is enough (no D1 sync): a grant reads only the capacity, the phase and the leases.
    if (!this.#core.store.meta() && !(await this.#ready(tournamentId))) throw new Error(`no tournament ${tournamentId}`);
    if (this.#core.meta().tournament_id !== tournamentId || !this.#core.coordinates()) throw new Error("not this show's coordinator");
    return this.#seatPool.grant(k, grantId, want, ahead);
  }

  /** To a play shard: gives back the seats of its lease it does not use (once per `round`); `close`: registration is over. */
  async leaseReturn(tournamentId: number, round: string, last: LastGrant, close: boolean): Promise<number> {
    if (this.#core.shard === null || !(await this.#ready(tournamentId))) throw new Error("not a play shard of this tournament");
    return this.#core.serial(async () => this.#joins.leases!.giveBack(round, last, close));
  }

  /** To a play shard: question `ord` opens at `openAt`. False when the shard refuses (its questions differ from the commitment). */
  async shardAnnounce(tournamentId: number, a: Announcement): Promise<boolean> {
    if (this.#core.shard === null || !(await this.#ready(tournamentId))) return false;
    return this.#playShard.announce(a);
  }

  /** To the coordinator: a shard's top rows and score histogram after its reveal of `ord`. */
  async shardReport(tournamentId: number, k: number, reported: Reported): Promise<void> {
    if (!(await this.#ready(tournamentId)) || !this.#core.coordinates()) return;
    await this.#core.serial(async () => this.#coordinator.report(k, reported));
  }

  /** To a play shard: the merged board, for its sockets. */
  async shardBoard(tournamentId: number, merged: MergedBoard): Promise<void> {
    if (this.#core.shard === null || !(await this.#ready(tournamentId))) return;
    this.#playShard.takeBoard(merged);
  }

  /** To a play shard: a chunk of its players' totals for the settlement; null while a window is open here. */
  async shardTotals(tournamentId: number, after: number, limit: number): Promise<TotalsChunk | null> {
    if (this.#core.shard === null || !(await this.#ready(tournamentId))) return null;
    await this.#core.store.stored();
    return this.#shardSide.totals(after, limit);
  }

  /** To a play shard: these players' answers (the pair checks of players sharing a device or network). */
  async shardAnswers(tournamentId: number, userIds: number[]): Promise<PlayerRecord[]> {
    if (this.#core.shard === null || !(await this.#ready(tournamentId))) throw new Error("not a play shard of this tournament");
    return this.#shardSide.answersOf(userIds);
  }

  /** To a play shard: its players' places; their rows go to D1, each chunk once. True once all are in. */
  async shardSettle(tournamentId: number, order: ShardOrder): Promise<boolean> {
    if (this.#core.shard === null || !(await this.#ready(tournamentId))) return false;
    return this.#shardSide.write(order);
  }

  /** To a play shard: the host's marks (pause, voided questions, disqualified players), applied once each. */
  async shardHost(tournamentId: number, host: HostState): Promise<void> {
    if (this.#core.shard === null || !(await this.#ready(tournamentId))) throw new Error("not a play shard of this tournament");
    await this.#playShard.host(host);
  }

  /** To a play shard: its sockets and recent answers, for the console's live view. */
  async shardFigures(tournamentId: number): Promise<ShardFigures> {
    if (this.#core.shard === null || !(await this.#ready(tournamentId)))
      return { sockets: 0, connectedPlayers: 0, recentAnswers: 0, flags: [] };
    return this.#console.figures(Date.now(), true);
  }

  /** To a play shard: settled; its players' places and the final board. */
  async shardFinal(tournamentId: number, final: FinalBoard): Promise<void> {
    if (this.#core.shard === null || !(await this.#ready(tournamentId))) return;
    await this.#core.serial(() => this.#playShard.final(final));
  }

  // ---- Alarm: one alarm, many deadlines ----

  override async alarm(): Promise<void> {
    if (!(await this.#ready())) return;
    await this.#core.serial(async () => {
      const now = Date.now();
      await this.#show.run(now);
      // The lifecycle step reads the phase and the clock, so running it early or twice is harmless.
      await this.#lifecycle.advance(now);
      const { store } = this.#core;
      const flushAt = store.scheduled("flush");
      if (flushAt !== null && flushAt <= now) {
        store.unschedule("flush");
        this.#board.push(now);
      }
      if (this.#core.coordinates()) {
        const phase = this.#core.meta().phase;
        if (phase === "completed") this.#coordinator.settled(Date.now());
        if (phase === "cancelled") this.#coordinator.cancelled(Date.now());
        this.#coordinator.merge.due(Date.now());
      }
      await this.#core.arm();
    });
    // A sharded show: announcements and the final board out, a shard's report in (each retried
    // from here). Outside the serial queue: the other object's RPC waits on its own queue, and a
    // shard's report and the coordinator's announcement, sent from alarms at the same moment
    // (every reveal), would otherwise each hold their queue waiting on the other's, for ever.
    if (this.#core.shard !== null) await this.#playShard.deliver(Date.now());
    else if (this.#core.coordinates()) await this.#coordinator.deliver(Date.now());
    if (this.#core.shard !== null || this.#core.coordinates()) await this.#core.serial(async () => this.#core.arm());
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
    const { client, server } = this.#sockets.accept(userId, now);
    this.#show.sync(server, meta, now);
    return new Response(null, { status: 101, webSocket: client });
  }

  /** Closes every socket of this user in the room (their session ended); returns how many were open. */
  async closeUserSockets(userId: number, code: number, reason: string): Promise<number> {
    return this.#sockets.closeUser(userId, code, reason);
  }

  override async webSocketMessage(ws: WebSocket, message: string | ArrayBuffer): Promise<void> {
    const arrived = Date.now();
    const raw = parseJson(message);
    const id = frameIdOf(raw);
    if (!this.#sockets.allowFrame(ws)) return send(ws, errorFrame(id, 429, "rate_limited", PLAY.tooManyFrames));
    const parsed = tournamentClientFrameSchema.safeParse(raw);
    if (!parsed.success) return send(ws, errorFrame(id, 400, "invalid_frame", PLAY.invalidFrame));
    const frame = parsed.data;
    // Timed on arrival, before any wait for D1 (a room waking from hibernation reloads) could lengthen it.
    if (frame.type === "pong") return this.#sockets.recordRoundTrip(ws, frame.nonce, arrived);
    const meta = await this.#ready();
    if (!meta) return send(ws, errorFrame(id, 404, "tournament_not_found", PLAY.notFound));
    const userId = this.#sockets.userOf(ws);
    const now = Date.now();
    switch (frame.type) {
      case "sync":
        return this.#show.sync(ws, this.#core.meta(), now);
      default:
        return send(ws, await this.#play.frame(userId, frame, now));
    }
  }

  override async webSocketClose(ws: WebSocket, code: number, reason: string): Promise<void> {
    closeQuietly(ws, code, reason);
  }

  /** The room's config, loaded from D1 on first use; null when the tournament does not exist. */
  #ready(tournamentId?: number) {
    return this.#lifecycle.ready(tournamentId);
  }
}

const isId = (n: number) => Number.isSafeInteger(n) && n > 0;
