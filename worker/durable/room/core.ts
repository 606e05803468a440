// What every part of the tournament room shares (docs/decisions/004-tournament-room.md, "Layout"):
// the object's state and env, its storage, what counts for the ranking, the serial queue for work
// that waits on D1, the parsed options, and the one alarm over the table of deadlines. The parts
// (live show, play, joins, settlement, lifecycle, ...) each take this and nothing of the class.
import type { NotificationFrame } from "../../../common/api/tournaments";
import { pushNotification } from "../hub-client";
import { shardRoomFor } from "../room-client";
import { Counted } from "./host-tools";
import { RoomStore } from "./storage";
import type { MetaRow, QuestionRow } from "./tables";

/** The shard_state key where a play shard keeps its own index (see the constructor). */
const SHARD_SELF = "self";

export class RoomCore {
  readonly store: RoomStore;
  /** What counts for the ranking once the host voided a question or disqualified a player. */
  readonly counted: Counted;
  /** Whether this instance has reconciled its participants with D1 since it started. */
  synced = false;
  #tail: Promise<unknown> = Promise.resolve();
  /** Parsed options per question ord: answers check them on the hot path. */
  readonly #options = new Map<number, string[]>();

  readonly #env: () => Env;
  /**
   * Which play shard of a sharded live show this object is (its name is `{t}:shard:{k}`,
   * worker/durable/room-client.ts), or null: a tournament's room, which coordinates when sharded.
   */
  readonly shard: number | null;

  /** `env`: the object's env as it is at each use (a test may put a probe in front of D1 after construction). */
  constructor(
    readonly ctx: DurableObjectState,
    env: () => Env,
  ) {
    this.#env = env;
    this.store = new RoomStore(ctx.storage);
    // workerd gives no name to an instance that an alarm wakes cold (evicted since, its sockets
    // hibernating): a shard keeps its index in its own storage when it first learns it, or it would
    // take itself for the coordinator there (announce, settle) and never report its reveal.
    const named = /^\d+:shard:(\d+)$/.exec(ctx.id.name ?? "");
    if (named) {
      this.shard = Number(named[1]);
      if (this.store.shardState<number>(SHARD_SELF) !== this.shard) this.store.setShardState(SHARD_SELF, this.shard);
    } else {
      this.shard = ctx.id.name === undefined ? this.store.shardState<number>(SHARD_SELF) : null;
    }
    this.counted = new Counted(this.store);
  }

  get env(): Env {
    return this.#env();
  }

  /** The coordinator of a sharded live show: the tournament's room when it has play shards. */
  coordinates(): boolean {
    return this.shard === null && (this.store.meta()?.shard_count ?? 1) > 1;
  }

  /** The room's meta, once the room is ready (every caller has been through `ready`). */
  meta(): MetaRow {
    return this.store.meta()!;
  }

  /** The tournament's play shards (1: one room). */
  get shardCount(): number {
    return this.meta().shard_count;
  }

  /** Play shard k of this tournament, for a coordinator's calls. */
  playShard(k: number) {
    return shardRoomFor(this.env, this.meta().tournament_id, k, this.shardCount);
  }

  /**
   * Work that waits on D1 runs through here: the input gate does not hold other calls back while
   * an object waits on the network, and joins, lifecycle steps and settlement must not interleave.
   */
  serial<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.#tail.then(fn);
    this.#tail = run.catch(() => undefined);
    return run;
  }

  optionsOf(question: QuestionRow): string[] {
    let options = this.#options.get(question.ord);
    if (!options) {
      options = JSON.parse(question.options) as string[];
      this.#options.set(question.ord, options);
    }
    return options;
  }

  /** New questions (an operator's edit): their options are parsed again. */
  forgetOptions(): void {
    this.#options.clear();
  }

  /** Sets the one alarm for the earliest deadline in the table, or none. */
  async arm(): Promise<void> {
    const next = this.store.earliestDeadline();
    if (next === null) return this.ctx.storage.deleteAlarm();
    // Never exactly now: an alarm set for the present from inside alarm() may not fire again.
    await this.ctx.storage.setAlarm(Math.max(next, Date.now() + 1));
  }

  /** Pushes to connected /ws sockets; the notification rows are already stored, so a failure here loses nothing. */
  async notify(userIds: number[], frame: NotificationFrame): Promise<void> {
    if (userIds.length === 0) return;
    try {
      await pushNotification(this.env, userIds, frame);
    } catch (e) {
      console.error("notification push failed", e);
    }
  }
}
