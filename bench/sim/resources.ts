// What the model's actors run on: a single-threaded CPU (a Durable Object, or D1's one writer)
// that takes jobs in arrival order, and per-second counters for rates and busy time.
import type { Simulation } from "./engine";

/** Counts per bin of `binMs` (1 s unless told), from time 0. */
export class Bins {
  #values = new Float64Array(64);
  constructor(readonly binMs = 1000) {}

  add(at: number, amount = 1): void {
    const i = Math.floor(at / this.binMs);
    if (i >= this.#values.length) {
      const next = new Float64Array(Math.max(i + 1, this.#values.length * 2));
      next.set(this.#values);
      this.#values = next;
    }
    this.#values[i]! += amount;
  }

  /** Adds the busy interval [from, to), split over the bins it spans. */
  addSpan(from: number, to: number): void {
    let t = from;
    while (t < to) {
      const end = Math.min(to, (Math.floor(t / this.binMs) + 1) * this.binMs);
      this.add(t, end - t);
      t = end;
    }
  }

  /** The sum of bins [from, to). */
  sum(from: number, to: number): number {
    let s = 0;
    for (let i = Math.max(0, from); i < Math.min(to, this.#values.length); i++) s += this.#values[i]!;
    return s;
  }

  /** The largest bin, or the largest of bins [from, to). */
  max(from = 0, to = this.#values.length): number {
    let m = 0;
    for (let i = Math.max(0, from); i < Math.min(to, this.#values.length); i++) if (this.#values[i]! > m) m = this.#values[i]!;
    return m;
  }
}

/**
 * One thread that runs one job at a time, first come first served, never preempted: a Durable
 * Object's event loop, or D1's single writer. A job's start and end follow from the jobs before
 * it, so they are known when it is submitted; `done` runs as an event at the end.
 */
export class Cpu {
  #freeAt = 0;
  #busyMs = 0;
  /** Busy milliseconds per second of simulated time. */
  readonly busy = new Bins();

  constructor(readonly sim: Simulation) {}

  /** Queues a job of `costMs`; returns when it starts (the wait is start - now). */
  run(costMs: number, done?: (end: number) => void): { start: number; end: number } {
    const start = Math.max(this.sim.now, this.#freeAt);
    const end = start + costMs;
    this.#freeAt = end;
    this.#busyMs += costMs;
    this.busy.addSpan(start, end);
    if (done) this.sim.at(end, () => done(end));
    return { start, end };
  }

  get busyMs(): number {
    return this.#busyMs;
  }

  /** When the last queued job ends. */
  get freeAt(): number {
    return this.#freeAt;
  }
}
