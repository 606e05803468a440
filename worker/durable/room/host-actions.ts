// The host's tools as room actions (docs/operating.md, "Host tools"; docs/decisions/017-host-tools.md):
// pause and resume a live show, void a question, disqualify a player, export the results. Each
// runs in the room's serial order; its D1 writes and refusals are in ./host-tools.ts, its rules in
// common/domain/host-tools.ts.
import type { HostActionResult } from "../../../common/api/admin-tournaments";
import { ADMIN_TOURNAMENTS, HOST_TOOLS } from "../../../common/console-messages";
import {
  endTimeAfterPause,
  pauseRefusal,
  resultsCsv,
  resumedClock,
  voidRefusal,
  type ResultsCsvPlayer,
} from "../../../common/domain/host-tools";
import { rankStandings } from "../../../common/domain/scoring";
import { iso } from "../../db/present";
import type { RoomCore } from "./core";
import {
  disqualificationNotice,
  disqualificationStatements,
  endTimeStatement,
  forfeitHeldPrizeStatements,
  hostAudit,
  hostFailure,
  prizeRowStatement,
  type HostFailure,
} from "./host-tools";
import type { RoomBoard } from "./leaderboard";
import type { Lifecycle } from "./lifecycle";
import type { LiveShow } from "./live-show";
import { isRevealed, revealedCount, slotOf, verdictWithheld, type Presenters } from "./presenters";
import { fail, ok, type RoomFailure, type RoomResult } from "./results";
import { computeStandings, showStandings } from "./standings";
import type { MetaRow } from "./tables";

export class HostActions {
  constructor(
    readonly core: RoomCore,
    readonly show: LiveShow,
    readonly board: RoomBoard,
    readonly lifecycle: Lifecycle,
    readonly presenters: Presenters,
  ) {}

  /** TournamentRoom.pause, in the room's serial order. */
  pause(tournamentId: number, actorId: number, note: string | null): Promise<RoomResult<HostActionResult>> {
    const { core } = this;
    return core.serial(async () => {
      const meta = core.meta();
      const refusal = pauseRefusal(meta);
      if (refusal) return hostFail(hostFailure(refusal));
      if (meta.paused_at !== null) return ok({ tournamentId, changed: false, message: HOST_TOOLS.alreadyPaused });
      const now = Date.now();
      const where = { index: meta.show_ord, stage: meta.show_stage };
      const db = core.env.DB;
      await db.batch([
        hostAudit(db, actorId, "tournament.pause", tournamentId, { paused: false, ...where }, { paused: true, ...where }, note),
      ]);
      core.store.setPaused(now);
      await this.show.run(now);
      await this.lifecycle.advance(now);
      this.show.hostChanged(now);
      return ok({ tournamentId, changed: true, message: HOST_TOOLS.paused });
    });
  }

  /** TournamentRoom.resume, in the room's serial order. */
  resume(tournamentId: number, actorId: number, note: string | null): Promise<RoomResult<HostActionResult>> {
    const { core } = this;
    const { store } = core;
    return core.serial(async () => {
      const meta = core.meta();
      const refusal = pauseRefusal(meta);
      if (refusal) return hostFail(hostFailure(refusal));
      if (meta.paused_at === null) return ok({ tournamentId, changed: false, message: HOST_TOOLS.notPaused });
      const now = Date.now();
      const endTime = endTimeAfterPause(meta.end_time, meta.paused_at, now);
      const db = core.env.DB;
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
      store.setPaused(null);
      store.setPhase("live", { endTime });
      const clock = { stage: meta.show_stage, ord: meta.show_ord, since: meta.show_since ?? now, total: store.slotCount() };
      const resumed = resumedClock(clock, now);
      if (resumed.since !== clock.since) store.setShow(resumed.stage, resumed.ord, resumed.since);
      this.show.hooks()?.resumed?.(now);
      await this.show.run(now);
      await this.lifecycle.advance(now);
      this.show.hostChanged(now);
      return ok({ tournamentId, changed: true, message: HOST_TOOLS.resumed });
    });
  }

  /** TournamentRoom.voidQuestion, in the room's serial order. */
  voidQuestion(tournamentId: number, actorId: number, index: number, reason: string): Promise<RoomResult<HostActionResult>> {
    const { core } = this;
    const { store } = core;
    return core.serial(async () => {
      const meta = core.meta();
      const question = meta.format === "live_show" ? store.questionAt(index) : null;
      const refusal = voidRefusal(meta, question && { openedAt: question.opened_at });
      if (refusal) return hostFail(hostFailure(refusal));
      const q = question!;
      if (q.voided_at !== null) return ok({ tournamentId, changed: false, message: HOST_TOOLS.alreadyVoided(index) });
      const now = Date.now();
      const about = { index, questionId: q.question_id };
      const db = core.env.DB;
      await db.batch([
        hostAudit(db, actorId, "tournament.void_question", tournamentId, { ...about, voided: false }, { ...about, voided: true }, reason),
      ]);
      store.voidQuestion(index, now, reason);
      this.board.rebuild(now);
      this.board.push(now);
      this.show.hostChanged(now);
      return ok({ tournamentId, changed: true, message: HOST_TOOLS.voided(index) });
    });
  }

  /** TournamentRoom.disqualify, in the room's serial order. */
  disqualify(
    tournamentId: number,
    actorId: number,
    userId: number,
    reason: string,
    approvalId: number | null,
  ): Promise<RoomResult<HostActionResult>> {
    const { core } = this;
    const { store } = core;
    return core.serial(async () => {
      const meta = core.meta();
      if (meta.practice) return fail(409, "tournament_practice", ADMIN_TOURNAMENTS.practice);
      const p = store.participant(userId);
      if (!p) return fail(404, "participant_not_found", HOST_TOOLS.participantNotFound);
      if (p.disqualified_at !== null) return ok({ tournamentId, changed: false, message: HOST_TOOLS.alreadyDisqualified(p.username) });
      if (meta.phase === "settling") return fail(409, "tournament_not_running", HOST_TOOLS.settling);
      if (meta.phase !== "live" && meta.phase !== "completed") return hostFail(hostFailure("not_live"));
      const now = Date.now();
      const notice = disqualificationNotice(tournamentId, meta.title, reason);
      const d = { tournamentId, userId, username: p.username, reason, at: now, actorId, approvalId };
      const db = core.env.DB;
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
      store.disqualify(userId, now, reason);
      this.board.remove(userId);
      await this.board.changed();
      this.show.hostChanged(now, userId);
      await core.notify([userId], notice.frame);
      // The player still playing may have been the last: a self-paced tournament then settles now.
      if (meta.phase === "live" && store.everyoneFinished()) await this.lifecycle.advance(now);
      return ok({ tournamentId, changed: true, message: HOST_TOOLS.disqualified(p.username) });
    });
  }

  /** TournamentRoom.resultsCsv, once the room is ready. */
  resultsCsv(meta: MetaRow): RoomResult<string> {
    return ok(resultsCsv(this.csvPlayers(meta)));
  }

  /**
   * The export's rows from this object's own players and answers. A play shard's players carry
   * the settled rank the coordinator gave them once it came (./shards.ts, the final word).
   */
  csvPlayers(meta: MetaRow): ResultsCsvPlayer[] {
    const { store, counted } = this.core;
    const now = Date.now();
    const final = meta.phase === "completed" || meta.phase === "settling";
    // Mid-show, the ranking the board shows: revealed questions only, the others not timed out yet.
    const ranked =
      meta.format === "live_show" && !final
        ? rankStandings(showStandings(counted.ranked(), (u) => counted.plays(store.plays(u)), counted.revealed(revealedCount(meta)))).map(
            (r, i) => ({ ...r, rank: i + 1 }),
          )
        : computeStandings(counted.ranked(), counted.plays(store.allPlays()), counted.slots(), now, final);
    const answersOf = (userId: number) =>
      store
        .plays(userId)
        .filter((play) => play.answer !== null)
        .map((play) => {
          const q = store.questionAt(play.ord)!;
          const known = meta.format === "live_show" ? isRevealed(meta, play.ord) : !verdictWithheld(meta);
          const voided = q.voided_at !== null;
          const points = known ? (voided ? 0 : (play.points ?? 0)) : null;
          return {
            index: meta.format === "live_show" ? play.ord : slotOf(meta, play.ord),
            questionId: q.question_id,
            choice: play.answer,
            correct: known ? play.is_correct === 1 : null,
            responseMs: play.response_ms,
            voided,
            receipt: JSON.stringify(this.presenters.receipt(meta, play, q, points)),
          };
        });
    const rows: ResultsCsvPlayer[] = [
      ...ranked.map((r) => ({
        rank: (this.core.shard !== null ? store.participant(r.userId)?.rank : null) ?? r.rank,
        userId: r.userId,
        username: r.username,
        score: verdictWithheld(meta) ? 0 : r.score,
        correctAnswers: verdictWithheld(meta) ? 0 : r.correctAnswers,
        totalResponseMs: r.totalResponseMs,
        disqualifiedReason: null,
        answers: answersOf(r.userId),
      })),
      ...store
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
    return rows;
  }
}

const hostFail = (f: HostFailure): RoomFailure => fail(f.status, f.code, f.message);
