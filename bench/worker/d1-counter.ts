// Counts the D1 work a Worker does, by wrapping its DB binding. Used only by the benchmark's
// entry module (bench/worker/entry.ts): production code has no hook for it.
//
// Every statement executed is counted once, as a read (SELECT, WITH, PRAGMA) or a write
// (anything else), under a tag naming who ran it: "worker" (HTTP handlers), "room"
// (TournamentRoom), "hub" (NotificationHub), "cron". rows_read/rows_written come from D1's own
// result meta where the call returns it (run, all, batch); first() and raw() return none.
// Each bound statement's values are measured as D1's limit counts them (worker/db/d1-limits.ts).

import { boundBytes } from "../../worker/db/d1-limits";

export interface Bucket {
  statements: number;
  reads: number;
  writes: number;
  /** db.batch() calls (each one transaction). */
  batches: number;
  rowsRead: number;
  rowsWritten: number;
}

const buckets = new Map<string, Bucket>();
/** The largest bound values one statement carried, in bytes, per tag (since the last reset). */
const maxBound = new Map<string, number>();

export const boundSnapshot = (): Record<string, number> => Object.fromEntries(maxBound);
export const resetBound = () => maxBound.clear();

function bucket(tag: string): Bucket {
  let b = buckets.get(tag);
  if (!b) buckets.set(tag, (b = { statements: 0, reads: 0, writes: 0, batches: 0, rowsRead: 0, rowsWritten: 0 }));
  return b;
}

export function snapshot(): Record<string, Bucket> {
  return Object.fromEntries([...buckets.entries()].map(([k, v]) => [k, { ...v }]));
}

const isRead = (sql: string) => /^\s*(select|with|pragma|explain)\b/i.test(sql);

function countStatement(tag: string, sql: string): void {
  const b = bucket(tag);
  b.statements++;
  if (isRead(sql)) b.reads++;
  else b.writes++;
}

function countMeta(tag: string, result: unknown): void {
  const meta = (result as { meta?: { rows_read?: number; rows_written?: number } } | null)?.meta;
  if (!meta) return;
  const b = bucket(tag);
  b.rowsRead += meta.rows_read ?? 0;
  b.rowsWritten += meta.rows_written ?? 0;
}

class CountingStatement {
  constructor(
    readonly real: D1PreparedStatement,
    readonly sql: string,
    readonly tag: string,
  ) {}

  bind(...values: unknown[]): CountingStatement {
    maxBound.set(this.tag, Math.max(maxBound.get(this.tag) ?? 0, boundBytes(values)));
    return new CountingStatement(this.real.bind(...values), this.sql, this.tag);
  }

  async first<T = unknown>(column?: string): Promise<T | null> {
    countStatement(this.tag, this.sql);
    return column === undefined ? this.real.first<T>() : this.real.first<T>(column);
  }

  async all<T = unknown>(): Promise<D1Result<T>> {
    countStatement(this.tag, this.sql);
    const r = await this.real.all<T>();
    countMeta(this.tag, r);
    return r;
  }

  async run<T = unknown>(): Promise<D1Result<T>> {
    countStatement(this.tag, this.sql);
    const r = await this.real.run<T>();
    countMeta(this.tag, r);
    return r;
  }

  async raw<T = unknown[]>(options?: { columnNames?: boolean }): Promise<T[]> {
    countStatement(this.tag, this.sql);
    return (this.real.raw as (o?: { columnNames?: boolean }) => Promise<T[]>)(options);
  }
}

class CountingD1 {
  constructor(
    readonly real: D1Database,
    readonly tag: string,
  ) {}

  prepare(sql: string): CountingStatement {
    return new CountingStatement(this.real.prepare(sql), sql, this.tag);
  }

  async batch<T = unknown>(statements: (CountingStatement | D1PreparedStatement)[]): Promise<D1Result<T>[]> {
    bucket(this.tag).batches++;
    const real = statements.map((s) => {
      if (s instanceof CountingStatement) {
        countStatement(this.tag, s.sql);
        return s.real;
      }
      throw new Error("bench D1 counter: a statement from outside the counting wrapper was batched");
    });
    const results = await this.real.batch<T>(real);
    for (const r of results) countMeta(this.tag, r);
    return results;
  }

  async exec(sql: string): Promise<D1ExecResult> {
    // exec runs one or more statements separated by semicolons; count each.
    for (const part of sql.split(";").filter((s) => s.trim())) countStatement(this.tag, part);
    return this.real.exec(sql);
  }

  dump(): Promise<ArrayBuffer> {
    return (this.real as unknown as { dump(): Promise<ArrayBuffer> }).dump();
  }

  withSession(): never {
    throw new Error("bench D1 counter: withSession is not wrapped");
  }
}

const wrapped = new WeakMap<object, Map<string, object>>();

/** The same env with its DB binding replaced by a counting one (cached per env and tag). */
export function countingEnv<E extends { DB: D1Database }>(env: E, tag: string): E {
  let byTag = wrapped.get(env);
  if (!byTag) wrapped.set(env, (byTag = new Map()));
  let out = byTag.get(tag) as E | undefined;
  if (!out) {
    const db = new CountingD1(env.DB, tag) as unknown as D1Database;
    out = new Proxy(env, { get: (target, key, receiver) => (key === "DB" ? db : Reflect.get(target, key, receiver)) });
    byTag.set(tag, out);
  }
  return out;
}
