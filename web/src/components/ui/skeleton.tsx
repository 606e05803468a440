import { cn } from "@/lib/cn";

/** A placeholder of the loaded content's size while it loads, so nothing below it moves when it arrives. */
export const Skeleton = ({ className }: { className?: string }) => (
  <div aria-hidden className={cn("animate-pulse rounded-xl border border-border bg-card", className)} />
);
