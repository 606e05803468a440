import { describe, expect, it } from "vitest";
import { compareStandings } from "./scoring";
import {
  MERGE_DEADLINE_MS,
  mergeDistributions,
  mergedRank,
  mergeShardReports,
  mergeStep,
  regionOf,
  SHARD_REGIONS,
  shardCount,
  shardOf,
  shardReport,
  shardSizeFrom,
} from "./shards";

describe("shardCount", () => {
  it("gives a live show past one shard's size ceil(capacity / size) shards", () => {
    expect(shardCount("live_show", 1300, 1300)).toBe(1);
    expect(shardCount("live_show", 1301, 1300)).toBe(2);
    expect(shardCount("live_show", 10_000, 1300)).toBe(8);
    expect(shardCount("live_show", 7, 3)).toBe(3);
  });

  it("keeps self-paced, unlimited and small tournaments in one room", () => {
    expect(shardCount("self_paced", 100_000, 1300)).toBe(1);
    expect(shardCount("live_show", null, 1300)).toBe(1);
    expect(shardCount("live_show", 3, 3)).toBe(1);
  });

  it("reads the setting, falling back to 1,300", () => {
    expect(shardSizeFrom("3")).toBe(3);
    expect(shardSizeFrom(undefined)).toBe(1300);
    expect(shardSizeFrom("0")).toBe(1300);
    expect(shardSizeFrom("abc")).toBe(1300);
  });
});

describe("regionOf", () => {
  it("gives shards the regions in turn and refuses a shard outside 0..n-1", () => {
    expect([...Array(9).keys()].map((k) => regionOf(k, 9))).toEqual([...SHARD_REGIONS]);
    expect(regionOf(9, 12)).toBe(regionOf(0, 12));
    expect(() => regionOf(3, 3)).toThrow(RangeError);
  });
});

describe("shardOf", () => {
  it("puts everyone on shard 0 when there is one", () => {
    for (const id of [1, 2, 99, 123_456]) expect(shardOf(id, "EU", 1)).toBe(0);
  });

  it("is stable: the same player always lands on the same shard", () => {
    for (let id = 1; id < 200; id++) expect(shardOf(id, "NA", 20)).toBe(shardOf(id, "NA", 20));
  });

  it("prefers a shard of the player's region", () => {
    for (let id = 1; id < 500; id++) {
      expect(["weur", "eeur"]).toContain(regionOf(shardOf(id, "EU", 18), 18));
      expect(regionOf(shardOf(id, "SA", 18), 18)).toBe("sam");
      expect(["enam", "wnam"]).toContain(regionOf(shardOf(id, "NA", 18), 18));
    }
  });

  it("falls back to hash mod n when no shard is near the player", () => {
    // Two shards: enam and weur. Oceania and an unknown continent have neither.
    const seen = new Set<number>();
    for (let id = 1; id < 100; id++) {
      seen.add(shardOf(id, "OC", 2));
      expect(shardOf(id, "OC", 2)).toBe(shardOf(id, null, 2));
      expect(shardOf(id, "T1", 2)).toBe(shardOf(id, undefined, 2));
    }
    expect([...seen].sort()).toEqual([0, 1]);
  });

  it("spreads players evenly over the shards (consecutive ids too)", () => {
    const n = 8;
    const counts = new Array<number>(n).fill(0);
    for (let id = 1; id <= 80_000; id++) counts[shardOf(id, null, n)]!++;
    for (const c of counts) expect(Math.abs(c - 10_000)).toBeLessThan(500);
    const eu = [0, 0];
    for (let id = 1; id <= 20_000; id++) eu[shardOf(id, "EU", 9) === 1 ? 0 : 1]!++;
    // EU has weur (shard 1) and eeur (shard 4) among 9 shards: half each.
    expect(Math.abs(eu[0]! - 10_000)).toBeLessThan(500);
  });
});

describe("merged board", () => {
  const row = (userId: number, score: number, totalResponseMs = 1000) => ({ userId, score, totalResponseMs, finishedAt: null });

  it("equals a single ranking of every player: the exact top 10, ranks beyond it by the histogram", () => {
    // 60 players over 4 shards, scores with many ties.
    const everyone = Array.from({ length: 60 }, (_, i) => row(i + 1, ((i * 37) % 7) * 100, 1000 + ((i * 13) % 11) * 50));
    const shards = [0, 1, 2, 3].map((k) => everyone.filter((p) => p.userId % 4 === k));
    const merged = mergeShardReports(shards.map((rows) => shardReport(rows)));
    const single = [...everyone].sort(compareStandings);
    expect(merged.top.map((r) => r.userId)).toEqual(single.slice(0, 10).map((r) => r.userId));
    expect(merged.histogram.reduce((n, [, c]) => n + c, 0)).toBe(60);
    for (const p of everyone) {
      const exact = single.findIndex((r) => r.userId === p.userId) + 1;
      const rank = mergedRank(merged, p.userId, p.score);
      if (exact <= 10) expect(rank).toBe(exact);
      else expect(rank).toBe(1 + everyone.filter((o) => o.score > p.score).length);
      expect(rank).toBeLessThanOrEqual(exact);
    }
  });

  it("reports at most 10 rows per shard, best first", () => {
    const rows = Array.from({ length: 25 }, (_, i) => row(i + 1, i * 10));
    const r = shardReport(rows);
    expect(r.top.map((x) => x.userId)).toEqual([25, 24, 23, 22, 21, 20, 19, 18, 17, 16]);
    expect(r.histogram[0]).toEqual([240, 1]);
  });
});

describe("mergeDistributions", () => {
  it("sums each option's count over the shards, in the question's order", () => {
    const a = [
      { option: "B", count: 2 },
      { option: "A", count: 0 },
      { option: "C", count: 1 },
    ];
    const b = [
      { option: "B", count: 1 },
      { option: "A", count: 3 },
      { option: "C", count: 0 },
    ];
    expect(mergeDistributions([a, b])).toEqual([
      { option: "B", count: 3 },
      { option: "A", count: 3 },
      { option: "C", count: 1 },
    ]);
    expect(mergeDistributions([])).toEqual([]);
  });
});

describe("mergeStep", () => {
  const close = 100_000;
  it("merges at once when every shard reported the newest question", () => {
    expect(mergeStep([3, 3, 3], close, close)).toEqual({ kind: "merge", ord: 3, complete: true });
  });

  it("waits for a missing or older report until the deadline after the close, then merges incomplete", () => {
    expect(mergeStep([3, 2, 3], close, close + 10)).toEqual({ kind: "wait", until: close + MERGE_DEADLINE_MS });
    expect(mergeStep([3, null], close, close + MERGE_DEADLINE_MS - 1)).toEqual({ kind: "wait", until: close + MERGE_DEADLINE_MS });
    expect(mergeStep([3, null], close, close + MERGE_DEADLINE_MS)).toEqual({ kind: "merge", ord: 3, complete: false });
    expect(mergeStep([2, 3], close, close + 60_000)).toEqual({ kind: "merge", ord: 3, complete: false });
  });

  it("has nothing to merge before any report", () => {
    expect(mergeStep([null, null], close, close + 60_000)).toEqual({ kind: "none" });
  });
});
