import { Accordion as A } from "radix-ui";
import { ChevronDown } from "lucide-react";
import type { ComponentProps } from "react";
import { cn } from "@/lib/cn";

/** type="single" collapsible: one section open at a time, arrow keys move between headers. */
export const Accordion = A.Root;

export const AccordionItem = ({ className, ...p }: ComponentProps<typeof A.Item>) => (
  <A.Item className={cn("border-b border-border", className)} {...p} />
);

export function AccordionTrigger({ className, children, ...p }: ComponentProps<typeof A.Trigger>) {
  return (
    <A.Header className="flex">
      <A.Trigger
        className={cn(
          "group flex flex-1 cursor-pointer items-center justify-between gap-4 py-4 text-left font-medium hover:underline [&[data-state=open]>svg]:rotate-180",
          className,
        )}
        {...p}
      >
        {children}
        <ChevronDown className="h-4 w-4 shrink-0 text-muted-foreground transition-transform" aria-hidden />
      </A.Trigger>
    </A.Header>
  );
}

export const AccordionContent = ({ className, children, ...p }: ComponentProps<typeof A.Content>) => (
  <A.Content className={cn("pb-4 text-sm text-muted-foreground", className)} {...p}>
    {children}
  </A.Content>
);
