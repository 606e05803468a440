// GET /api/wallet: the signed-in player's balance, what of it may be withdrawn now and why the
// rest is held, and what is owed while the account is frozen.
import { Hono } from "hono";
import type { WalletSummary } from "../../common/api/money";
import { MONEY } from "../../common/messages";
import { centsToDollars, formatCents } from "../../common/domain/money";
import { iso } from "../db/present";
import { currentUser, requireUser } from "../http/middleware";
import type { AppEnv } from "../http/app-env";
import { withdrawableFor, type WithdrawableFor } from "../money/withdrawable";
import { formatReleaseTime } from "../../common/domain/withdrawable";

/** Why part of the balance is held, in the wallet's words. */
export function heldReason(w: WithdrawableFor): string | null {
  const reasons = [
    w.recentHeldCents - w.prizeHeldCents > 0 ? MONEY.heldRecentDeposits(w.holdHours) : null,
    w.prizeHeldCents > 0 && w.prizeReleaseAt !== null ? MONEY.prizeAvailableOn(formatReleaseTime(w.prizeReleaseAt)) : null,
    w.sandboxHeldCents > 0 ? MONEY.heldSandboxDeposits : null,
  ];
  return reasons.filter((r) => r !== null).join(" ") || null;
}

export const walletRoutes = new Hono<AppEnv>().get("/", requireUser, async (c) => {
  const me = currentUser(c);
  const w = await withdrawableFor(c.env, me.id, me.balanceCents, c.req.url);
  return c.json({
    balance: centsToDollars(me.balanceCents),
    withdrawableBalance: centsToDollars(w.withdrawableCents),
    heldBalance: centsToDollars(w.heldCents),
    cardRefundable: centsToDollars(w.cardRefundableCents),
    heldReason: heldReason(w),
    nextReleaseAt: w.recentHeldCents > 0 && w.nextReleaseAt !== null ? iso(w.nextReleaseAt) : null,
    owed: centsToDollars(me.owedCents),
    frozen:
      me.frozenAt === null
        ? null
        : { reason: me.frozenReason ?? MONEY.frozenOwed, message: MONEY.accountFrozen(formatCents(me.owedCents)), since: iso(me.frozenAt) },
  } satisfies WalletSummary);
});
