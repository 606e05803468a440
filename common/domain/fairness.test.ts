import { describe, expect, it } from "vitest";
import { drawCandidate, fairnessCommitment, fairnessPreimage } from "./fairness";

const questions = [
  { questionId: 7, correctAnswer: 'Say "hi", then\\nleave' },
  { questionId: 3, correctAnswer: "Paris" },
];

describe("the fairness commitment", () => {
  it("hashes a fixed JSON encoding: the encoding's name, the tournament, the salt and the pairs in order", async () => {
    expect(fairnessPreimage(12, "s", questions)).toBe(
      `["trivia-arena/fairness/v1",12,"s",[[7,"Say \\"hi\\", then\\\\nleave"],[3,"Paris"]]]`,
    );
    const c = await fairnessCommitment(12, "s", questions);
    expect(c).toMatch(/^[0-9a-f]{64}$/);
    expect(await fairnessCommitment(12, "s", questions)).toBe(c);
  });

  it("changes with any answer, the order, the salt or the tournament", async () => {
    const c = await fairnessCommitment(12, "s", questions);
    expect(await fairnessCommitment(12, "s", [questions[0]!, { ...questions[1]!, correctAnswer: "Lyon" }])).not.toBe(c);
    expect(await fairnessCommitment(12, "s", [questions[1]!, questions[0]!])).not.toBe(c);
    expect(await fairnessCommitment(12, "t", questions)).not.toBe(c);
    expect(await fairnessCommitment(13, "s", questions)).not.toBe(c);
  });
});

describe("per-player draws", () => {
  it("are fixed by the salt, the player and the slot, and fall within the slot's candidates", () => {
    expect(drawCandidate("salt", 1, 0, 1)).toBe(0);
    const draws = Array.from({ length: 300 }, (_, u) => drawCandidate("salt", u, 4, 3));
    expect(draws.every((d) => d >= 0 && d < 3)).toBe(true);
    // Every candidate gets drawn by someone, roughly a third each.
    for (const c of [0, 1, 2]) expect(draws.filter((d) => d === c).length).toBeGreaterThan(60);
    expect(Array.from({ length: 300 }, (_, u) => drawCandidate("salt", u, 4, 3))).toEqual(draws);
    expect(Array.from({ length: 300 }, (_, u) => drawCandidate("other", u, 4, 3))).not.toEqual(draws);
  });
});
