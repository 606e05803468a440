import { CreditCard, Landmark } from "lucide-react";
import type { Transaction } from "@common/api/types";
import { formatCents, type Cents, dollarsToCents } from "@common/domain/money";
import { MONEY } from "@common/messages";
import { Badge } from "@/components/ui/badge";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Spinner } from "@/components/ui/spinner";
import { useTransactions } from "@/features/wallet/api";
import { cn } from "@/lib/cn";
import { TRANSACTION_TYPE_LABEL } from "@/features/wallet/transaction-labels";

const signed = (cents: Cents) => (cents > 0 ? `+$${formatCents(cents)}` : cents < 0 ? `-$${formatCents(-cents)}` : "$0.00");

/** A prize under fair-play review, or one that went to the house after it. */
const STATUS_LABEL: Record<Transaction["status"], string> = {
  completed: "completed",
  pending: "pending",
  failed: "failed",
  held: "Under review",
  forfeited: "Forfeited",
  refunded: "Refunded to card",
};

/** Totals in cents; failed, forfeited and refunded rows moved no money and count nowhere; held prizes are not in the balance yet. */
export function summarize(rows: Transaction[]) {
  const sum = (pred: (t: Transaction) => boolean) => rows.filter(pred).reduce((acc, t) => acc + Math.abs(dollarsToCents(t.amount)), 0);
  return {
    deposited: sum((t) => t.type === "deposit" && t.status === "completed"),
    withdrawn: sum((t) => t.type === "withdrawal" && t.status === "completed"),
    entryFees: sum((t) => t.type === "tournament_entry" && t.status !== "failed"),
    prizes: sum((t) => t.type === "prize" && t.status === "completed"),
    refunds: sum((t) => t.type === "refund" && t.status === "completed"),
    pending: sum((t) => t.status === "pending"),
    underReview: sum((t) => t.status === "held"),
  };
}

export function TransactionsTab() {
  const { data, isLoading, isError } = useTransactions();
  return (
    <div className="grid gap-6 lg:grid-cols-3">
      <Card className="lg:col-span-2">
        <CardHeader>
          <CardTitle>Transaction History</CardTitle>
          <CardDescription>Every deposit, withdrawal, entry fee, prize and refund on your balance.</CardDescription>
        </CardHeader>
        <CardContent>
          {isLoading ? (
            <Spinner label="Loading transactions" />
          ) : isError || !data ? (
            <p role="alert" className="text-sm text-destructive">
              Your transactions could not be loaded. Please try again later.
            </p>
          ) : data.length === 0 ? (
            <p className="py-6 text-center text-muted-foreground">No transactions yet. Deposit funds to enter paid tournaments.</p>
          ) : (
            <ul className="divide-y divide-border" aria-label="Transactions">
              {data.map((t) => {
                const cents = dollarsToCents(t.amount);
                return (
                  <li key={t.id} className="flex items-start justify-between gap-3 py-3">
                    <div className="min-w-0">
                      <p className="font-medium">{TRANSACTION_TYPE_LABEL[t.type]}</p>
                      {t.description && <p className="text-sm text-muted-foreground break-words">{t.description}</p>}
                      <p className="text-xs text-muted-foreground">{new Date(t.createdAt).toLocaleString()}</p>
                    </div>
                    <div className="flex shrink-0 flex-col items-end gap-1">
                      <span
                        className={cn(
                          "font-semibold tabular-nums",
                          t.status === "failed" || t.status === "forfeited" || t.status === "refunded"
                            ? "text-muted-foreground line-through"
                            : t.status === "held"
                              ? "text-muted-foreground"
                              : cents >= 0
                                ? "text-success"
                                : "text-foreground",
                        )}
                      >
                        {signed(cents)}
                      </span>
                      <Badge
                        variant={
                          t.status === "completed"
                            ? "success"
                            : t.status === "failed" || t.status === "forfeited"
                              ? "destructive"
                              : "secondary"
                        }
                        className={t.status === "held" || t.status === "forfeited" || t.status === "refunded" ? undefined : "capitalize"}
                      >
                        {STATUS_LABEL[t.status]}
                      </Badge>
                    </div>
                  </li>
                );
              })}
            </ul>
          )}
        </CardContent>
      </Card>
      <div className="space-y-6">
        <Card>
          <CardHeader>
            <CardTitle>Summary</CardTitle>
          </CardHeader>
          <CardContent>{data ? <Summary rows={data} /> : <p className="text-sm text-muted-foreground">—</p>}</CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle>Payment Methods</CardTitle>
          </CardHeader>
          <CardContent className="space-y-3 text-sm">
            <p className="flex gap-2">
              <CreditCard className="mt-0.5 h-4 w-4 shrink-0 text-muted-foreground" aria-hidden />
              <span>Cards are entered at checkout; nothing is stored.</span>
            </p>
            <p className="flex gap-2">
              <Landmark className="mt-0.5 h-4 w-4 shrink-0 text-muted-foreground" aria-hidden />
              <span>Withdrawals go to the bank account you enter for each withdrawal. {MONEY.bankAccountKept}</span>
            </p>
          </CardContent>
        </Card>
      </div>
    </div>
  );
}

function Summary({ rows }: { rows: Transaction[] }) {
  const s = summarize(rows);
  const lines: [string, Cents][] = [
    ["Total Deposited", s.deposited],
    ["Total Withdrawn", s.withdrawn],
    ["Entry Fees", s.entryFees],
    ["Prizes Won", s.prizes],
    ["Refunds", s.refunds],
    ["Pending", s.pending],
    ["Under Review", s.underReview],
  ];
  return (
    <dl className="space-y-2 text-sm">
      {lines.map(([label, cents]) => (
        <div key={label} className="flex justify-between">
          <dt className="text-muted-foreground">{label}</dt>
          <dd className="font-medium tabular-nums">${formatCents(cents)}</dd>
        </div>
      ))}
    </dl>
  );
}
