// One query for the requests of the same turn: concurrent requests that need the same kind of
// read (a session by its token, a player's join checks) within one event-loop turn are answered
// by one D1 query that reads every key at once, each request getting its own key's result.
// Nothing is cached: a request only joins a read that has not been sent yet, so the query always
// starts after the request arrived and sees every write that finished before it (a sign-out, a
// ban, a revoked session count for the very next request, as with a read of its own).
// docs/decisions/013-join-groups.md, "One query per turn".

/** Reads every key given (distinct, at least one) in one round trip; a key without a row is absent from the map. */
export type BatchRead<K, V> = (d1: D1Database, keys: K[]) => Promise<Map<K, V>>;

/**
 * Reads one key. `waitUntil` (the request's own) keeps the shared query running when the request
 * that happens to send it is cancelled (its client went away), so the others still get answers.
 */
export type CoalescedRead<K, V> = (d1: D1Database, key: K, waitUntil?: (work: Promise<unknown>) => void) => Promise<V | undefined>;

interface Pending<K, V> {
  waiters: Map<K, { resolve: (v: V | undefined) => void; reject: (e: unknown) => void }[]>;
}

/**
 * A read of one key that shares its D1 query with the other reads of the same turn on the same
 * database (per binding, so two environments never share a query). The turn closes on a macrotask
 * (setTimeout 0): every request whose handler reached the read in that turn is in the query. An
 * error of the query reaches every waiter as the same error; each waiter gets its own key's value.
 */
export function coalesced<K, V>(read: BatchRead<K, V>): CoalescedRead<K, V> {
  const pending = new WeakMap<D1Database, Pending<K, V>>();
  const flush = async (d1: D1Database, batch: Pending<K, V>) => {
    // Closed before the query starts: a request arriving from now on waits for the next one.
    pending.delete(d1);
    try {
      const rows = await read(d1, [...batch.waiters.keys()]);
      // A second request for the same key (a double click) gets its own copy: no request sees another's object.
      for (const [key, waiters] of batch.waiters)
        waiters.forEach((w, i) => w.resolve(i === 0 ? rows.get(key) : structuredClone(rows.get(key))));
    } catch (error) {
      for (const waiters of batch.waiters.values()) for (const w of waiters) w.reject(error);
    }
  };
  return (d1, key, waitUntil) =>
    new Promise<V | undefined>((resolve, reject) => {
      let batch = pending.get(d1);
      if (!batch) {
        const opened: Pending<K, V> = { waiters: new Map() };
        batch = opened;
        pending.set(d1, opened);
        setTimeout(() => {
          const sent = flush(d1, opened);
          waitUntil?.(sent);
        }, 0);
      }
      const waiters = batch.waiters.get(key);
      if (waiters) waiters.push({ resolve, reject });
      else batch.waiters.set(key, [{ resolve, reject }]);
    });
}
