// The console's Tax screen (docs/identity-and-tax.md, "Tax"): a year's 1099-MISC data for US
// winners. The summary reconciles the year's prizes with what the export reports; the CSV holds
// TINs, so downloading it asks for a step-up and is audited.
import { useState } from "react";
import { Link } from "react-router";
import { Download } from "lucide-react";
import type { Tax1099Summary } from "@common/api/tax";
import { formatDollars } from "@common/domain/money";
import { Button } from "@/components/ui/button";
import { Field, Select } from "@/components/ui/input";
import { errorMessage } from "@/lib/api";
import { toast } from "@/lib/toast";
import { Loaded, Section } from "../components/section";
import { MoneyCell } from "../components/money-cell";
import { saveFile } from "../payouts/api";
import { download1099Misc, useTax1099Summary } from "./api";

/** Years to pick from: this one back to 2020 (the export takes any from 2000). */
const yearsFrom = (now: number) => Array.from({ length: now - 2019 }, (_, i) => now - i);

function Summary({ s }: { s: Tax1099Summary }) {
  const rows: [string, React.ReactNode][] = [
    ["Prizes paid in the year (everyone)", <MoneyCell usd={s.totalPrizes} />],
    ["Reported in the export (box 3 total)", <MoneyCell usd={s.reportedTotal} />],
    [`US payees under the ${formatDollars(s.threshold)} threshold`, <MoneyCell usd={s.belowThreshold} />],
    ["Non-US payees", <MoneyCell usd={s.notUs} />],
    ["Payees reported", s.payees],
    ["Reported payees without a W-9 (empty TIN)", s.payeesWithoutForm],
  ];
  return (
    <table className="w-full max-w-xl text-sm">
      <caption className="sr-only">1099-MISC summary for {s.year}</caption>
      <tbody>
        {rows.map(([label, value]) => (
          <tr key={label} className="border-b border-border last:border-0">
            <th scope="row" className="py-1.5 text-left font-normal">
              {label}
            </th>
            <td className="py-1.5 text-right">{value}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** Payees the file lists without a TIN: ask them to file a W-9 (profile, Tax information) before filing the return. */
function WithoutForm({ s }: { s: Tax1099Summary }) {
  return (
    <div className="space-y-2">
      <h3 className="text-sm font-semibold">Without a W-9 (backup withholding applies)</h3>
      <ul className="space-y-1 text-sm" aria-label="Payees without a W-9">
        {s.withoutForm.map((p) => (
          <li key={p.userId} className="flex max-w-xl justify-between gap-4">
            <Link to={`/admin/players/${p.userId}`} className="underline">
              {p.username}
            </Link>
            <MoneyCell usd={p.prizes} />
          </li>
        ))}
      </ul>
    </div>
  );
}

export default function TaxPage() {
  const thisYear = new Date().getUTCFullYear();
  const [year, setYear] = useState(thisYear - 1);
  const summary = useTax1099Summary(year);
  const [downloading, setDownloading] = useState(false);

  const download = () => {
    setDownloading(true);
    download1099Misc(year)
      .then(saveFile, (e: unknown) => toast.error("Not downloaded", errorMessage(e)))
      .finally(() => setDownloading(false));
  };

  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-bold">Tax</h1>
        <p className="text-sm text-muted-foreground">
          1099-MISC data for US players whose prizes in a calendar year (UTC) reached the reporting threshold: payer and payee records with
          box 3, other income. Payees without a W-9 are listed with an empty TIN and flagged.
        </p>
      </div>
      <div className="flex flex-wrap items-end gap-4">
        <div className="w-40">
          <Field id="tax-year" label="Tax year">
            <Select id="tax-year" value={year} onChange={(e) => setYear(Number(e.target.value))}>
              {yearsFrom(thisYear).map((y) => (
                <option key={y} value={y}>
                  {y}
                </option>
              ))}
            </Select>
          </Field>
        </div>
        <Button onClick={download} disabled={downloading}>
          <Download className="mr-2 h-4 w-4" aria-hidden />
          {downloading ? "Downloading..." : "Download CSV"}
        </Button>
      </div>
      <Section title={`1099-MISC ${year}`}>
        <Loaded query={summary} empty={() => false}>
          {(s) => (
            <>
              <Summary s={s} />
              <p className="text-xs text-muted-foreground">
                The prizes paid equal the reported total plus the two amounts left out. The file's total row equals the reported total.
              </p>
              {s.withoutForm.length > 0 && <WithoutForm s={s} />}
            </>
          )}
        </Loaded>
      </Section>
    </div>
  );
}
