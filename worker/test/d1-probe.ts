// A pass-through wrapper around a Durable Object's D1 binding, for tests that must see what the
// object sends: every statement's bound values (measured with the production helper) and every
// batch. The real D1 runs every statement; `afterBatch` may throw once the batch has committed
// (a reply lost on the way back).
import { runInDurableObject } from "cloudflare:test";
import { boundBytes } from "../db/d1-limits";

export interface D1Probe {
  statements: number;
  batches: number;
  /** The largest bound values of one statement, in bytes, and the most parameters one bound. */
  maxBoundBytes: number;
  maxParams: number;
  /** Runs after a batch committed, with its statements' SQL. */
  afterBatch?: (sqls: string[]) => void;
}

export const newProbe = (): D1Probe => ({ statements: 0, batches: 0, maxBoundBytes: 0, maxParams: 0 });

class ProbeStatement {
  constructor(
    readonly real: D1PreparedStatement,
    readonly sql: string,
    readonly probe: D1Probe,
  ) {}

  bind(...values: unknown[]): ProbeStatement {
    this.probe.maxBoundBytes = Math.max(this.probe.maxBoundBytes, boundBytes(values));
    this.probe.maxParams = Math.max(this.probe.maxParams, values.length);
    return new ProbeStatement(this.real.bind(...values), this.sql, this.probe);
  }

  first<T>(column?: string): Promise<T | null> {
    this.probe.statements++;
    return column === undefined ? this.real.first<T>() : this.real.first<T>(column);
  }

  all<T>(): Promise<D1Result<T>> {
    this.probe.statements++;
    return this.real.all<T>();
  }

  run<T>(): Promise<D1Result<T>> {
    this.probe.statements++;
    return this.real.run<T>();
  }

  raw<T>(): Promise<T[]> {
    this.probe.statements++;
    return this.real.raw<T>();
  }
}

class ProbeD1 {
  constructor(
    readonly real: D1Database,
    readonly probe: D1Probe,
  ) {}

  prepare(sql: string): ProbeStatement {
    return new ProbeStatement(this.real.prepare(sql), sql, this.probe);
  }

  async batch<T>(statements: ProbeStatement[]): Promise<D1Result<T>[]> {
    this.probe.batches++;
    this.probe.statements += statements.length;
    const results = await this.real.batch<T>(statements.map((s) => s.real));
    this.probe.afterBatch?.(statements.map((s) => s.sql));
    return results;
  }

  exec(sql: string): Promise<D1ExecResult> {
    return this.real.exec(sql);
  }
}

/** Puts the probe between the object's current instance and D1 (until the object restarts). */
export async function probeDurableObject(stub: DurableObjectStub, probe: D1Probe): Promise<void> {
  await runInDurableObject(stub, (instance: object) => {
    const target = instance as { env: Env };
    const db = new ProbeD1(target.env.DB, probe) as unknown as D1Database;
    target.env = new Proxy(target.env, { get: (env, key, receiver) => (key === "DB" ? db : Reflect.get(env, key, receiver)) });
  });
}
