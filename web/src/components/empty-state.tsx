import type { LucideIcon } from "lucide-react";
import type { ReactNode } from "react";
import { cn } from "@/lib/cn";

/** A titled message where content would be: nothing yet, not allowed yet, or gone. */
export function EmptyState({
  icon: Icon,
  title,
  description,
  children,
  className,
}: {
  icon?: LucideIcon;
  title: string;
  description?: ReactNode;
  children?: ReactNode;
  className?: string;
}) {
  return (
    <div className={cn("flex flex-col items-center rounded-xl border border-dashed border-border px-6 py-12 text-center", className)}>
      {Icon && <Icon className="h-10 w-10 text-muted-foreground" aria-hidden />}
      <h2 className="mt-3 text-lg font-semibold">{title}</h2>
      {description && <div className="mt-1 max-w-md text-sm text-muted-foreground">{description}</div>}
      {children && <div className="mt-5 flex flex-wrap justify-center gap-2">{children}</div>}
    </div>
  );
}
