import { lazy, Suspense, useEffect, useState, type ReactNode } from "react";
import { QueryClientProvider } from "@tanstack/react-query";
import { createQueryClient } from "@/lib/query-client";
import { ThemeProvider, useTheme } from "@/lib/theme";
import { useUser } from "@/lib/session";
import { useToastsWanted } from "@/lib/toast";
import { StepUpDialogHost } from "@/components/step-up-dialog";
import { TermsDialogHost } from "@/components/terms-dialog";

// Loaded with the first toast (lib/toast.ts), not with the page.
const Toaster = lazy(() => import("sonner").then((m) => ({ default: m.Toaster })));

function ThemedToaster() {
  const { theme } = useTheme();
  if (!useToastsWanted()) return null;
  // At most one toast visible at a time.
  return (
    <Suspense fallback={null}>
      <Toaster theme={theme} position="top-right" visibleToasts={1} richColors closeButton />
    </Suspense>
  );
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
        {children}
        <AccountThemeSync />
        <StepUpDialogHost />
        <TermsDialogHost />
        <ThemedToaster />
      </ThemeProvider>
    </QueryClientProvider>
  );
}
