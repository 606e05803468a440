// The one WebSocket of a tournament page (/api/tournaments/{id}/ws): play frames with ids and
// their replies, the server's pings, and its pushes (status, leaderboard, a live show's questions
// and reveals). The play screen, the live show and the leaderboards all read this one socket.
import { useCallback, useEffect, useRef, useState } from "react";
import { useQueryClient } from "@tanstack/react-query";
import {
  tournamentServerFrameSchema,
  type LiveShowState,
  type PlayerQuestion,
  type TournamentClientFrame,
  type TournamentDetail,
  type TournamentServerFrame,
} from "@common/api/tournaments";
import type { TournamentStatus } from "@common/api/types";
import { SOCKET_REPLACED_CLOSE_CODE, SOCKET_REPLY_TIMEOUT_MS } from "@common/spec";
import { tournamentKeys } from "@/features/tournaments/api";
import { useReconnectingSocket } from "@/hooks/use-reconnecting-socket";
import { ApiError } from "@/lib/api";

/** Replaced by the same user's newer socket: coming back would close that one. */
const FINAL_CLOSE_CODES = [SOCKET_REPLACED_CLOSE_CODE] as const;

/** A frame that asks for something; the socket names it with an id. */
export type PlayFrame = { type: "next" } | { type: "answer"; questionId: number; answer: string } | { type: "complete" };
export type ReplyFrame = Extract<TournamentServerFrame, { type: "question" | "result" | "completed" }>;
export type LeaderboardFrame = Extract<TournamentServerFrame, { type: "leaderboard" }>;
export type RevealFrame = Extract<TournamentServerFrame, { type: "reveal" }>;
/** The host's tools as they touch this player: paused, the voided questions, their own disqualification. */
export type HostFrame = Extract<TournamentServerFrame, { type: "host" }>;

/** A question and the local time its clock runs out: the server's remainingMs counted from arrival, so the two clocks need not agree. */
export interface TimedQuestion {
  question: PlayerQuestion;
  deadline: number;
}
export const timed = (question: PlayerQuestion): TimedQuestion => ({ question, deadline: Date.now() + question.remainingMs });

/** The socket is not open (or gave up with the frame unanswered): the caller goes over HTTP. */
export class SocketUnavailableError extends Error {
  constructor() {
    super("The tournament socket is not open");
  }
}

export interface TournamentSocket {
  connected: boolean;
  /** Closed and trying again: play goes over HTTP meanwhile. */
  reconnecting: boolean;
  /** Stopped trying (attempts ran out, or another tab took the place): `reconnect()` starts over. */
  lost: boolean;
  reconnect(): void;
  /** As the room last said; null before its first status frame. */
  status: TournamentStatus | null;
  /** A live show's stage; null for a self-paced tournament or before the first status frame. */
  show: LiveShowState | null;
  leaderboard: LeaderboardFrame | null;
  /** The live show's question as last pushed to everyone. */
  question: TimedQuestion | null;
  /** The live show's last reveal. */
  reveal: RevealFrame | null;
  /** What the host did that touches this player; null while the host did nothing. */
  host: HostFrame | null;
  /**
   * Sends a play frame and resolves with the reply of the same id (an error frame rejects with an
   * ApiError). A frame unanswered when the socket drops is resent with its id when it reopens;
   * when the socket is not open, gives up, or leaves a frame unanswered for SOCKET_REPLY_TIMEOUT_MS,
   * it rejects with SocketUnavailableError.
   */
  request(frame: PlayFrame): Promise<ReplyFrame>;
}

interface Pending {
  frame: TournamentClientFrame;
  resolve(reply: ReplyFrame): void;
  reject(error: Error): void;
  timer: ReturnType<typeof setTimeout>;
}

export interface TournamentSocketOptions {
  enabled?: boolean;
  /**
   * A live show's play screen: keep reconnecting (with backoff) until the room says the show is
   * over, however long a deploy or a network drop lasts, since each question missed is lost.
   */
  untilShowEnds?: boolean;
}

/** A reveal with the merged counts of a `distribution` frame: partial only while that frame says so. */
function withCounts(r: RevealFrame, f: Extract<TournamentServerFrame, { type: "distribution" }>): RevealFrame {
  const { partial: _was, ...rest } = r;
  return { ...rest, distribution: f.distribution, ...(f.partial ? { partial: true as const } : {}) };
}

export function useTournamentSocket(id: number, { enabled = true, untilShowEnds = false }: TournamentSocketOptions = {}): TournamentSocket {
  const qc = useQueryClient();
  const pending = useRef(new Map<string, Pending>());
  const [status, setStatus] = useState<TournamentStatus | null>(null);
  const [show, setShow] = useState<LiveShowState | null>(null);
  const [leaderboard, setLeaderboard] = useState<LeaderboardFrame | null>(null);
  const [question, setQuestion] = useState<TimedQuestion | null>(null);
  const [reveal, setReveal] = useState<RevealFrame | null>(null);
  const [host, setHost] = useState<HostFrame | null>(null);

  const failPending = useCallback(() => {
    const waiting = [...pending.current.values()];
    pending.current.clear();
    for (const p of waiting) {
      clearTimeout(p.timer);
      p.reject(new SocketUnavailableError());
    }
  }, []);

  const settle = (frameId: string, outcome: { reply: ReplyFrame } | { error: ApiError }) => {
    const p = pending.current.get(frameId);
    if (!p) return;
    pending.current.delete(frameId);
    clearTimeout(p.timer);
    if ("reply" in outcome) p.resolve(outcome.reply);
    else p.reject(outcome.error);
  };

  const onFrame = (f: TournamentServerFrame) => {
    switch (f.type) {
      case "ping":
        // The room measures the round trip from this: answer before anything else.
        socket.send({ type: "pong", nonce: f.nonce } satisfies TournamentClientFrame);
        return;
      case "status": {
        setStatus(f.status);
        setShow(f.show);
        // The page shows the cached tournament: refresh it when the room says otherwise.
        const cached = qc.getQueryData<TournamentDetail>(tournamentKeys.detail(id));
        if (cached && cached.status !== f.status) {
          void qc.invalidateQueries({ queryKey: tournamentKeys.detail(id) });
          void qc.invalidateQueries({ queryKey: tournamentKeys.lists });
        }
        return;
      }
      case "leaderboard":
        setLeaderboard(f);
        return;
      case "reveal":
        setReveal(f);
        return;
      case "distribution":
        // A sharded show's merged counts replace those of the reveal they belong to (never another's).
        setReveal((r) => (r && r.index === f.index && r.questionId === f.questionId ? withCounts(r, f) : r));
        return;
      case "host":
        setHost(f);
        return;
      case "question":
        if (f.id === undefined) setQuestion(timed(f.question));
        else settle(f.id, { reply: f });
        return;
      case "result":
      case "completed":
        settle(f.id, { reply: f });
        return;
      case "error": {
        const error = new ApiError(f.status, JSON.stringify({ code: f.code, message: f.message }));
        if (f.id !== undefined) settle(f.id, { error });
        else console.warn("Tournament socket:", f.message);
        return;
      }
    }
  };

  const socket = useReconnectingSocket({
    path: enabled ? `/api/tournaments/${id}/ws` : null,
    schema: tournamentServerFrameSchema,
    onFrame,
    // The same id again: the room answers it once, so a reply lost in the drop is not a second answer.
    onOpen: () => {
      // The room sends the host's state on connecting only when there is some: what this client
      // held from before the drop (a pause since resumed) must not outlive it.
      setHost(null);
      for (const p of pending.current.values()) socket.send(p.frame);
    },
    onLost: failPending,
    finalCloseCodes: FINAL_CLOSE_CODES,
    keepTrying: untilShowEnds && status !== "completed" && status !== "cancelled" && show?.stage !== "over",
  });

  // Closing the socket (leaving the page, or play no longer needing it) answers nothing more.
  useEffect(() => (enabled ? failPending : undefined), [enabled, id, failPending]);

  const { send } = socket;
  const request = useCallback(
    (frame: PlayFrame) =>
      new Promise<ReplyFrame>((resolve, reject) => {
        const frameId = crypto.randomUUID();
        const full: TournamentClientFrame = { ...frame, id: frameId };
        if (!send(full)) return reject(new SocketUnavailableError());
        // A socket that looks open but never answers (a half-open connection): the caller goes over
        // HTTP, which the room answers the same way, so a frame that did arrive counts once.
        const timer = setTimeout(() => {
          if (!pending.current.delete(frameId)) return;
          reject(new SocketUnavailableError());
        }, SOCKET_REPLY_TIMEOUT_MS);
        pending.current.set(frameId, { frame: full, resolve, reject, timer });
      }),
    [send],
  );

  return {
    connected: socket.connected,
    reconnecting: socket.reconnecting,
    lost: socket.lost,
    reconnect: socket.reconnect,
    status,
    show,
    leaderboard,
    question,
    reveal,
    host,
    request,
  };
}
