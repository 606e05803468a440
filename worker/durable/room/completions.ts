// Players' completions on their way to D1, written together: every completion that arrives
// while a batch is on its way joins the next one, so a burst of completions costs a few D1
// batches instead of one each (a batch costs about the same whatever it holds, up to a
// settlement chunk's worth of players). Each caller waits for the batch that holds its own.

interface Waiting<T> {
  entry: T;
  done: Promise<void>;
  resolve: () => void;
  reject: (e: unknown) => void;
}

export class CompletionWriter<T extends { userId: number }> {
  /** Not yet sent, by player: a second completion of the same player waits for the same write. */
  readonly #pending = new Map<number, Waiting<T>>();
  #running: Promise<void> | null = null;

  constructor(
    /** Writes one group (one D1 batch); a throw fails every completion of that group. */
    private readonly write: (entries: T[]) => Promise<void>,
    /** The most completions one batch holds. */
    private readonly groupSize: number,
  ) {}

  /** Resolves once the player's results are in D1, with the others sent alongside. */
  add(entry: T): Promise<void> {
    const queued = this.#pending.get(entry.userId);
    if (queued) return queued.done;
    let resolve!: () => void;
    let reject!: (e: unknown) => void;
    const done = new Promise<void>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    this.#pending.set(entry.userId, { entry, done, resolve, reject });
    this.#running ??= this.#run();
    return done;
  }

  /** Resolves when nothing is waiting or on its way (settlement writes after every completion). */
  async drain(): Promise<void> {
    while (this.#running) await this.#running;
  }

  async #run(): Promise<void> {
    // Completions handled in this turn join the first batch.
    await new Promise((r) => setTimeout(r, 0));
    while (this.#pending.size > 0) {
      const group = [...this.#pending.values()].slice(0, this.groupSize);
      for (const w of group) this.#pending.delete(w.entry.userId);
      try {
        await this.write(group.map((w) => w.entry));
        for (const w of group) w.resolve();
      } catch (e) {
        for (const w of group) w.reject(e);
      }
    }
    this.#running = null;
  }
}
