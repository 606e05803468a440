// Noticing bots and collusion from how a tournament was played (docs/fair-play.md). The room runs
// this at settlement over its own records; a flagged player's prize is held for review. Every
// threshold is here, in one place; they are deliberately loose, so that a flag means "look at
// this", and an operator decides.
import type { FairPlayFlag } from "../api/fair-play";

export const FAIR_PLAY_THRESHOLDS = {
  /** A correct answer faster than this plus the reading time below is faster than a person reads and clicks. */
  humanFloorBaseMs: 400,
  /** Reading time per character of the question. */
  humanFloorPerCharMs: 4,
  /** How many answers under the floor raise the flag (one can be a lucky guess). */
  inhumanAnswers: 2,
  /** A run of this many consecutive answers... */
  roboticRun: 6,
  /** ...whose response times all lie within this spread (ms) looks scripted: people vary by seconds. */
  roboticSpreadMs: 250,
  /** Correct answers, each under subSecondMs, that make a sub-second perfect run. */
  subSecondCorrect: 9,
  subSecondMs: 1000,
  /** Two accounts on one device or network match when they share at least this many answered questions... */
  pairMinCommon: 5,
  /** ...and gave the same answer to at least this share of them. */
  pairMatchShare: 0.8,
} as const;

export interface PlayedAnswer {
  questionId: number;
  /** Null when the question timed out. */
  answer: string | null;
  correct: boolean;
  responseMs: number | null;
  questionLength: number;
  /**
   * The host voided the question (docs/decisions/017-host-tools.md): it counts for nobody, so it
   * neither raises nor helps raise a flag. A broken question (a leaked answer, two right options)
   * is where honest players answer oddly fast or alike.
   */
  voided?: boolean;
}

export interface PlayerRecord {
  userId: number;
  /** Keyed hashes of the device cookie and network address at the join; null when unknown. */
  deviceHash: string | null;
  networkHash: string | null;
  /** In the order the player got them. */
  answers: PlayedAnswer[];
}

const T = FAIR_PLAY_THRESHOLDS;

export const humanFloorMs = (questionLength: number) => T.humanFloorBaseMs + T.humanFloorPerCharMs * questionLength;

/** The answers the checks judge: every one but those to a voided question. */
const counted = (answers: readonly PlayedAnswer[]) => answers.filter((a) => !a.voided);

/** The flags of one player's own answers: speed and timing. A voided question's answer is left out. */
export function timingFlags(answers: readonly PlayedAnswer[]): FairPlayFlag[] {
  const flags: FairPlayFlag[] = [];
  const answered = counted(answers).filter((a) => a.answer !== null && a.responseMs !== null);
  const tooFast = answered.filter((a) => a.correct && a.responseMs! < humanFloorMs(a.questionLength));
  if (tooFast.length >= T.inhumanAnswers) {
    flags.push({ kind: "inhuman_speed", detail: `${tooFast.length} correct answers faster than the reading floor` });
  }
  for (let i = 0; i + T.roboticRun <= answered.length; i++) {
    const times = answered.slice(i, i + T.roboticRun).map((a) => a.responseMs!);
    const spread = Math.max(...times) - Math.min(...times);
    if (spread <= T.roboticSpreadMs) {
      flags.push({ kind: "robotic_timing", detail: `${T.roboticRun} answers in a row within ${spread} ms of each other` });
      break;
    }
  }
  const fastCorrect = answered.filter((a) => a.correct && a.responseMs! < T.subSecondMs);
  const correct = answered.filter((a) => a.correct);
  if (correct.length >= T.subSecondCorrect && fastCorrect.length === correct.length) {
    flags.push({ kind: "sub_second_perfect", detail: `${correct.length} correct answers, every one under ${T.subSecondMs} ms` });
  }
  return flags;
}

/** The share of the questions both answered where they gave the same answer, and how many that is. */
function agreement(a: readonly PlayedAnswer[], b: readonly PlayedAnswer[]): { common: number; same: number } {
  const theirs = new Map(
    counted(b)
      .filter((x) => x.answer !== null)
      .map((x) => [x.questionId, x.answer]),
  );
  let common = 0;
  let same = 0;
  for (const x of counted(a)) {
    if (x.answer === null || !theirs.has(x.questionId)) continue;
    common++;
    if (theirs.get(x.questionId) === x.answer) same++;
  }
  return { common, same };
}

/** Every player's flags (players without any are absent): their own timing, then pairs sharing a device or network. */
export function fairPlayFlags(players: readonly PlayerRecord[]): Map<number, FairPlayFlag[]> {
  const out = new Map<number, FairPlayFlag[]>();
  for (const p of players) {
    const mine = timingFlags(p.answers);
    if (mine.length > 0) out.set(p.userId, mine);
  }
  for (const [userId, flags] of sharedFlags(players)) out.set(userId, [...(out.get(userId) ?? []), ...flags]);
  return out;
}

type Hashes = Pick<PlayerRecord, "userId" | "deviceHash" | "networkHash">;

/** Players grouped by a shared device (or network) hash, groups of two or more only. */
function sharing<P extends Hashes>(players: readonly P[], kind: "shared_device" | "shared_network"): P[][] {
  const groups = new Map<string, P[]>();
  for (const p of players) {
    const key = kind === "shared_device" ? p.deviceHash : p.networkHash;
    if (key === null) continue;
    const group = groups.get(key);
    if (group) group.push(p);
    else groups.set(key, [p]);
  }
  return [...groups.values()].filter((g) => g.length > 1);
}

/**
 * The players the pair checks compare (they share a device or a network with another player):
 * only their answers are needed for sharedFlags, so a sharded show's coordinator asks its shards
 * for those and no others.
 */
export function sharingPlayers(players: readonly Hashes[]): Set<number> {
  const out = new Set<number>();
  for (const kind of ["shared_device", "shared_network"] as const)
    for (const g of sharing(players, kind)) for (const p of g) out.add(p.userId);
  return out;
}

/** The pair checks alone: players sharing a device or a network who gave mostly the same answers. */
export function sharedFlags(players: readonly PlayerRecord[]): Map<number, FairPlayFlag[]> {
  const out = new Map<number, FairPlayFlag[]>();
  const add = (userId: number, flag: FairPlayFlag) => {
    const mine = out.get(userId);
    if (mine) mine.push(flag);
    else out.set(userId, [flag]);
  };
  // Pairs sharing a device or a network: grouped first, so a room of thousands compares only
  // the few accounts behind one address with each other.
  for (const kind of ["shared_device", "shared_network"] as const) {
    for (const group of sharing(players, kind)) {
      for (let i = 0; i < group.length; i++) {
        for (let j = i + 1; j < group.length; j++) {
          const [a, b] = [group[i]!, group[j]!];
          const { common, same } = agreement(a.answers, b.answers);
          if (common < T.pairMinCommon || same / common < T.pairMatchShare) continue;
          const detail = `${same} of ${common} answers identical, same ${kind === "shared_device" ? "device" : "network"}`;
          add(a.userId, { kind, detail, otherUserId: b.userId });
          add(b.userId, { kind, detail, otherUserId: a.userId });
        }
      }
    }
  }
  return out;
}

/**
 * A sharded show's flags (docs/fair-play.md): each play shard's own, by these rules over its
 * players' answers, added to `own` (the coordinator's over what it holds). A flag both name (the
 * same kind, detail and other player) counts once.
 */
export function mergeFlags(
  own: ReadonlyMap<number, readonly FairPlayFlag[]>,
  shards: readonly { userId: number; flags: readonly FairPlayFlag[] }[],
): Map<number, FairPlayFlag[]> {
  const out = new Map<number, FairPlayFlag[]>();
  const seen = new Set<string>();
  const add = (userId: number, flags: readonly FairPlayFlag[]) => {
    for (const f of flags) {
      const key = JSON.stringify([userId, f.kind, f.detail, f.otherUserId ?? null]);
      if (seen.has(key)) continue;
      seen.add(key);
      const mine = out.get(userId);
      if (mine) mine.push(f);
      else out.set(userId, [f]);
    }
  };
  for (const [userId, flags] of own) add(userId, flags);
  for (const s of shards) add(s.userId, s.flags);
  return out;
}
