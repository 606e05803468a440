import { describe, expect, it } from "vitest";
import { CANCEL_AFTER_DELAY_MS, START_RECHECK_MS } from "../spec";
import { isPlayable, nextLifecycleStep, type LifecycleState } from "./lifecycle";

const START = 1_000_000;
const END = START + 20 * 60_000;
const state = (o: Partial<LifecycleState> = {}): LifecycleState => ({
  phase: "upcoming",
  practice: false,
  startTime: START,
  endTime: END,
  minPlayers: 10,
  participants: 0,
  everyoneFinished: false,
  ...o,
});

describe("nextLifecycleStep", () => {
  it("waits for the start time, then starts once the minimum is there", () => {
    expect(nextLifecycleStep(state({ participants: 12 }), START - 1)).toEqual({ kind: "wait", until: START });
    expect(nextLifecycleStep(state({ participants: 10 }), START)).toEqual({ kind: "start" });
  });

  it("re-checks a tournament short of players, never past its cancel deadline, then cancels", () => {
    expect(nextLifecycleStep(state({ participants: 9 }), START)).toEqual({ kind: "wait", until: START + START_RECHECK_MS });
    const late = START + CANCEL_AFTER_DELAY_MS - 1000;
    expect(nextLifecycleStep(state({ participants: 9 }), late)).toEqual({ kind: "wait", until: START + CANCEL_AFTER_DELAY_MS });
    expect(nextLifecycleStep(state({ participants: 9 }), START + CANCEL_AFTER_DELAY_MS)).toEqual({ kind: "cancel" });
  });

  it("starts a free tournament with no minimum at its start time", () => {
    expect(nextLifecycleStep(state({ minPlayers: 0 }), START)).toEqual({ kind: "start" });
  });

  it("settles at the end time or as soon as everyone finished, and finishes a settlement already begun", () => {
    const live = state({ phase: "live", participants: 3 });
    expect(nextLifecycleStep(live, START + 1000)).toEqual({ kind: "wait", until: END });
    expect(nextLifecycleStep(live, END)).toEqual({ kind: "settle" });
    expect(nextLifecycleStep({ ...live, everyoneFinished: true }, START + 1000)).toEqual({ kind: "settle" });
    expect(nextLifecycleStep({ ...live, phase: "settling" }, START + 1000)).toEqual({ kind: "settle" });
  });

  it("closes a practice run instead of settling it, and leaves the always-open practice entry alone", () => {
    expect(nextLifecycleStep(state({ phase: "live", practice: true, everyoneFinished: true }), START)).toEqual({
      kind: "close_practice_run",
    });
    expect(nextLifecycleStep(state({ phase: "live", practice: true, endTime: null }), END * 2)).toEqual({ kind: "done" });
  });

  it("does nothing more once completed or cancelled", () => {
    expect(nextLifecycleStep(state({ phase: "completed" }), END * 2)).toEqual({ kind: "done" });
    expect(nextLifecycleStep(state({ phase: "cancelled" }), END * 2)).toEqual({ kind: "done" });
  });
});

describe("whether a tournament takes play", () => {
  it("takes play while live and before its end time, even before the alarm has settled it", () => {
    expect(isPlayable({ phase: "live", endTime: END }, END - 1)).toBe(true);
    expect(isPlayable({ phase: "live", endTime: END }, END)).toBe(false);
    expect(isPlayable({ phase: "live", endTime: null }, END * 2)).toBe(true);
  });
  it("takes none before the start or once settling", () => {
    expect(isPlayable({ phase: "upcoming", endTime: END }, START)).toBe(false);
    expect(isPlayable({ phase: "settling", endTime: END }, START)).toBe(false);
  });
});
