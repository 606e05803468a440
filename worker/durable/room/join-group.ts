// A group of joins as one D1 batch (docs/decisions/013-join-groups.md). The room picks the group
// (seats left, one row per player, level and phase checked); here each row carries its own
// conditions, so one player's short balance or lost idempotency claim leaves the others' seats
// alone, and the batch ends by reading back who is seated, each balance and the tournament.
import { getTableColumns } from "drizzle-orm";
import { POOL_PERCENT } from "../../../common/domain/prizes";
import { LIMIT_WINDOWS_MS } from "../../../common/spec";
import type { LimitKind } from "../../../common/domain/responsible-play";
import { tournaments } from "../../db/schema";
import { staffSql } from "../../fair-play/staff";
import { LIMIT_IN_FORCE } from "../../payments/deposits";
import { IDENTITY, MODERATION, MONEY, RESPONSIBLE } from "../../../common/messages";
import { formatCents } from "../../../common/domain/money";
import { limitPeriod, limitWindowMs } from "../../../common/domain/responsible-play";
import { createDb } from "../../db/client";
import { limitRefusal, type Refusal } from "../../responsible-play/refusals";

/** One player of a group: `ref` is the entry's ledger reference; `key`/`at` the request's idempotency claim, if any. */
export interface GroupRow {
  u: number;
  ref: string;
  key: string | null;
  at: number | null;
  d: string | null;
  n: string | null;
  /** The play shard the seat is on (common/domain/shards.ts); 0 in a one-room tournament. */
  s: number;
}

/** Leaves of these players in the tournament, as D1's ledger has them (a paid leave's refund). */
export async function departuresOf(db: D1Database, tournamentId: number, userIds: number[]): Promise<Map<number, number>> {
  const { results } = await db
    .prepare(
      `SELECT user_id, count(*) AS times FROM transactions
       WHERE user_id IN (SELECT value FROM json_each(?1)) AND type = 'refund' AND reference LIKE ?2 GROUP BY user_id`,
    )
    .bind(JSON.stringify(userIds), `leave:${tournamentId}:%`)
    .all<{ user_id: number; times: number }>();
  return new Map(results.map((r) => [r.user_id, r.times]));
}

/** What the batch read back for one row of the group. */
export interface GroupReadback {
  u: number;
  balance: number;
  /** When the player's seat was taken (this batch's time for a seat it made); null when not seated. */
  joined_at: number | null;
  /** The shard of the seat (a sharded show's batch only; null otherwise). */
  seat_shard: number | null;
  /** The request's claim was still its own (always 1 without a key). */
  claim_held: 0 | 1;
  /** The player is staff or linked to staff (docs/fair-play.md) in a prize tournament: no seat, no fee. */
  staff: 0 | 1;
  /** Why the batch refused an unseated row: the account's standing, or the entry-fee limit it would pass (see refusalSql); null otherwise. */
  refusal: StandingRefusal | LimitKind | null;
  /** What the player owes the house (the frozen account's message). */
  owed: number;
  /** The end of the break in force (null: permanent), when `refusal` is a break. */
  break_ends: number | null;
  /** The limit `refusal` names, in force, and what counts against it now. */
  limit_cents: number | null;
  used_cents: number | null;
}

export type StandingRefusal = "account_frozen" | "account_suspended" | "self_excluded" | "cooling_off" | "identity_duplicate_account";

const row = (field: keyof GroupRow) => `json_extract(j.value, '$.${field}')`;

/** The row's idempotency claim is still this request's (see claimGuardStatement), or it has none. */
const claimHeld = `(${row("key")} IS NULL OR EXISTS (SELECT 1 FROM idempotency_keys k
  WHERE k.user_id = ${row("u")} AND k.key = ${row("key")} AND k.created_at = ${row("at")} AND k.reference IS NULL AND k.response_status IS NULL))`;

/**
 * The player's standing at `now`, as SQL on the users row `u`: frozen (owes the house), suspended,
 * self-excluded, cooling off, in the order the join route checks them; NULL when none applies.
 * Conditions on the user's own row and the exclusions index (user_id, ends_at): cheap on the hot path.
 */
const activeBreak = (u: string, now: string, kind?: "self_exclusion" | "cool_off") =>
  `EXISTS (SELECT 1 FROM exclusions e WHERE e.user_id = ${u}.id${kind ? ` AND e.kind = '${kind}'` : ""}
     AND e.starts_at <= ${now} AND (e.ends_at IS NULL OR e.ends_at > ${now}))`;
/** `prize`: prize play is money, which a second account of a verified person never gets (docs/identity-and-tax.md). */
const standingOk = (u: string, now: string, prize: boolean) =>
  `(${u}.frozen_at IS NULL AND ${u}.suspended_at IS NULL AND NOT ${activeBreak(u, now)}${prize ? ` AND ${u}.identity_duplicate_of IS NULL` : ""})`;
const standingRefusal = (u: string, now: string, prize: boolean) => `CASE
  WHEN ${u}.frozen_at IS NOT NULL THEN 'account_frozen'
  WHEN ${u}.suspended_at IS NOT NULL THEN 'account_suspended'
  WHEN ${activeBreak(u, now, "self_exclusion")} THEN 'self_excluded'
  WHEN ${activeBreak(u, now, "cool_off")} THEN 'cooling_off'${
    prize
      ? `
  WHEN ${u}.identity_duplicate_of IS NOT NULL THEN 'identity_duplicate_account'`
      : ""
  } END`;

/**
 * The ledger reference that would refund entry `r` (entry:{t}:{u} or entry:{t}:{u}:{n}): leaving
 * refunds entry n as leave:{t}:{u}:{n} (n = 0 for the first entry), a cancellation the seat's
 * latest entry as refund:{t}:{u}. An entry not left is its seat's latest (a player joins again
 * only after leaving), so "not left and not cancelled" is netEntryFees' rule.
 */
const colons = (r: string) => `(length(${r}) - length(replace(${r}, ':', '')))`;
const leaveRefOf = (r: string) => `('leave:' || substr(${r}, 7) || CASE WHEN ${colons(r)} = 2 THEN ':0' ELSE '' END)`;
const cancelRefOf = (r: string) =>
  `('refund:' || CASE WHEN ${colons(r)} = 2 THEN substr(${r}, 7)
     ELSE substr(rtrim(${r}, '0123456789'), 7, length(rtrim(${r}, '0123456789')) - 7) END)`;

/** The window of entry-fee limit `l` (its kind) in ms, from the statement's binds for the three windows. */
const windowOf = (l: string, w: { daily: string; weekly: string; monthly: string }) =>
  `(CASE ${l}.kind WHEN 'entry_fees_daily' THEN ${w.daily} WHEN 'entry_fees_weekly' THEN ${w.weekly} ELSE ${w.monthly} END)`;

/**
 * Entry fees of user `u` in limit `l`'s window ending at `now`, net of refunds (as spendsOf
 * counts them). Rows written after `now` by D1's clock count too: a concurrent join's entry is
 * never missed.
 */
const feesInWindow = (u: string, l: string, now: string, w: Parameters<typeof windowOf>[1]) =>
  `(SELECT coalesce(sum(-t.amount_cents), 0) FROM transactions t
     WHERE t.user_id = ${u}.id AND t.type = 'tournament_entry' AND t.status IN ('completed', 'pending')
       AND t.created_at > ${now} - ${windowOf(l, w)}
       AND NOT EXISTS (SELECT 1 FROM transactions r WHERE r.reference IN (${leaveRefOf("t.reference")}, ${cancelRefOf("t.reference")})
                         AND r.type = 'refund' AND r.status IN ('completed', 'pending')))`;

/** The entry-fee limit of `u` that `fee` more would pass at `now` (the longest window first), or NULL. */
const brokenLimit = (u: string, fee: string, now: string, w: Parameters<typeof windowOf>[1]) =>
  `(SELECT l.kind FROM play_limits l
     WHERE l.user_id = ${u}.id AND l.kind IN ('entry_fees_daily', 'entry_fees_weekly', 'entry_fees_monthly')
       AND ${LIMIT_IN_FORCE("l", now)} IS NOT NULL
       AND ${fee} + ${feesInWindow(u, "l", now, w)} > ${LIMIT_IN_FORCE("l", now)}
     ORDER BY CASE l.kind WHEN 'entry_fees_monthly' THEN 1 WHEN 'entry_fees_weekly' THEN 2 ELSE 3 END LIMIT 1)`;

/**
 * The group's batch: fees (only from balances that hold the fee), seats (only where the fee was
 * taken, or for free), the tournament's count and pool from the seats themselves, the claims'
 * references, then the readback and the tournament row. Rows with a conflict (a seat or entry
 * already there, from a join whose reply was lost) change nothing and read back as seated.
 * `prize`: staff and accounts linked to staff get neither seat nor charge, as D1 has the roles
 * and fingerprints in this very batch (a role granted after the Worker's own check still counts).
 * In the same way a frozen or suspended account, a break, (prize play) a second account of a verified person, or (paid joins) an entry-fee limit the
 * fee would pass refuses the row here, as D1 has them when the batch runs: a change committed
 * after the Worker's checks, or a join in another tournament's batch, is seen.
 */
export function joinGroupStatements(
  db: D1Database,
  g: { tournamentId: number; title: string; feeCents: number; joinedAt: number; prize: boolean; rows: GroupRow[]; sharded?: boolean },
): D1PreparedStatement[] {
  const rows = JSON.stringify(g.rows);
  const w = { daily: "?6", weekly: "?7", monthly: "?8" };
  const staff = g.prize ? staffSql(row("u"), row("d"), row("n"), g.joinedAt) : "false";
  const seated = `EXISTS (SELECT 1 FROM tournament_participants p WHERE p.tournament_id = ?1 AND p.user_id = ${row("u")})`;
  const out: D1PreparedStatement[] = [];
  const w2 = { daily: "?5", weekly: "?6", monthly: "?7" };
  /** The readback's limit columns: the limit its refusal names, from that limit's row. */
  const limitColumn = (column: string) =>
    g.feeCents > 0
      ? `CASE WHEN r.refusal IN ('entry_fees_daily', 'entry_fees_weekly', 'entry_fees_monthly') THEN (SELECT ${column} FROM play_limits l WHERE l.user_id = r.u AND l.kind = r.refusal) END`
      : "NULL";
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
             AND ${standingOk("u", "?5", g.prize)} AND ${brokenLimit("u", "?2", "?5", w)} IS NULL
           ON CONFLICT (reference) DO NOTHING`,
        )
        .bind(
          g.tournamentId,
          g.feeCents,
          `Entry: ${g.title}`,
          rows,
          g.joinedAt,
          LIMIT_WINDOWS_MS.daily,
          LIMIT_WINDOWS_MS.weekly,
          LIMIT_WINDOWS_MS.monthly,
        ),
    );
  }
  // A paid seat needs its fee, which the standing and the limits already guarded; a free one the standing itself.
  const paid =
    g.feeCents > 0
      ? `EXISTS (SELECT 1 FROM transactions x WHERE x.reference = ${row("ref")})`
      : `EXISTS (SELECT 1 FROM users u WHERE u.id = ${row("u")} AND ${standingOk("u", "?2", g.prize)})`;
  out.push(
    db
      .prepare(
        `INSERT INTO tournament_participants (tournament_id, user_id, joined_at, device_hash, network_hash, shard)
         SELECT ?1, ${row("u")}, ?2, ${row("d")}, ${row("n")}, ${row("s")} FROM json_each(?3) AS j
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
        `SELECT r.*,
           CASE WHEN r.refusal IN ('self_excluded', 'cooling_off') THEN
             (SELECT e.ends_at FROM exclusions e WHERE e.user_id = r.u AND e.starts_at <= ?3 AND (e.ends_at IS NULL OR e.ends_at > ?3)
                AND e.kind = CASE r.refusal WHEN 'self_excluded' THEN 'self_exclusion' ELSE 'cool_off' END
              ORDER BY e.ends_at IS NULL DESC, e.ends_at DESC LIMIT 1) END AS break_ends,
           ${limitColumn(LIMIT_IN_FORCE("l", "?3"))} AS limit_cents,
           ${limitColumn(feesInWindow("u", "l", "?3", w2))} AS used_cents
         FROM (SELECT ${row("u")} AS u, coalesce(u.balance_cents, 0) AS balance, coalesce(u.owed_cents, 0) AS owed,
           (SELECT p.joined_at FROM tournament_participants p WHERE p.tournament_id = ?1 AND p.user_id = ${row("u")}) AS joined_at,
           ${g.sharded ? `(SELECT p.shard FROM tournament_participants p WHERE p.tournament_id = ?1 AND p.user_id = ${row("u")})` : "NULL"} AS seat_shard,
           CASE WHEN ${row("key")} IS NULL OR EXISTS (SELECT 1 FROM idempotency_keys k
             WHERE k.user_id = ${row("u")} AND k.key = ${row("key")} AND k.created_at = ${row("at")} AND k.response_status IS NULL)
           THEN 1 ELSE 0 END AS claim_held,
           CASE WHEN ${staff} THEN 1 ELSE 0 END AS staff,
           -- Why an unseated row was refused (evaluated only for those: CASE is lazy).
           CASE WHEN u.id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM tournament_participants p WHERE p.tournament_id = ?1 AND p.user_id = u.id)
             THEN ${g.feeCents > 0 ? `coalesce(${standingRefusal("u", "?3", g.prize)}, ${brokenLimit("u", "?4", "?3", w2)})` : standingRefusal("u", "?3", g.prize)} END AS refusal
         FROM json_each(?2) AS j LEFT JOIN users u ON u.id = ${row("u")}) AS r LEFT JOIN users u ON u.id = r.u`,
      )
      // ?1 tournament, ?2 rows, ?3 now; a paid join's limits also ?4 fee, ?5-?7 their windows.
      .bind(
        ...[g.tournamentId, rows, g.joinedAt],
        ...(g.feeCents > 0 ? [g.feeCents, LIMIT_WINDOWS_MS.daily, LIMIT_WINDOWS_MS.weekly, LIMIT_WINDOWS_MS.monthly] : []),
      ),
    tournamentAnswerStatement(db, g.tournamentId),
  );
  return out;
}

/**
 * The refusal a row the batch refused for the account's standing or a limit gets: the code and
 * message the join route gives for the same state (worker/responsible-play/checks.ts, the frozen
 * and suspended checks). A limit's message is worked out as the route's is (which limit frees up
 * last, and when), from D1 as it is now; should that find the fee fits after all (the state
 * moved again), it is said from what the batch read. Only refused rows cost this read.
 */
export async function groupRefusal(d1: D1Database, r: GroupReadback, feeCents: number): Promise<Refusal | null> {
  switch (r.refusal) {
    case null:
      return null;
    case "account_frozen":
      return { status: 403, code: "account_frozen", message: MONEY.accountFrozen(formatCents(r.owed)) };
    case "account_suspended":
      return { status: 403, code: "account_suspended", message: MODERATION.accountSuspended };
    case "self_excluded":
      return { status: 403, code: "self_excluded", message: RESPONSIBLE.selfExcluded(r.break_ends) };
    case "cooling_off":
      return { status: 403, code: "cooling_off", message: RESPONSIBLE.coolingOff(r.break_ends ?? Date.now()) };
    case "identity_duplicate_account":
      return { status: 403, code: "identity_duplicate_account", message: IDENTITY.duplicateAccount };
  }
  const now = Date.now();
  const exact = await limitRefusal(createDb(d1), r.u, "entry_fees", feeCents, now);
  if (exact) return exact;
  const limitCents = r.limit_cents ?? 0;
  const message = RESPONSIBLE.limitReached({
    family: "entry_fees",
    period: limitPeriod(r.refusal),
    limitUsd: formatCents(limitCents),
    leftUsd: formatCents(Math.max(0, limitCents - (r.used_cents ?? 0))),
    amountUsd: formatCents(feeCents),
    // Everything counted now has left the window by then.
    fitsAt: feeCents > limitCents ? null : now + limitWindowMs(r.refusal),
  });
  return { status: 409, code: "spend_limit_reached", message };
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
