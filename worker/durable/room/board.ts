// The room's leaderboard, kept sorted as standings change instead of re-ranking every player on
// every read: an update moves one row (two binary searches and an array splice), a read of the
// top rows or of one player's rank is a slice or a binary search, and the serialized frames are
// built once per version of the board, however many sockets and requests read them.
import { compareStandings } from "../../../common/domain/scoring";
import type { LeaderboardRow } from "../../../common/api/tournaments";
import { centsToDollars } from "../../../common/domain/money";
import type { PlayerStanding } from "./standings";

/** A board row: a standing without its rank, which is the row's position. */
export type BoardRow = Omit<PlayerStanding, "rank">;

export class LiveBoard {
  #rows: BoardRow[] = [];
  #byUser = new Map<number, BoardRow>();
  #version = 0;
  #cache = new Map<string, string>();
  #cachedVersion = -1;

  get version(): number {
    return this.#version;
  }

  get size(): number {
    return this.#rows.length;
  }

  /** Every row at once (a settlement, a live show's reveal): one sort. */
  replaceAll(rows: BoardRow[]): void {
    this.#rows = [...rows].sort(compareStandings);
    this.#byUser = new Map(this.#rows.map((r) => [r.userId, r]));
    this.#changed();
  }

  /** Adds the player's row or moves it to where its new standing belongs. */
  upsert(row: BoardRow): void {
    const old = this.#byUser.get(row.userId);
    if (old) {
      if (sameStanding(old, row)) return;
      this.#rows.splice(this.#indexOf(old), 1);
    }
    this.#rows.splice(this.#lowerBound(row), 0, row);
    this.#byUser.set(row.userId, row);
    this.#changed();
  }

  remove(userId: number): void {
    const old = this.#byUser.get(userId);
    if (!old) return;
    this.#rows.splice(this.#indexOf(old), 1);
    this.#byUser.delete(userId);
    this.#changed();
  }

  /** 1-based rank and score, or null for someone not on the board (a spectator). */
  standingOf(userId: number): { rank: number; score: number } | null {
    const row = this.#byUser.get(userId);
    return row ? { rank: this.#indexOf(row) + 1, score: row.score } : null;
  }

  /** Every row in the product's order (a play shard's report). */
  rows(): readonly BoardRow[] {
    return this.#rows;
  }

  top(n: number): LeaderboardRow[] {
    return this.#rows.slice(0, n).map((r, i) => toLeaderboardRow(r, i + 1));
  }

  /** The top n rows as JSON, built once per version. */
  topJson(n: number): string {
    return this.#cached(`top:${n}`, () => JSON.stringify(this.top(n)));
  }

  /** The whole board as JSON (GET /leaderboard), built once per version. */
  allJson(): string {
    return this.#cached("all", () => JSON.stringify(this.#rows.map((r, i) => toLeaderboardRow(r, i + 1))));
  }

  #cached(key: string, build: () => string): string {
    if (this.#cachedVersion !== this.#version) {
      this.#cache.clear();
      this.#cachedVersion = this.#version;
    }
    let value = this.#cache.get(key);
    if (value === undefined) {
      value = build();
      this.#cache.set(key, value);
    }
    return value;
  }

  #changed(): void {
    this.#version++;
  }

  /** The first position whose row ranks at or after `row`: the order is total (user id last). */
  #lowerBound(row: BoardRow): number {
    let lo = 0;
    let hi = this.#rows.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (compareStandings(this.#rows[mid]!, row) < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  #indexOf(row: BoardRow): number {
    const i = this.#lowerBound(row);
    if (this.#rows[i] !== row) throw new Error(`leaderboard out of order at user ${row.userId}`);
    return i;
  }
}

const sameStanding = (a: BoardRow, b: BoardRow) =>
  a.score === b.score &&
  a.totalResponseMs === b.totalResponseMs &&
  a.finishedAt === b.finishedAt &&
  a.questionsAnswered === b.questionsAnswered &&
  a.prizeCents === b.prizeCents &&
  a.showLevel === b.showLevel &&
  a.level === b.level &&
  a.username === b.username;

export function toLeaderboardRow(s: BoardRow, rank: number): LeaderboardRow {
  return {
    userId: s.userId,
    username: s.username,
    level: s.showLevel ? s.level : null,
    score: s.score,
    questionsAnswered: s.questionsAnswered,
    rank,
    prize: centsToDollars(s.prizeCents),
  };
}
