// Pieces the fair-play and players screens share: a titled region, and a query's loading,
// failure (its readable message) or content.
import type { ReactNode } from "react";
import { Spinner } from "@/components/ui/spinner";
import { errorMessage } from "@/lib/api";

export function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section aria-label={title} className="space-y-3 rounded-lg border border-border p-4">
      <h2 className="text-lg font-semibold">{title}</h2>
      {children}
    </section>
  );
}

/** Loading, failure (readable) or the content. */
export function Loaded<T>({
  query,
  empty,
  children,
}: {
  query: { data?: T; error: unknown; isPending: boolean };
  empty: (d: T) => boolean;
  children: (d: T) => ReactNode;
}) {
  if (query.isPending) return <Spinner />;
  if (query.data === undefined) return <p className="text-sm text-destructive">{errorMessage(query.error)}</p>;
  if (empty(query.data)) return <p className="text-sm text-muted-foreground">Nothing here.</p>;
  return <>{children(query.data)}</>;
}
