import { describe, expect, it } from "vitest";
import { SEED_CATEGORIES } from "../worker/seed/categories";
import { QUESTION_BANK } from "../worker/seed/question-bank";
import { DIFFICULTY_RAMP } from "../common/spec";

describe("question bank", () => {
  const all = Object.values(QUESTION_BANK).flat();

  it("has at least 400 questions and at least 50 per category", () => {
    expect(all.length).toBeGreaterThanOrEqual(400);
    for (const c of SEED_CATEGORIES) expect(QUESTION_BANK[c.slug].length, c.slug).toBeGreaterThanOrEqual(50);
  });

  it("spreads every category over difficulties 1-3, enough for several tournaments", () => {
    const needed = (d: number) => DIFFICULTY_RAMP.filter((x) => x === d).length;
    for (const c of SEED_CATEGORIES) {
      for (const d of [1, 2, 3]) {
        const count = QUESTION_BANK[c.slug].filter((item) => item.difficulty === d).length;
        expect(count, `${c.slug} difficulty ${d}`).toBeGreaterThanOrEqual(needed(d) * 4);
      }
    }
  });

  it.each(Object.entries(QUESTION_BANK))("%s: every question is well formed", (_slug, items) => {
    for (const item of items) {
      expect(item.question.trim().length, item.question).toBeGreaterThan(10);
      expect(item.options, item.question).toHaveLength(4);
      expect(new Set(item.options.map((o) => o.trim().toLowerCase())).size, item.question).toBe(4);
      expect(item.options, item.question).toContain(item.correctAnswer);
      expect(item.explanation.trim().length, item.question).toBeGreaterThan(5);
      expect(item.explanation, item.question).not.toMatch(/\n/);
      expect([1, 2, 3]).toContain(item.difficulty);
    }
  });

  it("has no question twice", () => {
    const texts = all.map((item) => item.question.trim().toLowerCase());
    expect(new Set(texts).size).toBe(texts.length);
  });
});
