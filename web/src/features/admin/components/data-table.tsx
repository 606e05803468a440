// The console's table: a real table from the md breakpoint up, a list of cards below it, so every
// column stays readable at 375 px without scrolling sideways.
import { Fragment, type ReactNode } from "react";
import { cn } from "@/lib/cn";

export interface Column<T> {
  /** Stable key; also the card's label when `header` is not text. */
  key: string;
  header: string;
  cell: (row: T) => ReactNode;
  /** Right-aligned (amounts, counts). */
  numeric?: boolean;
}

export function DataTable<T>({
  caption,
  columns,
  rows,
  rowKey,
  empty,
  rowClassName,
  rowNote,
}: {
  /** Read by screen readers; names the table. */
  caption: string;
  columns: Column<T>[];
  rows: T[];
  rowKey: (row: T) => string | number;
  /** Shown instead of the table when there are no rows. */
  empty: ReactNode;
  rowClassName?: (row: T) => string | undefined;
  /** A line about the row as a whole (a warning): its own full-width row under it, or the card's last line. */
  rowNote?: (row: T) => ReactNode;
}) {
  if (rows.length === 0)
    return <div className="rounded-lg border border-dashed border-border p-6 text-center text-sm text-muted-foreground">{empty}</div>;
  return (
    <>
      <table className="hidden w-full text-sm md:table">
        <caption className="sr-only">{caption}</caption>
        <thead>
          <tr className="border-b border-border text-left text-xs uppercase text-muted-foreground">
            {columns.map((c) => (
              <th key={c.key} scope="col" className={cn("px-2 py-2 font-medium", c.numeric && "text-right")}>
                {c.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => {
            const note = rowNote?.(r);
            return (
              <Fragment key={rowKey(r)}>
                <tr className={cn("border-b border-border align-top last:border-0", note && "border-b-0", rowClassName?.(r))}>
                  {columns.map((c) => (
                    <td key={c.key} className={cn("px-2 py-2", c.numeric && "text-right tabular-nums")}>
                      {c.cell(r)}
                    </td>
                  ))}
                </tr>
                {note && (
                  <tr className={cn("border-b border-border last:border-0", rowClassName?.(r))}>
                    <td colSpan={columns.length} className="px-2 pb-2">
                      {note}
                    </td>
                  </tr>
                )}
              </Fragment>
            );
          })}
        </tbody>
      </table>
      <ul className="flex flex-col gap-2 md:hidden" aria-label={caption}>
        {rows.map((r) => {
          const note = rowNote?.(r);
          return (
            <li key={rowKey(r)} className={cn("rounded-lg border border-border p-3", rowClassName?.(r))}>
              <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
                {columns.map((c) => (
                  <div key={c.key} className="contents">
                    <dt className="text-muted-foreground">{c.header}</dt>
                    <dd className={cn("min-w-0 break-words", c.numeric && "tabular-nums")}>{c.cell(r)}</dd>
                  </div>
                ))}
              </dl>
              {note && <div className="mt-2 text-sm">{note}</div>}
            </li>
          );
        })}
      </ul>
    </>
  );
}
