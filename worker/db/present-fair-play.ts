// Fair-play rows to API values, shared by the player's tournament list and the operators' reports.
import { sql } from "drizzle-orm";
import type { FairPlayFlag, PrizeStatus } from "../../common/api/fair-play";
import type { transactionStatuses } from "./schema";
import { tournamentParticipants } from "./schema";

/** tournament_participants.flags: a JSON array, or null when the room raised none. */
export const parseFlags = (json: string | null): FairPlayFlag[] => (json === null ? [] : (JSON.parse(json) as FairPlayFlag[]));

/** What became of a prize, from its ledger row's status (null: no prize row). */
export const prizeStatusOf = (row: (typeof transactionStatuses)[number] | null): PrizeStatus =>
  row === "held" || row === "forfeited" ? row : row === null || row === "failed" ? "none" : "paid";

/** The participant carries at least one flag. */
export const isFlagged = sql`(${tournamentParticipants.flags} IS NOT NULL AND ${tournamentParticipants.flags} <> '[]')`;

/** The ledger reference of a participant's prize, `prize:{tournament}:{user}`, as SQL over the participant's row. */
export const prizeReferenceOf = sql`'prize:' || ${tournamentParticipants.tournamentId} || ':' || ${tournamentParticipants.userId}`;
