import type { NotificationData } from "@common/api/tournaments";

/** Where a notification leads: its tournament, or the transactions for a failed payout. */
export function notificationTarget(data: Pick<NotificationData, "action" | "tournamentId">): { to: string; label: string } {
  if (data.tournamentId !== null) return { to: `/tournaments/${data.tournamentId}`, label: "View tournament" };
  if (data.action === "payout_failed") return { to: "/dashboard?tab=transactions", label: "View transactions" };
  return { to: "/tournaments", label: "View tournaments" };
}
