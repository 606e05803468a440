// The live show's shared clock (docs/decisions/008-live-show-timing.md): every question opens for
// everyone at once and is revealed when its window closes; the host may hold it between questions
// (docs/decisions/017-host-tools.md). Also what a socket sees of the room: the status frame, the
// reveal, the host's marks, and the sync a (re)connecting socket gets.
import type { LiveShowState, TournamentServerFrame } from "../../../common/api/tournaments";
import { isHeld, showStepWhilePaused } from "../../../common/domain/host-tools";
import { showStageEndsAt } from "../../../common/domain/live-show";
import { iso } from "../../db/present";
import { REVEAL_PAUSE_MS } from "../../../common/spec";
import type { RoomCore } from "./core";
import type { RoomBoard } from "./leaderboard";
import type { Presenters } from "./presenters";
import { publicStatus } from "./results";
import { send, sendText, type RoomSockets } from "./sockets";
import type { MetaRow, QuestionRow } from "./tables";
import type { MergedBoard } from "./leaderboard";
import { shownDistribution } from "./shard-merge";

/**
 * How a sharded live show's clock differs (./shards.ts, decision 011): a question opens at the
 * time the coordinator announced, not at the alarm, and a reveal is followed by a report.
 */
export interface ShowHooks {
  /** When question `ord` opens for everyone; null: not known yet (nothing opens until it is). */
  openAt(ord: number, now: number): number | null;
  revealed(ord: number, now: number): void;
  /** The host resumed (the clock is already moved): a coordinator announces the next question's new time. */
  resumed?(now: number): void;
}

export class LiveShow {
  /** The hooks of a coordinator or a play shard, as the object is now; null in a one-room tournament. */
  hooks: () => ShowHooks | null = () => null;

  constructor(
    readonly core: RoomCore,
    readonly sockets: RoomSockets,
    readonly board: RoomBoard,
    readonly presenters: Presenters,
  ) {}

  /** Runs the show's clock as far as the time allows: open, reveal, finish; then waits for the next step. */
  async run(now: number): Promise<void> {
    const { store } = this.core;
    const hooks = this.hooks();
    for (;;) {
      const meta = this.core.meta();
      if (meta.format !== "live_show" || meta.phase !== "live") {
        store.unschedule("show");
        return;
      }
      let since = meta.show_since ?? now;
      // Sharded: the next question opens at its announced time, wherever this object's own reveal fell.
      if (hooks && meta.show_stage === "reveal" && meta.show_ord + 1 < store.slotCount()) {
        const at = hooks.openAt(meta.show_ord + 1, now);
        if (at === null) {
          store.unschedule("show");
          return;
        }
        since = at - REVEAL_PAUSE_MS;
      }
      const step = showStepWhilePaused(
        { stage: meta.show_stage, ord: meta.show_ord, since, total: store.slotCount() },
        now,
        meta.paused_at !== null,
      );
      switch (step.kind) {
        case "hold":
          // The host paused the show: no next question, and no deadline, until they resume.
          store.unschedule("show");
          return;
        case "open": {
          const at = hooks ? hooks.openAt(step.ord, now) : now;
          if (at === null) {
            store.unschedule("show");
            return;
          }
          if (at > now) {
            store.schedule("show", at);
            return;
          }
          // Opened late (a slow alarm, a late announcement): the window still runs from the shared time.
          this.#openQuestion(step.ord, at, now);
          continue;
        }
        case "reveal":
          this.#reveal(step.ord, now);
          hooks?.revealed(step.ord, now);
          continue;
        case "finish":
          // Everyone has played every question: the lifecycle step settles at once.
          store.finishAll(now);
          store.setShow("over", meta.show_ord, now);
          store.unschedule("show");
          return;
        case "wait":
          store.schedule("show", step.until);
          return;
        case "done":
          store.unschedule("show");
          return;
      }
    }
  }

  /** The question goes out to every connected player at the same moment: its window starts now for everyone. */
  #openQuestion(ord: number, at: number, now: number): void {
    const { store } = this.core;
    store.setShow("question", ord, at);
    const current = this.core.meta();
    const question = store.questionAt(ord)!;
    const spectators: WebSocket[] = [];
    for (const ws of this.sockets.all()) {
      const userId = this.sockets.userOf(ws);
      const p = store.participant(userId);
      if (!p || p.finished_at !== null) spectators.push(ws);
      else send(ws, { type: "question", question: this.presenters.presentLive(current, userId, question, now) });
    }
    if (spectators.length > 0) {
      const status = JSON.stringify(this.statusFrame(current, now));
      for (const ws of spectators) sendText(ws, status);
    }
  }

  /**
   * The window has closed for everyone: the answer, how the room answered, each player's own
   * result, the board with this question counted, and a ping to keep the latency allowance fresh.
   */
  #reveal(ord: number, now: number): void {
    const { store } = this.core;
    store.setShow("reveal", ord, now);
    const revealed = this.core.meta();
    const question = store.questionAt(ord)!;
    this.board.rebuild(now);
    const nextAt = this.heldNext(revealed) ? null : showStageEndsAt({ stage: "reveal", ord, since: now, total: store.slotCount() });
    const common = JSON.stringify({
      type: "reveal",
      questionId: question.question_id,
      index: ord,
      correctAnswer: question.correct_answer,
      explanation: question.explanation,
      ...this.#shown(question),
      nextAt: nextAt === null ? null : iso(nextAt),
      ...(question.voided_at !== null ? { voided: true } : {}),
    });
    const prefix = `${common.slice(0, -1)},"you":`;
    for (const ws of this.sockets.all()) {
      const play = store.play(this.sockets.userOf(ws), ord);
      sendText(ws, `${prefix}${play?.answer != null ? JSON.stringify(this.presenters.result(revealed, play, question)) : "null"}}`);
    }
    this.board.push(now);
    for (const ws of this.sockets.all()) this.sockets.ping(ws, now);
  }

  /** Whether the host holds the show: paused, and not over yet. */
  holding(meta: MetaRow): boolean {
    return isHeld({ format: meta.format, phase: meta.phase, pausedAt: meta.paused_at, stage: meta.show_stage });
  }

  /** Whether a reveal's next question is held by the pause (its countdown is not known until the host resumes). */
  heldNext(meta: MetaRow): boolean {
    return this.holding(meta) && meta.show_stage === "reveal" && meta.show_ord + 1 < this.core.store.slotCount();
  }

  statusFrame(meta: MetaRow, now: number): TournamentServerFrame {
    return { type: "status", status: publicStatus(meta.phase), show: this.showState(meta, now) };
  }

  showState(meta: MetaRow, now: number): LiveShowState | null {
    if (meta.format !== "live_show") return null;
    const total = this.core.store.slotCount();
    if (meta.phase === "upcoming") {
      // Past the start time the room waits for the minimum number of players: no time to show.
      return { stage: "waiting", index: -1, total, nextAt: now < meta.start_time ? iso(meta.start_time) : null };
    }
    const stage = meta.phase === "live" ? meta.show_stage : "over";
    const endsAt = this.heldNext(meta) ? null : showStageEndsAt({ stage, ord: meta.show_ord, since: meta.show_since ?? now, total });
    const paused = this.holding(meta) ? { paused: true } : {};
    return { stage, index: meta.show_ord, total, nextAt: endsAt === null ? null : iso(endsAt), ...paused };
  }

  broadcastStatus(now: number): void {
    this.sockets.broadcastText(JSON.stringify(this.statusFrame(this.core.meta(), now)));
  }

  /** A reveal's counts: this object's, or in a sharded show the merged ones once known (./shard-merge.ts). */
  #shown(question: QuestionRow) {
    return shownDistribution(this.core, this.board, question.ord, this.distribution(question));
  }

  /** A sharded show's merged counts of the question being revealed here: they replace the reveal's (partial) ones on every socket. */
  mergedDistribution(merged: MergedBoard): void {
    const meta = this.core.meta();
    const q = merged.question;
    if (!q || meta.phase !== "live" || meta.show_stage !== "reveal" || meta.show_ord !== q.ord) return;
    const question = this.core.store.questionAt(q.ord)!;
    const frame: TournamentServerFrame = { type: "distribution", questionId: question.question_id, index: q.ord, ...this.#shown(question) };
    this.sockets.broadcastText(JSON.stringify(frame));
  }

  /** How many players on this object chose each option of a question, in the question's own order. */
  distribution(question: QuestionRow): { option: string; count: number }[] {
    const { store } = this.core;
    const counts = new Map(this.core.optionsOf(question).map((o) => [o, 0]));
    for (const p of store.participants()) {
      const answer = store.play(p.user_id, question.ord)?.answer;
      if (answer != null) counts.set(answer, (counts.get(answer) ?? 0) + 1);
    }
    return [...counts].map(([option, count]) => ({ option, count }));
  }

  revealFrame(meta: MetaRow, userId: number, question: QuestionRow, now: number): TournamentServerFrame {
    const play = this.core.store.play(userId, question.ord);
    const nextAt = this.heldNext(meta)
      ? null
      : showStageEndsAt({
          stage: "reveal",
          ord: question.ord,
          since: meta.show_since ?? now,
          total: this.core.store.slotCount(),
        });
    return {
      type: "reveal",
      questionId: question.question_id,
      index: question.ord,
      correctAnswer: question.correct_answer,
      explanation: question.explanation,
      ...this.#shown(question),
      you: play?.answer != null ? this.presenters.result(meta, play, question) : null,
      nextAt: nextAt === null ? null : iso(nextAt),
      ...(question.voided_at !== null ? { voided: true } : {}),
    };
  }

  /** The host's tools as they touch this player. */
  hostFrame(meta: MetaRow, userId: number): Extract<TournamentServerFrame, { type: "host" }> {
    return {
      type: "host",
      paused: this.holding(meta),
      voided: [...this.core.store.voidedOrds()].sort((a, b) => a - b),
      disqualified: this.core.store.participant(userId)?.disqualified_reason ?? null,
    };
  }

  /**
   * After a host action: the status (with the pause and the countdown), each socket's host frame,
   * and, while a question is revealed, its reveal again (voided, or with its new countdown).
   * `only`: just this player's sockets (a disqualification touches nobody else).
   */
  hostChanged(now: number, only?: number): void {
    const meta = this.core.meta();
    const sockets = this.sockets.all(only);
    const status = JSON.stringify(this.statusFrame(meta, now));
    const revealed =
      meta.format === "live_show" && meta.phase === "live" && meta.show_stage === "reveal"
        ? this.core.store.questionAt(meta.show_ord)
        : null;
    for (const ws of sockets) {
      const userId = this.sockets.userOf(ws);
      sendText(ws, status);
      send(ws, this.hostFrame(meta, userId));
      if (revealed && only === undefined) send(ws, this.revealFrame(meta, userId, revealed, now));
    }
  }

  /** What a (re)connecting socket needs: the status, the board, and in a live show where the show is and a ping. */
  sync(ws: WebSocket, meta: MetaRow, now: number): void {
    const userId = this.sockets.userOf(ws);
    send(ws, this.statusFrame(meta, now));
    // The cached top rows, as the push sends them: a reconnect storm does not rebuild them per socket.
    sendText(ws, this.board.frameFor(userId, now));
    // Only when the host did something: a room without host actions sends what it always did.
    const host = this.hostFrame(meta, userId);
    if (host.paused || host.voided.length > 0 || host.disqualified !== null) send(ws, host);
    if (meta.format === "live_show" && meta.phase === "live") {
      const question = this.core.store.questionAt(meta.show_ord);
      const p = this.core.store.participant(userId);
      if (question && meta.show_stage === "question" && p && p.finished_at === null) {
        send(ws, { type: "question", question: this.presenters.presentLive(meta, userId, question, now) });
      } else if (question && meta.show_stage === "reveal") {
        send(ws, this.revealFrame(meta, userId, question, now));
      }
    }
    // Round trips count only for a live show's latency allowance: elsewhere a ping would cost a
    // send, an attachment write and the client's pong (one more message to wake the room for).
    if (meta.format === "live_show") this.sockets.ping(ws, now);
  }
}
