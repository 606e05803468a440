// A live show over a coordinator and play shards (docs/decisions/011-one-tournament-past-one-durable-object.md,
// "Built"). The coordinator (the tournament's room, shard_count > 1) keeps the seats, the lifecycle,
// the commitment, the clock, the merged board and the settlement; it announces each question's open
// time to every shard ahead of it. A play shard (`{t}:shard:{k}`) holds its players' sockets and
// answers, opens each question at the announced time on its own alarm, reveals at its own close and
// reports its top rows, score histogram and answer counts (merged in ./shard-merge.ts). Settlement
// goes by shard (./shard-settlement.ts).
import type { FairPlayFlag } from "../../../common/api/fair-play";
import { questionTree } from "../../../common/domain/fairness";
import type { ResultsCsvPlayer } from "../../../common/domain/host-tools";
import { compareStandings } from "../../../common/domain/scoring";
import { shardReport } from "../../../common/domain/shards";
import { REVEAL_PAUSE_MS } from "../../../common/spec";
import { committedOf } from "./commitment";
import type { RoomCore } from "./core";
import type { Lifecycle } from "./lifecycle";
import type { MergedBoard, RoomBoard } from "./leaderboard";
import type { LiveShow } from "./live-show";
import { BoardMerge, type Reported } from "./shard-merge";

/** The coordinator's word to a shard: question `ord` opens at `openAt` for everyone, under this commitment. */
export interface Announcement {
  ord: number;
  openAt: number;
  salt: string;
  commitment: string;
  version: number;
}

/** The final word to a shard: settled (its players' places and the final top rows) or cancelled. */
export interface FinalBoard {
  phase: "completed" | "cancelled";
  board: MergedBoard | null;
  placings: { userId: number; rank: number; prizeCents: number }[];
}

/**
 * The host's marks as the coordinator holds them (pause, voided questions, disqualified players),
 * sent whole to every shard from the alarm until each confirmed this version: repeats and
 * reordering change nothing, a shard applies only what it does not have yet.
 */
export interface HostState {
  version: number;
  paused: number | null;
  voided: { ord: number; at: number; reason: string }[];
  disqualified: { userId: number; at: number; reason: string }[];
}

/** What a shard adds to the console's live view of a sharded show. */
export interface ShardFigures {
  sockets: number;
  connectedPlayers: number;
  recentAnswers: number;
  /** Its players' fair-play flags, by the room's rules over its own answers (pairs: within the shard only). */
  flags: { userId: number; flags: FairPlayFlag[] }[];
}

/** How far ahead of the first question the coordinator announces it: shards hear it before it is due. */
export const FIRST_QUESTION_LEAD_MS = 2_000;
/** How soon a coordinator asks again a shard that did not confirm (an announcement, the final board). */
export const SHARD_RETRY_MS = 500;

/** What the coordinator asks of settlement by shard (./shard-settlement.ts). */
export interface SettlementByShard {
  /** Shard k's players' places once settled. */
  placingsOf(k: number): FinalBoard["placings"];
  /** Before settlement: the fair-play pairs across shards so far. */
  livePairFlags(): Promise<ShardFigures["flags"]>;
}

export class Coordinator {
  /** The shards' reports in, merged boards out (./shard-merge.ts). */
  readonly merge: BoardMerge;

  constructor(
    readonly core: RoomCore,
    readonly board: RoomBoard,
    show: LiveShow,
    readonly settlement: SettlementByShard,
  ) {
    this.merge = new BoardMerge(core, board, show);
  }

  /** LiveShow's hook: the announced time, or (nothing announced: the first question, a restart) one announced now. */
  openAt(ord: number, now: number): number | null {
    const known = this.core.store.shardState<Announcement>("announce");
    if (known && known.ord === ord) return known.openAt;
    // Held by the host: nothing is announced until the resume announces it (./host-actions.ts).
    if (this.core.meta().paused_at !== null) return null;
    return this.#announce(ord, ord === 0 ? now + FIRST_QUESTION_LEAD_MS : now);
  }

  /** LiveShow's hook: the next question's time goes out with the reveal, a reveal pause ahead (held while the host pauses). */
  revealed(ord: number, now: number): void {
    if (this.core.meta().paused_at !== null) return;
    if (ord + 1 < this.core.store.slotCount()) this.#announce(ord + 1, now + REVEAL_PAUSE_MS);
  }

  /** LiveShow's hook: the host resumed a held reveal; the next question's new time goes out (its countdown runs from the resume). */
  resumed(now: number): void {
    const meta = this.core.meta();
    if (meta.show_stage === "reveal" && meta.show_ord + 1 < this.core.store.slotCount())
      this.#announce(meta.show_ord + 1, (meta.show_since ?? now) + REVEAL_PAUSE_MS);
  }

  /**
   * After a host action here: the marks as they are now, to every shard (at once from the caller,
   * then from the alarm until each confirmed). The merged board leaves out a disqualified player at once.
   */
  hostChanged(now: number): void {
    const { store } = this.core;
    const meta = this.core.meta();
    const version = (store.shardState<HostState>("host")?.version ?? 0) + 1;
    const host: HostState = {
      version,
      paused: meta.paused_at,
      voided: store
        .questions()
        .filter((q) => q.voided_at !== null)
        .map((q) => ({ ord: q.ord, at: q.voided_at!, reason: q.void_reason ?? "" })),
      disqualified: store
        .participants()
        .filter((p) => p.disqualified_at !== null)
        .map((p) => ({ userId: p.user_id, at: p.disqualified_at!, reason: p.disqualified_reason ?? "" })),
    };
    store.setShardState("host", host);
    this.merge.hostChanged();
    store.schedule("shards", now);
  }

  #announce(ord: number, openAt: number): number {
    const meta = this.core.meta();
    const a: Announcement = { ord, openAt, salt: meta.salt!, commitment: meta.commitment!, version: meta.commitment_version };
    this.core.store.setShardState("announce", a);
    this.core.store.schedule("shards", Date.now());
    return openAt;
  }

  /**
   * From the alarm: the current announcement to every shard that has not confirmed it, and after
   * settlement the final board to every shard that has not taken it; asked again soon on a failure.
   */
  async deliver(now: number): Promise<void> {
    const { store } = this.core;
    if (store.scheduled("shards") === null || store.scheduled("shards")! > now) return;
    store.unschedule("shards");
    const a = store.shardState<Announcement>("announce");
    const final = store.shardState<FinalBoard>("final");
    const t = this.core.meta().tournament_id;
    const host = store.shardState<HostState>("host");
    // Per shard in this order: the announcement, then the host's marks (a resume must not reach a
    // shard before the new open time it resumes to), then the final word.
    const calls = Array.from({ length: this.core.shardCount }, async (_, k) => {
      if (!final && a && !this.#confirmed(k, a)) {
        if (!(await this.core.playShard(k).shardAnnounce(t, a))) return false;
        store.setShardState(`ack:${k}`, a.ord);
        store.setShardState(`ackAt:${k}`, a.openAt);
      }
      if (host && (store.shardState<number>(`hostAck:${k}`) ?? 0) < host.version) {
        await this.core.playShard(k).shardHost(t, host);
        store.setShardState(`hostAck:${k}`, host.version);
      }
      if (final && !store.shardState<boolean>(`final:${k}`)) {
        await this.core.playShard(k).shardFinal(t, {
          phase: final.phase,
          board: final.board,
          placings: this.settlement.placingsOf(k),
        });
        store.setShardState(`final:${k}`, true);
      }
      return true;
    });
    const results = await Promise.allSettled(calls);
    if (results.some((r) => r.status === "rejected" || !r.value)) store.schedule("shards", now + SHARD_RETRY_MS);
  }

  /** Whether shard k confirmed this announcement (a resume announces the same question again, at a new time). */
  #confirmed(k: number, a: Announcement): boolean {
    const { store } = this.core;
    if ((store.shardState<number>(`ack:${k}`) ?? -1) < a.ord) return false;
    const at = store.shardState<number>(`ackAt:${k}`);
    return at === null || store.shardState<number>(`ack:${k}`)! > a.ord || at === a.openAt;
  }

  /**
   * A shard's report after its reveal (or again after a host action): merged once every shard
   * reported the question, or past its merge deadline (the alarm is set for it).
   */
  async report(k: number, reported: Reported): Promise<void> {
    this.merge.report(k, reported, Date.now());
    await this.core.arm();
  }

  /**
   * The operators' results export of a sharded show: every shard's rows. Settled, by the ranks
   * settlement gave; before, ranked again over every shard as the board ranks (the disqualified last;
   * without finish times, which only a player who completes early has).
   */
  async csvPlayers(): Promise<ResultsCsvPlayer[]> {
    const t = this.core.meta().tournament_id;
    const rows = (await Promise.all(Array.from({ length: this.core.shardCount }, (_, k) => this.core.playShard(k).shardResults(t)))).flat();
    const out = rows.filter((r) => r.rank === null);
    const ranked = rows.filter((r) => r.rank !== null);
    if (this.core.meta().phase === "completed") {
      // This room's placings: a shard may not have had its final word yet.
      const placed = new Map(
        Array.from({ length: this.core.shardCount }, (_, k) =>
          this.settlement.placingsOf(k).map((p) => [p.userId, p.rank] as const),
        ).flat(),
      );
      for (const r of ranked) r.rank = placed.get(r.userId) ?? r.rank;
      ranked.sort((a, b) => a.rank! - b.rank!);
    } else
      ranked.sort((a, b) => compareStandings({ ...a, finishedAt: null }, { ...b, finishedAt: null })).forEach((r, i) => (r.rank = i + 1));
    return [...ranked, ...out];
  }

  /** The console's live view: every shard's figures, one call each, in parallel; a shard that does not answer counts nothing. */
  async figures(): Promise<ShardFigures> {
    const t = this.core.meta().tournament_id;
    const results = await Promise.allSettled(
      Array.from({ length: this.core.shardCount }, (_, k) => this.core.playShard(k).shardFigures(t)),
    );
    const sum: ShardFigures = { sockets: 0, connectedPlayers: 0, recentAnswers: 0, flags: [] };
    for (const [k, r] of results.entries()) {
      if (r.status === "rejected") {
        console.error(`live figures of shard ${k} of tournament ${t} failed`, r.reason);
        continue;
      }
      sum.sockets += r.value.sockets;
      sum.connectedPlayers += r.value.connectedPlayers;
      sum.recentAnswers += r.value.recentAnswers;
      // Each player plays on one shard: their own flags come from there only.
      sum.flags.push(...(r.value.flags ?? []));
    }
    // Pairs on two shards: compared here (a shard sees only its own players).
    sum.flags.push(...(await this.settlement.livePairFlags()));
    return sum;
  }

  /**
   * After settlement: each shard gets its players' places (./shard-settlement.ts, per shard, when
   * it is sent) and the final board (from the alarm, until each has it).
   */
  settled(now: number): void {
    const { store } = this.core;
    if (store.shardState<FinalBoard>("final")) return;
    const final: FinalBoard = {
      phase: "completed",
      board: store.shardState<MergedBoard>("board") ?? { version: Number.MAX_SAFE_INTEGER, board: shardReport(this.board.now(now).rows()) },
      placings: [],
    };
    store.setShardState("final", final);
    store.schedule("shards", now);
  }

  /** Cancelled (an operator, too few players): every shard stops and tells its sockets (from the alarm, until each has it). */
  cancelled(now: number): void {
    const { store } = this.core;
    if (store.shardState<FinalBoard>("final")) return;
    store.setShardState("final", { phase: "cancelled", board: null, placings: [] } satisfies FinalBoard);
    store.schedule("shards", now);
  }
}

export class PlayShard {
  constructor(
    readonly core: RoomCore,
    readonly board: RoomBoard,
    readonly show: LiveShow,
    readonly lifecycle: Lifecycle,
  ) {}

  /** After a restart: the last merged board this object had (a shard's, or a coordinator's for its spectators). */
  restore(): void {
    const merged = this.core.store.shardState<MergedBoard>("board");
    if (merged) this.board.setMerged(merged);
  }

  /**
   * The coordinator's announcement: checked against the questions this shard loaded (refused,
   * false, when the commitment differs), stored, and the clock run. Repeats change nothing.
   */
  async announce(a: Announcement): Promise<boolean> {
    const { core } = this;
    const { store } = core;
    return core.serial(async () => {
      const meta = core.meta();
      if (!this.#verifies(a)) {
        console.error(`shard ${core.shard} of tournament ${meta.tournament_id}: its questions differ from the commitment`);
        return false;
      }
      if (meta.commitment === null) store.setCommitment(a.salt, a.commitment, true, a.version);
      if (meta.phase === "upcoming") {
        // Seats taken up to the start are in D1: the shard's players are all known now.
        await this.lifecycle.syncParticipants(meta.tournament_id);
        store.setPhase("live");
      }
      const again = store.shardState<number>(`announce:${a.ord}`);
      store.setShardState(`announce:${a.ord}`, a.openAt);
      const now = Date.now();
      // The countdown this shard's players see is the announced time (after a resume, a new one).
      const m = core.meta();
      if (m.show_stage === "reveal" && m.show_ord === a.ord - 1 && m.show_since !== a.openAt - REVEAL_PAUSE_MS) {
        store.setShow("reveal", m.show_ord, a.openAt - REVEAL_PAUSE_MS);
        if (again !== null && again !== a.openAt) this.show.hostChanged(now);
      }
      await this.show.run(now);
      await core.arm();
      return true;
    });
  }

  /** The commitment recomputed over this shard's own copy of the questions. */
  #verifies(a: Announcement): boolean {
    const meta = this.core.meta();
    if (a.version !== 2) return false;
    return questionTree(meta.tournament_id, a.salt, committedOf(this.core.store.questions())).tree.root === a.commitment;
  }

  /** LiveShow's hook: the announced time of `ord`, or null (not heard yet, or the commitment does not verify). */
  openAt(ord: number): number | null {
    const meta = this.core.meta();
    const at = this.core.store.shardState<number>(`announce:${ord}`);
    if (at === null || meta.salt === null || meta.commitment === null) return null;
    const ok = this.#verifies({ ord, openAt: at, salt: meta.salt, commitment: meta.commitment, version: meta.commitment_version });
    return ok ? at : null;
  }

  /** LiveShow's hook: this shard's report of the question is queued for the coordinator (sent from the alarm). */
  revealed(ord: number): void {
    const host = this.core.store.shardState<HostState>("host")?.version ?? 0;
    this.core.store.setShardState("report", this.#report(ord, host, Date.now()));
    this.core.store.schedule("shards", Date.now());
  }

  /** This shard's report of `ord`: its rows now and how its players answered `ord` (for the merged reveal). */
  #report(ord: number, host: number, now: number): Reported {
    const question = this.core.store.questionAt(ord);
    const distribution = question ? this.show.distribution(question) : [];
    return { ord, host, report: shardReport(this.board.now(now).rows()), distribution };
  }

  /**
   * The coordinator's host marks: what this shard does not have yet is applied (the pause, a void,
   * its own players' disqualifications), its sockets are told, and the last report is sent again
   * without what no longer counts. An older or repeated version changes nothing.
   */
  async host(host: HostState): Promise<void> {
    const { core } = this;
    const { store } = core;
    await core.serial(async () => {
      if ((store.shardState<HostState>("host")?.version ?? 0) >= host.version) return;
      const now = Date.now();
      const meta = core.meta();
      let everyone = false;
      if ((host.paused !== null) !== (meta.paused_at !== null)) {
        store.setPaused(host.paused);
        everyone = true;
      }
      const voided = store.voidedOrds();
      for (const v of host.voided) {
        if (voided.has(v.ord) || !store.questionAt(v.ord)) continue;
        store.voidQuestion(v.ord, v.at, v.reason);
        everyone = true;
      }
      const out: number[] = [];
      for (const d of host.disqualified) {
        const p = store.participant(d.userId);
        if (!p || p.disqualified_at !== null) continue;
        store.disqualify(d.userId, d.at, d.reason);
        this.board.remove(d.userId);
        out.push(d.userId);
      }
      store.setShardState("host", host);
      if (everyone || out.length > 0) {
        this.board.rebuild(now);
        const last = store.shardState<Reported>("report");
        if (last && meta.phase === "live") store.setShardState("report", this.#report(last.ord, host.version, now));
        store.schedule("shards", now);
      }
      await this.show.run(now);
      if (everyone) this.show.hostChanged(now);
      else for (const u of out) this.show.hostChanged(now, u);
      // The report goes to the coordinator from this shard's alarm (never from inside the coordinator's call).
      await core.arm();
    });
  }

  /** From the alarm: the queued report to the coordinator, asked again soon when it fails. */
  async deliver(now: number): Promise<void> {
    const { store } = this.core;
    const due = store.scheduled("shards");
    if (due === null || due > now) return;
    store.unschedule("shards");
    const reported = store.shardState<Reported>("report");
    if (!reported) return;
    const meta = this.core.meta();
    try {
      const room = this.core.env.TOURNAMENT_ROOM;
      await room.get(room.idFromName(String(meta.tournament_id))).shardReport(meta.tournament_id, this.core.shard!, reported);
    } catch (e) {
      console.error("shard report failed", e);
      store.schedule("shards", now + SHARD_RETRY_MS);
    }
  }

  /** The coordinator's merged board, pushed to this shard's sockets. */
  takeBoard(merged: MergedBoard): void {
    if (!this.board.setMerged(merged)) return;
    this.core.store.setShardState("board", merged);
    this.board.push(Date.now());
    this.show.mergedDistribution(merged);
  }

  /** Settled (the players' places, the final board) or cancelled (nothing more opens): the status to every socket. */
  async final(final: FinalBoard): Promise<void> {
    const { store } = this.core;
    if (final.phase === "cancelled") {
      if (this.core.meta().phase !== "cancelled") store.setPhase("cancelled");
      store.unschedule("show");
      await this.core.arm();
    } else if (this.core.meta().phase !== "completed") {
      store.recordPlacings(final.placings);
      store.setPhase("completed", { settled: true });
    }
    if (final.board) this.takeBoard(final.board);
    this.show.broadcastStatus(Date.now());
  }
}
