import { RadioGroup as R } from "radix-ui";
import type { ComponentProps } from "react";
import { cn } from "@/lib/cn";

/** Arrow keys move between options; each option needs a <Label htmlFor> beside it. */
export const RadioGroup = ({ className, ...p }: ComponentProps<typeof R.Root>) => <R.Root className={cn("grid gap-3", className)} {...p} />;

export const RadioGroupItem = ({ className, ...p }: ComponentProps<typeof R.Item>) => (
  <R.Item
    className={cn(
      "flex h-4 w-4 shrink-0 items-center justify-center rounded-full border border-primary cursor-pointer focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring disabled:opacity-50",
      className,
    )}
    {...p}
  >
    <R.Indicator className="h-2 w-2 rounded-full bg-primary" />
  </R.Item>
);
