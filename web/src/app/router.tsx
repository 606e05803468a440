// Every route of SPEC.md. Pages load lazily so the home page's first download stays small.
import { lazy } from "react";
import { createBrowserRouter } from "react-router";
import { AppLayout } from "@/components/layout/app-layout";
import { ProtectedRoute } from "@/components/layout/protected-route";

const page = (load: () => Promise<{ default: React.ComponentType }>) => {
  const Component = lazy(load);
  return { element: <Component /> };
};

export const router = createBrowserRouter([
  {
    element: <AppLayout />,
    children: [
      // Public
      { path: "/auth", ...page(() => import("@/features/auth/auth-page")) },
      { path: "/players/:username", ...page(() => import("@/features/players/player-profile-page")) },
      // Behind the authentication wrapper
      {
        element: <ProtectedRoute />,
        children: [
          { path: "/dashboard", ...page(() => import("@/features/dashboard/dashboard-page")) },
          { path: "/profile", ...page(() => import("@/features/profile/profile-page")) },
          { path: "/checkout/:amount?", ...page(() => import("@/features/wallet/checkout-page")) },
          { path: "/payment-success", ...page(() => import("@/features/wallet/payment-success-page")) },
          { path: "/withdraw-confirm/:amount?", ...page(() => import("@/features/wallet/withdraw-confirm-page")) },
        ],
      },
      { path: "*", ...page(() => import("@/pages/not-found")) },
    ],
  },
]);
