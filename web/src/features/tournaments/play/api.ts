// Live play: the question calls, over the tournament's socket while it is open and over HTTP
// otherwise, and the tournament's live leaderboard (the socket's frames, or GET /leaderboard
// polled every LEADERBOARD_POLL_MS while the socket is not open).
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { AnswerInput, AnswerReply, CompleteResult, LeaderboardRow, PlayerQuestion } from "@common/api/tournaments";
import { LEADERBOARD_POLL_MS } from "@common/spec";
import { USER_KEY } from "@/lib/session";
import { tournamentKeys, useTournamentLeaderboard } from "@/features/tournaments/api";
import { ApiError } from "@/lib/api";
import { api, read } from "@/lib/api-client";
import { SocketUnavailableError, type PlayFrame, type ReplyFrame, type TournamentSocket } from "./use-tournament-socket";

const param = (id: number) => ({ param: { id: String(id) } });

/**
 * The frame over the socket, or the HTTP call when the socket is not open or gave up with the
 * frame unanswered: the server treats a repeated call the same way as a resent frame.
 */
async function overSocket<T>(socket: TournamentSocket, frame: PlayFrame, pick: (reply: ReplyFrame) => T | null, http: () => Promise<T>) {
  let reply: ReplyFrame;
  try {
    reply = await socket.request(frame);
  } catch (error) {
    if (error instanceof SocketUnavailableError) return http();
    throw error;
  }
  const value = pick(reply);
  // A reply of another kind to this id is the server's fault, whatever it says.
  if (value === null) throw new ApiError(500, "");
  return value;
}

/** The player's open question, or the next one (its 30 s clock starts on the server); in a live show the open one. */
export function useNextQuestion(id: number, socket: TournamentSocket) {
  return useMutation({
    mutationFn: (): Promise<PlayerQuestion> =>
      overSocket(
        socket,
        { type: "next" },
        (r) => (r.type === "question" ? r.question : null),
        () => read(api.tournaments[":id"].next.$post(param(id))),
      ),
  });
}

/**
 * The answer alone: the screen asks for the next question after showing the reply for
 * PAUSE_AFTER_ANSWER_MS, so that its 30 s start when it is shown. (The socket could carry it in
 * the answer's reply, `next: true`, but its clock would then run through the pause.)
 */
export function useSubmitAnswer(id: number, socket: TournamentSocket) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (input: AnswerInput): Promise<AnswerReply> =>
      overSocket(
        socket,
        { type: "answer", ...input },
        (r) => (r.type === "result" ? r.result : null),
        () => read(api.tournaments[":id"].answer.$post({ ...param(id), json: input })),
      ),
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: tournamentKeys.questions(id) });
      void qc.invalidateQueries({ queryKey: tournamentKeys.leaderboard(id) });
    },
  });
}

export function useCompleteTournament(id: number, socket: TournamentSocket) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (): Promise<CompleteResult> =>
      overSocket(
        socket,
        { type: "complete" },
        (r) => (r.type === "completed" ? { finished: r.finished, score: r.score, questionsAnswered: r.questionsAnswered } : null),
        () => read(api.tournaments[":id"].complete.$post({ ...param(id), json: {} })),
      ),
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: tournamentKeys.detail(id) });
      void qc.invalidateQueries({ queryKey: tournamentKeys.lists });
      void qc.invalidateQueries({ queryKey: USER_KEY });
    },
  });
}

export interface LiveLeaderboard {
  rows: LeaderboardRow[];
  me: { rank: number; score: number } | null;
  connected: boolean;
  isLoading: boolean;
}

/**
 * The tournament's standings while it is being played: the page's socket frames, or the
 * leaderboard endpoint polled every LEADERBOARD_POLL_MS whenever that socket is not open.
 */
export function useLiveLeaderboard(id: number, socket: TournamentSocket, { enabled = true }: { enabled?: boolean } = {}): LiveLeaderboard {
  const polled = useTournamentLeaderboard(id, { enabled: enabled && !socket.connected, pollMs: LEADERBOARD_POLL_MS });
  const frame = socket.leaderboard;
  const live = socket.connected && frame !== null;
  return {
    rows: live ? frame.top : (polled.data ?? frame?.top ?? []),
    me: live ? frame.me : null,
    connected: socket.connected,
    isLoading: !live && polled.isLoading,
  };
}
