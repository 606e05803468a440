// The refusals an operator's suspension or ban causes. A suspended account keeps signing in and
// may withdraw its balance, but may not join or deposit; a banned one is refused everywhere.
import { MODERATION } from "../../common/messages";
import { forbidden } from "../http/errors";

export const accountSuspended = () => forbidden(MODERATION.accountSuspended, "account_suspended");
export const accountBanned = () => forbidden(MODERATION.accountBanned, "account_banned");

/** Refuses a suspended account (joins, deposits). */
export function assertNotSuspended(user: { suspendedAt: number | null }): void {
  if (user.suspendedAt !== null) throw accountSuspended();
}
