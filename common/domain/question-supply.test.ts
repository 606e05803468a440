import { describe, expect, it } from "vitest";
import {
  daysOfSupply,
  isFresh,
  preferFresh,
  SCHEDULED_SHOWS_PER_DAY,
  supplyState,
  usableForPractice,
  usableForPrize,
  type QuestionState,
} from "./question-supply";

const q = (over: Partial<QuestionState> = {}): QuestionState => ({
  paidUses: 0,
  answerShownAt: null,
  practiceOnly: false,
  retiredAt: null,
  ...over,
});

describe("question supply rules", () => {
  it("names each state, an operator's retirement first", () => {
    expect(supplyState(q())).toBe("fresh");
    expect(supplyState(q({ paidUses: 1 }))).toBe("held");
    expect(supplyState(q({ paidUses: 1, answerShownAt: 5 }))).toBe("burned");
    expect(supplyState(q({ practiceOnly: true }))).toBe("practice_only");
    // Marked for practice while a prize tournament holds it: held until that tournament ends.
    expect(supplyState(q({ practiceOnly: true, paidUses: 1 }))).toBe("held");
    expect(supplyState(q({ answerShownAt: 5, retiredAt: 9 }))).toBe("retired");
  });

  it("prize play takes only fresh questions: a held, burned, practice-only or retired one never", () => {
    expect(usableForPrize(q(), false)).toBe(true);
    for (const other of [q({ paidUses: 1 }), q({ answerShownAt: 1 }), q({ practiceOnly: true }), q({ retiredAt: 1 })]) {
      expect(usableForPrize(other, false)).toBe(false);
    }
  });

  it("practice takes only burned and practice-only questions, never one that can still decide a prize", () => {
    expect(usableForPractice(q({ answerShownAt: 1 }), false)).toBe(true);
    expect(usableForPractice(q({ practiceOnly: true }), false)).toBe(true);
    for (const other of [q(), q({ paidUses: 1 }), q({ paidUses: 1, practiceOnly: true }), q({ retiredAt: 1, answerShownAt: 1 })]) {
      expect(usableForPractice(other, false)).toBe(false);
    }
  });

  it("demo reuse lifts the limits but never brings back a retired question or puts a practice-only one in prize play", () => {
    expect(usableForPrize(q({ paidUses: 4, answerShownAt: 1 }), true)).toBe(true);
    expect(usableForPrize(q({ practiceOnly: true }), true)).toBe(false);
    expect(usableForPrize(q({ retiredAt: 1 }), true)).toBe(false);
    expect(usableForPractice(q(), true)).toBe(true);
    expect(usableForPractice(q({ retiredAt: 1 }), true)).toBe(false);
  });

  it("prefers fresh questions under demo reuse", () => {
    const marked = preferFresh([q(), q({ answerShownAt: 1 })]);
    expect(marked.map((m) => m.seen)).toEqual([false, true]);
    expect(isFresh(marked[0]!)).toBe(true);
  });

  it("counts the days of the schedule the fresh pool lasts, a show per ten questions", () => {
    expect(SCHEDULED_SHOWS_PER_DAY).toBe(8);
    expect(daysOfSupply(0)).toBe(0);
    expect(daysOfSupply(9)).toBe(0);
    expect(daysOfSupply(80)).toBe(1);
    expect(daysOfSupply(100)).toBe(1.2);
    expect(daysOfSupply(475)).toBe(5.8);
    expect(daysOfSupply(50, 0)).toBeNull();
  });
});
