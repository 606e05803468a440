import { Tooltip as T } from "radix-ui";
import type { ComponentProps, ReactNode } from "react";
import { TOOLTIP_DELAY_MS, TOOLTIP_SKIP_DELAY_MS } from "@common/spec";
import { cn } from "@/lib/cn";

export function TooltipContent({ className, children, sideOffset = 6, ...props }: ComponentProps<typeof T.Content>) {
  return (
    <T.Portal>
      <T.Content
        sideOffset={sideOffset}
        className={cn(
          "z-50 max-w-xs rounded-md border border-border bg-card px-3 py-1.5 text-xs text-card-foreground shadow-md",
          className,
        )}
        {...props}
      >
        {children}
        <T.Arrow className="fill-card" />
      </T.Content>
    </T.Portal>
  );
}

/**
 * A hover and focus hint. The trigger must be focusable; a disabled button is not, so wrap it in
 * an element with tabIndex={0}. Each hint carries its own provider (the open and skip delays), so
 * the tooltip library loads with the first page that shows one, not with every page.
 */
export function Tooltip({
  content,
  children,
  side,
}: {
  content: ReactNode;
  children: ReactNode;
  side?: ComponentProps<typeof T.Content>["side"];
}) {
  return (
    <T.Provider delayDuration={TOOLTIP_DELAY_MS} skipDelayDuration={TOOLTIP_SKIP_DELAY_MS}>
      <T.Root>
        <T.Trigger asChild>{children}</T.Trigger>
        <TooltipContent side={side}>{content}</TooltipContent>
      </T.Root>
    </T.Provider>
  );
}
