// How a live show is spread over play shards (docs/decisions/011-one-tournament-past-one-durable-object.md):
// how many shards a tournament gets, which region each shard is created in (a Durable Object
// location hint), and which shard a player plays on. Pure: the Worker decides a player's shard at
// the join from the request's continent and keeps it in D1, so a reconnect lands on the same shard.
import type { TournamentFormat } from "../api/types";
import { compareStandings, type Standing } from "./scoring";

/** Seats per play shard when the setting is missing or unreadable (decision 011, "Why 1,300"). */
export const DEFAULT_TOURNAMENT_SHARD_SIZE = 1300;

/** The setting `TOURNAMENT_SHARD_SIZE` as a whole number of seats, at least 1; the default when unset or not a number. */
export function shardSizeFrom(raw: string | undefined): number {
  const n = Number(raw);
  return Number.isSafeInteger(n) && n >= 1 ? n : DEFAULT_TOURNAMENT_SHARD_SIZE;
}

/**
 * Shards of a tournament, fixed when it is created: a live show with more seats than one shard
 * holds gets ceil(capacity / size) shards; anything else (self-paced, practice, unlimited) one.
 */
export function shardCount(format: TournamentFormat, capacity: number | null, shardSize: number): number {
  if (format !== "live_show" || capacity === null || capacity <= shardSize) return 1;
  return Math.ceil(capacity / shardSize);
}

/** Durable Object location hints, in the order shards are given them (the busiest regions first). */
export const SHARD_REGIONS = ["enam", "weur", "wnam", "apac", "eeur", "sam", "oc", "afr", "me"] as const;
export type ShardRegion = (typeof SHARD_REGIONS)[number];

/** The regions near a player of each of Cloudflare's `request.cf.continent` codes. */
const CONTINENT_REGIONS: Record<string, readonly ShardRegion[]> = {
  NA: ["enam", "wnam"],
  SA: ["sam"],
  EU: ["weur", "eeur"],
  AS: ["apac", "me"],
  OC: ["oc"],
  AF: ["afr"],
};

/** The home region of shard `k` of `n`: the regions in turn, so every region has a shard once n >= 9. */
export function regionOf(k: number, n: number): ShardRegion {
  if (!(k >= 0 && k < n)) throw new RangeError(`shard ${k} of ${n}`);
  return SHARD_REGIONS[k % SHARD_REGIONS.length]!;
}

/** A well-spread 32-bit hash of a user id (murmur3's finalizer): consecutive ids land on different shards. */
export function userHash(userId: number): number {
  let h = (userId ^ Math.floor(userId / 0x1_0000_0000)) >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b) >>> 0;
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35) >>> 0;
  return (h ^ (h >>> 16)) >>> 0;
}

/**
 * The shard a player plays on: one of the shards whose home region is near their continent, picked
 * by a hash of their id; when no shard is near them (few shards, or an unknown or local continent),
 * hash(userId) mod n. The same inputs always give the same shard.
 */
export function shardOf(userId: number, continent: string | null | undefined, n: number): number {
  if (n <= 1) return 0;
  const h = userHash(userId);
  const near = CONTINENT_REGIONS[continent ?? ""] ?? [];
  const candidates: number[] = [];
  for (let k = 0; k < n; k++) if (near.includes(regionOf(k, n))) candidates.push(k);
  return candidates.length > 0 ? candidates[h % candidates.length]! : h % n;
}

/** What a play shard tells the coordinator after a reveal: its best rows and how many of its players hold each score. */
export interface ShardReport<R extends Standing> {
  /** The shard's top rows in the product's order (compareStandings), at most TOP_ROWS. */
  top: R[];
  /** [score, players] pairs; every ranked player of the shard once. */
  histogram: [number, number][];
}

/** Rows each shard reports and the merged board keeps: the exact top 10. */
export const SHARD_TOP_ROWS = 10;

/** The shard's report from all its ranked rows (any order). */
export function shardReport<R extends Standing>(rows: readonly R[]): ShardReport<R> {
  const counts = new Map<number, number>();
  for (const r of rows) counts.set(r.score, (counts.get(r.score) ?? 0) + 1);
  return { top: [...rows].sort(compareStandings).slice(0, SHARD_TOP_ROWS), histogram: [...counts].sort((a, b) => b[0] - a[0]) };
}

/**
 * Every shard's report merged: the best 10 of the shards' top rows (exact: a player in the
 * overall top 10 is in their own shard's top 10) and the summed histogram, highest score first.
 */
export function mergeShardReports<R extends Standing>(reports: readonly ShardReport<R>[]): ShardReport<R> {
  const counts = new Map<number, number>();
  for (const r of reports) for (const [score, n] of r.histogram) counts.set(score, (counts.get(score) ?? 0) + n);
  return {
    top: reports
      .flatMap((r) => r.top)
      .sort(compareStandings)
      .slice(0, SHARD_TOP_ROWS),
    histogram: [...counts].sort((a, b) => b[0] - a[0]),
  };
}

/**
 * A player's rank on the merged board: their place in the top rows when they are there, else 1 +
 * the players with a higher score (players with the same score beyond the top rows share a rank).
 */
export function mergedRank<R extends Standing>(board: ShardReport<R>, userId: number, score: number): number {
  const i = board.top.findIndex((r) => r.userId === userId);
  if (i >= 0) return i + 1;
  let higher = 0;
  for (const [s, n] of board.histogram) if (s > score) higher += n;
  return higher + 1;
}

/**
 * How long after a question's close the coordinator waits for every shard's report before it
 * merges what it has (docs/decisions/011-one-tournament-past-one-durable-object.md, "Built"): a slow
 * or evicted shard does not hold everyone else's board. What it sends then is marked incomplete;
 * each late report makes a newer board. Nothing about money depends on these boards.
 */
export const MERGE_DEADLINE_MS = 1_500;

/** How many players chose one option of a question. */
export interface OptionCount {
  option: string;
  count: number;
}

/**
 * The shards' answer counts of one question summed per option, in the order the first shard lists
 * them (every shard lists every option in the question's own order); an option only a later shard
 * lists is added after.
 */
export function mergeDistributions(parts: readonly (readonly OptionCount[])[]): OptionCount[] {
  const counts = new Map<string, number>();
  for (const part of parts) for (const { option, count } of part) counts.set(option, (counts.get(option) ?? 0) + count);
  return [...counts].map(([option, count]) => ({ option, count }));
}

/** What the coordinator does with the shards' newest reports: merge them (complete or not), or wait for the deadline. */
export type MergeStep = { kind: "merge"; ord: number; complete: boolean } | { kind: "wait"; until: number } | { kind: "none" };

/**
 * `ords`: the question each shard's newest report counts (null: none yet). Every shard at the
 * newest question: a complete merge at once. Otherwise the merge waits until `closedAt` (that
 * question's close on the shared clock) + MERGE_DEADLINE_MS, then goes ahead incomplete.
 */
export function mergeStep(ords: readonly (number | null)[], closedAt: number, now: number): MergeStep {
  const known = ords.filter((o): o is number => o !== null);
  if (known.length === 0) return { kind: "none" };
  const ord = Math.max(...known);
  if (ords.every((o) => o === ord)) return { kind: "merge", ord, complete: true };
  const due = closedAt + MERGE_DEADLINE_MS;
  return now >= due ? { kind: "merge", ord, complete: false } : { kind: "wait", until: due };
}
