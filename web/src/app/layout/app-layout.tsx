import { lazy, Suspense } from "react";
import { Outlet } from "react-router";
import { PageSpinner } from "@/components/ui/spinner";
import { useUser } from "@/lib/session";
import { Navbar } from "./navbar";
import { Footer } from "./footer";

// The real-time notification connection exists only for signed-in users; visitors never load it.
const NotificationCenter = lazy(() => import("@/features/notifications/components/notification-center"));

export function AppLayout() {
  const { user } = useUser();
  return (
    <div className="flex min-h-screen flex-col">
      <Navbar />
      {/* At least a screen tall (less the bar), so the footer starts below the fold and does not
          jump down when a page's content arrives after its spinner. */}
      <main className="min-h-[calc(100vh-4rem)] flex-1">
        <Suspense fallback={<PageSpinner />}>
          <Outlet />
        </Suspense>
      </main>
      <Footer />
      {user && (
        <Suspense fallback={null}>
          <NotificationCenter user={user} />
        </Suspense>
      )}
    </div>
  );
}
