import { describe, expect, it } from "vitest";
import { pickQuestionPool, pickQuestionsForRamp, seededShuffle } from "./questions";
import { DIFFICULTY_RAMP, QUESTION_DRAW_WIDTHS } from "../spec";

const pool = (counts: Record<number, number>) => {
  const out: { id: number; difficulty: number }[] = [];
  let id = 1;
  for (const [difficulty, n] of Object.entries(counts)) for (let i = 0; i < n; i++) out.push({ id: id++, difficulty: Number(difficulty) });
  return out;
};

describe("pickQuestionsForRamp", () => {
  it("follows the easy/medium/hard ramp with distinct questions", () => {
    const picked = pickQuestionsForRamp(pool({ 1: 5, 2: 6, 3: 5 }), DIFFICULTY_RAMP)!;
    expect(picked.map((q) => q.difficulty)).toEqual([...DIFFICULTY_RAMP]);
    expect(new Set(picked.map((q) => q.id)).size).toBe(10);
  });

  it("falls back to the nearest difficulty when one runs out", () => {
    const picked = pickQuestionsForRamp(pool({ 1: 2, 2: 10, 3: 1 }), DIFFICULTY_RAMP, () => 0)!;
    expect(picked.map((q) => q.difficulty)).toEqual([1, 1, 2, 2, 2, 2, 2, 3, 2, 2]);
  });

  it("returns null when the pool is smaller than the ramp", () => {
    expect(pickQuestionsForRamp(pool({ 1: 3, 2: 3, 3: 3 }), DIFFICULTY_RAMP)).toBeNull();
  });

  it("takes questions the player has seen only once the fresh ones of every difficulty run out", () => {
    const seenIds = new Set([1, 2, 3, 6, 7, 8, 9, 12, 13]);
    const p = pool({ 1: 5, 2: 6, 3: 5 }).map((q) => ({ ...q, seen: seenIds.has(q.id) }));
    const picked = pickQuestionsForRamp(p, DIFFICULTY_RAMP)!;
    // 7 fresh questions (2 easy, 2 medium, 3 hard) come first wherever they fit, then 3 seen ones.
    expect(
      picked
        .filter((q) => !q.seen)
        .map((q) => q.id)
        .sort((a, b) => a - b),
    ).toEqual([4, 5, 10, 11, 14, 15, 16]);
    expect(picked.filter((q) => q.seen)).toHaveLength(3);
    expect(picked.slice(0, 2).every((q) => !q.seen && q.difficulty === 1)).toBe(true);
  });

  it("uses the random source to choose among equals", () => {
    const p = pool({ 1: 4 });
    expect(pickQuestionsForRamp(p, [1], () => 0)![0]!.id).toBe(1);
    expect(pickQuestionsForRamp(p, [1], () => 0.99)![0]!.id).toBe(4);
  });
});

describe("pickQuestionPool", () => {
  const bySlot = <T>(items: T[], width: number) => DIFFICULTY_RAMP.map((_, slot) => items.slice(slot * width, (slot + 1) * width));

  it("gives every slot three distinct candidates of its difficulty when the pool allows", () => {
    const picked = pickQuestionPool(pool({ 1: 9, 2: 12, 3: 9 }), DIFFICULTY_RAMP, QUESTION_DRAW_WIDTHS)!;
    expect(picked.width).toBe(3);
    expect(picked.questions).toHaveLength(30);
    expect(new Set(picked.questions.map((q) => q.id)).size).toBe(30);
    bySlot(picked.questions, 3).forEach((candidates, slot) =>
      expect(
        candidates.map((q) => q.difficulty),
        `slot ${slot}`,
      ).toEqual(Array(3).fill(DIFFICULTY_RAMP[slot])),
    );
  });

  it("takes the nearest difficulty for a slot whose own has run out", () => {
    const picked = pickQuestionPool(pool({ 1: 9, 2: 14, 3: 7 }), DIFFICULTY_RAMP, QUESTION_DRAW_WIDTHS, () => 0)!;
    expect(picked.width).toBe(3);
    const slots = bySlot(picked.questions, 3).map((c) => c.map((q) => q.difficulty));
    // 7 hard questions for 9 hard places: the last hard slot's missing ones are medium, never easy.
    expect(slots.slice(0, 3).flat()).toEqual(Array(9).fill(1));
    expect(
      slots
        .slice(7)
        .flat()
        .filter((d) => d === 3),
    ).toHaveLength(7);
    expect(
      slots
        .slice(7)
        .flat()
        .filter((d) => d === 2),
    ).toHaveLength(2);
  });

  it("narrows to two candidates per slot when there are fewer than 30 questions", () => {
    const picked = pickQuestionPool(pool({ 1: 7, 2: 9, 3: 7 }), DIFFICULTY_RAMP, QUESTION_DRAW_WIDTHS)!;
    expect(picked.width).toBe(2);
    expect(picked.questions).toHaveLength(20);
    expect(new Set(picked.questions.map((q) => q.id)).size).toBe(20);
    bySlot(picked.questions, 2).forEach((candidates, slot) =>
      expect(
        candidates.map((q) => q.difficulty),
        `slot ${slot}`,
      ).toEqual(Array(2).fill(DIFFICULTY_RAMP[slot])),
    );
  });

  it("returns null when not even two per slot fit", () => {
    expect(pickQuestionPool(pool({ 1: 6, 2: 7, 3: 6 }), DIFFICULTY_RAMP, QUESTION_DRAW_WIDTHS)).toBeNull();
  });
});

describe("seededShuffle", () => {
  const options = ["A", "B", "C", "D"];

  it("is a permutation and stable for a seed", () => {
    const once = seededShuffle(options, "1:2:3");
    expect([...once].sort()).toEqual(options);
    expect(seededShuffle(options, "1:2:3")).toEqual(once);
    expect(options).toEqual(["A", "B", "C", "D"]);
  });

  it("gives different players different orders", () => {
    const orders = new Set(Array.from({ length: 40 }, (_, u) => seededShuffle(options, `7:${u}:9`).join("")));
    expect(orders.size).toBeGreaterThan(5);
  });
});
