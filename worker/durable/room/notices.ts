// A tournament event told to its players: the same words and data in the stored notification
// (the list) and the frame pushed to connected /ws sockets.
import type { NotificationAction, NotificationFrame } from "../../../common/api/tournaments";
import type { TournamentStatus } from "../../../common/api/types";
import { NOTIFY } from "../../../common/messages";

export type TournamentEvent = "started" | "cancelled" | "completed";

export interface TournamentNotice {
  message: string;
  action: NotificationAction;
  status: TournamentStatus;
  tournamentId: number;
  frame: NotificationFrame;
}

const EVENTS: Record<TournamentEvent, { message: (title: string) => string; action: NotificationAction; status: TournamentStatus }> = {
  started: { message: NOTIFY.started, action: "tournament_started", status: "live" },
  // The words of a cancellation depend on its cause and fee: the caller passes them.
  cancelled: { message: (title) => NOTIFY.cancelled(title, true), action: "tournament_ended", status: "cancelled" },
  completed: { message: NOTIFY.ended, action: "tournament_ended", status: "completed" },
};

/** `message`: other words than the event's own (an operator's cancellation gives its reason). */
export function tournamentNotice(tournamentId: number, title: string, event: TournamentEvent, message?: string): TournamentNotice {
  const { message: say, action, status } = EVENTS[event];
  message ??= say(title);
  return { message, action, status, tournamentId, frame: { type: "notification", message, data: { action, tournamentId, status } } };
}
