// Before and after of an audited change, field by field; changed fields are highlighted.
import { cn } from "@/lib/cn";

const show = (v: unknown) => (v === undefined ? "—" : typeof v === "string" ? v : JSON.stringify(v));
const asRecord = (v: unknown): Record<string, unknown> =>
  v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : v === null || v === undefined ? {} : { value: v };

export function AuditDiff({ before, after }: { before: unknown; after: unknown }) {
  const b = asRecord(before);
  const a = asRecord(after);
  const keys = [...new Set([...Object.keys(b), ...Object.keys(a)])];
  if (keys.length === 0) return <span className="text-muted-foreground">—</span>;
  return (
    <table className="w-full text-xs" aria-label="Changes">
      <thead>
        <tr className="text-left text-muted-foreground">
          <th scope="col" className="pr-2 font-medium">
            Field
          </th>
          <th scope="col" className="pr-2 font-medium">
            Before
          </th>
          <th scope="col" className="font-medium">
            After
          </th>
        </tr>
      </thead>
      <tbody>
        {keys.map((k) => {
          const changed = JSON.stringify(b[k]) !== JSON.stringify(a[k]);
          return (
            <tr key={k} className={cn(changed && "bg-amber-500/10")}>
              <th scope="row" className="pr-2 text-left font-normal">
                {k}
              </th>
              <td className={cn("break-all pr-2", changed && "text-destructive line-through")}>{show(b[k])}</td>
              <td className={cn("break-all", changed && "text-success")}>{show(a[k])}</td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
