import { Navigate, Outlet } from "react-router";
import { useUser } from "@/lib/session";
import { PageSpinner } from "@/components/ui/spinner";

/** Spinner while the user loads, the page when signed in, otherwise /auth. */
export function ProtectedRoute() {
  const { user, isLoading } = useUser();
  if (isLoading) return <PageSpinner />;
  if (!user) return <Navigate to="/auth" replace />;
  return <Outlet />;
}
