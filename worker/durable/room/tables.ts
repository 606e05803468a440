// The TournamentRoom's SQLite tables (./storage.ts keeps them): the schema, the columns added after
// rooms already existed, the row types, and the pure helpers over a row.
import { ANSWER_GRACE_MS, QUESTION_TIME_MS } from "../../../common/spec";
import type { LifecyclePhase } from "../../../common/domain/lifecycle";
import type { ShowStage } from "../../../common/domain/live-show";
import type { TournamentFormat } from "../../../common/api/types";

/** The room's phase: a tournament's status, plus settling while its results are being written. */
export type Phase = LifecyclePhase;

export const SCHEMA = `
CREATE TABLE IF NOT EXISTS meta (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  tournament_id INTEGER NOT NULL,
  title TEXT NOT NULL,
  entry_fee_cents INTEGER NOT NULL,
  prize_pool_cents INTEGER NOT NULL,
  max_participants INTEGER,
  min_level INTEGER NOT NULL,
  practice INTEGER NOT NULL,
  min_players INTEGER NOT NULL,
  start_time INTEGER NOT NULL,
  end_time INTEGER,
  phase TEXT NOT NULL,
  settled INTEGER NOT NULL DEFAULT 0,
  settle_stamp INTEGER,
  format TEXT NOT NULL DEFAULT 'self_paced',
  show_stage TEXT NOT NULL DEFAULT 'waiting',
  show_ord INTEGER NOT NULL DEFAULT -1,
  show_since INTEGER,
  draw_width INTEGER NOT NULL DEFAULT 1,
  salt TEXT,
  commitment TEXT,
  commitment_published INTEGER NOT NULL DEFAULT 0,
  commitment_version INTEGER NOT NULL DEFAULT 1,
  shard_count INTEGER NOT NULL DEFAULT 1
);
CREATE TABLE IF NOT EXISTS questions (
  ord INTEGER PRIMARY KEY,
  question_id INTEGER NOT NULL UNIQUE,
  question TEXT NOT NULL,
  options TEXT NOT NULL,
  correct_answer TEXT NOT NULL,
  explanation TEXT,
  opened_at INTEGER
);
CREATE TABLE IF NOT EXISTS participants (
  user_id INTEGER PRIMARY KEY,
  username TEXT NOT NULL,
  level INTEGER NOT NULL,
  joined_at INTEGER NOT NULL,
  finished_at INTEGER,
  results_written INTEGER NOT NULL DEFAULT 0,
  rank INTEGER,
  prize_cents INTEGER NOT NULL DEFAULT 0,
  show_level INTEGER NOT NULL DEFAULT 1,
  device_hash TEXT,
  network_hash TEXT
);
CREATE TABLE IF NOT EXISTS plays (
  user_id INTEGER NOT NULL,
  ord INTEGER NOT NULL,
  issued_at INTEGER NOT NULL,
  answer TEXT,
  is_correct INTEGER,
  response_ms INTEGER,
  points INTEGER,
  xp INTEGER,
  answered_at INTEGER,
  frame_id TEXT,
  PRIMARY KEY (user_id, ord)
);
CREATE TABLE IF NOT EXISTS departures (
  user_id INTEGER PRIMARY KEY,
  times INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS schedule (
  kind TEXT PRIMARY KEY,
  due_at INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS shard_state (
  key TEXT PRIMARY KEY,
  value TEXT NOT NULL
);
`;

/** Columns added after rooms already existed: [table, column, definition]. An older room gets them when it starts. */
export const ADDED_COLUMNS: [string, string, string][] = [
  ["participants", "show_level", "INTEGER NOT NULL DEFAULT 1"],
  ["meta", "format", "TEXT NOT NULL DEFAULT 'self_paced'"],
  ["meta", "show_stage", "TEXT NOT NULL DEFAULT 'waiting'"],
  ["meta", "show_ord", "INTEGER NOT NULL DEFAULT -1"],
  ["meta", "show_since", "INTEGER"],
  ["questions", "opened_at", "INTEGER"],
  ["plays", "frame_id", "TEXT"],
  ["meta", "draw_width", "INTEGER NOT NULL DEFAULT 1"],
  ["meta", "salt", "TEXT"],
  ["meta", "commitment", "TEXT"],
  ["meta", "commitment_published", "INTEGER NOT NULL DEFAULT 0"],
  ["participants", "device_hash", "TEXT"],
  ["participants", "network_hash", "TEXT"],
  // A room committed before decision 015 has a v1 (flat) commitment: the default says so.
  ["meta", "commitment_version", "INTEGER NOT NULL DEFAULT 1"],
  // The host's tools (docs/decisions/017-host-tools.md).
  ["meta", "paused_at", "INTEGER"],
  ["questions", "voided_at", "INTEGER"],
  ["questions", "void_reason", "TEXT"],
  ["participants", "disqualified_at", "INTEGER"],
  ["participants", "disqualified_reason", "TEXT"],
  // Play shards of a live show (docs/decisions/011-one-tournament-past-one-durable-object.md).
  ["meta", "shard_count", "INTEGER NOT NULL DEFAULT 1"],
];

export type MetaRow = {
  tournament_id: number;
  title: string;
  entry_fee_cents: number;
  prize_pool_cents: number;
  max_participants: number | null;
  min_level: number;
  practice: number;
  min_players: number;
  start_time: number;
  end_time: number | null;
  phase: Phase;
  settled: number;
  settle_stamp: number | null;
  format: TournamentFormat;
  /** Live show only: where the show is, the current question, and when that stage began. */
  show_stage: ShowStage;
  show_ord: number;
  show_since: number | null;
  /** Candidates per ramp slot: 1, everyone plays questions 0..n-1; more, each player draws one per slot (docs/fair-play.md). */
  draw_width: number;
  /** The secret of the fairness commitment, revealed after settlement; null for practice. */
  salt: string | null;
  commitment: string | null;
  /** 1 once the commitment is in D1 for everyone to see. */
  commitment_published: number;
  /** How the commitment was made (common/domain/fairness.ts): 1, one flat hash; 2, a Merkle tree of the questions. */
  commitment_version: number;
  /** Live show: when the host paused it (no next question opens until they resume); null when running. */
  paused_at: number | null;
  /** The tournament's play shards (D1's shard_count): a seat written at the join names one of 0..shard_count-1. */
  shard_count: number;
};

export type QuestionRow = {
  ord: number;
  question_id: number;
  question: string;
  /** JSON array. */
  options: string;
  correct_answer: string;
  explanation: string | null;
  /** Live show: when the question went out to everyone; null until then. */
  opened_at: number | null;
  /** When the host voided it (it counts for nobody), and why; null when it counts. */
  voided_at: number | null;
  void_reason: string | null;
};

export type ParticipantRow = {
  user_id: number;
  username: string;
  level: number;
  joined_at: number;
  finished_at: number | null;
  results_written: number;
  rank: number | null;
  prize_cents: number;
  /** 0 when the player hides their level from others (as their preferences said when they joined). */
  show_level: number;
  /** Keyed hashes of the device cookie and network address at the join (the collusion check). */
  device_hash: string | null;
  network_hash: string | null;
  /** When the host disqualified the player (out of the ranking), and why; null otherwise. */
  disqualified_at: number | null;
  disqualified_reason: string | null;
};

export type PlayRow = {
  user_id: number;
  ord: number;
  issued_at: number;
  answer: string | null;
  is_correct: number | null;
  response_ms: number | null;
  points: number | null;
  xp: number | null;
  answered_at: number | null;
  /** The id of the socket frame that asked for this question: a resend gets the same question. */
  frame_id: string | null;
};

/** What the alarm serves: the lifecycle step, the live show's next step and the coalesced leaderboard push. */
/** `merge`: a sharded show coordinator's merge deadline (./shard-merge.ts). */
export type ScheduleKind = "lifecycle" | "show" | "flush" | "shards" | "merge";

export interface TournamentConfig {
  meta: Omit<MetaRow, "settled" | "settle_stamp" | "show_stage" | "show_ord" | "show_since" | "commitment_published" | "paused_at"> & {
    settled: boolean;
  };
  questions: Omit<QuestionRow, "opened_at" | "voided_at" | "void_reason">[];
  participants: Omit<ParticipantRow, "rank" | "prize_cents" | "disqualified_at" | "disqualified_reason">[];
}

/** A question issued to a player and not answered (yet). */
export const unansweredPlay = (userId: number, ord: number, issuedAt: number, frameId: string | null = null): PlayRow => ({
  user_id: userId,
  ord,
  issued_at: issuedAt,
  answer: null,
  is_correct: null,
  response_ms: null,
  points: null,
  xp: null,
  answered_at: null,
  frame_id: frameId,
});

/** A question issued and still open: not answered and inside its 30 s plus the network grace. */
export const isOpen = (play: PlayRow, now: number) => play.answer === null && now <= play.issued_at + QUESTION_TIME_MS + ANSWER_GRACE_MS;

export type Answer = { answer: string; isCorrect: boolean; responseMs: number; points: number; xp: number; at: number };

export const withAnswer = (play: PlayRow, a: Answer): PlayRow => ({
  ...play,
  answer: a.answer,
  is_correct: a.isCorrect ? 1 : 0,
  response_ms: a.responseMs,
  points: a.points,
  xp: a.xp,
  answered_at: a.at,
});
