// Settlement of a sharded live show by shard (docs/decisions/011-one-tournament-past-one-durable-object.md,
// "Built": "Settlement by shard"). The coordinator gathers each player's totals from the shards in
// chunks (never their answers), ranks them and awards the pool with one room's rules, and sends
// each shard its players' places. Each shard writes its own players' rows (results, XP, counters,
// flags, notices, answers) to D1 in chunks, each with its marker; the coordinator then writes the
// money and the completion in one small batch. Every step is stored before the next, so a
// failure anywhere resumes where it stopped and applies nothing twice.
import { sharedFlags, sharingPlayers, timingFlags, type PlayerRecord } from "../../../common/domain/fair-play";
import { LIVE_SHOW_WINDOW_MS } from "../../../common/domain/live-show";
import { placeAndAward } from "../../../common/domain/settlement";
import type { FairPlayFlag } from "../../../common/api/fair-play";
import { runAtomically } from "../../money/ledger";
import type { BoardRow } from "./board";
import type { RoomCore } from "./core";
import {
  chunkStatements,
  completionStatements,
  isChunkApplied,
  settlementChunkSize,
  settlementProgress,
  shardChunkKey,
  userLevels,
  type ParticipantResult,
  type SettlementRow,
} from "./d1";
import type { MergedBoard, RoomBoard } from "./leaderboard";
import type { LiveShow } from "./live-show";
import { tournamentNotice } from "./notices";
import { playerRecords, questionIds, questionUse, recordedPlays, settledRow, totalsOf } from "./settlement";
import { computeStandings, responseRecords, type PlayerStanding } from "./standings";
import { shardReport } from "../../../common/domain/shards";
import type { MetaRow } from "./tables";
import type { HostState } from "./shards";

/**
 * One player's totals as their shard computed them for the settlement (no answers): the participant
 * row's totals before a rank and a prize (XP from answers only), with the player's timing flags
 * (absent when none).
 */
export type ShardTotals = Omit<ParticipantResult, "rank" | "prize"> & { flags?: FairPlayFlag[] };

/** A chunk of a shard's players' totals, by user id after a cursor; `next` null on the last. */
export interface TotalsChunk {
  rows: ShardTotals[];
  next: number | null;
}

/** The coordinator's order to one shard: its players' places and flags, to write to D1. */
export interface ShardOrder {
  /** [userId, rank, prizeCents] of this shard's ranked players. */
  placings: [number, number, number][];
  /** This shard's flagged players: their timing flags and the pair checks'. */
  flags: [number, FairPlayFlag[]][];
}

/** What the coordinator keeps of the order for the completion: the winners, the house's places, every player's shard. */
interface OrderHeader {
  winners: { u: number; rank: number; prize: number }[];
  unclaimed: { place: number; cents: number }[];
  flags: [number, FairPlayFlag[]][];
}

/** How many shards write at once (decision 011: D1's writer is shared with joins, deposits and reads). */
const WRITING_SHARDS = 8;

/** A play shard's side: its players' totals, the answers of the players the pair checks compare, its rows to D1. */
export class ShardSettlementSide {
  constructor(
    readonly core: RoomCore,
    /** Resolves once every finishing player's row is in D1 (a later write would undo a chunk's rank). */
    readonly drainCompletions: () => Promise<void>,
  ) {}

  /**
   * This shard's ranked players' standings as settlement counts them: every question timed out
   * that they did not answer, a finish before the show's last close counted in the tiebreak.
   */
  #standings(now: number): PlayerStanding[] {
    const { store, counted } = this.core;
    const opened = store.questions().flatMap((q) => (q.opened_at === null ? [] : [q.opened_at]));
    const closedAt = opened.length === 0 ? null : Math.max(...opened) + LIVE_SHOW_WINDOW_MS;
    const players = counted
      .ranked()
      .map((p) => ({ ...p, finished_at: p.finished_at !== null && closedAt !== null && p.finished_at < closedAt ? p.finished_at : null }));
    return computeStandings(players, counted.plays(store.allPlays()), counted.slots(), now, true);
  }

  /** Players after `after` by user id, `limit` of them; null while a window is still open here. */
  totals(after: number, limit: number): TotalsChunk | null {
    const meta = this.core.meta();
    if (meta.show_stage === "question") return null;
    const rows = this.#standings(Date.now())
      .filter((s) => s.userId > after)
      .sort((a, b) => a.userId - b.userId);
    const chunk = rows.slice(0, limit);
    const mine = new Set(chunk.map((s) => s.userId));
    const records = new Map(
      playerRecords(this.core.store)
        .filter((r) => mine.has(r.userId))
        .map((r) => [r.userId, r]),
    );
    return {
      rows: chunk.map((s) => {
        const flags = meta.practice ? [] : timingFlags(records.get(s.userId)?.answers ?? []);
        return { ...totalsOf(s), ...(flags.length > 0 ? { flags } : {}) };
      }),
      next: rows.length > limit ? chunk[chunk.length - 1]!.userId : null,
    };
  }

  /** The answers of these players of this shard (the pair checks compare players sharing a device or network). */
  answersOf(userIds: number[]): PlayerRecord[] {
    const wanted = new Set(userIds);
    return playerRecords(this.core.store).filter((r) => wanted.has(r.userId));
  }

  /**
   * The coordinator's order: this shard's players' rows to D1 in chunks (rank order), each chunk
   * one batch with its marker `shardChunkKey(shard, chunk)`, so a chunk applied before (a lost
   * reply, a retry after a failure at a later chunk) is never applied again. True once all are in.
   */
  async write(order: ShardOrder): Promise<boolean> {
    const { core } = this;
    return core.serial(async () => {
      await this.drainCompletions();
      const { store, counted } = core;
      const meta = core.meta();
      const k = core.shard!;
      const db = core.env.DB;
      const t = meta.tournament_id;
      const standings = new Map(this.#standings(Date.now()).map((s) => [s.userId, s]));
      const levels = await userLevels(
        db,
        order.placings.map(([u]) => u),
      );
      const rows: SettlementRow[] = order.placings
        .map(([u, rank, prize]) => {
          const s = standings.get(u);
          if (!s) throw new Error(`shard ${k} of tournament ${t}: player ${u} of the order has no seat here`);
          return settledRow(s, rank, prize, levels.get(u) ?? s.level);
        })
        .sort((a, b) => a.rank - b.rank);
      const plan = { tournamentId: t, flags: new Map(order.flags), notice: tournamentNotice(t, meta.title, "completed") };
      const { applied } = await settlementProgress(db, t);
      const size = settlementChunkSize(core.env.SETTLEMENT_CHUNK_PLAYERS);
      const ids = questionIds(store);
      for (let c = 0; c * size < rows.length; c++) {
        const index = shardChunkKey(k, c);
        if (applied.has(index)) continue;
        const chunkRows = rows.slice(c * size, (c + 1) * size);
        const users = chunkRows.map((r) => r.u);
        const responses = responseRecords(counted.plays(recordedPlays(store, users)), ids, new Set(users));
        try {
          await runAtomically(db, chunkStatements(db, plan, { index, rows: chunkRows, responses }, Date.now()));
        } catch (e) {
          // Its marker was there: an earlier attempt applied it and lost the reply.
          if (!isChunkApplied(e)) throw e;
        }
      }
      return true;
    });
  }
}

/** The coordinator's side: totals in, the order computed once and stored, each shard's rows, then the money. */
export class ShardedSettlement {
  constructor(
    readonly core: RoomCore,
    readonly board: RoomBoard,
    readonly show: LiveShow,
  ) {}

  /**
   * Exactly once and resumable, like one room's settlement (./settlement.ts): false while a shard
   * has not answered (asked again from the alarm); a D1 failure of the completion throws (the
   * alarm's retry). The phase stays `settling` until the completion batch: players see the
   * tournament live until its results, prizes and status are all in D1.
   */
  async settle(meta: MetaRow, now: number): Promise<boolean> {
    const { store } = this.core;
    if (meta.settled) {
      store.setPhase("completed");
      store.unschedule("lifecycle");
      return true;
    }
    store.setPhase("settling");
    store.unschedule("show");
    const stamp = meta.settle_stamp ?? now;
    if (meta.settle_stamp === null) store.setSettleStamp(stamp);
    const t = meta.tournament_id;
    // The shards count totals under the host's marks (voided questions, disqualified players): each
    // must have confirmed the latest before it is asked (the marks go out from the alarm, ./shards.ts).
    const host = store.shardState<HostState>("host");
    if (
      host &&
      Array.from({ length: this.core.shardCount }, (_, k) => store.shardState<number>(`hostAck:${k}`) ?? 0).some((v) => v < host.version)
    ) {
      return false;
    }
    try {
      if (!(await this.#gather(t))) return false;
      if (!store.shardState<OrderHeader>("order")) await this.#order(meta);
      if (!(await this.#writeShards(t))) return false;
    } catch (e) {
      console.error(`settling sharded tournament ${t}: a shard did not answer`, e);
      return false;
    }
    const header = store.shardState<OrderHeader>("order")!;
    const db = this.core.env.DB;
    let claimed = 0;
    if (!(await settlementProgress(db, t)).settled) {
      [claimed = 0] = await runAtomically(
        db,
        completionStatements(db, {
          tournamentId: t,
          title: meta.title,
          stamp,
          endTime: Math.min(stamp, meta.end_time ?? stamp),
          rows: header.winners,
          unclaimed: header.unclaimed,
          flags: new Map(header.flags),
          questionUse: questionUse(store, stamp),
        }),
      );
    }
    const placings = this.#placings();
    store.recordPlacings(placings.map(([userId, rank, prizeCents]) => ({ userId, rank, prizeCents })));
    store.setPhase("completed", { settled: true });
    store.unschedule("lifecycle");
    // The final board: every ranked player's totals, as this room keeps them (its memory per player).
    this.board.invalidate();
    const rows = this.board.now(now).rows();
    const final: MergedBoard = { version: Number.MAX_SAFE_INTEGER, board: shardReport(rows) };
    store.setShardState("board", final);
    this.board.setMerged(final);
    this.show.broadcastStatus(now);
    this.board.push(now);
    // claimed is 0 when an earlier attempt had completed it: that one notified.
    if (claimed > 0)
      await this.core.notify(
        placings.map(([u]) => u),
        tournamentNotice(t, meta.title, "completed").frame,
      );
    return true;
  }

  /** Every shard's totals, chunk by chunk, each stored with its cursor before the next is asked. */
  async #gather(t: number): Promise<boolean> {
    const { store } = this.core;
    const size = settlementChunkSize(this.core.env.SETTLEMENT_CHUNK_PLAYERS);
    for (let k = 0; k < this.core.shardCount; k++) {
      for (;;) {
        const cursor = store.shardState<{ after: number; chunks: number; done: boolean }>(`totals:${k}`) ?? {
          after: 0,
          chunks: 0,
          done: false,
        };
        if (cursor.done) break;
        const chunk = await this.core.playShard(k).shardTotals(t, cursor.after, size);
        // A window still open on the shard's clock.
        if (chunk === null) return false;
        store.setShardState(`totals:${k}:${cursor.chunks}`, chunk.rows);
        store.setShardState(`totals:${k}`, { after: chunk.next ?? cursor.after, chunks: cursor.chunks + 1, done: chunk.next === null });
      }
    }
    return true;
  }

  /** Every gathered row with its shard. */
  #totals(): (ShardTotals & { k: number })[] {
    const { store } = this.core;
    const out: (ShardTotals & { k: number })[] = [];
    for (let k = 0; k < this.core.shardCount; k++) {
      const chunks = store.shardState<{ chunks: number }>(`totals:${k}`)?.chunks ?? 0;
      for (let c = 0; c < chunks; c++) for (const r of store.shardState<ShardTotals[]>(`totals:${k}:${c}`) ?? []) out.push({ ...r, k });
    }
    return out;
  }

  /** Every ranked player's [userId, rank, prizeCents], from the stored orders. */
  #placings(): [number, number, number][] {
    return Array.from(
      { length: this.core.shardCount },
      (_, k) => this.core.store.shardState<ShardOrder>(`order:${k}`)?.placings ?? [],
    ).flat();
  }

  /**
   * The pair checks over every shard: the coordinator holds every seat's device and network hashes,
   * asks for the answers of the players sharing one with anyone (and of nobody else) and compares
   * those pairs itself. `shardOf`: a player's shard (-1: none holds their answers), or null to ask
   * every shard (each answers for its own players only). A failed call throws.
   */
  async pairFlags(t: number, shardOf: (u: number) => number | null): Promise<Map<number, FairPlayFlag[]>> {
    const participants = this.core.store.participants();
    const sharing = sharingPlayers(
      participants.map((p) => ({ userId: p.user_id, deviceHash: p.device_hash, networkHash: p.network_hash })),
    );
    if (sharing.size === 0) return new Map();
    const records: PlayerRecord[] = [];
    for (let k = 0; k < this.core.shardCount; k++) {
      const ids = [...sharing].filter((u) => (shardOf(u) ?? k) === k);
      if (ids.length > 0) records.push(...(await this.core.playShard(k).shardAnswers(t, ids)));
    }
    // The shard's records carry no hashes: the pair checks group by this room's.
    const hashes = new Map(participants.map((p) => [p.user_id, p]));
    for (const r of records) {
      r.deviceHash = hashes.get(r.userId)?.device_hash ?? null;
      r.networkHash = hashes.get(r.userId)?.network_hash ?? null;
    }
    return sharedFlags(records);
  }

  /**
   * The console's live view of a sharded show before settlement: the pairs across shards so far
   * (each shard's own view finds a pair only when both play there). A shard that does not answer
   * leaves its players out; the view is logged, never failed.
   */
  async livePairFlags(): Promise<{ userId: number; flags: FairPlayFlag[] }[]> {
    const meta = this.core.meta();
    // Once the order is stored the console shows its flags (settledFlags), every pair included.
    if (meta.practice || meta.phase === "upcoming" || this.core.store.shardState<OrderHeader>("order")) return [];
    try {
      return [...(await this.pairFlags(meta.tournament_id, () => null))].map(([userId, flags]) => ({ userId, flags }));
    } catch (e) {
      console.error(`live pair checks of tournament ${meta.tournament_id} failed`, e);
      return [];
    }
  }

  /**
   * The order, computed once and stored (each shard's part, then the header that marks it whole):
   * the host's disqualified players out, one room's ranking and prizes over everyone's totals,
   * each player's timing flags from their shard and the pair checks over the players sharing a
   * device or network, whose answers (theirs only) are asked from their shards.
   */
  async #order(meta: MetaRow): Promise<void> {
    const { store } = this.core;
    const t = meta.tournament_id;
    const totals = this.#totals();
    const participants = store.participants();
    const out = new Set(participants.filter((p) => p.disqualified_at !== null).map((p) => p.user_id));
    const shardOf = new Map(totals.map((r) => [r.u, r.k]));
    const shared = meta.practice ? new Map<number, FairPlayFlag[]>() : await this.pairFlags(t, (u) => shardOf.get(u) ?? -1);
    const { ranked, unclaimed } = placeAndAward(
      totals.filter((r) => !out.has(r.u)).map((r) => ({ ...r, userId: r.u, totalResponseMs: r.totalMs, questionsAnswered: r.answered })),
      meta.prize_pool_cents,
    );
    const flagsOf = (r: ShardTotals) => [...(r.flags ?? []), ...(shared.get(r.u) ?? [])];
    for (let k = 0; k < this.core.shardCount; k++) {
      const mine = ranked.filter((r) => r.k === k);
      store.setShardState(`order:${k}`, {
        placings: mine.map((r) => [r.u, r.rank, r.prizeCents]),
        flags: mine.filter((r) => flagsOf(r).length > 0).map((r) => [r.u, flagsOf(r)]),
      } satisfies ShardOrder);
    }
    const winners = ranked.filter((r) => r.prizeCents > 0);
    store.setShardState("order", {
      winners: winners.map((r) => ({ u: r.u, rank: r.rank, prize: r.prizeCents })),
      unclaimed,
      flags: winners.filter((r) => flagsOf(r).length > 0).map((r) => [r.u, flagsOf(r)]),
    } satisfies OrderHeader);
  }

  /** Each shard writes its players' rows, WRITING_SHARDS at a time; true once every shard confirmed. */
  async #writeShards(t: number): Promise<boolean> {
    const { store } = this.core;
    let done = true;
    for (let from = 0; from < this.core.shardCount; from += WRITING_SHARDS) {
      const group = Array.from({ length: Math.min(WRITING_SHARDS, this.core.shardCount - from) }, (_, i) => from + i).filter(
        (k) => !store.shardState<boolean>(`written:${k}`),
      );
      const results = await Promise.allSettled(
        group.map((k) => this.core.playShard(k).shardSettle(t, store.shardState<ShardOrder>(`order:${k}`)!)),
      );
      for (const [i, r] of results.entries()) {
        if (r.status === "fulfilled" && r.value) store.setShardState(`written:${group[i]}`, true);
        else {
          if (r.status === "rejected") console.error(`shard ${group[i]} of tournament ${t}: its settlement rows failed`, r.reason);
          done = false;
        }
      }
    }
    return done;
  }

  /**
   * The board of a settled sharded show: every ranked player's totals as gathered (names and levels
   * from this room's seats), in place of its own rows (it holds no answers). Null before then.
   */
  settledRows(): BoardRow[] | null {
    const { store } = this.core;
    if (this.core.meta().phase !== "completed" || !store.shardState<OrderHeader>("order")) return null;
    const prizes = new Map(this.#placings().map(([u, , prize]) => [u, prize]));
    return this.#totals().flatMap((r) => {
      const p = store.participant(r.u);
      if (!p || !prizes.has(r.u)) return [];
      return [
        {
          userId: r.u,
          username: p.username,
          level: p.level,
          showLevel: p.show_level !== 0,
          score: r.score,
          totalResponseMs: r.totalMs,
          finishedAt: r.finishedAt,
          questionsAnswered: r.answered,
          correctAnswers: r.correct,
          answerXp: r.xp,
          prizeCents: prizes.get(r.u)!,
        },
      ];
    });
  }

  /** Every flagged player's flags once settled (the console's live view), or null before. */
  settledFlags(): Map<number, FairPlayFlag[]> | null {
    const { store } = this.core;
    if (!store.shardState<OrderHeader>("order")) return null;
    return new Map(Array.from({ length: this.core.shardCount }, (_, k) => store.shardState<ShardOrder>(`order:${k}`)?.flags ?? []).flat());
  }

  /** A shard's players' places, for its final word (./shards.ts). */
  placingsOf(k: number): { userId: number; rank: number; prizeCents: number }[] {
    return (this.core.store.shardState<ShardOrder>(`order:${k}`)?.placings ?? []).map(([userId, rank, prizeCents]) => ({
      userId,
      rank,
      prizeCents,
    }));
  }
}
