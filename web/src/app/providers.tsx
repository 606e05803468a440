import { useState, type ReactNode } from "react";
import { QueryClientProvider } from "@tanstack/react-query";
import { Toaster } from "sonner";
import { Tooltip } from "radix-ui";
import { createQueryClient } from "@/lib/query-client";
import { ThemeProvider, useTheme } from "@/lib/theme";

function ThemedToaster() {
  const { theme } = useTheme();
  // SPEC.md: at most one toast visible at a time.
  return <Toaster theme={theme} position="top-right" visibleToasts={1} richColors closeButton />;
}

export function Providers({ children }: { children: ReactNode }) {
  const [queryClient] = useState(createQueryClient);
  return (
    <QueryClientProvider client={queryClient}>
      <ThemeProvider>
        <Tooltip.Provider delayDuration={700} skipDelayDuration={300}>
          {children}
          <ThemedToaster />
        </Tooltip.Provider>
      </ThemeProvider>
    </QueryClientProvider>
  );
}
