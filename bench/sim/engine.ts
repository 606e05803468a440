// The discrete-event engine of the simulation: a clock, a priority queue of events and their
// handlers. Events at the same time run in the order they were scheduled, so a run depends only
// on its inputs and its seed. The queue is a binary heap over typed arrays (no object per event),
// since a million-player show schedules a few million events.

export type Handler = (arg: number) => void;

/** A min-heap of (time, sequence) with a handler and one numeric argument per entry. */
export class EventQueue {
  #times = new Float64Array(1024);
  #seqs = new Float64Array(1024);
  #args = new Float64Array(1024);
  #handlers: (Handler | undefined)[] = [];
  #size = 0;
  #nextSeq = 0;

  get size(): number {
    return this.#size;
  }

  /** The earliest event's time, or Infinity when empty. */
  peekTime(): number {
    return this.#size === 0 ? Infinity : this.#times[0]!;
  }

  push(time: number, handler: Handler, arg = 0): void {
    if (this.#size === this.#times.length) this.#grow();
    let i = this.#size++;
    const seq = this.#nextSeq++;
    // Sift up: move parents down until the new entry's place is found.
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.#before(time, seq, parent)) break;
      this.#move(parent, i);
      i = parent;
    }
    this.#set(i, time, seq, handler, arg);
  }

  /** Removes the earliest event and returns it; undefined when empty. */
  pop(): { time: number; handler: Handler; arg: number } | undefined {
    if (this.#size === 0) return undefined;
    const top = { time: this.#times[0]!, handler: this.#handlers[0]!, arg: this.#args[0]! };
    const last = --this.#size;
    if (last > 0) {
      const time = this.#times[last]!;
      const seq = this.#seqs[last]!;
      const handler = this.#handlers[last]!;
      const arg = this.#args[last]!;
      // Sift down the last entry from the root.
      let i = 0;
      for (;;) {
        const left = 2 * i + 1;
        if (left >= last) break;
        const right = left + 1;
        const child = right < last && this.#less(right, left) ? right : left;
        if (!this.#isBefore(child, time, seq)) break;
        this.#move(child, i);
        i = child;
      }
      this.#set(i, time, seq, handler, arg);
    }
    // Let the handler of the slot just vacated be collected.
    this.#handlers[last] = undefined;
    return top;
  }

  #before(time: number, seq: number, j: number): boolean {
    return time < this.#times[j]! || (time === this.#times[j]! && seq < this.#seqs[j]!);
  }

  #isBefore(j: number, time: number, seq: number): boolean {
    return this.#times[j]! < time || (this.#times[j]! === time && this.#seqs[j]! < seq);
  }

  #less(a: number, b: number): boolean {
    return this.#times[a]! < this.#times[b]! || (this.#times[a]! === this.#times[b]! && this.#seqs[a]! < this.#seqs[b]!);
  }

  #move(from: number, to: number): void {
    this.#set(to, this.#times[from]!, this.#seqs[from]!, this.#handlers[from]!, this.#args[from]!);
  }

  #set(i: number, time: number, seq: number, handler: Handler, arg: number): void {
    this.#times[i] = time;
    this.#seqs[i] = seq;
    this.#handlers[i] = handler;
    this.#args[i] = arg;
  }

  #grow(): void {
    const doubled = (a: Float64Array) => {
      const b = new Float64Array(a.length * 2);
      b.set(a);
      return b;
    };
    this.#times = doubled(this.#times);
    this.#seqs = doubled(this.#seqs);
    this.#args = doubled(this.#args);
  }
}

/** The clock and the queue: handlers schedule further events; run() plays them in time order. */
export class Simulation {
  #now = 0;
  #processed = 0;
  readonly #queue = new EventQueue();

  /** Simulated milliseconds. */
  get now(): number {
    return this.#now;
  }

  /** Events handled so far. */
  get processed(): number {
    return this.#processed;
  }

  get pending(): number {
    return this.#queue.size;
  }

  at(time: number, handler: Handler, arg = 0): void {
    if (!(time >= this.#now)) throw new Error(`event at ${time} ms is before the clock (${this.#now} ms)`);
    this.#queue.push(time, handler, arg);
  }

  after(delayMs: number, handler: Handler, arg = 0): void {
    this.at(this.#now + delayMs, handler, arg);
  }

  /** Handles events in time order until none is left or the next is after `until`; returns the clock. */
  run(until = Infinity): number {
    while (this.#queue.size > 0 && this.#queue.peekTime() <= until) {
      const e = this.#queue.pop()!;
      this.#now = e.time;
      this.#processed++;
      e.handler(e.arg);
    }
    if (until !== Infinity && until > this.#now) this.#now = until;
    return this.#now;
  }
}
