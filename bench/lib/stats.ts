// Latency samples and their percentiles (nearest-rank), in milliseconds.

export class Samples {
  #values: number[] = [];

  add(ms: number): void {
    this.#values.push(ms);
  }

  get count(): number {
    return this.#values.length;
  }

  summary(): LatencySummary {
    const v = [...this.#values].sort((a, b) => a - b);
    const at = (p: number) => (v.length === 0 ? 0 : v[Math.min(v.length - 1, Math.max(0, Math.ceil((p / 100) * v.length) - 1))]!);
    return {
      count: v.length,
      p50: round(at(50)),
      p95: round(at(95)),
      p99: round(at(99)),
      max: round(v.length ? v[v.length - 1]! : 0),
      min: round(v.length ? v[0]! : 0),
    };
  }
}

export interface LatencySummary {
  count: number;
  min: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
}

export const round = (n: number, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;

/** Milliseconds on a monotonic clock shared by every thread of this process. */
export const now = () => Number(process.hrtime.bigint()) / 1e6;

/** Runs `n` copies of `worker` at once and waits for all. */
export async function parallel(n: number, worker: (lane: number) => Promise<void>): Promise<void> {
  await Promise.all(Array.from({ length: n }, (_, i) => worker(i)));
}
