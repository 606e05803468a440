// What the operators' console asks of a room besides the host's tools and a cancel: an edit of a
// tournament nobody joined, and the live view.
import { ADMIN_TOURNAMENTS } from "../../../common/console-messages";
import { LIVE_PLAYERS_SHOWN, type RoomLiveStats } from "../../../common/api/admin-tournaments";
import { fairPlayFlags, mergeFlags } from "../../../common/domain/fair-play";
import type { FairPlayFlag } from "../../../common/api/fair-play";
import { shardCount, shardSizeFrom } from "../../../common/domain/shards";
import { editStatements, loadSnapshot, type ResolvedDraft } from "../../admin/tournament-draft";
import { isTallyGuardTripped, tallyGuardStatement, tallyStatement, type TallyRow } from "../../admin/two-person";
import { commitTo, publishCommitment } from "./commitment";
import type { RoomCore } from "./core";
import { loadConfig } from "./d1";
import type { RoomBoard } from "./leaderboard";
import type { Lifecycle } from "./lifecycle";
import type { LiveShow } from "./live-show";
import { fail, notFound, ok, type RoomResult } from "./results";
import { playerRecords } from "./settlement";
import type { ShardFigures } from "./shards";
import type { RoomSockets } from "./sockets";

/** How far back the live view counts answers for its rate. */
const ANSWER_RATE_WINDOW_MS = 10_000;

export class OperatorConsole {
  constructor(
    readonly core: RoomCore,
    readonly sockets: RoomSockets,
    readonly board: RoomBoard,
    readonly show: LiveShow,
    readonly lifecycle: Lifecycle,
  ) {}

  /** A settled sharded show's coordinator: the flags its settlement stored (it holds no answers). */
  settledFlags: (() => Map<number, FairPlayFlag[]> | null) | null = null;

  /** TournamentRoom.reconfigure, once the room is ready, in the room's serial order. */
  reconfigure(
    tournamentId: number,
    actorId: number,
    draft: ResolvedDraft,
    poolRaise: { row: TallyRow; thresholdCents: number; refusal: string } | null,
  ): Promise<RoomResult<null>> {
    const { core } = this;
    const { store } = core;
    return core.serial(async () => {
      const meta = core.meta();
      if (meta.practice) return fail(409, "tournament_practice", ADMIN_TOURNAMENTS.practice);
      if (meta.phase !== "upcoming") return fail(409, "tournament_not_editable", ADMIN_TOURNAMENTS.notEditable);
      if (store.participantCount() > 0) return fail(409, "tournament_has_players", ADMIN_TOURNAMENTS.hasPlayers);
      // The shard count is fixed at creation (decision 011): a draft that would need more shards is refused; fewer seats keep them.
      const shardSize = shardSizeFrom(core.env.TOURNAMENT_SHARD_SIZE);
      if (shardCount(draft.format, draft.maxParticipants, shardSize) > meta.shard_count)
        return fail(409, "tournament_shards_fixed", ADMIN_TOURNAMENTS.shardsFixed(meta.shard_count * shardSize));
      const d1 = core.env.DB;
      const before = await loadSnapshot(d1, tournamentId);
      if (!before) return notFound();
      const tally = poolRaise
        ? [tallyStatement(d1, poolRaise.row), tallyGuardStatement(d1, "house_pool", actorId, [], poolRaise.thresholdCents)]
        : [];
      try {
        await d1.batch([...editStatements(d1, tournamentId, before, draft, actorId), ...tally]);
      } catch (e) {
        if (poolRaise && isTallyGuardTripped(e)) return fail(409, "house_pool_needs_approval", poolRaise.refusal);
        throw e;
      }
      const config = await loadConfig(d1, tournamentId);
      if (!config) return notFound();
      const sameQuestions = JSON.stringify(before.questionIds) === JSON.stringify(draft.questionIds) && meta.commitment !== null;
      const committed = sameQuestions
        ? { salt: meta.salt, commitment: meta.commitment, commitment_version: meta.commitment_version }
        : await commitTo(tournamentId, config.questions);
      store.replaceConfig({ ...config, meta: { ...config.meta, ...committed } }, sameQuestions && meta.commitment_published === 1);
      core.forgetOptions();
      this.board.invalidate();
      await publishCommitment(core);
      const now = Date.now();
      await this.lifecycle.advance(now);
      this.show.broadcastStatus(now);
      return ok(null);
    });
  }

  /**
   * This object's own sockets and recent answers, and with `withFlags` its players' fair-play flags
   * (a play shard's part of a sharded show's live view).
   */
  figures(now: number, withFlags = false): ShardFigures {
    const sockets = this.sockets.all();
    return {
      sockets: sockets.length,
      connectedPlayers: new Set(sockets.map((ws) => this.sockets.userOf(ws))).size,
      recentAnswers: this.core.store.allPlays().filter((p) => p.answered_at !== null && p.answered_at > now - ANSWER_RATE_WINDOW_MS).length,
      flags: withFlags ? [...this.#flags()].map(([userId, flags]) => ({ userId, flags })) : [],
    };
  }

  /** What fair play would flag now over this object's own players and answers (none before the start, none in practice). */
  #flags() {
    const meta = this.core.meta();
    return meta.practice || meta.phase === "upcoming" ? new Map() : fairPlayFlags(playerRecords(this.core.store));
  }

  /**
   * TournamentRoom.liveStats, once the room is ready. `shards`: a sharded show's shards' figures
   * (their sockets and answers), added to this coordinator's own; its players then are the merged board's.
   */
  liveStats(shards: ShardFigures | null = null): RoomResult<RoomLiveStats> {
    const { store } = this.core;
    const meta = this.core.meta();
    const now = Date.now();
    const plays = store.allPlays();
    const own = this.figures(now);
    const fig = shards
      ? {
          sockets: own.sockets + shards.sockets,
          connectedPlayers: own.connectedPlayers + shards.connectedPlayers,
          recentAnswers: own.recentAnswers + shards.recentAnswers,
        }
      : own;
    const merged = shards && meta.phase === "live" ? this.board.mergedTop() : null;
    const participants = store.participants();
    const names = new Map(participants.map((p) => [p.user_id, p.username]));
    const show = this.show.showState(meta, now);
    // Settled: the flags of the stored order (every pair across shards). A sharded show before that:
    // each shard's players' flags, with this coordinator's own.
    const settled = this.settledFlags?.() ?? null;
    const flags = settled ?? (shards ? mergeFlags(this.#flags(), shards.flags) : this.#flags());
    return ok({
      status: meta.phase,
      format: meta.format,
      participants: participants.length,
      sockets: fig.sockets,
      connectedPlayers: fig.connectedPlayers,
      answersPerSecond: fig.recentAnswers / (ANSWER_RATE_WINDOW_MS / 1000),
      show: show && { index: show.index, total: show.total, stage: show.stage, closesAt: show.nextAt },
      progress:
        meta.format === "live_show"
          ? null
          : {
              issued: plays.length,
              answered: plays.filter((p) => p.answer !== null).length,
              finishedPlayers: participants.filter((p) => p.finished_at !== null).length,
            },
      flags: [...flags].map(([userId, f]) => ({ userId, username: names.get(userId) ?? "", flags: f })),
      paused: meta.paused_at !== null,
      questions:
        meta.format === "live_show"
          ? store
              .questions()
              .filter((q) => q.opened_at !== null)
              .map((q) => ({ index: q.ord, questionId: q.question_id, question: q.question, voidReason: q.void_reason }))
          : [],
      players: [
        ...(merged ?? this.board.now(now).top(LIVE_PLAYERS_SHOWN)).map((r) => ({
          userId: r.userId,
          username: r.username,
          rank: r.rank,
          score: r.score,
          disqualifiedReason: null,
        })),
        ...participants
          .filter((p) => p.disqualified_reason !== null)
          .map((p) => ({ userId: p.user_id, username: p.username, rank: null, score: 0, disqualifiedReason: p.disqualified_reason })),
      ],
    });
  }
}
