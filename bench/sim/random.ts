// Seeded randomness for the simulation: the same seed gives the same run, on any machine.

/** mulberry32: a small, fast 32-bit generator; uniform in [0, 1). */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A distribution of durations in ms, with the description the report prints. */
export interface Distribution {
  describe: string;
  draw: (random: () => number) => number;
}

export const constant = (ms: number): Distribution => ({ describe: `${ms} ms`, draw: () => ms });

export const uniform = (from: number, to: number): Distribution => ({
  describe: `uniform ${from}-${to} ms`,
  draw: (r) => from + (to - from) * r(),
});

export const exponential = (meanMs: number): Distribution => ({
  describe: `exponential, mean ${meanMs} ms`,
  draw: (r) => -meanMs * Math.log(1 - r()),
});

/** Log-normal: its median and the spread of its logarithm (sigma); the p99 is median * e^(2.326 sigma). */
export const logNormal = (medianMs: number, sigma: number): Distribution => ({
  describe: `log-normal, median ${medianMs} ms, p99 ${Math.round(medianMs * Math.exp(2.326 * sigma))} ms`,
  draw: (r) => medianMs * Math.exp(sigma * standardNormal(r)),
});

/** One value of the first distribution with probability `share`, else of the second. */
export const mixture = (share: number, first: Distribution, second: Distribution): Distribution => ({
  describe: `${Math.round(share * 100)}% ${first.describe}, the rest ${second.describe}`,
  draw: (r) => (r() < share ? first.draw(r) : second.draw(r)),
});

/** Box-Muller. */
function standardNormal(r: () => number): number {
  const u = 1 - r();
  const v = r();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
}

/** A 32-bit integer hash (murmur3's finaliser): spreads consecutive user ids evenly over shards. */
export function hash32(x: number): number {
  let h = x >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}
