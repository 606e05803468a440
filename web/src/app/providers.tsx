import { useEffect, useState, type ReactNode } from "react";
import { QueryClientProvider } from "@tanstack/react-query";
import { Toaster } from "sonner";
import { Tooltip } from "radix-ui";
import { TOOLTIP_DELAY_MS, TOOLTIP_SKIP_DELAY_MS } from "@common/spec";
import { createQueryClient } from "@/lib/query-client";
import { ThemeProvider, useTheme } from "@/lib/theme";
import { useUser } from "@/lib/session";
import { StepUpDialogHost } from "@/components/step-up-dialog";

function ThemedToaster() {
  const { theme } = useTheme();
  // At most one toast visible at a time.
  return <Toaster theme={theme} position="top-right" visibleToasts={1} richColors closeButton />;
}

/** A theme saved to the account follows the player to every device they sign in on. */
function AccountThemeSync() {
  const { user } = useUser();
  const { setTheme } = useTheme();
  const saved = user?.preferences.theme;
  useEffect(() => {
    if (saved) setTheme(saved);
  }, [user?.id, saved, setTheme]);
  return null;
}

export function Providers({ children }: { children: ReactNode }) {
  const [queryClient] = useState(createQueryClient);
  return (
    <QueryClientProvider client={queryClient}>
      <ThemeProvider>
        <Tooltip.Provider delayDuration={TOOLTIP_DELAY_MS} skipDelayDuration={TOOLTIP_SKIP_DELAY_MS}>
          {children}
          <AccountThemeSync />
          <StepUpDialogHost />
          <ThemedToaster />
        </Tooltip.Provider>
      </ThemeProvider>
    </QueryClientProvider>
  );
}
