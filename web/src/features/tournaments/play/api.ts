// Live play: the question calls and the tournament's live leaderboard (WebSocket first, polling
// GET /leaderboard every LEADERBOARD_POLL_MS while the socket is not open).
import { useCallback, useState } from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import {
  tournamentServerFrameSchema,
  type AnswerInput,
  type LeaderboardRow,
  type TournamentDetail,
  type TournamentServerFrame,
} from "@common/api/tournaments";
import type { TournamentStatus } from "@common/api/types";
import { LEADERBOARD_POLL_MS } from "@common/spec";
import { USER_KEY } from "@/lib/session";
import { tournamentKeys, useTournamentLeaderboard } from "@/features/tournaments/api";
import { useReconnectingSocket } from "@/hooks/use-reconnecting-socket";
import { api, read } from "@/lib/api-client";

const param = (id: number) => ({ param: { id: String(id) } });

/** The player's open question, or the next one (its 30 s clock starts on the server). */
export function useNextQuestion(id: number) {
  return useMutation({ mutationFn: () => read(api.tournaments[":id"].next.$post(param(id))) });
}

export function useSubmitAnswer(id: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (input: AnswerInput) => read(api.tournaments[":id"].answer.$post({ ...param(id), json: input })),
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: tournamentKeys.questions(id) });
      void qc.invalidateQueries({ queryKey: tournamentKeys.leaderboard(id) });
    },
  });
}

export function useCompleteTournament(id: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => read(api.tournaments[":id"].complete.$post({ ...param(id), json: {} })),
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
  /** The tournament's status as the socket last reported it. */
  status: TournamentStatus | null;
  connected: boolean;
  isLoading: boolean;
}

/**
 * The tournament's standings while it is being played: frames from its WebSocket, or the
 * leaderboard endpoint polled every LEADERBOARD_POLL_MS whenever the socket is not open.
 */
export function useLiveLeaderboard(id: number, { enabled = true }: { enabled?: boolean } = {}): LiveLeaderboard {
  const qc = useQueryClient();
  const [frame, setFrame] = useState<{ rows: LeaderboardRow[]; me: LiveLeaderboard["me"] } | null>(null);
  const [status, setStatus] = useState<TournamentStatus | null>(null);

  const onFrame = useCallback(
    (f: TournamentServerFrame) => {
      switch (f.type) {
        case "leaderboard":
          setFrame({ rows: f.top, me: f.me });
          return;
        case "status": {
          setStatus(f.status);
          // The page shows the cached tournament: refresh it when the room says otherwise.
          const cached = qc.getQueryData<TournamentDetail>(tournamentKeys.detail(id));
          if (cached && cached.status !== f.status) {
            void qc.invalidateQueries({ queryKey: tournamentKeys.detail(id) });
            void qc.invalidateQueries({ queryKey: tournamentKeys.lists });
          }
          return;
        }
        case "error":
          console.warn("Tournament socket:", f.message);
          return;
      }
    },
    [id, qc],
  );

  const socket = useReconnectingSocket({
    path: enabled ? `/api/tournaments/${id}/ws` : null,
    schema: tournamentServerFrameSchema,
    onFrame,
  });
  const polled = useTournamentLeaderboard(id, { enabled: enabled && !socket.connected, pollMs: LEADERBOARD_POLL_MS });

  const live = socket.connected && frame !== null;
  return {
    rows: live ? frame.rows : (polled.data ?? frame?.rows ?? []),
    me: live ? frame.me : null,
    status,
    connected: socket.connected,
    isLoading: !live && polled.isLoading,
  };
}
