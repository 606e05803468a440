// Picking a tournament's questions and ordering a player's options.

export interface QuestionCandidate {
  id: number;
  difficulty: number;
  /** Already answered by the player this pick is for: taken only when nothing fresh is left. */
  seen?: boolean;
}

/** Larger than any distance between difficulties, so a fresh question always beats a seen one. */
const SEEN_COST = 100;

/**
 * One question per slot of the difficulty ramp, each used once. A slot whose difficulty has run
 * out takes the nearest difficulty still available; questions the player has seen come last.
 * Null when the pool is too small.
 */
export function pickQuestionsForRamp<T extends QuestionCandidate>(
  pool: readonly T[],
  ramp: readonly number[],
  random: () => number = Math.random,
): T[] | null {
  const left = [...pool];
  if (left.length < ramp.length) return null;
  const picked: T[] = [];
  const cost = (q: T, target: number) => Math.abs(q.difficulty - target) + (q.seen ? SEEN_COST : 0);
  for (const target of ramp) {
    const nearest = Math.min(...left.map((q) => cost(q, target)));
    const candidates = left.filter((q) => cost(q, target) === nearest);
    const choice = candidates[Math.floor(random() * candidates.length)] ?? candidates[0]!;
    picked.push(choice);
    left.splice(left.indexOf(choice), 1);
  }
  return picked;
}

/**
 * A self-paced prize tournament's pool: for each slot of the ramp `width` distinct candidates
 * near its difficulty, in slot-major order (slot * width + candidate), each player drawing one
 * per slot. The widest of `widths` the pool can fill; null when not even the narrowest fits.
 */
export function pickQuestionPool<T extends QuestionCandidate>(
  pool: readonly T[],
  ramp: readonly number[],
  widths: readonly number[],
  random: () => number = Math.random,
): { width: number; questions: T[] } | null {
  for (const width of widths) {
    // The same nearest-difficulty rule as a single pick, over the ramp with each slot repeated.
    const questions = pickQuestionsForRamp(
      pool,
      ramp.flatMap((d) => Array<number>(width).fill(d)),
      random,
    );
    if (questions) return { width, questions };
  }
  return null;
}

/** FNV-1a, 32 bits. */
function hash32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** mulberry32: a small deterministic generator, enough for shuffling four options. */
function generator(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A Fisher-Yates shuffle fixed by `seed`: the same seed always gives the same order. */
export function seededShuffle<T>(items: readonly T[], seed: string): T[] {
  const out = [...items];
  const next = generator(hash32(seed));
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}
