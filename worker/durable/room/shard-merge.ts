// A sharded live show's merged board and answer counts (docs/decisions/011-one-tournament-past-one-durable-object.md,
// "Built"). After its reveal each play shard reports its top rows, score histogram and how its
// players answered the question; the coordinator merges the newest report of every shard and sends
// the result back to every shard, which pushes it to its players. A shard that is late does not
// hold the others: past the merge deadline (MERGE_DEADLINE_MS after the close) the coordinator
// merges what it has, marked incomplete, and each late report makes a newer board. Nothing about
// money reads these boards: the settlement ranks every gathered answer exactly.
import { LIVE_SHOW_WINDOW_MS } from "../../../common/domain/live-show";
import { mergeDistributions, mergeShardReports, mergeStep, type OptionCount, type ShardReport } from "../../../common/domain/shards";
import type { BoardRow } from "./board";
import type { RoomCore } from "./core";
import type { MergedBoard, RoomBoard } from "./leaderboard";
import type { LiveShow } from "./live-show";

/**
 * A shard's report of question `ord`: its rows and, for the reveal, how its players answered.
 * `host`: the host state version it counts (a void or a disqualification re-reports the same ord).
 */
export type Reported = { ord: number; host?: number; report: ShardReport<BoardRow>; distribution?: OptionCount[] };

const newer = (a: Reported, b: Reported) => a.ord > b.ord || (a.ord === b.ord && (a.host ?? 0) > (b.host ?? 0));

/** The coordinator's side: the shards' reports in, merged boards out. */
export class BoardMerge {
  constructor(
    readonly core: RoomCore,
    readonly board: RoomBoard,
    readonly show: LiveShow,
  ) {}

  /** A shard's report (an older or repeated one changes nothing); merged at once when every shard reported the question, or past its deadline. */
  report(k: number, reported: Reported, now: number): void {
    const { store } = this.core;
    const old = store.shardState<Reported>(`report:${k}`);
    if (old && !newer(reported, old)) return;
    store.setShardState(`report:${k}`, reported);
    this.#merge(now, false);
  }

  /**
   * From the alarm, while a merge waits for its deadline: past it, the board goes out with the
   * reports there are; before it (the alarm woke for something else), the wait is set again.
   */
  due(now: number): void {
    if (this.core.store.scheduled("merge") === null) return;
    this.core.store.unschedule("merge");
    this.#merge(now, true);
  }

  #merge(now: number, deadline: boolean): void {
    const { store } = this.core;
    if (this.core.meta().phase !== "live") return store.unschedule("merge");
    const reports = Array.from({ length: this.core.shardCount }, (_, i) => store.shardState<Reported>(`report:${i}`));
    const step = mergeStep(
      reports.map((r) => r?.ord ?? null),
      this.#closedAt(Math.max(...reports.map((r) => r?.ord ?? -1)), now),
      now,
    );
    if (step.kind === "none") return;
    if (step.kind === "wait") return store.schedule("merge", step.until);
    store.unschedule("merge");
    const previous = store.shardState<MergedBoard>("board");
    // The deadline with no report come since the last merge of this question: nothing new to send.
    if (deadline && previous?.question?.ord === step.ord) return;
    const present = reports.filter((r): r is Reported => r !== null);
    const counted = reports.flatMap((r, k) => (r?.ord === step.ord ? [k] : []));
    const distribution = mergeDistributions(counted.map((k) => reports[k]!.distribution ?? []));
    this.#publish({
      // Newer boards replace older ones: a late or a re-report of the same question still makes a newer board.
      version: Math.max(step.ord + 1, (previous?.version ?? 0) + 1),
      board: this.#withoutDisqualified(mergeShardReports(present.map((r) => r.report))),
      question: { ord: step.ord, complete: step.complete, distribution, shards: counted },
    });
  }

  /** When question `ord` closed on the shared clock: its window from the coordinator's own open time. */
  #closedAt(ord: number, now: number): number {
    const opened = this.core.store.questionAt(ord)?.opened_at;
    // Not opened here (a report can only follow an opening): no reason to wait.
    return opened == null ? now - LIVE_SHOW_WINDOW_MS : opened + LIVE_SHOW_WINDOW_MS;
  }

  /** After a host action: a disqualified player leaves the merged board at once. */
  hostChanged(): void {
    const merged = this.core.store.shardState<MergedBoard>("board");
    if (!merged || this.core.meta().phase !== "live") return;
    const board = this.#withoutDisqualified(merged.board);
    if (board.top.length !== merged.board.top.length) this.#publish({ ...merged, version: merged.version + 1, board });
  }

  #withoutDisqualified(board: ShardReport<BoardRow>): ShardReport<BoardRow> {
    const out = (u: number) => this.core.store.participant(u)?.disqualified_at != null;
    return { ...board, top: board.top.filter((r) => !out(r.userId)) };
  }

  /** The merged board to this room's spectators and to every shard (each pushes it to its players). */
  #publish(merged: MergedBoard): void {
    const { store } = this.core;
    store.setShardState("board", merged);
    if (this.board.setMerged(merged)) {
      this.board.push(Date.now());
      this.show.mergedDistribution(merged);
    }
    const t = this.core.meta().tournament_id;
    // Each shard pushes it to its players; a shard that misses it keeps the previous board until the next one.
    for (let i = 0; i < this.core.shardCount; i++)
      this.core.ctx.waitUntil(
        this.core
          .playShard(i)
          .shardBoard(t, merged)
          .catch(() => undefined),
      );
  }
}

/**
 * How a reveal shows "How everyone answered": in one room, this room's counts; in a sharded show,
 * the merged counts once this object has them for the question, until then its own marked partial
 * (a `distribution` frame follows, LiveShow.mergedDistribution).
 */
export function shownDistribution(
  core: RoomCore,
  board: RoomBoard,
  ord: number,
  own: OptionCount[],
): { distribution: OptionCount[]; partial?: true } {
  if (core.shard === null && !core.coordinates()) return { distribution: own };
  const merged = board.mergedQuestion();
  if (merged?.ord !== ord) return { distribution: own, partial: true };
  if (merged.complete) return { distribution: merged.distribution };
  // Merged at the deadline without this shard's report (it revealed late): its own players count too.
  const without = core.shard !== null && merged.shards !== undefined && !merged.shards.includes(core.shard);
  return { distribution: without ? mergeDistributions([merged.distribution, own]) : merged.distribution, partial: true };
}
