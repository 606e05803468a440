// A row of filters that wraps on a phone; applying and clearing are explicit so a half-typed
// filter does not fire a query per keystroke.
import type { FormEvent, ReactNode } from "react";
import { Button } from "@/components/ui/button";

export function FiltersBar({
  label,
  children,
  onApply,
  onReset,
}: {
  label: string;
  children: ReactNode;
  onApply: () => void;
  onReset?: () => void;
}) {
  const submit = (e: FormEvent) => {
    e.preventDefault();
    onApply();
  };
  return (
    <form role="search" aria-label={label} onSubmit={submit} className="flex flex-wrap items-end gap-3 rounded-lg border border-border p-3">
      {children}
      <div className="flex gap-2">
        <Button type="submit" size="sm">
          Apply
        </Button>
        {onReset && (
          <Button type="button" size="sm" variant="ghost" onClick={onReset}>
            Clear
          </Button>
        )}
      </div>
    </form>
  );
}
