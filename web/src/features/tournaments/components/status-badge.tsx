import type { TournamentStatus } from "@common/api/types";
import { Badge } from "@/components/ui/badge";
import { cn } from "@/lib/cn";
import { STATUS_LABEL } from "../display";

const VARIANT = { live: "destructive", upcoming: "secondary", completed: "outline", cancelled: "outline" } as const;

export function StatusBadge({ status, className }: { status: TournamentStatus; className?: string }) {
  return (
    <Badge
      variant={VARIANT[status]}
      className={cn(status === "live" && "gap-1.5", status === "cancelled" && "text-muted-foreground", className)}
    >
      {status === "live" && <span className="h-1.5 w-1.5 animate-pulse rounded-full bg-white" aria-hidden />}
      {STATUS_LABEL[status]}
    </Badge>
  );
}
