// Results to D1: each finishing player's row and responses (grouped into shared batches), the
// settlement of a tournament (exactly once, in resumable chunks: ranks, prizes, XP, flags) and the
// close of a practice run. Also the records settlement and the console read from the room's storage.
import { fairPlayFlags, type PlayerRecord } from "../../../common/domain/fair-play";
import { placementXp } from "../../../common/domain/levels";
import { awardPrizes } from "../../../common/domain/prizes";
import { runAtomically } from "../../money/ledger";
import { burnStatement } from "../../questions/usage";
import { CompletionWriter } from "./completions";
import type { RoomCore } from "./core";
import {
  chunkStatements,
  closePracticeRunStatement,
  completionStatements,
  isChunkApplied,
  participantResultsStatements,
  practiceXpStatement,
  responsesStatements,
  settlementChunks,
  settlementChunkSize,
  settlementProgress,
  SETTLEMENT_CHUNK_PLAYERS,
  userLevels,
  type ParticipantResult,
  type SettlementPlan,
  type SettlementRow,
} from "./d1";
import type { RoomBoard } from "./leaderboard";
import type { LiveShow } from "./live-show";
import { tournamentNotice } from "./notices";
import { computeStandings, responseRecords, type PlayerStanding, type ResponseRecord } from "./standings";
import type { RoomStore } from "./storage";
import { unansweredPlay, type MetaRow, type PlayRow } from "./tables";

/** A finishing player's row and responses, waiting for their shared D1 batch. */
interface Completion {
  userId: number;
  result: ParticipantResult;
  responses: ResponseRecord[];
}

export class Settlement {
  /** Completions on their way to D1, grouped into shared batches. */
  readonly completions = new CompletionWriter<Completion>((entries) => this.#writeCompletions(entries), SETTLEMENT_CHUNK_PLAYERS);

  constructor(
    readonly core: RoomCore,
    readonly board: RoomBoard,
    readonly show: LiveShow,
  ) {}

  /** A finishing player's totals and responses, as D1 stores them. */
  completion(userId: number, now: number): Completion {
    const { store, counted } = this.core;
    const [me] = computeStandings([store.participant(userId)!], counted.plays(store.plays(userId)), counted.slots(), now, true);
    return {
      userId,
      result: { ...totalsOf(me!), rank: null, prize: 0 },
      responses: responseRecords(counted.plays(recordedPlays(store, [userId])), questionIds(store), new Set([userId])),
    };
  }

  /**
   * Finishing players' totals and responses to D1 in one batch (practice also credits the
   * answers' XP, each statement gated on the player's row not being completed yet, which the
   * results statement after them changes).
   */
  async #writeCompletions(entries: Completion[]): Promise<void> {
    const meta = this.core.meta();
    const db = this.core.env.DB;
    await db.batch([
      ...(meta.practice ? entries.map((e) => practiceXpStatement(db, meta.tournament_id, e.userId, e.result.xp)) : []),
      ...participantResultsStatements(
        db,
        meta.tournament_id,
        entries.map((e) => e.result),
      ),
      ...responsesStatements(
        db,
        meta.tournament_id,
        entries.flatMap((e) => e.responses),
      ),
    ]);
    this.core.store.markResultsWritten(entries.map((e) => e.userId));
  }

  /**
   * Exactly once, however often it runs, and resumable: the results go to D1 in chunks of
   * players, each applied once (its marker row is in its batch), then one small batch completes
   * the tournament and pays the prizes. An attempt that fails at any chunk leaves the phase
   * `settling`; the next run (the alarm's retry, or the lifecycle re-check) computes the same
   * chunks and goes on from the first one D1 has no marker for.
   */
  async settle(meta: MetaRow, now: number): Promise<void> {
    const { store } = this.core;
    if (meta.settled) {
      store.setPhase("completed");
      store.unschedule("lifecycle");
      return;
    }
    // From here on no answer is accepted, so the results written are the results stored.
    store.setPhase("settling");
    store.unschedule("show");
    // A completion's write that lands after a chunk would undo the chunk's rank and prize.
    await this.completions.drain();
    // The first attempt's time is the settlement's: every retry writes the same plan.
    const stamp = meta.settle_stamp ?? now;
    if (meta.settle_stamp === null) store.setSettleStamp(stamp);
    const plan = await this.#plan(meta, stamp);
    const db = this.core.env.DB;
    const progress = await settlementProgress(db, meta.tournament_id);
    let claimed = 0;
    if (!progress.settled) {
      for (const chunk of settlementChunks(plan, settlementChunkSize(this.core.env.SETTLEMENT_CHUNK_PLAYERS))) {
        if (progress.applied.has(chunk.index)) continue;
        try {
          await runAtomically(db, chunkStatements(db, plan, chunk, Date.now()));
        } catch (e) {
          // Its marker was there: an earlier attempt applied it and lost the reply.
          if (!isChunkApplied(e)) throw e;
        }
      }
      [claimed = 0] = await runAtomically(db, completionStatements(db, plan));
    }
    store.recordPlacings(plan.rows.map((r) => ({ userId: r.u, rank: r.rank, prizeCents: r.prize })));
    store.setPhase("completed", { settled: true });
    store.unschedule("lifecycle");
    this.board.rebuild(now);
    this.show.broadcastStatus(now);
    this.board.push(now);
    // claimed is 0 when an earlier attempt had completed it: that one notified.
    if (claimed > 0) {
      await this.core.notify(
        plan.rows.map((r) => r.u),
        plan.notice.frame,
      );
    }
  }

  /** What settlement writes, from the room's own storage: ranks, prizes, XP, flags, responses. */
  async #plan(meta: MetaRow, stamp: number): Promise<SettlementPlan> {
    const { store, counted } = this.core;
    // Disqualified players are out of the ranking and voided questions count for nobody (decision 017).
    const standings = computeStandings(counted.ranked(), counted.plays(store.allPlays()), counted.slots(), stamp, true);
    const ids = standings.map((s) => s.userId);
    const prizes = awardPrizes(standings, meta.prize_pool_cents);
    const levels = await userLevels(this.core.env.DB, ids);
    return {
      tournamentId: meta.tournament_id,
      title: meta.title,
      stamp,
      endTime: Math.min(stamp, meta.end_time ?? stamp),
      rows: standings.map((s) => settledRow(s, s.rank, prizes.byUser.get(s.userId) ?? 0, levels.get(s.userId) ?? s.level)),
      unclaimed: prizes.unclaimed,
      responses: responseRecords(counted.plays(recordedPlays(store, ids)), questionIds(store), new Set(ids)),
      notice: tournamentNotice(meta.tournament_id, meta.title, "completed"),
      flags: meta.practice ? new Map() : fairPlayFlags(playerRecords(store)),
      questionUse: questionUse(store, stamp),
    };
  }

  /**
   * A practice run ends when its player finishes or its time runs out: the results (and the XP of
   * the answers) go to D1 if they have not yet, and the run is completed. No placing, no prize.
   */
  async closePracticeRun(meta: MetaRow, now: number): Promise<void> {
    const { store } = this.core;
    const db = this.core.env.DB;
    await this.completions.drain();
    for (const p of store.participants()) {
      if (p.results_written !== 0) continue;
      store.finish(p.user_id, now);
      await this.#writeCompletions([this.completion(p.user_id, now)]);
    }
    // Practice shows each answer at once: whatever it drew is burned (already so unless the demo bank is reused).
    const { issued } = questionUse(store, now);
    await db.batch([
      closePracticeRunStatement(db, meta.tournament_id, now),
      ...(issued.length > 0 ? [burnStatement(db, issued, now)] : []),
    ]);
    store.setPhase("completed", { settled: true });
    store.unschedule("lifecycle");
    this.board.rebuild(now);
    this.show.broadcastStatus(now);
  }
}

/**
 * The plays to record in D1: every question issued to these players. A live show issues each
 * question to everyone when it goes out, so one a player never answered is recorded as timed out.
 */
export function recordedPlays(store: RoomStore, userIds: number[]): PlayRow[] {
  const meta = store.meta()!;
  const plays = userIds.flatMap((u) => [...store.plays(u)]);
  if (meta.format !== "live_show") return plays;
  const opened = store.questions().filter((q) => q.opened_at !== null);
  for (const u of userIds) {
    for (const q of opened) {
      if (!store.play(u, q.ord)) plays.push(unansweredPlay(u, q.ord, q.opened_at!));
    }
  }
  return plays;
}

/** What the fair-play checks read: each player's answers in the order they got them, and where they joined from. */
export function playerRecords(store: RoomStore): PlayerRecord[] {
  return store.participants().map((p) => ({
    userId: p.user_id,
    deviceHash: p.device_hash,
    networkHash: p.network_hash,
    answers: store.plays(p.user_id).map((play) => {
      const q = store.questionAt(play.ord)!;
      return {
        questionId: q.question_id,
        answer: play.answer,
        correct: play.is_correct === 1,
        responseMs: play.response_ms,
        questionLength: q.question.length,
        // A voided question counts for nobody, in the checks too (docs/fair-play.md).
        voided: q.voided_at !== null,
      };
    }),
  }));
}

export function questionIds(store: RoomStore): Map<number, number> {
  return new Map(store.questions().map((q) => [q.ord, q.question_id]));
}

/**
 * The tournament's questions as its end leaves them (docs/questions.md): issued ones are burned,
 * the others were never seen and give their prize use back.
 */
export function questionUse(store: RoomStore, at: number): { issued: number[]; unissued: number[]; at: number } {
  return { ...store.issuedQuestionIds(), at };
}

/** A standing's totals as the participant row stores them, before a rank and a prize (XP from answers only). */
export const totalsOf = (s: PlayerStanding): Omit<ParticipantResult, "rank" | "prize"> => ({
  u: s.userId,
  score: s.score,
  answered: s.questionsAnswered,
  correct: s.correctAnswers,
  totalMs: s.totalResponseMs,
  xp: s.answerXp,
  finishedAt: s.finishedAt,
});

/** A settled player's row: the totals with the final rank, the prize and the place's XP at the player's level. */
export const settledRow = (s: PlayerStanding, rank: number, prize: number, level: number): SettlementRow => ({
  ...totalsOf(s),
  xp: s.answerXp + placementXp(rank, level),
  rank,
  prize,
  won: rank === 1 ? 1 : 0,
});
