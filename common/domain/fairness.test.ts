import { describe, expect, it } from "vitest";
import {
  checkTreeReveal,
  drawCandidate,
  drawKey,
  drawSecret,
  fairnessCommitment,
  fairnessPreimage,
  leafPreimage,
  leafSalt,
  questionTree,
  type RevealedLeaf,
  type TreeReveal,
} from "./fairness";
import { merkleLeafHash, merkleRoot } from "./merkle";

const questions = [
  { questionId: 7, correctAnswer: 'Say "hi", then\\nleave' },
  { questionId: 3, correctAnswer: "Paris" },
];

describe("the v1 (flat) fairness commitment, as tournaments committed before decision 015 keep it", () => {
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

describe("the v2 (per-question Merkle) commitment", () => {
  const SALT = "5a17".repeat(16);
  /** A pool of 30 (10 slots of 3), one answer with quotes and a backslash. */
  const pool = Array.from({ length: 30 }, (_, i) => ({ questionId: 100 + i, correctAnswer: i === 4 ? 'Say "hi"\\' : `Answer ${i}` }));

  /** The reveal of the given orders, as the room builds it. */
  function reveal(orders: number[], questions = pool): TreeReveal {
    const { header, leafSalts, tree } = questionTree(12, SALT, questions);
    return {
      ...header,
      commitment: tree.root,
      questions: orders.map((order) => ({ order, ...questions[order]!, leafSalt: leafSalts[order]!, proof: tree.proof(order) })),
    };
  }
  const withLeaf = (r: TreeReveal, i: number, change: Partial<RevealedLeaf>): TreeReveal => ({
    ...r,
    questions: r.questions.map((q, k) => (k === i ? { ...q, ...change } : q)),
  });

  it("hashes each leaf's fixed JSON encoding with a 0x00 prefix", () => {
    const header = { tournamentId: 12, leafCount: 30, drawKey: "dk" };
    const leaf = { order: 4, questionId: 104, correctAnswer: 'Say "hi"', leafSalt: "ls" };
    expect(leafPreimage(header, leaf)).toBe(`["trivia-arena/fairness/v2",12,30,"dk",4,104,"Say \\"hi\\"","ls"]`);
    const { tree, header: h, leafSalts } = questionTree(12, SALT, pool);
    expect(tree.root).toBe(
      merkleRoot(pool.map((q, order) => merkleLeafHash(leafPreimage(h, { order, ...q, leafSalt: leafSalts[order]! })))),
    );
  });

  it("derives per-leaf salts and the draw key from the secret salt, none of them telling the others", () => {
    const salts = pool.map((_, order) => leafSalt(SALT, order));
    expect(new Set(salts).size).toBe(30);
    for (const s of [...salts, drawKey(SALT)]) expect(s).toMatch(/^[0-9a-f]{64}$/);
    expect(salts).not.toContain(drawKey(SALT));
    expect(leafSalt(SALT, 3)).toBe(leafSalt(SALT, 3));
    expect(leafSalt("other", 3)).not.toBe(leafSalt(SALT, 3));
    // v1 rooms keep drawing from the salt itself; v2 rooms from the draw key.
    expect(drawSecret(1, SALT)).toBe(SALT);
    expect(drawSecret(2, SALT)).toBe(drawKey(SALT));
  });

  for (const n of [1, 2, 3, 5, 30]) {
    it(`${n} questions: the root is stable, every revealed leaf verifies, and any change to one does not`, () => {
      const questions = pool.slice(0, n);
      const all = Array.from({ length: n }, (_, i) => i);
      const r = reveal(all, questions);
      expect(reveal(all, questions).commitment).toBe(r.commitment);
      expect(checkTreeReveal(r)).toEqual({ roots: all.map(() => r.commitment), verified: n, ok: true });
      const i = n - 1;
      const q = r.questions[i]!;
      const fails = (t: TreeReveal) => expect(checkTreeReveal(t).ok).toBe(false);
      fails(withLeaf(r, i, { correctAnswer: q.correctAnswer + " " }));
      fails(withLeaf(r, i, { questionId: q.questionId + 1 }));
      fails(withLeaf(r, i, { leafSalt: leafSalt(SALT, i + 1) }));
      fails(withLeaf(r, i, { order: (i + 1) % (n + 1) }));
      if (q.proof.length > 0)
        fails(withLeaf(r, i, { proof: [q.proof[0]!.replace(/^./, (c) => (c === "0" ? "1" : "0")), ...q.proof.slice(1)] }));
      fails({ ...r, leafCount: n + 1 });
      fails({ ...r, drawKey: drawKey("other") });
      fails({ ...r, tournamentId: 13 });
      fails({
        ...r,
        commitment: reveal(
          all,
          questions.map((x) => ({ ...x, correctAnswer: `${x.correctAnswer}!` })),
        ).commitment,
      });
    });
  }

  it("reveals a draw of 10 of 30 without the other 20: each verifies alone, and a repeated or foreign leaf does not pass", () => {
    const drawn = [0, 4, 8, 9, 13, 17, 18, 22, 26, 29];
    const r = reveal(drawn);
    expect(checkTreeReveal(r)).toMatchObject({ verified: 10, ok: true });
    const text = JSON.stringify(r);
    for (const [order, q] of pool.entries()) {
      if (drawn.includes(order)) continue;
      expect(text).not.toContain(JSON.stringify(q.correctAnswer));
      expect(text).not.toContain(`"questionId":${q.questionId}`);
      expect(text).not.toContain(leafSalt(SALT, order));
    }
    expect(text).not.toContain(SALT);
    // The same leaf twice is one question, not two.
    expect(checkTreeReveal({ ...r, questions: [...r.questions, r.questions[0]!] }).ok).toBe(false);
    // A question of the pool revealed with a wrong sibling (another leaf's proof) fails.
    expect(checkTreeReveal(withLeaf(r, 1, { proof: r.questions[0]!.proof })).ok).toBe(false);
    // An undrawn question cannot be slipped in with a made-up salt.
    const forged = { order: 1, ...pool[1]!, leafSalt: "00".repeat(32), proof: reveal([1]).questions[0]!.proof };
    expect(checkTreeReveal({ ...r, questions: [...r.questions, forged] })).toMatchObject({ verified: 10, ok: false });
    // No question revealed: nothing contradicts the root, and nothing was checked either.
    expect(checkTreeReveal({ ...r, questions: [] })).toEqual({ roots: [], verified: 0, ok: true });
  });
});
