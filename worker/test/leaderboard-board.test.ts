// The room's incremental leaderboard against the plain rule it must equal: every row re-ranked
// from scratch with compareStandings.
import { describe, expect, it } from "vitest";
import { compareStandings } from "../../common/domain/scoring";
import { LiveBoard, type BoardRow } from "../durable/room/board";
import { leaderboardPushInterval } from "../../common/domain/tournaments";

const row = (userId: number, score: number, totalResponseMs: number, finishedAt: number | null = null): BoardRow => ({
  userId,
  username: `u${userId}`,
  level: 1,
  showLevel: userId % 7 !== 0,
  score,
  totalResponseMs,
  finishedAt,
  questionsAnswered: 0,
  correctAnswers: 0,
  answerXp: 0,
  prizeCents: 0,
});

/** A small deterministic generator, so a failure can be replayed. */
function rng(seed: number) {
  let s = seed;
  return (n: number) => {
    s = (s * 1103515245 + 12345) % 2 ** 31;
    return s % n;
  };
}

describe("the live leaderboard", () => {
  it("stays equal to a full re-rank through thousands of updates, joins and leaves", () => {
    const next = rng(42);
    const board = new LiveBoard();
    const truth = new Map<number, BoardRow>();
    for (let i = 0; i < 5000; i++) {
      const userId = 1 + next(300);
      if (next(20) === 0) {
        board.remove(userId);
        truth.delete(userId);
        continue;
      }
      // Few distinct scores and times, so ties are common and the later keys decide.
      const r = row(userId, next(5) * 100, next(3) * 1000, next(4) === 0 ? next(1000) : null);
      board.upsert(r);
      truth.set(userId, r);
    }
    const expected = [...truth.values()].sort(compareStandings).map((r, i) => ({ userId: r.userId, rank: i + 1 }));
    expect(board.top(board.size).map((r) => ({ userId: r.userId, rank: r.rank }))).toEqual(expected);
    for (const { userId, rank } of expected) expect(board.standingOf(userId)?.rank).toBe(rank);
    expect(board.standingOf(100_000)).toBeNull();
  });

  it("builds each serialized frame once per version and hides levels players hide", () => {
    const board = new LiveBoard();
    board.replaceAll([row(1, 100, 5), row(7, 300, 5), row(3, 200, 5)]);
    const v = board.version;
    const json = board.allJson();
    expect(board.allJson()).toBe(json);
    expect(JSON.parse(json).map((r: { userId: number; level: number | null }) => [r.userId, r.level])).toEqual([
      [7, null],
      [3, 1],
      [1, 1],
    ]);
    board.upsert(row(1, 100, 5));
    expect(board.version).toBe(v);
    board.upsert(row(1, 400, 5));
    expect(board.version).toBe(v + 1);
    expect(JSON.parse(board.topJson(1))[0].userId).toBe(1);
  });
});

describe("leaderboard pushes", () => {
  it("come every 500 ms up to 200 sockets and less often as the room fills", () => {
    expect(leaderboardPushInterval(1)).toBe(500);
    expect(leaderboardPushInterval(200)).toBe(500);
    expect(leaderboardPushInterval(201)).toBe(1000);
    expect(leaderboardPushInterval(1000)).toBe(2500);
    expect(leaderboardPushInterval(10_000)).toBe(25_000);
  });
});
