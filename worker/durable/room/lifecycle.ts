// The tournament's lifecycle (common/domain/lifecycle.ts): the room's readiness (its config from
// D1, its participants reconciled), then upcoming -> live -> settling -> completed, or cancelled
// (too few players, an operator, the creator), one step per alarm over the table of deadlines.
import { NOTIFY, CUSTOM } from "../../../common/messages";
import { ADMIN_TOURNAMENTS } from "../../../common/console-messages";
import type { CancelTournamentResult } from "../../../common/api/admin-tournaments";
import { nextLifecycleStep } from "../../../common/domain/lifecycle";
import { prizePoolFromFees } from "../../../common/domain/prizes";
import { auditStatement } from "../../admin/audit";
import { staffSql } from "../../fair-play/staff";
import { runAtomically } from "../../money/ledger";
import { commitTo, FAIRNESS_VERSION, publishCommitment } from "./commitment";
import type { RoomCore } from "./core";
import {
  cancelStatements,
  leaveStatements,
  loadConfig,
  loadDepartures,
  loadParticipants,
  notificationsStatements,
  startStatement,
} from "./d1";
import type { RoomBoard } from "./leaderboard";
import type { LiveShow } from "./live-show";
import { tournamentNotice } from "./notices";
import { fail, isPrize, ok, publicStatus, type RoomResult } from "./results";
import { questionUse, type Settlement } from "./settlement";
import type { MetaRow } from "./tables";

/** How soon a sharded show's start (the seat gate) or settlement, waiting for a play shard, asks again. */
const SHARDS_RETRY_MS = 1_000;

export class Lifecycle {
  constructor(
    readonly core: RoomCore,
    readonly board: RoomBoard,
    readonly show: LiveShow,
    readonly settlement: Settlement,
  ) {}

  /** The room's config, loaded from D1 on first use; null when the tournament does not exist. */
  async ready(tournamentId?: number): Promise<MetaRow | null> {
    const { core } = this;
    const meta = core.store.meta();
    if (meta && tournamentId !== undefined && meta.tournament_id !== tournamentId) {
      throw new Error(`room of tournament ${meta.tournament_id} was asked about tournament ${tournamentId}`);
    }
    if (meta && core.synced) return meta;
    if (!meta && tournamentId === undefined) return null;
    return core.serial(async () => {
      const current = core.store.meta();
      if (current) {
        if (!core.synced) await this.syncParticipants(current.tournament_id);
        return core.store.meta();
      }
      const config = await loadConfig(core.env.DB, tournamentId!, core.shard);
      if (!config) return null;
      // The questions are fixed from here on: commit to them (practice has nothing to win). A play
      // shard never draws a salt: it takes the coordinator's commitment with its first announcement.
      const committed = config.meta.practice || core.shard !== null ? null : await commitTo(config.meta.tournament_id, config.questions);
      core.store.install({
        ...config,
        meta: {
          ...config.meta,
          salt: committed?.salt ?? null,
          commitment: committed?.commitment ?? null,
          commitment_version: committed?.commitment_version ?? FAIRNESS_VERSION,
        },
      });
      core.synced = true;
      await publishCommitment(core);
      // Sets the first alarm (or starts a tournament whose start time has passed).
      await this.advance(Date.now());
      return core.store.meta();
    });
  }

  /**
   * D1 has the proof of every entry (the participant row written with the fee) and of every leave
   * (its refund); adopt what this copy missed, e.g. when it stopped between D1's batch and its own write.
   */
  async syncParticipants(tournamentId: number): Promise<void> {
    const { store, env } = this.core;
    const [participants, departures] = await Promise.all([
      loadParticipants(env.DB, tournamentId, this.core.shard),
      loadDepartures(env.DB, tournamentId),
    ]);
    store.adoptDepartures(departures);
    if (store.meta()?.phase === "upcoming") store.dropParticipantsNotIn(new Set(participants.map((p) => p.user_id)));
    store.addParticipants(participants);
    this.core.synced = true;
    this.board.invalidate();
  }

  /**
   * The coordinator of a sharded live show settles by shard (./shard-settlement.ts): false while
   * a shard has not answered, asked again soon.
   */
  settleSharded: ((meta: MetaRow, now: number) => Promise<boolean>) | null = null;

  /**
   * The coordinator of a sharded live show, whose play shards seat the players (./leases.ts):
   * `gate` reads the seats from D1 once the start time has come, and ends registration on every
   * shard before a start or a cancel (false: a shard did not answer, asked again soon); `close`
   * ends it before an operator's or creator's cancel.
   */
  seats: { gate: (now: number) => Promise<boolean>; close: () => Promise<boolean> } | null = null;

  #seats() {
    return this.core.coordinates() ? this.seats : null;
  }

  /** Moves the lifecycle on as far as the clock allows, then sets the alarm for what is next. */
  async advance(now: number): Promise<void> {
    const { store } = this.core;
    // A play shard has no lifecycle of its own: the coordinator's announcements and final phase drive it.
    if (this.core.shard !== null) return this.core.arm();
    const first = this.core.meta();
    const seats = this.#seats();
    if (seats && first.phase === "upcoming" && now >= first.start_time && !(await seats.gate(now))) {
      store.schedule("lifecycle", now + SHARDS_RETRY_MS);
      return this.core.arm();
    }
    // Before the first question: no staff in prize play, whatever changed since they joined.
    const before = this.core.meta();
    if (before.phase === "upcoming" && now >= before.start_time && isPrize(before)) await this.#removeStaffSeats(before, now);
    const meta = this.core.meta();
    const step = nextLifecycleStep(
      {
        phase: meta.phase,
        practice: meta.practice === 1,
        startTime: meta.start_time,
        // A paused show is not over at its end time: resuming moves the end by the pause.
        endTime: this.show.holding(meta) ? null : meta.end_time,
        minPlayers: meta.min_players,
        participants: store.participantCount(),
        everyoneFinished: store.everyoneFinished(),
      },
      now,
    );
    switch (step.kind) {
      case "wait":
        store.schedule("lifecycle", step.until);
        break;
      case "start":
        await this.#start(meta, now);
        break;
      case "cancel":
        await this.#cancel(meta);
        break;
      case "settle":
        if (this.settleSharded && this.core.coordinates()) {
          if (!(await this.settleSharded(meta, now))) store.schedule("lifecycle", now + SHARDS_RETRY_MS);
          break;
        }
        await this.settlement.settle(meta, now);
        break;
      case "close_practice_run":
        await this.settlement.closePracticeRun(meta, now);
        break;
      case "done":
        store.unschedule("lifecycle");
        break;
    }
    await this.core.arm();
  }

  /**
   * Staff out of prize play at the start (docs/fair-play.md): a participant who is an operator now
   * (the role granted after the join: `npm run admin:grant` only writes D1) or whose join came from
   * a device or network an operator has been seen on since is removed before the first question,
   * the fee refunded as a leave refunds it: once, under the leave's reference, in one batch with
   * the seat, the count and the pool. A repeat finds them gone (or the refund already there).
   */
  async #removeStaffSeats(meta: MetaRow, now: number): Promise<void> {
    const { store } = this.core;
    if (store.participantCount() === 0) return;
    const db = this.core.env.DB;
    const { results } = await db
      .prepare(
        `SELECT p.user_id FROM tournament_participants p
         WHERE p.tournament_id = ? AND ${staffSql("p.user_id", "p.device_hash", "p.network_hash", now)}`,
      )
      .bind(meta.tournament_id)
      .all<{ user_id: number }>();
    const staff = results.map((r) => r.user_id).filter((userId) => store.participant(userId) !== null);
    if (staff.length === 0) return;
    const fee = meta.entry_fee_cents;
    let count = store.participantCount();
    let pool = meta.prize_pool_cents;
    // A sharded show's shards may still seat players while it waits for enough of them: D1 counts.
    const counted = this.#seats() !== null;
    const statements = staff.flatMap((userId) => {
      count -= 1;
      if (fee > 0) pool = prizePoolFromFees(count * fee);
      return leaveStatements(db, {
        tournamentId: meta.tournament_id,
        title: meta.title,
        userId,
        feeCents: fee,
        departures: store.departures(userId),
        participants: counted ? null : count,
        prizePoolCents: counted ? null : pool,
        why: "staff",
      });
    });
    await runAtomically(db, statements);
    for (const userId of staff) {
      store.recordDeparture(userId);
      this.board.remove(userId);
    }
    store.setPrizePool(pool);
    await this.board.changed();
  }

  async #start(meta: MetaRow, now: number): Promise<void> {
    const { store } = this.core;
    const db = this.core.env.DB;
    // A delayed start keeps the full playing time.
    const endTime = meta.end_time === null ? null : meta.end_time + Math.max(0, now - meta.start_time);
    const userIds = store.participants().map((p) => p.user_id);
    const notice = tournamentNotice(meta.tournament_id, meta.title, "started");
    await db.batch([startStatement(db, meta.tournament_id, endTime), ...notificationsStatements(db, notice, userIds)]);
    store.setPhase("live", { endTime });
    if (endTime === null || meta.practice) store.unschedule("lifecycle");
    else store.schedule("lifecycle", endTime);
    this.show.broadcastStatus(now);
    // A live show's first question goes out now, to everyone at once.
    await this.show.run(now);
    await this.core.notify(userIds, notice.frame);
  }

  async #cancel(meta: MetaRow): Promise<void> {
    const { store } = this.core;
    const db = this.core.env.DB;
    const userIds = store.participants().map((p) => p.user_id);
    const notice = tournamentNotice(meta.tournament_id, meta.title, "cancelled", NOTIFY.cancelled(meta.title, meta.entry_fee_cents > 0));
    await runAtomically(db, [
      ...cancelStatements(db, {
        tournamentId: meta.tournament_id,
        title: meta.title,
        feeCents: meta.entry_fee_cents,
        userIds,
        questionUse: questionUse(store, Date.now()),
        cause: { by: "too_few_players" },
      }),
      ...notificationsStatements(db, notice, userIds),
    ]);
    store.setPhase("cancelled");
    store.setPrizePool(0);
    store.unschedule("lifecycle");
    this.show.broadcastStatus(Date.now());
    await this.core.notify(userIds, notice.frame);
  }

  /** TournamentRoom.cancelByOperator, in the room's serial order. */
  cancelByOperator(tournamentId: number, actorId: number, reason: string): Promise<RoomResult<CancelTournamentResult>> {
    const { store } = this.core;
    return this.core.serial(async () => {
      const meta = this.core.meta();
      if (meta.practice) return fail(409, "tournament_practice", ADMIN_TOURNAMENTS.practice);
      if (meta.phase === "cancelled") return ok({ tournamentId, cancelled: false, playersRefunded: 0, refundedCents: 0 });
      if (meta.phase === "completed" || meta.phase === "settling") return fail(409, "tournament_finished", ADMIN_TOURNAMENTS.finished);
      // A sharded show: no shard seats anyone from here on, and every seat D1 has is refunded.
      const seats = this.#seats();
      if (seats && meta.phase === "upcoming" && !(await seats.close())) throw new Error("a play shard did not close its seats");
      const userIds = store.participants().map((p) => p.user_id);
      const fee = meta.entry_fee_cents;
      const refunded = fee > 0 ? userIds.length : 0;
      const notice = tournamentNotice(tournamentId, meta.title, "cancelled", NOTIFY.cancelledByOperator(meta.title, reason, fee > 0));
      const result = { tournamentId, cancelled: true, playersRefunded: refunded, refundedCents: refunded * fee };
      const db = this.core.env.DB;
      await runAtomically(db, [
        ...cancelStatements(db, {
          tournamentId,
          title: meta.title,
          feeCents: fee,
          userIds,
          questionUse: questionUse(store, Date.now()),
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
      store.setPhase("cancelled");
      store.setPrizePool(0);
      store.unschedule("lifecycle");
      store.unschedule("show");
      await this.core.arm();
      this.show.broadcastStatus(Date.now());
      await this.core.notify(userIds, notice.frame);
      return ok(result);
    });
  }

  /** TournamentRoom.cancelByCreator, in the room's serial order so no join can slip in between. */
  cancelByCreator(tournamentId: number): Promise<RoomResult<null>> {
    const { store } = this.core;
    return this.core.serial(async () => {
      const meta = this.core.meta();
      if (meta.phase === "cancelled") return ok(null);
      if (meta.practice || meta.phase !== "upcoming" || store.participantCount() > 0)
        return fail(409, "tournament_not_cancellable", CUSTOM.notCancellable);
      // A sharded show: the shards stop seating first; a seat taken meanwhile makes it not cancellable.
      const seats = this.#seats();
      if (seats && !(await seats.close())) throw new Error("a play shard did not close its seats");
      if (store.participantCount() > 0) return fail(409, "tournament_not_cancellable", CUSTOM.notCancellable);
      const db = this.core.env.DB;
      await runAtomically(
        db,
        cancelStatements(db, {
          tournamentId,
          title: meta.title,
          feeCents: meta.entry_fee_cents,
          userIds: [],
          questionUse: questionUse(store, Date.now()),
          cause: { by: "creator" },
        }),
      );
      store.setPhase("cancelled");
      store.unschedule("lifecycle");
      store.unschedule("show");
      await this.core.arm();
      this.show.broadcastStatus(Date.now());
      return ok(null);
    });
  }
}
