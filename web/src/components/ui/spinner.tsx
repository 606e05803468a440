import { Loader2 } from "lucide-react";
import { cn } from "@/lib/cn";

export const Spinner = ({ className, label = "Loading" }: { className?: string; label?: string }) => (
  <Loader2 role="status" aria-label={label} className={cn("h-8 w-8 animate-spin text-primary", className)} />
);

/** The centred spinner shown while a page's data loads. */
export const PageSpinner = () => (
  <div className="flex min-h-[60vh] items-center justify-center">
    <Spinner />
  </div>
);
