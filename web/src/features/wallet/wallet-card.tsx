import { AlertTriangle, Wallet } from "lucide-react";
import type { WalletSummary } from "@common/api/money";
import type { User } from "@common/api/types";
import { formatCents, dollarsToCents, formatDollars } from "@common/domain/money";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { DepositDialog, WithdrawDialog } from "./amount-dialogs";
import { VerifyEmailBanner } from "./verify-email-banner";
import { useWallet } from "./api";

/** "Nov 24, 2026, 10:00 AM" in the reader's own time zone. */
export const formatReleaseAt = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });

/**
 * The balance with Deposit Funds and Withdraw Winnings. The withdrawable part comes from
 * GET /api/wallet; until it answers (or if it fails) the dialog offers the balance and the
 * server still refuses held money.
 */
export function WalletCard({ user }: { user: User }) {
  const balanceCents = dollarsToCents(user.balance);
  const wallet = useWallet().data;
  const withdrawableCents = wallet ? Math.min(balanceCents, dollarsToCents(wallet.withdrawableBalance)) : balanceCents;
  return (
    <Card data-testid="wallet-card">
      <CardHeader className="pb-3">
        <CardDescription className="flex items-center gap-2">
          <Wallet className="h-4 w-4" aria-hidden /> Wallet Balance
        </CardDescription>
        <CardTitle className="text-3xl font-bold" aria-live="polite">
          ${formatCents(balanceCents)}
        </CardTitle>
        {wallet && <WalletFigures wallet={wallet} />}
      </CardHeader>
      <CardContent className="space-y-3">
        <div className="flex flex-col gap-2 sm:flex-row">
          <DepositDialog />
          <WithdrawDialog balanceCents={balanceCents} withdrawableCents={withdrawableCents} frozen={wallet?.frozen != null} />
        </div>
        <VerifyEmailBanner user={user} />
      </CardContent>
    </Card>
  );
}

/** What can be withdrawn now, what is on hold and why; a frozen account's debt. */
export function WalletFigures({ wallet }: { wallet: WalletSummary }) {
  return (
    <div className="space-y-2 pt-2 text-sm">
      <ul aria-label="Withdrawable balance" className="space-y-1">
        <li className="flex justify-between gap-4">
          <span className="text-muted-foreground">Withdrawable now</span>
          <span className="font-medium">{formatDollars(wallet.withdrawableBalance)}</span>
        </li>
        {wallet.heldBalance > 0 && (
          <li className="flex justify-between gap-4">
            <span className="text-muted-foreground">On hold</span>
            <span className="font-medium">{formatDollars(wallet.heldBalance)}</span>
          </li>
        )}
      </ul>
      {wallet.heldBalance > 0 && <HeldNote wallet={wallet} />}
      {wallet.frozen && (
        <div role="alert" className="flex gap-2 rounded-md border border-destructive/50 bg-destructive/10 p-3">
          <AlertTriangle className="mt-0.5 h-4 w-4 shrink-0 text-destructive" aria-hidden />
          <div>
            <p className="font-medium">Account frozen: {formatDollars(wallet.owed)} owed</p>
            <p className="text-muted-foreground">{wallet.frozen.message}</p>
          </div>
        </div>
      )}
    </div>
  );
}

export function HeldNote({ wallet }: { wallet: WalletSummary }) {
  return (
    <p className="text-xs text-muted-foreground">
      {wallet.heldReason}
      {wallet.nextReleaseAt && ` More becomes withdrawable on ${formatReleaseAt(wallet.nextReleaseAt)}.`}
    </p>
  );
}
