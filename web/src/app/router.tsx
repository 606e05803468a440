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
      // Behind the authentication wrapper
      {
        element: <ProtectedRoute />,
        children: [],
      },
      { path: "*", ...page(() => import("@/pages/not-found")) },
    ],
  },
]);
