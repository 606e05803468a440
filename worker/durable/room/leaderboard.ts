// The room's leaderboard: kept in memory as standings change (./board.ts), built from storage when
// first needed, and pushed to the sockets at most once per flush interval.
import { computeStandings, showStandings } from "./standings";
import { LiveBoard, toLeaderboardRow, type BoardRow } from "./board";
import { mergedRank, type OptionCount, type ShardReport } from "../../../common/domain/shards";
import type { LeaderboardRow } from "../../../common/api/tournaments";
import { LEADERBOARD_PUSH_SIZE } from "../../../common/spec";
import { leaderboardPushInterval } from "../../../common/domain/tournaments";
import type { RoomCore } from "./core";
import { revealedCount, verdictWithheld } from "./presenters";
import { sendText, type RoomSockets } from "./sockets";

/** A sharded live show's board over every shard (decision 011), as the coordinator merged it after a reveal. */
export interface MergedBoard {
  /** Questions it counts (the last revealed ord + 1): newer boards replace older ones. */
  version: number;
  board: ShardReport<BoardRow>;
  /**
   * The question it was merged after, with how everyone answered it (./shard-merge.ts); absent on
   * the final board. `complete` false: merged at the deadline without some shard's report of it;
   * `shards`: the shards whose counts it holds.
   */
  question?: { ord: number; complete: boolean; distribution: OptionCount[]; shards?: number[] };
}

export class RoomBoard {
  readonly #board = new LiveBoard();
  #built = false;
  /** Set in a sharded live show once a merged board came: sockets see it instead of this object's own players only. */
  #merged: (MergedBoard & { prefix: string }) | null = null;

  constructor(
    readonly core: RoomCore,
    readonly sockets: RoomSockets,
  ) {}

  /** The board, built from storage the first time it is needed (after a start or a sync). */
  now(now: number): LiveBoard {
    if (!this.#built) this.rebuild(now);
    return this.#board;
  }

  /** Built again from storage when next needed (participants adopted from D1, a new configuration). */
  invalidate(): void {
    this.#built = false;
  }

  remove(userId: number): void {
    this.#board.remove(userId);
  }

  /** A settled sharded show's coordinator: every player's row as settlement gathered it (it holds no answers). */
  settledRows: (() => BoardRow[] | null) | null = null;

  rebuild(now: number): void {
    const settled = this.settledRows?.();
    if (settled) {
      this.#board.replaceAll(settled);
      this.#built = true;
      return;
    }
    const { store, counted } = this.core;
    const meta = this.core.meta();
    const participants = counted.ranked();
    const final = meta.phase === "completed" || meta.phase === "cancelled";
    const rows: BoardRow[] =
      meta.format === "live_show" && !final
        ? showStandings(participants, (u) => counted.plays(store.plays(u)), counted.revealed(revealedCount(meta)))
        : computeStandings(participants, counted.plays(store.allPlays()), counted.slots(), now, final);
    this.#board.replaceAll(verdictWithheld(meta) ? rows.map(progressOnly) : rows);
    this.#built = true;
  }

  /** One player's row moves (an answer, a timed-out question, finishing, joining). */
  refreshPlayer(userId: number, now: number): void {
    if (!this.#built) return this.rebuild(now);
    const { store, counted } = this.core;
    const p = store.participant(userId);
    if (!p || p.disqualified_at !== null) return this.#board.remove(userId);
    const meta = this.core.meta();
    const [row] =
      meta.format === "live_show"
        ? showStandings([p], (u) => counted.plays(store.plays(u)), counted.revealed(revealedCount(meta)))
        : computeStandings([p], counted.plays(store.plays(userId)), counted.slots(), now, p.finished_at !== null);
    this.#board.upsert(verdictWithheld(meta) ? progressOnly(row!) : row!);
  }

  /** Marks the leaderboard changed: sockets get it with the next flush, sooner in a small room than in a large one. */
  async changed(): Promise<void> {
    const { store } = this.core;
    if (store.scheduled("flush") !== null) return;
    const sockets = this.sockets.all().length;
    if (sockets === 0) return;
    store.schedule("flush", Date.now() + leaderboardPushInterval(sockets));
    await this.core.arm();
  }

  /** Top rows serialized once per version; each socket's own rank spliced in. */
  push(now: number): void {
    const sockets = this.sockets.all();
    if (sockets.length === 0) return;
    // A play shard's own rows rank its players among themselves only, and a live coordinator holds
    // no answers: their sockets wait for the merged board.
    if (!this.#merged && (this.core.shard !== null || (this.core.coordinates() && this.core.meta().phase === "live"))) return;
    // The board shows stored answers only.
    this.core.store.commit();
    const prefix = this.#merged?.prefix ?? this.prefix(now);
    for (const ws of sockets) sendText(ws, `${prefix}${JSON.stringify(this.#me(this.sockets.userOf(ws), now))}}`);
  }

  /** What a (re)connecting socket gets: the cached top rows, as the push sends them, and the player's own rank. */
  frameFor(userId: number, now: number): string {
    return `${this.#merged?.prefix ?? this.prefix(now)}${JSON.stringify(this.#me(userId, now))}}`;
  }

  /** The player's rank and score: on the merged board, their place in its top rows or 1 + the players scoring more. */
  #me(userId: number, now: number): { rank: number; score: number } | null {
    const own = this.now(now).standingOf(userId);
    const merged = this.#merged;
    if (!merged || !own) return own;
    // Settled: the exact place the coordinator gave (distinct for everyone).
    const placed = this.core.store.participant(userId)?.rank;
    if (placed != null) return { rank: placed, score: own.score };
    return { rank: mergedRank(merged.board, userId, own.score), score: own.score };
  }

  /** A merged board from the coordinator; an older one than this object has changes nothing. Returns whether it was taken. */
  setMerged(merged: MergedBoard): boolean {
    if (this.#merged && this.#merged.version >= merged.version) return false;
    const top = JSON.stringify(merged.board.top.map((r, i) => toLeaderboardRow(r, i + 1)));
    // Merged at the deadline without some shard's report: a later one replaces it.
    const provisional = merged.question?.complete === false ? `"provisional":true,` : "";
    this.#merged = { ...merged, prefix: `{"type":"leaderboard","version":${merged.version},${provisional}"top":${top},"me":` };
    return true;
  }

  /** The question the merged board was merged after, with how everyone answered it, or null. */
  mergedQuestion(): MergedBoard["question"] | null {
    return this.#merged?.question ?? null;
  }

  /** The merged board's top rows (a sharded show's public leaderboard while it runs), or null. */
  mergedTop(): LeaderboardRow[] | null {
    return this.#merged ? this.#merged.board.top.map((r, i) => toLeaderboardRow(r, i + 1)) : null;
  }

  /** A leaderboard frame up to its `me`: the top rows' JSON is built once per version of the board, for every socket. */
  prefix(now: number): string {
    const board = this.now(now);
    return `{"type":"leaderboard","version":${board.version},"top":${board.topJson(LEADERBOARD_PUSH_SIZE)},"me":`;
  }
}

/**
 * A self-paced prize tournament's board row before the end: how far the player has got (questions
 * answered, time spent, finished), nothing that depends on right or wrong. Ranked by time, as
 * every score is 0 until settlement puts the real ones in.
 */
const progressOnly = <R extends BoardRow>(row: R): R => ({ ...row, score: 0, correctAnswers: 0, answerXp: 0 });
