// Renders pages inside the app's providers and a memory router, the way the browser would.
import { StrictMode, type ReactNode } from "react";
import { render } from "@testing-library/react";
import { QueryClientProvider } from "@tanstack/react-query";
import { createMemoryRouter, RouterProvider, useLocation, type RouteObject } from "react-router";
import { Toaster, toast } from "sonner";
import type { User } from "@common/api/types";
import { USER_KEY } from "@/lib/session";
import { createQueryClient } from "@/lib/query-client";
import { ThemeProvider } from "@/lib/theme";
import { StepUpDialogHost } from "@/components/step-up-dialog";
import { TermsDialogHost } from "@/components/terms-dialog";

export const testUser = (overrides: Partial<User> = {}): User => ({
  id: 7,
  username: "quiz_master",
  email: "quiz@example.com",
  avatar: null,
  bio: null,
  location: null,
  country: null,
  socialLinks: {},
  preferences: { theme: "dark", showLevel: true, showWins: true, showSocial: true },
  balance: 50,
  level: 2,
  experiencePoints: 1250,
  tournamentsPlayed: 4,
  tournamentsWon: 1,
  role: "player",
  twoFactorEnabled: false,
  emailVerified: true,
  createdAt: "2026-01-05T10:00:00.000Z",
  ...overrides,
});

function Where() {
  const l = useLocation();
  return <p data-testid="location">{l.pathname + l.search}</p>;
}

/**
 * `routes` are mounted as given, plus a catch-all that prints where a redirect landed.
 * The cached user is seeded (null = signed out). StrictMode is on, as in main.tsx; the step-up
 * and terms dialogs are mounted as app/providers.tsx mounts them.
 */
export function renderPage(routes: RouteObject[], { at, user = testUser() }: { at: string; user?: User | null }) {
  // Sonner's store outlives a test; toasts of an earlier test must not reappear in this one.
  toast.dismiss();
  const queryClient = createQueryClient();
  queryClient.setQueryData(USER_KEY, user);
  const router = createMemoryRouter([...routes, { path: "*", element: <Where /> }], { initialEntries: [at] });
  const wrap = (children: ReactNode) => (
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <ThemeProvider>
          {children}
          <StepUpDialogHost />
          <TermsDialogHost />
          <Toaster />
        </ThemeProvider>
      </QueryClientProvider>
    </StrictMode>
  );
  const result = render(wrap(<RouterProvider router={router} />));
  return { ...result, router, queryClient, location: () => router.state.location.pathname + router.state.location.search };
}
