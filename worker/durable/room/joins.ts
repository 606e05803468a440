// Joins and leaves: what the room can say about a join without D1 (admission), the group commit
// of the joins that arrive within a few milliseconds (one D1 batch per group, ./join-group.ts),
// and a leave's refund before the start.
import type { Tournament } from "../../../common/api/types";
import { JOIN, PLAY } from "../../../common/messages";
import { formatCents } from "../../../common/domain/money";
import { prizePoolFromFees } from "../../../common/domain/prizes";
import { presentTournament } from "../../db/present-tournament";
import { runAtomically } from "../../money/ledger";
import { claimStatements, isClaimLost, type KeyClaim } from "../../money/idempotency";
import type { RoomCore } from "./core";
import { entryReference, leaveReference, leaveStatements } from "./d1";
import {
  departuresOf,
  groupRefusal,
  joinGroupStatements,
  tournamentAnswerStatement,
  tournamentFromRow,
  type GroupReadback,
  type GroupRow,
  type TournamentAnswerRow,
} from "./join-group";
import type { RoomBoard } from "./leaderboard";
import type { Lifecycle } from "./lifecycle";
import {
  claimLost,
  fail,
  isPrize,
  ok,
  type Admission,
  type JoinOutcome,
  type RoomFailure,
  type RoomResult,
  type RoomUser,
} from "./results";
import type { MetaRow } from "./tables";
import { shardOf } from "../../../common/domain/shards";
import { leaseBlock, ShardLeases, type LeaseGrant } from "./leases";
import { roomFor } from "../room-client";

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

export class Joins {
  /** Joins waiting for the next group commit, in arrival order. */
  #queue: WaitingJoin[] = [];
  /** Whether a group commit is already on its way (a timer or a place in the serial queue). */
  #flushQueued = false;
  /** A play shard's seat lease (./leases.ts); null in a tournament's room, which holds the capacity itself. */
  readonly leases: ShardLeases | null;

  constructor(
    readonly core: RoomCore,
    readonly board: RoomBoard,
    readonly lifecycle: Lifecycle,
  ) {
    this.leases = core.shard !== null ? new ShardLeases(core) : null;
  }

  /** TournamentRoom.admission, once the room is ready. */
  admission(meta: MetaRow, userId: number, level: number): RoomResult<Admission> {
    if (meta.practice) return ok({ state: "practice" });
    const seated = this.#joinedReference(meta, userId);
    if (seated !== null) return ok({ state: "joined", reference: seated });
    const refusal = this.#joinRefusal(meta, level, Date.now());
    return refusal ?? ok({ state: "open", feeCents: meta.entry_fee_cents, prize: isPrize(meta) });
  }

  /** TournamentRoom.join, once the room is ready: the join waits for its group's commit. */
  join(user: RoomUser, claim: KeyClaim | null): Promise<RoomResult<JoinOutcome>> {
    // A sharded show seats on its play shards, against their leases: the coordinator seats nobody itself.
    if (this.core.coordinates()) return Promise.reject(new Error("a sharded show's joins go to its play shards"));
    return new Promise<RoomResult<JoinOutcome>>((resolve, reject) => {
      this.#queue.push({ user, claim, resolve, reject });
      if (this.#flushQueued) return;
      this.#flushQueued = true;
      // The window lets a burst gather; under load the queue also fills while a batch runs.
      setTimeout(() => void this.core.serial(() => this.#flush()), JOIN_GROUP_WINDOW_MS);
    });
  }

  /** TournamentRoom.leave, once the room is ready, in the room's serial order. */
  leave(userId: number, claim: KeyClaim | null): Promise<RoomResult<{ refundedCents: number; reference: string }>> {
    const { core } = this;
    const { store } = core;
    return core.serial(async () => {
      const meta = core.meta();
      // A sharded show's seats are its shards' (the Worker sends a leave to the seat's shard).
      if (!store.participant(userId) || core.coordinates()) return fail(409, "not_joined", PLAY.notJoined);
      if (meta.phase !== "upcoming" || this.leases?.closed()) return fail(409, "leave_closed", PLAY.leaveClosed);
      const count = store.participantCount() - 1;
      const fee = meta.entry_fee_cents;
      const pool = fee > 0 ? prizePoolFromFees(count * fee) : meta.prize_pool_cents;
      const departures = store.departures(userId);
      const reference = leaveReference(meta.tournament_id, userId, departures);
      const db = core.env.DB;
      const key = claimStatements(db, claim, reference);
      try {
        await runAtomically(db, [
          ...key.before,
          ...leaveStatements(db, {
            tournamentId: meta.tournament_id,
            title: meta.title,
            userId,
            feeCents: fee,
            departures,
            // A shard knows only its own players: D1 counts the seats (the seat freed stays in its lease).
            ...(this.leases ? { participants: null, prizePoolCents: null } : { participants: count, prizePoolCents: pool }),
          }),
          ...key.after,
        ]);
      } catch (e) {
        if (isClaimLost(e)) return claimLost();
        throw e;
      }
      store.recordDeparture(userId);
      if (!this.leases) store.setPrizePool(pool);
      this.board.remove(userId);
      await this.board.changed();
      return ok({ refundedCents: fee, reference });
    });
  }

  /** The entry reference of a player already seated, else null. */
  #joinedReference(meta: MetaRow, userId: number): string | null {
    const { store } = this.core;
    if (!store.participant(userId)) return null;
    return entryReference(meta.tournament_id, userId, store.departures(userId));
  }

  /** Why a player may not join now, in the product's order after sign-in: open, level, capacity (the balance is D1's). */
  #joinRefusal(meta: MetaRow, level: number, now: number): RoomFailure | null {
    // Closed once over, and from the end time on even before the alarm has settled it; a live
    // show closes when its first question goes out.
    const over = meta.end_time !== null && now >= meta.end_time;
    const open = meta.phase === "upcoming" || (meta.phase === "live" && meta.format === "self_paced");
    if (!open || over || this.leases?.closed()) return fail(409, "join_closed", PLAY.joinClosed, JOIN.failedTitle);
    if (!meta.practice && level < meta.min_level) return fail(403, "level_too_low", JOIN.levelDescription(meta.min_level), JOIN.levelTitle);
    if (meta.max_participants !== null && this.core.store.participantCount() >= meta.max_participants) return full();
    return null;
  }

  /**
   * One group commit of the joins waiting (in the serial queue). Each waiting join is answered
   * from memory when it can be (already in, closed, level, full); the rest, one row per player and
   * no more than the seats left, go to D1 in one batch; whoever does not fit waits for the next
   * group, since a row refused for money frees its seat again. On a play shard the seats left are
   * its lease's: joins that do not fit wait for the coordinator's next grant (asked outside the
   * serial queue), and `grant` is that answer: none granted means full (or closed) for them.
   */
  async #flush(grant: LeaseGrant | null = null): Promise<void> {
    const { core, leases } = this;
    this.#flushQueued = false;
    const waiting = this.#queue.splice(0);
    let short = 0;
    try {
      // After a group whose batch failed, D1 may hold seats this copy does not: count them first.
      if (!core.synced) await this.lifecycle.syncParticipants(core.meta().tournament_id);
      // An operator edited the tournament since this shard loaded it (nobody was seated then).
      if (leases?.stale()) await leases.reload();
      const meta = core.meta();
      const now = Date.now();
      const room = leases
        ? leases.left()
        : meta.max_participants === null
          ? Infinity
          : meta.max_participants - core.store.participantCount();
      const seatsLeft = Math.min(JOIN_GROUP_MAX, room);
      const group: WaitingJoin[] = [];
      const inGroup = new Set<number>();
      const later: WaitingJoin[] = [];
      for (const w of waiting) {
        const seated = this.#joinedReference(meta, w.user.userId);
        const refusal = seated === null ? this.#joinRefusal(meta, w.user.level, now) : null;
        if (seated !== null) w.resolve(ok({ alreadyJoined: true, reference: seated, answer: null }));
        else if (refusal) w.resolve(refusal);
        else if (inGroup.has(w.user.userId)) later.push(w);
        else if (group.length < seatsLeft) {
          group.push(w);
          inGroup.add(w.user.userId);
        } else if (leases && grant && grant.seats === 0 && room <= 0) {
          // The coordinator had no seat left anywhere (after taking back the unused ones), or registration closed.
          w.resolve(grant.closed ? fail(409, "join_closed", PLAY.joinClosed, JOIN.failedTitle) : full());
        } else {
          later.push(w);
          if (!inGroup.has(w.user.userId)) short += 1;
        }
      }
      this.#queue.unshift(...later);
      if (group.length > 0) await this.#commit(meta, group, now);
      // Ahead of need: a quarter of a block left, the next block is asked for in the background.
      if (leases && short === 0 && !leases.asking() && !leases.closed() && meta.max_participants !== null) {
        if (leases.left() < Math.ceil(leaseBlock(meta.max_participants, meta.shard_count) / 4) && this.#queue.length + group.length > 0)
          void leases.ask(0).catch((e) => console.error("asking ahead for seats failed", e));
      }
    } catch (e) {
      // Whatever has not been answered fails with the error (answering twice changes nothing).
      for (const w of waiting) w.reject(e);
      this.#queue = this.#queue.filter((w) => !waiting.includes(w));
      short = 0;
    } finally {
      if (leases && short > 0) this.#askThenFlush(short);
      else if (this.#queue.length > 0 && !this.#flushQueued) {
        this.#flushQueued = true;
        void core.serial(() => this.#flush());
      }
    }
  }

  /**
   * Outside the serial queue (the coordinator may call this shard back to take seats, in that
   * queue): more seats for the joins that did not fit, then the next group with the answer. A
   * failed request fails those joins (nothing was charged).
   */
  #askThenFlush(need: number): void {
    this.#flushQueued = true;
    this.leases!.ask(need).then(
      (grant) => void this.core.serial(() => this.#flush(grant)),
      (e) => {
        console.error("asking for seats failed", e);
        const waiting = this.#queue.splice(0);
        this.#flushQueued = false;
        for (const w of waiting) w.reject(e);
      },
    );
  }

  async #commit(meta: MetaRow, group: WaitingJoin[], now: number): Promise<void> {
    const { core } = this;
    const { store } = core;
    const db = core.env.DB;
    const fee = meta.entry_fee_cents;
    // A player may have left on another shard since this one read D1: their next entry is a new one.
    if (this.leases && fee > 0)
      store.adoptDepartures(
        await departuresOf(
          db,
          meta.tournament_id,
          group.map((w) => w.user.userId),
        ),
      );
    const rows: GroupRow[] = group.map(({ user, claim }) => ({
      u: user.userId,
      ref: entryReference(meta.tournament_id, user.userId, store.departures(user.userId)),
      key: claim?.key ?? null,
      at: claim?.claimedAt ?? null,
      d: user.deviceHash,
      n: user.networkHash,
      // Chosen once, from where the join came from (by the Worker for a play shard: this one); a reconnect reads it back from D1.
      s: core.shard ?? shardOf(user.userId, user.continent, meta.shard_count),
    }));
    const statements = joinGroupStatements(db, {
      tournamentId: meta.tournament_id,
      title: meta.title,
      feeCents: fee,
      joinedAt: now,
      prize: isPrize(meta),
      rows,
      sharded: this.leases !== null,
    });
    let results: D1Result[];
    try {
      results = await db.batch(statements);
    } catch (e) {
      // Nothing is known about this group: whatever D1 holds is adopted before the next join.
      core.synced = false;
      for (const w of group) w.reject(e);
      return;
    }
    const readback = new Map((results[results.length - 2]!.results as GroupReadback[]).map((r) => [r.u, r]));
    let tournament = presentRow(results[results.length - 1]!.results[0] as TournamentAnswerRow | undefined);
    const seated = new Map<number, { reference: string; balanceCents: number; fresh: boolean }>();
    const refused: [WaitingJoin, RoomFailure][] = [];
    for (const [i, w] of group.entries()) {
      const r = readback.get(w.user.userId);
      if (r?.joined_at != null && this.leases && r.seat_shard !== core.shard) {
        // Pressed twice from two places at once: the seat (and its one charge) is on the other shard.
        seated.set(w.user.userId, { reference: rows[i]!.ref, balanceCents: r.balance, fresh: false });
      } else if (r?.joined_at != null) {
        seated.set(w.user.userId, { reference: rows[i]!.ref, balanceCents: r.balance, fresh: r.joined_at === now });
        store.addParticipants([
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
        this.board.refreshPlayer(w.user.userId, now);
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
    this.#queue = this.#queue.filter((w) => {
      if (!seated.has(w.user.userId)) return true;
      seatedWaiting.push(w);
      return false;
    });
    try {
      // A shard counts only its own players: the pool is D1's (and the coordinator's at the start).
      if (fee > 0 && !this.leases) store.setPrizePool(prizePoolFromFees(store.participantCount() * fee));
      // The player who completes the minimum starts a tournament that is waiting for players. A
      // shard tells its coordinator, without waiting (the coordinator calls it back to close its lease).
      if (this.leases && meta.phase === "upcoming" && now >= meta.start_time) {
        const t = meta.tournament_id;
        void roomFor(core.env, t)
          .init(t)
          .catch((e) => console.error(`telling the coordinator of tournament ${t} about new seats failed`, e));
      } else if (meta.phase === "upcoming" && now >= meta.start_time) {
        await this.lifecycle.advance(now);
        if (core.meta().phase !== meta.phase) tournament = presentRow(await tournamentAnswerStatement(db, meta.tournament_id).first());
      }
      await this.board.changed();
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
    const refusal = (await groupRefusal(this.core.env.DB, r, feeCents))!;
    return fail(refusal.status, refusal.code, refusal.message);
  }
}

const full = () => fail(409, "tournament_full", JOIN.full.description, JOIN.full.title);

/** A tournament row read with tournamentAnswerStatement, as the API shows it. */
const presentRow = (row: TournamentAnswerRow | null | undefined): Tournament | null =>
  row ? presentTournament(tournamentFromRow(row), row.category_name) : null;
