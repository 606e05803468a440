// The question supply per category, the first thing the Questions screen shows: prize play burns
// its questions, so how many fresh ones are left (and for how many days of the schedule) is the
// operator's first constraint (docs/questions.md).
import type { CategorySupply } from "@common/api/admin";
import { SCHEDULED_SHOWS_PER_DAY } from "@common/domain/question-supply";
import { Badge } from "@/components/ui/badge";
import { Spinner } from "@/components/ui/spinner";
import { errorMessage } from "@/lib/api";
import { DataTable, type Column } from "../components/data-table";
import { useQuestionSupply } from "./api";
import { daysLeftLabel, SUPPLY_TEXT } from "./labels";

export function SupplyPanel() {
  const supply = useQuestionSupply();
  if (supply.isLoading) return <Spinner />;
  if (!supply.data)
    return (
      <p role="alert" className="text-sm text-destructive">
        {errorMessage(supply.error)}
      </p>
    );
  const { categories, burnWindowDays, demoReuse } = supply.data;
  const columns: Column<CategorySupply>[] = [
    {
      key: "category",
      header: SUPPLY_TEXT.columns.category,
      cell: (c) => (
        <span className="flex flex-wrap items-center gap-2">
          <span className="font-medium">{c.name}</span>
          {c.low && <Badge variant="destructive">{SUPPLY_TEXT.low}</Badge>}
        </span>
      ),
    },
    {
      key: "fresh",
      header: SUPPLY_TEXT.columns.fresh,
      numeric: true,
      cell: (c) => (
        <>
          <span className="font-semibold">{c.fresh}</span>
          <span className="block text-xs text-muted-foreground">{SUPPLY_TEXT.split(c.freshByDifficulty)}</span>
        </>
      ),
    },
    { key: "held", header: SUPPLY_TEXT.columns.held, numeric: true, cell: (c) => c.held },
    { key: "burned", header: SUPPLY_TEXT.columns.burned(burnWindowDays), numeric: true, cell: (c) => c.burnedRecently },
    { key: "practice", header: SUPPLY_TEXT.columns.practicePool, numeric: true, cell: (c) => c.practicePool },
    { key: "days", header: SUPPLY_TEXT.columns.daysLeft, numeric: true, cell: (c) => daysLeftLabel(c.daysLeft) },
  ];
  return (
    <div className="space-y-4">
      {demoReuse && (
        <p role="note" className="rounded-lg border border-border bg-muted p-3 text-sm">
          {SUPPLY_TEXT.demoReuse}
        </p>
      )}
      <p className="text-sm text-muted-foreground">{SUPPLY_TEXT.intro(SCHEDULED_SHOWS_PER_DAY)}</p>
      <DataTable
        caption={SUPPLY_TEXT.caption}
        columns={columns}
        rows={categories}
        rowKey={(c) => c.categoryId}
        empty={SUPPLY_TEXT.empty}
        rowClassName={(c) => (c.low ? "bg-destructive/10" : undefined)}
        rowNote={(c) =>
          c.shortfall && (
            <p className="font-medium text-destructive">
              {SUPPLY_TEXT.shortfall(c.shortfall.slotStart, c.shortfall.available, c.shortfall.needed)}
            </p>
          )
        }
      />
    </div>
  );
}
