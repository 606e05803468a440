import { describe, expect, it } from "vitest";
import { carriedNext, slotOfQuestion } from "./self-paced";

const slotOf = (width: number) => (ord: number) => Math.floor(ord / width);

describe("the question an answer's reply carries", () => {
  it("issues the next slot after the latest question", () => {
    const plays = [{ ord: 0 }, { ord: 1 }];
    expect(carriedNext(plays, 1, slotOf(1), 10)).toEqual({ kind: "issue", slot: 2 });
  });

  it("gives a resent answer the question already issued after it, never a new one", () => {
    const plays = [{ ord: 0 }, { ord: 1 }, { ord: 2 }];
    expect(carriedNext(plays, 1, slotOf(1), 10)).toEqual({ kind: "issued", play: plays[2] });
    expect(carriedNext(plays, 0, slotOf(1), 10)).toEqual({ kind: "issued", play: plays[1] });
  });

  it("says the run is over after the last slot", () => {
    const plays = Array.from({ length: 10 }, (_, ord) => ({ ord }));
    expect(carriedNext(plays, 9, slotOf(1), 10)).toEqual({ kind: "none" });
  });

  it("counts slots, not ords, when each slot draws one of several candidates", () => {
    // Width 3: slot 0 is ords 0-2, slot 1 ords 3-5; the player drew ord 2, then ord 4.
    const plays = [{ ord: 2 }, { ord: 4 }];
    expect(carriedNext(plays, 2, slotOf(3), 3)).toEqual({ kind: "issued", play: plays[1] });
    expect(carriedNext(plays, 4, slotOf(3), 3)).toEqual({ kind: "issue", slot: 2 });
    expect(carriedNext([...plays, { ord: 7 }], 7, slotOf(3), 3)).toEqual({ kind: "none" });
  });
});

describe("the slot of a question of the pool", () => {
  it("is the question itself with one candidate per slot, and its group of candidates with more", () => {
    expect([0, 1, 9].map((ord) => slotOfQuestion(ord, 1))).toEqual([0, 1, 9]);
    expect([0, 2, 3, 5, 29].map((ord) => slotOfQuestion(ord, 3))).toEqual([0, 0, 1, 1, 9]);
  });
});
