import { Checkbox as C } from "radix-ui";
import { Check } from "lucide-react";
import type { ComponentProps } from "react";
import { cn } from "@/lib/cn";

export const Checkbox = ({ className, ...p }: ComponentProps<typeof C.Root>) => (
  <C.Root
    className={cn(
      "flex h-4 w-4 shrink-0 items-center justify-center rounded-sm border border-primary cursor-pointer focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring data-[state=checked]:bg-primary-solid data-[state=checked]:text-primary-foreground disabled:opacity-50",
      className,
    )}
    {...p}
  >
    <C.Indicator>
      <Check className="h-3.5 w-3.5" aria-hidden />
    </C.Indicator>
  </C.Root>
);
