// The console's first screen: the business today and over 30 days, what the house owes, whether
// the books balance (docs/operating.md, "Overview" and "Reconciliation"), and the categories whose
// fresh questions run low (docs/questions.md).
import { Link } from "react-router";
import type { AdminOverview, OverviewFigures } from "@common/api/console";
import { formatDollars } from "@common/domain/money";
import { PageSpinner } from "@/components/ui/spinner";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { errorMessage } from "@/lib/api";
import { cn } from "@/lib/cn";
import { DataTable } from "../components/data-table";
import { MoneyCell } from "../components/money-cell";
import { SUPPLY_TEXT } from "../questions/labels";
import { useAdminOverview } from "./api";
import { VolumeChart } from "./volume-chart";

const FIGURES: { key: keyof OverviewFigures; label: string }[] = [
  { key: "deposits", label: "Deposits" },
  { key: "withdrawals", label: "Withdrawals" },
  { key: "entryFees", label: "Entry fees" },
  { key: "entryRefunds", label: "Entry refunds" },
  { key: "prizes", label: "Prizes paid" },
  { key: "houseShare", label: "House's share (rake)" },
  { key: "houseFundedPrizes", label: "House-funded prizes" },
  { key: "cardRefunds", label: "Card refunds" },
  { key: "chargebacks", label: "Chargebacks" },
  { key: "chargebackReversals", label: "Chargeback reversals" },
  { key: "adjustments", label: "Adjustments (net)" },
];

function Figures({ o }: { o: AdminOverview }) {
  return (
    <table className="w-full text-sm">
      <caption className="sr-only">Money moved</caption>
      <thead>
        <tr className="border-b border-border text-left text-xs uppercase text-muted-foreground">
          <th scope="col" className="py-2 font-medium">
            Figure
          </th>
          <th scope="col" className="py-2 text-right font-medium">
            Today
          </th>
          <th scope="col" className="py-2 text-right font-medium">
            30 days
          </th>
        </tr>
      </thead>
      <tbody>
        {FIGURES.map((f) => (
          <tr key={f.key} className="border-b border-border last:border-0">
            <th scope="row" className="py-1.5 text-left font-normal">
              {f.label}
            </th>
            <td className="py-1.5 text-right">
              <MoneyCell usd={o.today[f.key]} />
            </td>
            <td className="py-1.5 text-right">
              <MoneyCell usd={o.last30Days[f.key]} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function Reconciliation({ r }: { r: AdminOverview["reconciliation"] }) {
  const { identity } = r;
  return (
    <section
      role={r.ok ? "status" : "alert"}
      aria-label="Reconciliation"
      className={cn(
        "rounded-lg border p-4 text-sm",
        r.ok ? "border-success/50 bg-success/10" : "border-destructive bg-destructive/10 text-destructive",
      )}
    >
      <p className="font-semibold">{r.ok ? "Books balance" : "Books do not balance"}</p>
      <p className="mt-1">
        Money in {formatDollars(identity.moneyIn)} = money out {formatDollars(identity.moneyOut)} + balances{" "}
        {formatDollars(identity.balances)}
        {identity.holds ? " ✓" : `; off by ${formatDollars(identity.difference)}`}
      </p>
      {r.mismatches.length > 0 && (
        <div className="mt-3 text-foreground">
          <p className="mb-2 font-medium text-destructive">Accounts whose balance differs from their ledger:</p>
          <DataTable
            caption="Accounts out of balance"
            columns={[
              { key: "user", header: "Player", cell: (m) => `${m.username}` },
              { key: "balance", header: "Balance", numeric: true, cell: (m) => <MoneyCell usd={m.balance} /> },
              { key: "ledger", header: "Ledger", numeric: true, cell: (m) => <MoneyCell usd={m.ledger} /> },
              { key: "difference", header: "Difference", numeric: true, cell: (m) => <MoneyCell usd={m.difference} /> },
            ]}
            rows={r.mismatches}
            rowKey={(m) => m.userId}
            empty={null}
          />
        </div>
      )}
    </section>
  );
}

/** Prize play burns its questions: a category short of fresh ones soon has no prize shows. */
function LowQuestionSupply({ low }: { low: AdminOverview["lowQuestionSupply"] }) {
  return (
    <section
      role="alert"
      aria-label={SUPPLY_TEXT.overviewTitle}
      className="rounded-lg border border-destructive bg-destructive/10 p-4 text-sm"
    >
      <p className="font-semibold text-destructive">{SUPPLY_TEXT.overviewTitle}</p>
      <p className="mt-1">{SUPPLY_TEXT.overviewIntro}</p>
      <ul className="mt-2 list-disc space-y-1 pl-5">
        {low.map((c) => (
          <li key={c.categoryId}>
            {SUPPLY_TEXT.overviewItem(c.name, c.fresh, c.daysLeft)}
            {c.refusedSlot && <span className="font-medium text-destructive">{`; ${SUPPLY_TEXT.overviewRefused}`}</span>}
          </li>
        ))}
      </ul>
      <Link to="/admin/questions" className="mt-2 inline-block font-medium text-primary underline-offset-4 hover:underline">
        {SUPPLY_TEXT.overviewLink}
      </Link>
    </section>
  );
}

export default function OverviewPage() {
  const { data, error, isLoading } = useAdminOverview();
  if (isLoading) return <PageSpinner />;
  if (!data)
    return (
      <p role="alert" className="text-sm text-destructive">
        {errorMessage(error)}
      </p>
    );
  return (
    <div className="flex flex-col gap-4">
      <h1 className="text-2xl font-bold">Overview</h1>
      <Reconciliation r={data.reconciliation} />
      {data.lowQuestionSupply.length > 0 && <LowQuestionSupply low={data.lowQuestionSupply} />}
      <div className="grid gap-4 sm:grid-cols-2">
        <Card>
          <CardHeader>
            <CardTitle className="text-sm font-medium text-muted-foreground">Player balances (what the house owes)</CardTitle>
          </CardHeader>
          <CardContent className="text-2xl font-bold">
            <MoneyCell usd={data.playerBalances} />
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle className="text-sm font-medium text-muted-foreground">Pending payouts</CardTitle>
          </CardHeader>
          <CardContent>
            <p className="text-2xl font-bold">
              <MoneyCell usd={data.pendingPayouts.amount} />
            </p>
            <p className="text-sm text-muted-foreground">
              {data.pendingPayouts.count} pending payout{data.pendingPayouts.count === 1 ? "" : "s"}
            </p>
          </CardContent>
        </Card>
      </div>
      <Card>
        <CardHeader>
          <CardTitle>Daily volume</CardTitle>
        </CardHeader>
        <CardContent>
          <VolumeChart daily={data.daily} />
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>Money moved</CardTitle>
        </CardHeader>
        <CardContent className="overflow-x-auto">
          <Figures o={data} />
        </CardContent>
      </Card>
    </div>
  );
}
