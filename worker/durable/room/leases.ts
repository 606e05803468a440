// Seat leases of a sharded live show (docs/decisions/011-one-tournament-past-one-durable-object.md,
// "Seat leases" and "Built"). Each play shard seats its own players with the room's group commit
// (./joins.ts), but only against seats the coordinator leased to it: a shard's seats left are its
// lease (seats granted, less seats given back) less its seated players. The coordinator's pool is
// the capacity less every shard's lease; when it is empty the coordinator takes back the unused
// seats of every shard's lease before it says "full". Grants and give-backs carry ids stored on
// both sides first, so a lost reply retried changes nothing twice, and the coordinator's count of
// a shard's lease is never below the shard's own: the shards' seats never exceed the capacity.
//
// Queues: a shard asks for seats outside its serial queue (the coordinator may call it back to
// take seats back, in that queue); the coordinator grants outside its own queue (it may be calling
// the shards from there: before the start, a cancel or an edit it closes every lease).
import { prizePoolFromFees } from "../../../common/domain/prizes";
import { CANCEL_AFTER_DELAY_MS } from "../../../common/spec";
import { roomFor } from "../room-client";
import type { RoomCore } from "./core";
import { loadConfig } from "./d1";
import { FAIRNESS_VERSION } from "./commitment";
import type { Lifecycle } from "./lifecycle";

/** The coordinator's answer to a shard's request: seats granted (maybe none); `closed`: registration is over. */
export interface LeaseGrant {
  seats: number;
  closed: boolean;
  /** The tournament's configuration edition: a shard that has an older one reloads it from D1 before seating. */
  config: number;
}

/** The grant the coordinator stored last for a shard, sent with a give-back so a grant whose reply was lost still counts. */
export type LastGrant = { id: string; seats: number } | null;

/** A shard's lease as it keeps it: `held` seats granted and not given back; `pending`, the grant id asked and not yet applied. */
interface ShardLease {
  held: number;
  seq: number;
  pending: string | null;
  /** The pending grant was asked ahead of need (the coordinator then grants from its pool only). */
  ahead?: boolean;
  closed: boolean;
  config: number;
}

/** A take-back round: its id, whether it closes registration, and the shards that have not answered it yet. */
interface Round {
  id: number;
  close: boolean;
  pending: number[];
}

/** Seats a shard asks for at a time: a quarter of its share, and at least a few (it asks again when a quarter of a block is left). */
export const leaseBlock = (capacity: number, shards: number) => Math.max(8, Math.ceil(capacity / shards / 4));

/** The shard's side: what it may still seat, asking for more, giving back what it does not use. */
export class ShardLeases {
  #asking: Promise<LeaseGrant> | null = null;
  #ahead = false;

  constructor(readonly core: RoomCore) {}

  #state(): ShardLease {
    return this.core.store.shardState<ShardLease>("lease") ?? { held: 0, seq: 0, pending: null, closed: false, config: 0 };
  }

  #save(s: ShardLease): void {
    this.core.store.setShardState("lease", s);
  }

  /** Seats this shard may still fill. */
  left(): number {
    return Math.max(0, this.#state().held - this.core.store.participantCount());
  }

  /** Registration is over (the coordinator closed it before the start or a cancel): no join, no leave. */
  closed(): boolean {
    return this.#state().closed;
  }

  /** Whether a grant came with a newer configuration than this shard loaded (an operator's edit). */
  stale(): boolean {
    return (this.core.store.shardState<number>("leaseConfig") ?? 0) !== this.#state().config;
  }

  /** The tournament as D1 has it now (after an operator's edit, before anyone joined); in the serial queue. */
  async reload(): Promise<void> {
    const { core } = this;
    const meta = core.meta();
    const config = await loadConfig(core.env.DB, meta.tournament_id, core.shard);
    if (!config) return;
    core.store.replaceConfig(
      { ...config, meta: { ...config.meta, salt: null, commitment: null, commitment_version: FAIRNESS_VERSION } },
      false,
    );
    core.forgetOptions();
    core.store.setShardState("leaseConfig", this.#state().config);
  }

  /** True when the asking is already under way (a top-up ahead is not asked twice). */
  asking(): boolean {
    return this.#asking !== null;
  }

  /**
   * Asks the coordinator for `need` more seats (a block at least; 0: ahead of need). Outside the serial queue. The
   * grant's id is stored before the call, so a retry after a lost reply or a restart asks with the
   * same id and gets the same grant; one request at a time.
   */
  ask(need: number): Promise<LeaseGrant> {
    if (this.#asking) {
      // Joins waiting for a seat need an answer that took the other shards' unused seats into account.
      if (need > 0 && this.#ahead) return this.#asking.catch(() => null).then(() => this.ask(need));
      return this.#asking;
    }
    const run = this.#ask(need).finally(() => {
      this.#asking = null;
    });
    this.#asking = run;
    this.#ahead = need === 0;
    return run;
  }

  async #ask(need: number): Promise<LeaseGrant> {
    const { core } = this;
    const meta = core.meta();
    const s = this.#state();
    if (s.pending === null) this.#save({ ...s, pending: `${core.shard}:${s.seq}`, ahead: need === 0 });
    // A retried id is asked as it was first asked: the coordinator answers it the same.
    const { pending: id, ahead = false } = this.#state();
    const want = Math.max(need, leaseBlock(meta.max_participants ?? 0, meta.shard_count));
    const grant = await roomFor(core.env, meta.tournament_id).leaseSeats(meta.tournament_id, core.shard!, id!, want, ahead);
    this.#apply(id!, grant.seats, grant.config);
    // An ahead request's answer says nothing about the other shards' unused seats: joins waiting ask again.
    if (need > 0 && ahead && grant.seats < need && !grant.closed) return this.#ask(need);
    return grant;
  }

  /** A grant's seats join the lease once: only while its id is the one asked and not yet applied. */
  #apply(id: string, seats: number, config?: number): void {
    const s = this.#state();
    if (s.pending !== id) return;
    this.#save({ ...s, held: s.held + seats, seq: s.seq + 1, pending: null, config: config ?? s.config });
  }

  /**
   * The coordinator takes back what this shard does not use (in the serial queue, so never in the
   * middle of a group commit): the lease shrinks to the seated players, once per round id (a
   * repeat answers the same). `last`: the coordinator's last grant to this shard, applied first
   * when its reply never arrived. `close`: registration is over here too.
   */
  giveBack(round: string, last: LastGrant, close: boolean): number {
    const { store } = this.core;
    const done = store.shardState<number>(`returned:${round}`);
    if (done !== null) return done;
    if (last) this.#apply(last.id, last.seats);
    const s = this.#state();
    const back = Math.max(0, s.held - store.participantCount());
    this.#save({ ...s, held: s.held - back, closed: s.closed || close });
    store.setShardState(`returned:${round}`, back);
    return back;
  }
}

/** The coordinator's side: the pool, the grants and the rounds that take seats back. */
export class SeatPool {
  /** Grants being decided, by id: a retry while the first is still waiting gets the same answer. */
  readonly #deciding = new Map<string, Promise<LeaseGrant>>();
  #round: Promise<boolean> | null = null;
  /** While an operator's edit runs, nothing is granted (in memory: a restart ends the edit anyway). */
  #held = false;

  constructor(
    readonly core: RoomCore,
    readonly lifecycle: Lifecycle,
  ) {}

  #lease(k: number): number {
    return this.core.store.shardState<number>(`lease:${k}`) ?? 0;
  }

  /** Seats not leased to any shard. */
  pool(): number {
    let leased = 0;
    for (let k = 0; k < this.core.shardCount; k++) leased += this.#lease(k);
    return (this.core.meta().max_participants ?? 0) - leased;
  }

  #closed(): boolean {
    return this.core.meta().phase !== "upcoming" || this.core.store.shardState<boolean>("leases:closed") === true;
  }

  /**
   * TournamentRoom.leaseSeats: grant `grantId` to shard k, once; from the pool, else from what the
   * other shards give back (`ahead`, a shard asking before it needs them: the pool only).
   */
  grant(k: number, grantId: string, want: number, ahead = false): Promise<LeaseGrant> {
    const stored = this.core.store.shardState<LeaseGrant>(`grant:${grantId}`);
    if (stored) return Promise.resolve(stored);
    const deciding = this.#deciding.get(grantId);
    if (deciding) return deciding;
    const run = this.#grant(k, grantId, want, ahead).finally(() => this.#deciding.delete(grantId));
    this.#deciding.set(grantId, run);
    return run;
  }

  async #grant(k: number, grantId: string, want: number, ahead: boolean): Promise<LeaseGrant> {
    const { store } = this.core;
    for (let tried = false; ; tried = true) {
      const closed = this.#closed();
      const pool = this.pool();
      // An empty pool: take back the seats the shards hold and do not use, once, before saying none are left.
      if (!closed && !this.#held && pool <= 0 && !tried && !ahead) {
        await this.takeBack(false);
        continue;
      }
      const seats = closed || this.#held ? 0 : Math.max(0, Math.min(want, pool));
      const grant: LeaseGrant = { seats, closed, config: store.shardState<number>("leases:config") ?? 0 };
      // The grant, the shard's lease and the last grant together, before the reply.
      store.setShardState(`grant:${grantId}`, grant);
      store.setShardState(`lease:${k}`, this.#lease(k) + seats);
      store.setShardState(`lastGrant:${k}`, { id: grantId, seats } satisfies LastGrant);
      // The shards' seats changed since this room last read them: the next reader reads D1 again.
      this.core.synced = false;
      return grant;
    }
  }

  /**
   * A round that takes back every shard's unused seats (`close`: and ends registration there).
   * True once every shard answered. A round a shard did not answer is finished first, with its
   * id, so seats a shard gave back under a lost reply are counted.
   */
  takeBack(close: boolean): Promise<boolean> {
    const previous = this.#round ?? Promise.resolve(true);
    const run = previous.then(() => this.#takeBack(close));
    this.#round = run.finally(() => {
      if (this.#round === run) this.#round = null;
    });
    return run;
  }

  async #takeBack(close: boolean): Promise<boolean> {
    const unfinished = this.core.store.shardState<Round>("leases:round");
    // A round some shard did not answer is finished first, with its id: seats given back under a lost reply count.
    if (unfinished && unfinished.pending.length > 0 && !(await this.#run(unfinished))) return false;
    const id = (unfinished?.id ?? 0) + 1;
    return this.#run({ id, close, pending: Array.from({ length: this.core.shardCount }, (_, k) => k) });
  }

  /** One round to the shards it names; true once all of them answered. */
  async #run(round: Round): Promise<boolean> {
    const { store } = this.core;
    const t = this.core.meta().tournament_id;
    store.setShardState("leases:round", round);
    const results = await Promise.allSettled(
      round.pending.map(async (k) => {
        const last = store.shardState<LastGrant>(`lastGrant:${k}`);
        const back = await this.core.playShard(k).leaseReturn(t, String(round.id), last, round.close);
        const now = store.shardState<Round>("leases:round")!;
        if (now.id !== round.id || !now.pending.includes(k)) return;
        store.setShardState(`lease:${k}`, this.#lease(k) - back);
        store.setShardState("leases:round", { ...now, pending: now.pending.filter((j) => j !== k) });
      }),
    );
    for (const r of results) if (r.status === "rejected") console.error(`taking back seats of tournament ${t} failed`, r.reason);
    return store.shardState<Round>("leases:round")!.pending.length === 0;
  }

  /**
   * Registration ends (the start, a cancel): nothing more is granted, every shard gives back what
   * it does not use and refuses joins and leaves, then the seats are read from D1. False when a
   * shard did not answer (asked again later; nothing started or refunded meanwhile).
   */
  async close(): Promise<boolean> {
    const { store } = this.core;
    const round = store.shardState<Round>("leases:round");
    const done = store.shardState<boolean>("leases:closed") === true && round?.close === true && round.pending.length === 0;
    store.setShardState("leases:closed", true);
    if (!done && !(await this.takeBack(true))) return false;
    await this.readSeats();
    return true;
  }

  /**
   * Lifecycle's gate once the start time has come: the seats read from D1; when the show is due to
   * start (enough players) or to be cancelled (too few, too long), registration ends first.
   */
  async gate(now: number): Promise<boolean> {
    await this.readSeats();
    const meta = this.core.meta();
    const due = this.core.store.participantCount() >= meta.min_players || now >= meta.start_time + CANCEL_AFTER_DELAY_MS;
    return !due || (await this.close());
  }

  /** The seats as D1 has them (the shards wrote them), and a paid show's pool from them. In the serial queue. */
  async readSeats(): Promise<void> {
    const { core } = this;
    await this.lifecycle.syncParticipants(core.meta().tournament_id);
    const meta = core.meta();
    if (meta.entry_fee_cents > 0) core.store.setPrizePool(prizePoolFromFees(core.store.participantCount() * meta.entry_fee_cents));
  }

  /**
   * Around an operator's edit (only while nobody holds a seat): nothing is granted, every unused
   * seat comes back (an error when a shard did not answer: nothing edited), and afterwards a shard reloads the
   * tournament before it seats anyone (the next grant carries the new edition).
   */
  async holdForEdit<T>(edit: () => Promise<T>): Promise<T> {
    this.#held = true;
    try {
      if (!(await this.takeBack(false))) throw new Error("a play shard did not give back its seats");
      await this.core.serial(() => this.readSeats());
      const result = await edit();
      const { store } = this.core;
      store.setShardState("leases:config", (store.shardState<number>("leases:config") ?? 0) + 1);
      return result;
    } finally {
      this.#held = false;
    }
  }
}
