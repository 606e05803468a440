// When a tournament moves on: the decision the room's single alarm takes each time it runs. Pure,
// so it can be run twice, early or late, and tested without a room (docs/product.md, Lifecycle).
import { CANCEL_AFTER_DELAY_MS, START_RECHECK_MS } from "../spec";

export type LifecyclePhase = "upcoming" | "live" | "settling" | "completed" | "cancelled";

export interface LifecycleState {
  phase: LifecyclePhase;
  practice: boolean;
  startTime: number;
  /** Null for a category's always-open practice entry, which never ends. */
  endTime: number | null;
  minPlayers: number;
  participants: number;
  /** Every participant has finished (false when there are none). */
  everyoneFinished: boolean;
}

export type LifecycleStep =
  | { kind: "wait"; until: number }
  | { kind: "start" }
  | { kind: "cancel" }
  | { kind: "settle" }
  | { kind: "close_practice_run" }
  | { kind: "done" };

export function nextLifecycleStep(s: LifecycleState, now: number): LifecycleStep {
  switch (s.phase) {
    case "upcoming": {
      if (now < s.startTime) return { kind: "wait", until: s.startTime };
      if (s.participants >= s.minPlayers) return { kind: "start" };
      const cancelAt = s.startTime + CANCEL_AFTER_DELAY_MS;
      if (now >= cancelAt) return { kind: "cancel" };
      // Waiting for players: look again soon, and at the latest when the cancel deadline comes.
      return { kind: "wait", until: Math.min(now + START_RECHECK_MS, cancelAt) };
    }
    case "live":
    case "settling": {
      if (s.endTime === null) return { kind: "done" };
      // Settling means an earlier attempt began: finish it whatever the clock says.
      if (s.phase === "settling" || now >= s.endTime || s.everyoneFinished) return { kind: s.practice ? "close_practice_run" : "settle" };
      return { kind: "wait", until: s.endTime };
    }
    case "completed":
    case "cancelled":
      return { kind: "done" };
  }
}

/** Whether a tournament takes play now: live, and its end time (if it has one) not reached yet, even before the alarm has settled it. */
export const isPlayable = (t: { phase: LifecyclePhase; endTime: number | null }, now: number) =>
  t.phase === "live" && (t.endTime === null || now < t.endTime);
