import { describe, expect, it } from "vitest";
import { LATENCY_ALLOWANCE_MAX_MS, REVEAL_PAUSE_MS } from "../spec";
import {
  LIVE_SHOW_DURATION_MS,
  LIVE_SHOW_WINDOW_MS,
  insideWindow,
  latencyAllowance,
  liveResponseMs,
  nextShowStep,
  showStageEndsAt,
  isQuestionRevealed,
  revealedQuestions,
} from "./live-show";

describe("the live show's clock", () => {
  const at = 1_000_000;
  it("opens the first question as soon as the show starts", () => {
    expect(nextShowStep({ stage: "waiting", ord: -1, since: at, total: 10 }, at)).toEqual({ kind: "open", ord: 0 });
  });
  it("reveals a question only once its window has closed", () => {
    const c = { stage: "question" as const, ord: 3, since: at, total: 10 };
    expect(nextShowStep(c, at + LIVE_SHOW_WINDOW_MS - 1)).toEqual({ kind: "wait", until: at + LIVE_SHOW_WINDOW_MS });
    expect(nextShowStep(c, at + LIVE_SHOW_WINDOW_MS)).toEqual({ kind: "reveal", ord: 3 });
    expect(showStageEndsAt(c)).toBe(at + LIVE_SHOW_WINDOW_MS);
  });
  it("pauses after a reveal, then opens the next question, and finishes after the last", () => {
    const c = { stage: "reveal" as const, ord: 3, since: at, total: 10 };
    expect(nextShowStep(c, at + 1)).toEqual({ kind: "wait", until: at + REVEAL_PAUSE_MS });
    expect(nextShowStep(c, at + REVEAL_PAUSE_MS)).toEqual({ kind: "open", ord: 4 });
    const last = { ...c, ord: 9 };
    expect(nextShowStep(last, at + REVEAL_PAUSE_MS)).toEqual({ kind: "finish" });
    expect(showStageEndsAt(last)).toBeNull();
    expect(nextShowStep({ ...c, stage: "over" }, at)).toEqual({ kind: "done" });
  });
  it("takes about six minutes for ten questions", () => {
    expect(LIVE_SHOW_DURATION_MS).toBe(10 * (32_000 + 5_000));
  });
});

describe("fair timing", () => {
  it("takes half the median round trip off, capped", () => {
    expect(latencyAllowance([])).toBe(0);
    expect(latencyAllowance([40, 60, 1000])).toBe(30);
    expect(latencyAllowance([40, 60])).toBe(25);
    expect(latencyAllowance([900, 1000, 2000])).toBe(LATENCY_ALLOWANCE_MAX_MS);
    expect(latencyAllowance([Number.NaN, -5, 80])).toBe(40);
  });
  it("counts from the push, never below zero, and closes the window for everyone at once", () => {
    expect(liveResponseMs(10_500, 10_000, 100)).toBe(400);
    expect(liveResponseMs(10_050, 10_000, 100)).toBe(0);
    expect(insideWindow(10_000 + LIVE_SHOW_WINDOW_MS, 10_000)).toBe(true);
    expect(insideWindow(10_001 + LIVE_SHOW_WINDOW_MS, 10_000)).toBe(false);
  });
});

describe("which of a live show's questions are revealed", () => {
  it("reveals the questions before the current one, and the current one only at its reveal", () => {
    const open = { phase: "live" as const, stage: "question" as const, ord: 3 };
    expect(isQuestionRevealed(open, 2)).toBe(true);
    expect(isQuestionRevealed(open, 3)).toBe(false);
    expect(isQuestionRevealed(open, 4)).toBe(false);
    expect(isQuestionRevealed({ ...open, stage: "reveal" }, 3)).toBe(true);
    expect(isQuestionRevealed({ ...open, stage: "over" }, 3)).toBe(true);
    expect(revealedQuestions(open)).toBe(3);
    expect(revealedQuestions({ ...open, stage: "reveal" })).toBe(4);
  });
  it("reveals nothing before the first question, and everything once the tournament settles", () => {
    const waiting = { phase: "upcoming" as const, stage: "waiting" as const, ord: -1 };
    expect(isQuestionRevealed(waiting, 0)).toBe(false);
    expect(revealedQuestions(waiting)).toBe(0);
    expect(isQuestionRevealed({ phase: "settling", stage: "question", ord: 3 }, 9)).toBe(true);
    expect(isQuestionRevealed({ phase: "completed", stage: "question", ord: 3 }, 9)).toBe(true);
  });
});
