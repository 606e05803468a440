// Rows for the fair-play review tests, written straight to D1 as the room's settlement writes
// them: a settled tournament, a flagged participant and their prize held in the ledger.
import { env } from "cloudflare:workers";
import type { FairPlayFlag } from "../../common/api/fair-play";
import { ledgerStatement } from "../money/ledger";
import { makeAdmin } from "./money-helpers";
import { makeCategory, makePlayer, makeTournament, type Player, type TournamentFixture } from "./tournament-fixtures";

export const TIMING_FLAG: FairPlayFlag = { kind: "inhuman_speed", detail: "3 correct answers under the reading floor" };

export async function makeOperator(): Promise<Player> {
  const p = await makePlayer();
  await makeAdmin(p.id);
  return p;
}

/** A completed tournament (no room involved: its results are written below). */
export async function settledTournament(): Promise<TournamentFixture> {
  const category = await makeCategory(4);
  return makeTournament(category, { status: "completed", startTime: Date.now() - 3 * 60 * 60_000, entryFeeCents: 500 });
}

export interface ParticipantRow {
  rank?: number | null;
  prizeCents?: number;
  flags?: FairPlayFlag[] | null;
  /** The prize's ledger row: held (flagged), completed (paid at settlement) or none. */
  prizeRow?: "held" | "completed" | null;
}

/** The participant's settled result and, when it has one, the prize's ledger row. Returns that row's id. */
export async function settleParticipant(t: TournamentFixture, player: Player, o: ParticipantRow = {}): Promise<number | null> {
  const prizeCents = o.prizeCents ?? 0;
  const flags = o.flags === undefined ? [TIMING_FLAG] : o.flags;
  await env.DB.prepare(
    `INSERT INTO tournament_participants (tournament_id, user_id, score, has_completed, rank, prize_cents, questions_answered, correct_answers, flags)
     VALUES (?, ?, 90, 1, ?, ?, 10, 9, ?)`,
  )
    .bind(t.id, player.id, o.rank === undefined ? 1 : o.rank, prizeCents, flags === null ? null : JSON.stringify(flags))
    .run();
  const status = o.prizeRow === undefined ? (prizeCents > 0 ? "held" : null) : o.prizeRow;
  if (status === null) return null;
  await ledgerStatement(env.DB, {
    userId: player.id,
    amountCents: prizeCents,
    type: "prize",
    status,
    reference: `prize:${t.id}:${player.id}`,
    description: `Prize: ${t.title} (1st place)`,
  }).run();
  const row = await env.DB.prepare("SELECT id FROM transactions WHERE reference = ?")
    .bind(`prize:${t.id}:${player.id}`)
    .first<{ id: number }>();
  return row!.id;
}

/** A player with `balanceCents` already in their balance and a held prize of `prizeCents` from a fresh tournament. */
export async function heldPrize(o: { balanceCents?: number; prizeCents?: number; flags?: FairPlayFlag[] } = {}) {
  const player = await makePlayer({ balanceCents: o.balanceCents ?? 1_000 });
  const tournament = await settledTournament();
  const prizeId = (await settleParticipant(tournament, player, { prizeCents: o.prizeCents ?? 4_250, flags: o.flags ?? [TIMING_FLAG] }))!;
  return { player, tournament, prizeId };
}

export const cheatAttempt = (userId: number, tournamentId: number, reason: string, timestamp: number) =>
  env.DB.prepare("INSERT INTO cheat_attempts (user_id, tournament_id, reason, timestamp) VALUES (?, ?, ?, ?)")
    .bind(userId, tournamentId, reason, timestamp)
    .run();
