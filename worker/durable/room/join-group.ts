// A group of joins as one D1 batch (docs/decisions/013-join-groups.md). The room picks the group
// (seats left, one row per player, level and phase checked); here each row carries its own
// conditions, so one player's short balance or lost idempotency claim leaves the others' seats
// alone, and the batch ends by reading back who is seated, each balance and the tournament.
import { getTableColumns } from "drizzle-orm";
import { POOL_PERCENT } from "../../../common/domain/prizes";
import { tournaments } from "../../db/schema";
import { staffSql } from "../../fair-play/staff";

/** One player of a group: `ref` is the entry's ledger reference; `key`/`at` the request's idempotency claim, if any. */
export interface GroupRow {
  u: number;
  ref: string;
  key: string | null;
  at: number | null;
  d: string | null;
  n: string | null;
}

/** What the batch read back for one row of the group. */
export interface GroupReadback {
  u: number;
  balance: number;
  /** When the player's seat was taken (this batch's time for a seat it made); null when not seated. */
  joined_at: number | null;
  /** The request's claim was still its own (always 1 without a key). */
  claim_held: 0 | 1;
  /** The player is staff or linked to staff (docs/fair-play.md) in a prize tournament: no seat, no fee. */
  staff: 0 | 1;
}

const row = (field: keyof GroupRow) => `json_extract(j.value, '$.${field}')`;

/** The row's idempotency claim is still this request's (see claimGuardStatement), or it has none. */
const claimHeld = `(${row("key")} IS NULL OR EXISTS (SELECT 1 FROM idempotency_keys k
  WHERE k.user_id = ${row("u")} AND k.key = ${row("key")} AND k.created_at = ${row("at")} AND k.reference IS NULL AND k.response_status IS NULL))`;

/**
 * The group's batch: fees (only from balances that hold the fee), seats (only where the fee was
 * taken, or for free), the tournament's count and pool from the seats themselves, the claims'
 * references, then the readback and the tournament row. Rows with a conflict (a seat or entry
 * already there, from a join whose reply was lost) change nothing and read back as seated.
 * `prize`: staff and accounts linked to staff get neither seat nor charge, as D1 has the roles
 * and fingerprints in this very batch (a role granted after the Worker's own check still counts).
 */
export function joinGroupStatements(
  db: D1Database,
  g: { tournamentId: number; title: string; feeCents: number; joinedAt: number; prize: boolean; rows: GroupRow[] },
): D1PreparedStatement[] {
  const rows = JSON.stringify(g.rows);
  const staff = g.prize ? staffSql(row("u"), row("d"), row("n"), g.joinedAt) : "false";
  const seated = `EXISTS (SELECT 1 FROM tournament_participants p WHERE p.tournament_id = ?1 AND p.user_id = ${row("u")})`;
  const out: D1PreparedStatement[] = [];
  if (g.feeCents > 0) {
    // Through the ledger as ledgerStatement writes it; the balance condition keeps the CHECK on
    // users from failing the whole batch for one player.
    out.push(
      db
        .prepare(
          `INSERT INTO transactions (user_id, amount_cents, type, status, reference, description, provider)
           SELECT u.id, -?2, 'tournament_entry', 'completed', ${row("ref")}, ?3, NULL
           FROM json_each(?4) AS j JOIN users u ON u.id = ${row("u")}
           WHERE u.balance_cents >= ?2 AND ${claimHeld} AND NOT ${staff}
           ON CONFLICT (reference) DO NOTHING`,
        )
        .bind(g.tournamentId, g.feeCents, `Entry: ${g.title}`, rows),
    );
  }
  const paid = g.feeCents > 0 ? `EXISTS (SELECT 1 FROM transactions x WHERE x.reference = ${row("ref")})` : "true";
  out.push(
    db
      .prepare(
        `INSERT INTO tournament_participants (tournament_id, user_id, joined_at, device_hash, network_hash)
         SELECT ?1, ${row("u")}, ?2, ${row("d")}, ${row("n")} FROM json_each(?3) AS j
         WHERE ${paid} AND ${claimHeld} AND NOT ${staff}
         ON CONFLICT (tournament_id, user_id) DO NOTHING`,
      )
      .bind(g.tournamentId, g.joinedAt, rows),
    // The pool is 85% of the fees of the seats there are (prizePoolFromFees); a free tournament's is the house's.
    db
      .prepare(
        `UPDATE tournaments SET current_participants = s.n,
           prize_pool_cents = CASE WHEN ?2 > 0 THEN CAST(s.n * ?2 * ?3 / 100 AS INTEGER) ELSE prize_pool_cents END
         FROM (SELECT count(*) AS n FROM tournament_participants WHERE tournament_id = ?1) AS s
         WHERE id = ?1`,
      )
      .bind(g.tournamentId, g.feeCents, POOL_PERCENT),
    db
      .prepare(
        `UPDATE idempotency_keys SET reference = ${row("ref")} FROM json_each(?2) AS j
         WHERE idempotency_keys.user_id = ${row("u")} AND idempotency_keys.key = ${row("key")} AND idempotency_keys.created_at = ${row("at")}
           AND idempotency_keys.reference IS NULL AND idempotency_keys.response_status IS NULL AND ${seated}`,
      )
      .bind(g.tournamentId, rows),
    db
      .prepare(
        `SELECT ${row("u")} AS u, coalesce(u.balance_cents, 0) AS balance,
           (SELECT p.joined_at FROM tournament_participants p WHERE p.tournament_id = ?1 AND p.user_id = ${row("u")}) AS joined_at,
           CASE WHEN ${row("key")} IS NULL OR EXISTS (SELECT 1 FROM idempotency_keys k
             WHERE k.user_id = ${row("u")} AND k.key = ${row("key")} AND k.created_at = ${row("at")} AND k.response_status IS NULL)
           THEN 1 ELSE 0 END AS claim_held,
           CASE WHEN ${staff} THEN 1 ELSE 0 END AS staff
         FROM json_each(?2) AS j LEFT JOIN users u ON u.id = ${row("u")}`,
      )
      .bind(g.tournamentId, rows),
    tournamentAnswerStatement(db, g.tournamentId),
  );
  return out;
}

/** The tournament as a join's answer shows it (with its category's name). */
export const tournamentAnswerStatement = (db: D1Database, tournamentId: number): D1PreparedStatement =>
  db
    .prepare("SELECT t.*, c.name AS category_name FROM tournaments t JOIN categories c ON c.id = t.category_id WHERE t.id = ?")
    .bind(tournamentId);

export type TournamentAnswerRow = Record<string, unknown> & { category_name: string };

export type TournamentRow = typeof tournaments.$inferSelect;

/** A tournaments row as D1 returns it (column names), mapped as drizzle maps it, for presentTournament. */
export function tournamentFromRow(raw: Record<string, unknown>): TournamentRow {
  const columns = getTableColumns(tournaments);
  return Object.fromEntries(
    Object.entries(columns).map(([field, column]) => {
      const value = raw[column.name];
      return [field, value === null || value === undefined ? null : column.mapFromDriverValue(value)];
    }),
  ) as TournamentRow;
}
