import { describe, expect, it } from "vitest";
import {
  FAIR_PLAY_THRESHOLDS as T,
  fairPlayFlags,
  humanFloorMs,
  mergeFlags,
  sharedFlags,
  sharingPlayers,
  timingFlags,
  type PlayedAnswer,
  type PlayerRecord,
} from "./fair-play";

const LENGTH = 50;
const answer = (i: number, responseMs: number | null, correct = true, text = `A${i}`): PlayedAnswer => ({
  questionId: i + 1,
  answer: responseMs === null ? null : text,
  correct: responseMs !== null && correct,
  responseMs,
  questionLength: LENGTH,
});
/** Ten answers at a person's pace: seconds, all different. */
const human = (correct = true) => Array.from({ length: 10 }, (_, i) => answer(i, 2000 + 900 * i, correct));
const kinds = (answers: PlayedAnswer[]) => timingFlags(answers).map((f) => f.kind);

describe("timing flags", () => {
  it("raise nothing for a person's pace", () => {
    expect(kinds(human())).toEqual([]);
  });

  it("inhuman speed: one correct answer under the reading floor can be luck, two cannot", () => {
    const floor = humanFloorMs(LENGTH);
    expect(floor).toBe(T.humanFloorBaseMs + T.humanFloorPerCharMs * LENGTH);
    const one = human().map((a, i) => (i === 3 ? { ...a, responseMs: floor - 1 } : a));
    expect(kinds(one)).toEqual([]);
    const two = one.map((a, i) => (i === 6 ? { ...a, responseMs: floor - 1 } : a));
    expect(kinds(two)).toEqual(["inhuman_speed"]);
    // Wrong answers that fast are guesses, not knowledge.
    const wrong = human().map((a, i) => (i < 3 ? { ...a, correct: false, responseMs: 100 } : a));
    expect(kinds(wrong)).toEqual([]);
    expect(kinds(two.map((a) => (a.responseMs === floor - 1 ? { ...a, responseMs: floor } : a)))).toEqual([]);
  });

  it("robotic timing: six answers in a row within the spread, not five", () => {
    const run = (n: number) => human().map((a, i) => (i >= 2 && i < 2 + n ? { ...a, responseMs: 5000 + (i % 2) * T.roboticSpreadMs } : a));
    expect(kinds(run(T.roboticRun))).toEqual(["robotic_timing"]);
    expect(kinds(run(T.roboticRun - 1))).toEqual([]);
    const wider = human().map((a, i) => (i >= 2 && i < 8 ? { ...a, responseMs: 5000 + (i % 2) * (T.roboticSpreadMs + 1) } : a));
    expect(kinds(wider)).toEqual([]);
  });

  it("a sub-second perfect run: nine correct all under a second; one slower answer clears it", () => {
    // Above the reading floor (600 ms here) and uneven, so only this flag applies.
    const times = [610, 900, 650, 980, 620, 950, 700, 990, 640, 5000];
    const fast = times.map((ms, i) => answer(i, ms, i < 9));
    expect(kinds(fast)).toEqual(["sub_second_perfect"]);
    expect(kinds(fast.map((a, i) => (i === 4 ? { ...a, responseMs: T.subSecondMs } : a)))).toEqual([]);
    const eight = fast.map((a, i) => (i === 8 ? { ...a, correct: false } : a));
    expect(kinds(eight)).toEqual([]);
  });
});

describe("pairs on one device or network", () => {
  const player = (userId: number, answers: PlayedAnswer[], o: Partial<PlayerRecord> = {}): PlayerRecord => ({
    userId,
    deviceHash: null,
    networkHash: null,
    answers,
    ...o,
  });
  const sameAnswers = (matching: number) =>
    human().map((a, i) => ({ ...a, responseMs: (a.responseMs ?? 0) + 300, answer: i < matching ? a.answer : `other ${i}` }));

  it("flags both accounts when they share a network and at least 80% of their answers", () => {
    const flags = fairPlayFlags([player(1, human(), { networkHash: "n" }), player(2, sameAnswers(8), { networkHash: "n" })]);
    expect(flags.get(1)).toEqual([expect.objectContaining({ kind: "shared_network", otherUserId: 2 })]);
    expect(flags.get(2)).toEqual([expect.objectContaining({ kind: "shared_network", otherUserId: 1 })]);
  });

  it("and on a shared device", () => {
    const flags = fairPlayFlags([player(1, human(), { deviceHash: "d" }), player(2, sameAnswers(10), { deviceHash: "d" })]);
    expect(flags.get(1)?.map((f) => f.kind)).toEqual(["shared_device"]);
  });

  it("not below the share, with too few answers in common, apart, or without a known address", () => {
    expect(fairPlayFlags([player(1, human(), { networkHash: "n" }), player(2, sameAnswers(7), { networkHash: "n" })]).size).toBe(0);
    const few = (p: PlayedAnswer[]) => p.map((a, i) => (i >= T.pairMinCommon - 1 ? { ...a, answer: null, responseMs: null } : a));
    expect(fairPlayFlags([player(1, few(human()), { networkHash: "n" }), player(2, few(sameAnswers(10)), { networkHash: "n" })]).size).toBe(
      0,
    );
    expect(fairPlayFlags([player(1, human(), { networkHash: "a" }), player(2, sameAnswers(10), { networkHash: "b" })]).size).toBe(0);
    expect(fairPlayFlags([player(1, human()), player(2, sameAnswers(10))]).size).toBe(0);
  });

  it("across play shards: each player's timing where their answers are, the pairs over only the players sharing an address", () => {
    const fast = human().map((a) => ({ ...a, responseMs: 300 }));
    const everyone = [
      player(1, human(), { networkHash: "n", deviceHash: "d1" }),
      player(2, sameAnswers(9), { networkHash: "n", deviceHash: "d2" }),
      player(3, fast, { networkHash: "m", deviceHash: "d3" }),
      player(4, sameAnswers(10), { networkHash: "k", deviceHash: "d1" }),
      player(5, human(), { networkHash: null, deviceHash: null }),
    ];
    const sharing = sharingPlayers(everyone);
    expect([...sharing].sort()).toEqual([1, 2, 4]);
    // Shard A holds players 1, 3 and 5, shard B players 2 and 4: each computes timing flags for its own.
    const merged = new Map<number, ReturnType<typeof timingFlags>>();
    for (const p of everyone) if (timingFlags(p.answers).length > 0) merged.set(p.userId, timingFlags(p.answers));
    for (const [u, f] of sharedFlags(everyone.filter((p) => sharing.has(p.userId)))) merged.set(u, [...(merged.get(u) ?? []), ...f]);
    expect(merged).toEqual(fairPlayFlags(everyone));
    expect(merged.get(3)?.map((f) => f.kind)).toContain("sub_second_perfect");
    expect(merged.get(4)?.map((f) => f.kind)).toEqual(["shared_device"]);
  });
});

describe("a question the host voided", () => {
  const floor = humanFloorMs(LENGTH);
  const player = (userId: number, answers: PlayedAnswer[], o: Partial<PlayerRecord> = {}): PlayerRecord => ({
    userId,
    deviceHash: null,
    networkHash: null,
    answers,
    ...o,
  });

  it("raises no speed flag when the only second too-fast answer is on it", () => {
    const two = human().map((a, i) => (i === 0 || i === 4 ? { ...a, responseMs: floor - 1 } : a));
    expect(kinds(two)).toEqual(["inhuman_speed"]);
    expect(kinds(two.map((a, i) => (i === 0 ? { ...a, voided: true } : a)))).toEqual([]);
    expect(
      fairPlayFlags([
        player(
          1,
          two.map((a, i) => (i === 0 ? { ...a, voided: true } : a)),
        ),
      ]).size,
    ).toBe(0);
  });

  it("breaks a robotic run and a sub-second perfect run it would complete", () => {
    const run = human().map((a, i) => (i >= 2 && i < 2 + T.roboticRun ? { ...a, responseMs: 5000 + (i % 2) * 100 } : a));
    expect(kinds(run)).toEqual(["robotic_timing"]);
    expect(kinds(run.map((a, i) => (i === 4 ? { ...a, voided: true } : a)))).toEqual([]);
    const times = [610, 900, 650, 980, 620, 950, 700, 990, 640, 5000];
    const fast = times.map((ms, i) => answer(i, ms, i < 9));
    expect(kinds(fast)).toEqual(["sub_second_perfect"]);
    expect(kinds(fast.map((a, i) => (i === 3 ? { ...a, voided: true } : a)))).toEqual([]);
  });

  it("is not an answer in common for two accounts on one network", () => {
    const mine = human();
    // Eight of ten the same: flagged; with one of the eight voided, seven of nine is below the share.
    const theirs = mine.map((a, i) => ({ ...a, responseMs: (a.responseMs ?? 0) + 300, answer: i < 8 ? a.answer : `other ${i}` }));
    expect(fairPlayFlags([player(1, mine, { networkHash: "n" }), player(2, theirs, { networkHash: "n" })]).size).toBe(2);
    const voidFirst = (p: PlayedAnswer[]) => p.map((a, i) => (i === 0 ? { ...a, voided: true } : a));
    expect(fairPlayFlags([player(1, voidFirst(mine), { networkHash: "n" }), player(2, voidFirst(theirs), { networkHash: "n" })]).size).toBe(
      0,
    );
  });
});

describe("mergeFlags", () => {
  it("adds each shard's players' flags to the coordinator's own, a flag both name counting once", () => {
    const speed = { kind: "inhuman_speed" as const, detail: "3 correct answers faster than the reading floor" };
    const pair = { kind: "shared_device" as const, detail: "5 of 5 answers identical, same device", otherUserId: 2 };
    const own = new Map([[1, [pair]]]);
    const merged = mergeFlags(own, [
      { userId: 1, flags: [pair, speed] },
      { userId: 3, flags: [speed] },
    ]);
    expect([...merged]).toEqual([
      [1, [pair, speed]],
      [3, [speed]],
    ]);
    expect(mergeFlags(new Map(), [])).toEqual(new Map());
  });
});
