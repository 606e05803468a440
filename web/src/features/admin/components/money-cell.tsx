// An amount as the API sends it (USD), to the cent, in tabular digits; negative amounts in red.
import { formatDollars } from "@common/domain/money";
import { cn } from "@/lib/cn";

export function MoneyCell({ usd, className }: { usd: number; className?: string }) {
  return <span className={cn("tabular-nums", usd < 0 && "text-destructive", className)}>{formatDollars(usd)}</span>;
}
