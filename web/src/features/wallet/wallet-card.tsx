import { Wallet } from "lucide-react";
import type { User } from "@common/api/types";
import { formatCents, dollarsToCents } from "@common/domain/money";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { DepositDialog, WithdrawDialog } from "./amount-dialogs";
import { VerifyEmailBanner } from "./verify-email-banner";

/** The balance with Deposit Funds and Withdraw Winnings (disabled with nothing to withdraw). */
export function WalletCard({ user }: { user: User }) {
  const balanceCents = dollarsToCents(user.balance);
  return (
    <Card>
      <CardHeader className="pb-3">
        <CardDescription className="flex items-center gap-2">
          <Wallet className="h-4 w-4" aria-hidden /> Wallet Balance
        </CardDescription>
        <CardTitle className="text-3xl font-bold" aria-live="polite">
          ${formatCents(balanceCents)}
        </CardTitle>
      </CardHeader>
      <CardContent className="space-y-3">
        <div className="flex flex-col gap-2 sm:flex-row">
          <DepositDialog />
          <WithdrawDialog balanceCents={balanceCents} />
        </div>
        <VerifyEmailBanner user={user} />
      </CardContent>
    </Card>
  );
}
