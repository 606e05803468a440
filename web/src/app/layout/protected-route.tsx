import { Navigate, Outlet, useLocation } from "react-router";
import { useUser } from "@/lib/session";
import { PageSpinner } from "@/components/ui/spinner";
import { signInFor } from "@/lib/return-to";

/** Spinner while the user loads, the page when signed in, otherwise /auth, which comes back here after signing in. */
export function ProtectedRoute() {
  const { user, isLoading } = useUser();
  const here = useLocation();
  if (isLoading) return <PageSpinner />;
  if (!user) return <Navigate to={signInFor(here.pathname + here.search + here.hash)} replace />;
  return <Outlet />;
}
